// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyConsumer} from "@pythnetwork/entropy-sdk-solidity/IEntropyConsumer.sol";

/// @notice An Entropy provider that charges a fee per request and keeps whatever it is paid, as the
/// real one does, so a test can see that DiceHall pays exactly the fee and credits the roller's surplus.
contract PricedEntropyMock {
    /// @notice A request paid less than the fee.
    error FeeNotPaid(uint256 sent, uint256 fee);
    /// @notice No open request has this sequence number.
    error UnknownRequest(uint64 sequenceNumber);

    address public defaultProvider;
    uint128 public fee;
    uint64 public lastSequence;
    uint256 public lastPaid;
    mapping(uint64 sequenceNumber => address requester) public requesters;

    constructor(address provider, uint128 fee_) {
        defaultProvider = provider;
        fee = fee_;
    }

    function setFee(uint128 fee_) external {
        fee = fee_;
    }

    function getDefaultProvider() external view returns (address) {
        return defaultProvider;
    }

    function getFeeV2(address, uint32) external view returns (uint128) {
        return fee;
    }

    function requestV2(address, bytes32, uint32) external payable returns (uint64 sequenceNumber) {
        if (msg.value < fee) revert FeeNotPaid(msg.value, fee);
        lastPaid = msg.value;
        sequenceNumber = ++lastSequence;
        requesters[sequenceNumber] = msg.sender;
    }

    /// @notice Answers a request by calling its requester back, as Entropy's keeper would.
    function reveal(uint64 sequenceNumber, bytes32 randomNumber) external {
        address requester = requesters[sequenceNumber];
        if (requester == address(0)) revert UnknownRequest(sequenceNumber);
        delete requesters[sequenceNumber];
        IEntropyConsumer(requester)._entropyCallback(sequenceNumber, defaultProvider, randomNumber);
    }
}

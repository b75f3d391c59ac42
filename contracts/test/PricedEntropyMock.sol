// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyConsumer} from "@pythnetwork/entropy-sdk-solidity/IEntropyConsumer.sol";
import {KnownProviders} from "./KnownProviders.sol";

/// @notice An Entropy provider that charges a fee per request and keeps whatever it is paid, as the
/// real one does, so a test can see that DiceHall pays exactly the fee and credits the roller's surplus.
/// It can also refuse, as a provider out of randomness does, or fail without a reason.
contract PricedEntropyMock is KnownProviders {
    /// @notice What the next requests do.
    enum Mode {
        Answer, // take requests (the test reveals them)
        RefuseRequest, // requestV2 reverts with a reason
        RefuseFee, // getFeeV2 reverts with a reason
        FailBare // requestV2 reverts without a reason (as running out of gas does)
    }

    /// @notice The provider cannot take requests (as Entropy's OutOfRandomness).
    error OutOfRandomness();
    /// @notice A request paid less than the fee.
    error FeeNotPaid(uint256 sent, uint256 fee);
    /// @notice No open request has this sequence number.
    error UnknownRequest(uint64 sequenceNumber);

    address public defaultProvider;
    uint128 public fee;
    uint64 public lastSequence;
    uint256 public lastPaid;
    mapping(uint64 sequenceNumber => address requester) public requesters;
    Mode public mode;

    constructor(address provider, uint128 fee_) {
        defaultProvider = provider;
        fee = fee_;
        register(provider);
    }

    function setMode(Mode mode_) external {
        mode = mode_;
    }

    function setFee(uint128 fee_) external {
        fee = fee_;
    }

    function getDefaultProvider() external view returns (address) {
        return defaultProvider;
    }

    function getFeeV2(address, uint32) external view returns (uint128) {
        if (mode == Mode.RefuseFee) revert OutOfRandomness();
        return fee;
    }

    function requestV2(address, bytes32, uint32) external payable returns (uint64 sequenceNumber) {
        if (mode == Mode.RefuseRequest) revert OutOfRandomness();
        if (mode == Mode.FailBare) {
            assembly {
                revert(0, 0)
            }
        }
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

// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyConsumer} from "@pythnetwork/entropy-sdk-solidity/IEntropyConsumer.sol";
import {KnownProviders} from "./KnownProviders.sol";

/// @notice An Entropy provider that charges a fee per request and keeps whatever it is paid, as the
/// real one does, so a test can see that DiceHall pays exactly the fee and credits the roller's surplus.
/// It can also refuse, as a provider out of randomness does, fail without a reason, fail with an error that is not
/// Entropy's, or overflow its fee quote.
contract PricedEntropyMock is KnownProviders {
    /// @notice What the next requests do.
    enum Mode {
        Answer, // take requests (the test reveals them)
        RefuseRequest, // requestV2 reverts with a reason
        RefuseFee, // getFeeV2 reverts with a reason
        FailBare, // requestV2 reverts without a reason (as running out of gas does)
        FailForeign, // requestV2 reverts with an error Entropy does not declare
        OverflowFee, // getFeeV2 overflows (Panic 0x11), as a fee near 2^128 plus the protocol's would
        PanicRequest, // requestV2 overflows (Panic 0x11)
        NestedOutOfGas // requestV2's own inner call runs out of gas, then it reverts with an Entropy error
    }

    /// @notice The provider cannot take requests (as Entropy's OutOfRandomness).
    error OutOfRandomness();
    /// @notice A request paid less than the fee.
    error FeeNotPaid(uint256 sent, uint256 fee);
    /// @notice No open request has this sequence number.
    error UnknownRequest(uint64 sequenceNumber);

    /// @notice Not one of Entropy's errors.
    error SomethingElse();

    uint128 public fee;
    uint256 public lastPaid;
    /// @notice As Entropy does, each provider numbers its own requests from 1.
    mapping(address provider => uint64) public lastSequence;
    mapping(address provider => mapping(uint64 sequenceNumber => address requester)) public requesters;
    Mode public mode;

    constructor(address provider, uint128 fee_) KnownProviders(provider) {
        fee = fee_;
    }

    function setMode(Mode mode_) external {
        mode = mode_;
    }

    function setFee(uint128 fee_) external {
        fee = fee_;
    }

    function getFeeV2(address, uint32) external view returns (uint128) {
        if (mode == Mode.RefuseFee) revert OutOfRandomness();
        if (mode == Mode.OverflowFee) return fee + type(uint128).max;
        return fee;
    }

    function requestV2(address provider, bytes32, uint32) external payable returns (uint64 sequenceNumber) {
        if (mode == Mode.RefuseRequest) revert OutOfRandomness();
        if (mode == Mode.FailForeign) revert SomethingElse();
        if (mode == Mode.PanicRequest) return uint64(fee + type(uint128).max);
        if (mode == Mode.NestedOutOfGas) {
            try this.burn() {} catch {}
            revert OutOfRandomness();
        }
        if (mode == Mode.FailBare) {
            assembly {
                revert(0, 0)
            }
        }
        if (msg.value < fee) revert FeeNotPaid(msg.value, fee);
        lastPaid = msg.value;
        sequenceNumber = ++lastSequence[provider];
        requesters[provider][sequenceNumber] = msg.sender;
    }

    /// @notice Uses all the gas it is given.
    function burn() external pure {
        for (;;) {}
    }

    /// @notice Answers a request of the default provider by calling its requester back, as Entropy's keeper would.
    function reveal(uint64 sequenceNumber, bytes32 randomNumber) external {
        revealFrom(defaultProvider, sequenceNumber, randomNumber);
    }

    /// @notice Answers a request of `provider`.
    function revealFrom(address provider, uint64 sequenceNumber, bytes32 randomNumber) public {
        address requester = requesters[provider][sequenceNumber];
        if (requester == address(0)) revert UnknownRequest(sequenceNumber);
        delete requesters[provider][sequenceNumber];
        IEntropyConsumer(requester)._entropyCallback(sequenceNumber, provider, randomNumber);
    }
}

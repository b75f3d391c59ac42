// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";

/// @notice An Entropy consumer whose callback does what the test says: keep the number, revert, or use more
/// gas than a small callback limit (fresh storage writes), so the Entropy model's callback handling can be seen.
contract ScriptedEntropyConsumer {
    enum Mode {
        Keep, // record the number
        Revert, // revert with Refused(sequence)
        Heavy // write HEAVY_SLOTS fresh slots (about 220 000 gas), then record the number
    }

    /// @notice The callback was told to refuse.
    error Refused(uint64 sequence);
    /// @notice Only the Entropy this consumer asks may call it back.
    error NotEntropy(address caller);

    uint256 private constant HEAVY_SLOTS = 10;

    IEntropyV2 public immutable ENTROPY;
    Mode public mode;
    uint64 public lastSequence;
    address public lastProvider;
    bytes32 public lastRandomNumber;
    uint256 public delivered;
    uint256 private _heavyCursor;
    mapping(uint256 => uint256) private _heavy;

    constructor(address entropy_) {
        ENTROPY = IEntropyV2(entropy_);
    }

    function setMode(Mode mode_) external {
        mode = mode_;
    }

    /// @notice Asks `provider` for a number with everything sent as the fee.
    function request(
        address provider,
        bytes32 userRandom,
        uint32 gasLimit
    ) external payable returns (uint64) {
        return ENTROPY.requestV2{value: msg.value}(provider, userRandom, gasLimit);
    }

    function _entropyCallback(uint64 sequence, address provider, bytes32 randomNumber) external {
        if (msg.sender != address(ENTROPY)) revert NotEntropy(msg.sender);
        Mode m = mode;
        if (m == Mode.Revert) revert Refused(sequence);
        if (m == Mode.Heavy) {
            uint256 cursor = _heavyCursor;
            for (uint256 i; i < HEAVY_SLOTS; ++i) _heavy[cursor + i] = 1;
            _heavyCursor = cursor + HEAVY_SLOTS;
        }
        lastSequence = sequence;
        lastProvider = provider;
        lastRandomNumber = randomNumber;
        ++delivered;
    }
}

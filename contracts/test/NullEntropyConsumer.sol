// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";

/// @notice The gas baseline: asks Entropy for a number exactly as DiceHall does and does nothing with it.
contract NullEntropyConsumer {
    IEntropyV2 private immutable ENTROPY;

    constructor(address entropy_) {
        ENTROPY = IEntropyV2(entropy_);
    }

    function request(uint32 gasLimit) external payable returns (uint64) {
        address provider = ENTROPY.getDefaultProvider();
        uint256 fee = ENTROPY.getFeeV2(provider, gasLimit);
        return ENTROPY.requestV2{value: fee}(provider, keccak256(abi.encode(block.prevrandao)), gasLimit);
    }

    function _entropyCallback(uint64, address, bytes32) external {}
}

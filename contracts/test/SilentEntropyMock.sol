// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {KnownProviders} from "./KnownProviders.sol";

/// @notice An Entropy provider that takes requests and never answers them: the failure DiceHall's
/// "roll again after the entropy timeout" path exists for. Only the calls DiceHall makes are here.
contract SilentEntropyMock is KnownProviders {
    uint64 public lastSequence;
    uint256 public requests;

    constructor(address provider) KnownProviders(provider) {}

    function getFeeV2(address, uint32) external pure returns (uint128) {
        return 0;
    }

    function requestV2(address, bytes32, uint32) external payable returns (uint64) {
        ++requests;
        return ++lastSequence;
    }
}

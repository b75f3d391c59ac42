// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {EntropyStructsV2} from "@pythnetwork/entropy-sdk-solidity/EntropyStructsV2.sol";

/// @notice The part of Entropy's provider registry that DiceHall reads: whether a provider is known
/// (its next sequence number is not 0), for the test mocks of Entropy.
abstract contract KnownProviders {
    mapping(address provider => bool) public registered;

    function register(address provider) public {
        registered[provider] = true;
    }

    function getProviderInfoV2(
        address provider
    ) external view returns (EntropyStructsV2.ProviderInfo memory info) {
        if (registered[provider]) info.sequenceNumber = 1;
    }
}

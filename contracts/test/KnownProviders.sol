// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The part of Entropy's provider registry that DiceHall reads: the default provider, which Pyth
/// may change (tests change it to see that running games keep their own), for the test mocks of Entropy.
abstract contract KnownProviders {
    address public defaultProvider;

    constructor(address provider) {
        defaultProvider = provider;
    }

    function setDefaultProvider(address provider) external {
        defaultProvider = provider;
    }

    function getDefaultProvider() external view returns (address) {
        return defaultProvider;
    }
}

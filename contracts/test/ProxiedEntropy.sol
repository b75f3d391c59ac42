// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

import {Entropy} from "../vendor/pyth-entropy/Entropy.sol";

/// @notice Pyth's real Entropy contract (vendored, unmodified) made deployable for the tests. Pyth ships it as
/// `EntropyUpgradable`, which needs OpenZeppelin's upgradeable contracts 4.x; this stands in for that wrapper:
/// the same `_initialize` call, once, through OpenZeppelin 5's ERC1967Proxy, without the owner, upgrade and
/// governance functions, which DiceHall never calls.
contract ProxiedEntropy is Entropy {
    /// @notice `initialize` ran already (on the proxy), or this is the implementation itself.
    error AlreadyInitialized();

    bool private _initialized;

    constructor() {
        // The implementation is never used directly: only the proxy holds state.
        _initialized = true;
    }

    /// @notice Sets the admin, the Pyth fee and the default provider, as EntropyUpgradable.initialize does.
    function initialize(
        address admin,
        uint128 pythFeeInWei,
        address defaultProvider,
        bool prefillRequestStorage
    ) external {
        if (_initialized) revert AlreadyInitialized();
        _initialized = true;
        _initialize(admin, pythFeeInWei, defaultProvider, prefillRequestStorage);
    }
}

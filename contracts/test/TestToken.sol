// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice "Test USD" for the local chain and testnets: six decimals like real dollar tokens, and a
/// faucet anyone may call, because it is worth nothing.
contract TestToken is ERC20 {
    constructor() ERC20("Test USD", "TUSD") {}

    /// @notice Mints `amount` to `to`; open to anyone on purpose.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }
}

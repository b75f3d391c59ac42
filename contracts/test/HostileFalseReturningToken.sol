// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice An ERC-20 that, once told to, answers `false` to transfers instead of reverting and moves
/// nothing, as some old tokens do. A caller that ignores the return value would think it was paid.
contract HostileFalseReturningToken is ERC20 {
    bool public failing;

    constructor() ERC20("Hostile False Returning", "HFR") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setFailing(bool failing_) external {
        failing = failing_;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        if (failing) return false;
        return super.transfer(to, value);
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (failing) return false;
        return super.transferFrom(from, to, value);
    }
}

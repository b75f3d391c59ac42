// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice An ERC-20 whose next transfer calls back into a target (DiceHall) with prepared calldata, the
/// way a malicious token would try to re-enter while DiceHall is in the middle of moving it. It records how
/// that inner call ended so a test can check it was refused, and can bubble the refusal up to the caller.
contract HostileReentrantToken is ERC20 {
    address public target;
    bytes public attack;
    bool public bubble;
    bool public attacked;
    bool public innerSucceeded;
    bytes public innerRevertData;

    constructor() ERC20("Hostile Reentrant", "HRE") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice The next transfer (not mint) calls `target` with `data`; with `bubble_` a refusal reverts the transfer.
    function arm(address target_, bytes calldata data, bool bubble_) external {
        target = target_;
        attack = data;
        bubble = bubble_;
        attacked = false;
    }

    /// @notice Lets the token approve DiceHall for its own balance, so the inner call could pay a bet.
    function approveFromSelf(address spender, uint256 amount) external {
        _approve(address(this), spender, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (from == address(0) || target == address(0) || attacked) return;
        attacked = true;
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, bytes memory ret) = target.call(attack);
        innerSucceeded = ok;
        innerRevertData = ret;
        if (!ok && bubble) {
            assembly {
                revert(add(ret, 0x20), mload(ret))
            }
        }
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDiceHall} from "../interfaces/IDiceHall.sol";

/// @notice A player that is a contract and refuses the native coin (until told otherwise), so a payout
/// pushed to it would fail. DiceHall must settle anyway and keep its credit for later. Told to burn gas, it
/// spends every unit it is given before refusing (issue 41, P-1: a receiver that drains whoever pays it out).
contract HostileEthRejectingPlayer {
    /// @notice The native coin was sent while this player refuses it.
    error EthRefused(uint256 amount);

    IDiceHall public hall;
    bool public acceptsEth;
    bool public burnsGas;
    uint256 private _sink;

    constructor(IDiceHall hall_) {
        hall = hall_;
    }

    // A hostile receiver is complex on purpose: it burns whatever gas a payout forwards.
    // solhint-disable-next-line no-complex-fallback
    receive() external payable {
        if (burnsGas) {
            // Writes until the gas it was given runs out.
            for (uint256 i = 1; ; ++i) _sink = i;
        }
        if (!acceptsEth) revert EthRefused(msg.value);
    }

    function setAcceptsEth(bool accepts) external {
        acceptsEth = accepts;
    }

    function setBurnsGas(bool burns) external {
        burnsGas = burns;
    }

    function cancelGame(uint256 gameId) external {
        hall.cancelGame(gameId);
    }

    function createGame(IDiceHall.GameConfig calldata cfg) external payable returns (uint256) {
        return hall.createGame{value: msg.value}(cfg);
    }

    function joinGame(uint256 gameId) external payable {
        hall.joinGame{value: msg.value}(gameId);
    }

    function roll(uint256 gameId, uint8 keepMask) external payable {
        hall.roll{value: msg.value}(gameId, keepMask);
    }

    function score(uint256 gameId, uint8 box) external {
        hall.score(gameId, box);
    }

    function withdraw(address token) external {
        hall.withdraw(token);
    }
}

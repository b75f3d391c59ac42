// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PlayerState, PlayerStateLibrary} from "../types/PlayerState.sol";
import {Dice} from "../libraries/Dice.sol";
import {Scoring} from "../libraries/Scoring.sol";
import {Sheet} from "../libraries/Sheet.sol";

/// @notice Exposes the rules libraries to the tests: raw box scores in bulk, whole sheets played move by
/// move through the packed state, and which boxes a hand may fill.
contract RulesHarness {
    /// @notice One packed state after the given moves; `dice` holds five values a move.
    function playSheet(
        uint8 ruleSet,
        uint8[] calldata boxes,
        uint8[] calldata dice
    ) public pure returns (PlayerState state, uint256[] memory points, uint256[] memory bonuses) {
        state = PlayerStateLibrary.seatedAt(0);
        points = new uint256[](boxes.length);
        bonuses = new uint256[](boxes.length);
        for (uint256 m; m < boxes.length; ++m) {
            state = state.withRoll(Dice.pack(_five(dice, m)), 1);
            (points[m], bonuses[m]) = Sheet.place(ruleSet, state, boxes[m]);
            state = state.withBoxFilled(boxes[m], points[m], bonuses[m] == 0 ? 0 : 1);
        }
    }

    /// @notice A sheet's moves and its totals.
    function sheetTotals(
        uint8 ruleSet,
        uint8[] calldata boxes,
        uint8[] calldata dice
    )
        external
        pure
        returns (
            uint256[] memory points,
            uint256[] memory bonuses,
            uint256 upperTotal,
            uint256 upperBonus,
            uint256 yahtzeeBonus,
            uint256 total
        )
    {
        PlayerState state;
        (state, points, bonuses) = playSheet(ruleSet, boxes, dice);
        (upperTotal, upperBonus, yahtzeeBonus, total) = Sheet.totals(ruleSet, state);
    }

    /// @notice Raw scores for many (rule set, box, dice) at once; `dice` holds five values a case.
    function scoreMany(
        uint8[] calldata ruleSets,
        uint8[] calldata boxes,
        uint8[] calldata dice
    ) external pure returns (uint256[] memory scores) {
        scores = new uint256[](boxes.length);
        for (uint256 i; i < boxes.length; ++i) {
            scores[i] = Scoring.score(ruleSets[i], boxes[i], Scoring.hand(Dice.pack(_five(dice, i))));
        }
    }

    /// @notice Fills one box of a sheet whose other boxes hold `filledScores`; reverts as `score` would.
    function place(
        uint8 ruleSet,
        uint8[] calldata filledBoxes,
        uint8[] calldata filledScores,
        uint8[5] calldata dice,
        uint8 box
    ) external pure returns (uint256 points, uint256 bonus) {
        PlayerState state = PlayerStateLibrary.seatedAt(0);
        for (uint256 i; i < filledBoxes.length; ++i)
            state = state.withBoxFilled(filledBoxes[i], filledScores[i], 0);
        state = state.withRoll(Dice.pack(dice), 1);
        return Sheet.place(ruleSet, state, box);
    }

    function _five(uint8[] calldata dice, uint256 m) private pure returns (uint8[5] memory five) {
        for (uint256 i; i < 5; ++i) five[i] = dice[5 * m + i];
    }
}

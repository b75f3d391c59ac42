// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDiceHall} from "../interfaces/IDiceHall.sol";
import {PlayerState} from "../types/PlayerState.sol";
import {Scoring} from "./Scoring.sol";

/// @notice Filling a box on a player's sheet (the forced Joker rule and the Yahtzee bonus of classic
/// Yahtzee included) and adding the sheet up.
library Sheet {
    uint256 internal constant YAHTZEE_BONUS = 100;
    uint256 internal constant LOWER_BOXES_MASK_CLASSIC = 0x1fc0; // boxes 6..12

    /// @notice What filling `box` with the current dice scores, and the Yahtzee bonus it earns.
    /// @dev Reverts BoxOutOfRange, BoxFilled or JokerForbidsBox.
    function place(
        uint8 ruleSet,
        PlayerState state,
        uint8 box
    ) internal pure returns (uint256 points, uint256 bonus) {
        uint8 kind = Scoring.kindOf(ruleSet, box);
        if (state.isFilled(box)) revert IDiceHall.BoxFilled(box);
        Scoring.Hand memory h = Scoring.hand(state.dice());

        if (ruleSet == Scoring.YAHTZEE && h.maxCount == 5 && state.isFilled(Scoring.YAHTZEE_BOX)) {
            if (state.boxScore(Scoring.YAHTZEE_BOX) == 50) bonus = YAHTZEE_BONUS;
            if (!jokerAllows(state, box, h.topFace)) revert IDiceHall.JokerForbidsBox(box);
            uint256 fixedScore = Scoring.jokerFixedScore(kind);
            if (fixedScore != 0) return (fixedScore, bonus);
        }
        points = kind == 0 ? Scoring.upper(h, box + 1) : Scoring.lower(kind, h);
    }

    /// @notice The forced Joker rule: the face's upper box if open, else any open lower box, else any open
    /// upper box.
    function jokerAllows(PlayerState state, uint8 box, uint256 face) internal pure returns (bool) {
        uint8 faceBox = uint8(face - 1);
        if (!state.isFilled(faceBox)) return box == faceBox;
        bool lowerOpen = state.filledMask() & LOWER_BOXES_MASK_CLASSIC != LOWER_BOXES_MASK_CLASSIC;
        bool isLower = box >= Scoring.UPPER_BOXES;
        return lowerOpen ? isLower : !isLower;
    }

    /// @notice The sheet added up: upper boxes, the upper bonus, the Yahtzee bonuses and the grand total.
    function totals(
        uint8 ruleSet,
        PlayerState state
    ) internal pure returns (uint256 upperTotal, uint256 upperBonus, uint256 yahtzeeBonus, uint256 total) {
        uint8 boxes = Scoring.boxCount(ruleSet);
        // At most 16 boxes of at most 63 points and 15 bonuses of 100: far below any overflow.
        unchecked {
            for (uint8 b; b < boxes; ++b) {
                uint256 s = state.boxScore(b);
                if (b < Scoring.UPPER_BOXES) upperTotal += s;
                total += s;
            }
            if (upperTotal >= Scoring.UPPER_BONUS_THRESHOLD) upperBonus = Scoring.upperBonus(ruleSet);
            yahtzeeBonus = state.yahtzeeBonusCount() * YAHTZEE_BONUS;
            total += upperBonus + yahtzeeBonus;
        }
    }

    /// @notice Whether every box of the sheet is filled.
    function isComplete(uint8 ruleSet, PlayerState state) internal pure returns (bool) {
        return state.filledMask() == (1 << Scoring.boxCount(ruleSet)) - 1;
    }
}

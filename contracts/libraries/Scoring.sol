// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDiceHall} from "../interfaces/IDiceHall.sol";
import {Dice} from "./Dice.sol";

/// @notice The raw score of every box of the four rule sets (docs/RULES.md), without Joker context.
/// @dev Boxes 0..5 are the upper section (sum of one face) everywhere. Each lower box is a "kind" with
/// its own function; a rule set is a table from its lower box indices to kinds.
library Scoring {
    uint8 internal constant YAHTZEE = 0;
    uint8 internal constant YATZY = 1;
    uint8 internal constant YAZTY = 2;
    uint8 internal constant EXTENDED = 3;

    uint8 internal constant UPPER_BOXES = 6;
    uint256 internal constant UPPER_BONUS_THRESHOLD = 63;
    /// @dev Classic Yahtzee's Yahtzee box, the one the Joker rule and the bonus look at.
    uint8 internal constant YAHTZEE_BOX = 11;

    // Lower box kinds.
    uint8 internal constant THREE_KIND_SUM = 1;
    uint8 internal constant FOUR_KIND_SUM = 2;
    uint8 internal constant FULL_HOUSE_25 = 3;
    uint8 internal constant SMALL_STRAIGHT_30 = 4;
    uint8 internal constant LARGE_STRAIGHT_40 = 5;
    uint8 internal constant FIVE_KIND_50 = 6;
    uint8 internal constant CHANCE = 7;
    uint8 internal constant ONE_PAIR = 8;
    uint8 internal constant TWO_PAIRS = 9;
    uint8 internal constant THREE_KIND_MATCH = 10;
    uint8 internal constant FOUR_KIND_MATCH = 11;
    uint8 internal constant LOW_RUN_15 = 12;
    uint8 internal constant HIGH_RUN_20 = 13;
    uint8 internal constant FULL_HOUSE_SUM = 14;
    uint8 internal constant THREE_KIND_20 = 15;
    uint8 internal constant FOUR_KIND_30 = 16;
    uint8 internal constant HIGH_RUN_30 = 17;
    uint8 internal constant LOW_RUN_40 = 18;
    uint8 internal constant FULL_HOUSE_25_OR_SUM = 19;
    uint8 internal constant PAIR_SUM = 20;
    uint8 internal constant DOUBLE_PAIR_SUM = 21;
    uint8 internal constant MISERE = 22;

    // Byte i of a table is the kind of lower box 6 + i.
    uint256 internal constant YAHTZEE_LOWER = 0x07060504030201;
    uint256 internal constant YATZY_LOWER = 0x06070e0d0c0b0a0908;
    uint256 internal constant YAZTY_LOWER = 0x0706121103100f;
    uint256 internal constant EXTENDED_LOWER = 0x16151407060504130201;

    // Faces present, bit f-1 for face f.
    uint256 internal constant RUN_1_TO_5 = 0x1f;
    uint256 internal constant RUN_2_TO_6 = 0x3e;

    /// @notice What one roll of five dice offers every box.
    struct Hand {
        uint256 dice;
        uint256 counts; // Dice.faceCounts
        uint256 present; // bit f-1 set when face f shows
        uint256 sum;
        uint256 maxCount;
        uint256 topFace; // the face with the most dice (the higher on a tie)
        uint256 pairFaces; // faces showing at least twice
        uint256 highPair; // the highest face showing at least twice, 0 if none
        uint256 pairsSum; // sum of the two highest faces showing at least twice, two dice each
        bool fullHouse; // three of one face and two of another
    }

    function hand(uint256 dice) internal pure returns (Hand memory h) {
        h.dice = dice;
        h.counts = Dice.faceCounts(dice);
        // Every quantity here is a small sum of dice faces (at most 30).
        unchecked {
            bool three;
            bool two;
            for (uint256 face = 1; face <= 6; ++face) {
                uint256 c = Dice.count(h.counts, face);
                if (c == 0) continue;
                h.present |= 1 << (face - 1);
                h.sum += c * face;
                if (c >= h.maxCount) {
                    h.maxCount = c;
                    h.topFace = face;
                }
                if (c == 3) three = true;
                if (c == 2) two = true;
                if (c >= 2) {
                    ++h.pairFaces;
                    if (h.pairFaces <= 2) h.pairsSum += 2 * face;
                    h.highPair = face;
                }
            }
            h.fullHouse = three && two;
        }
    }

    /// @notice How many boxes the rule set's sheet has.
    function boxCount(uint8 ruleSet) internal pure returns (uint8) {
        if (ruleSet == YAHTZEE || ruleSet == YAZTY) return 13;
        if (ruleSet == YATZY) return 15;
        if (ruleSet == EXTENDED) return 16;
        revert IDiceHall.UnknownRuleSet(ruleSet);
    }

    /// @notice The upper bonus the rule set pays at 63 or more in the upper boxes.
    function upperBonus(uint8 ruleSet) internal pure returns (uint256) {
        if (ruleSet == YATZY) return 50;
        if (ruleSet == YAZTY) return 0;
        return 35;
    }

    /// @notice The lower-box kind of `box`, or 0 for an upper box; reverts for an unknown rule set or box.
    function kindOf(uint8 ruleSet, uint8 box) internal pure returns (uint8) {
        uint8 boxes = boxCount(ruleSet);
        if (box >= boxes) revert IDiceHall.BoxOutOfRange(ruleSet, box);
        if (box < UPPER_BOXES) return 0;
        uint256 table =
            ruleSet == YAHTZEE
                ? YAHTZEE_LOWER
                : ruleSet == YATZY
                    ? YATZY_LOWER
                    : ruleSet == YAZTY
                        ? YAZTY_LOWER
                        : EXTENDED_LOWER;
        return uint8(table >> (8 * (box - UPPER_BOXES)));
    }

    /// @notice The raw score of `box` for these dice.
    function score(uint8 ruleSet, uint8 box, Hand memory h) internal pure returns (uint256) {
        uint8 kind = kindOf(ruleSet, box);
        if (kind == 0) return upper(h, box + 1);
        return lower(kind, h);
    }

    function upper(Hand memory h, uint256 face) internal pure returns (uint256) {
        return Dice.count(h.counts, face) * face;
    }

    function lower(uint8 kind, Hand memory h) internal pure returns (uint256) {
        if (kind == THREE_KIND_SUM) return h.maxCount >= 3 ? h.sum : 0;
        if (kind == FOUR_KIND_SUM) return h.maxCount >= 4 ? h.sum : 0;
        if (kind == FULL_HOUSE_25) return h.fullHouse ? 25 : 0;
        if (kind == SMALL_STRAIGHT_30) return hasRunOfFour(h.present) ? 30 : 0;
        if (kind == LARGE_STRAIGHT_40) return hasRunOfFive(h.present) ? 40 : 0;
        if (kind == FIVE_KIND_50) return h.maxCount == 5 ? 50 : 0;
        if (kind == CHANCE) return h.sum;
        if (kind == ONE_PAIR) return 2 * h.highPair;
        if (kind == TWO_PAIRS) return h.pairFaces == 2 ? h.pairsSum : 0;
        if (kind == THREE_KIND_MATCH) return h.maxCount >= 3 ? 3 * h.topFace : 0;
        if (kind == FOUR_KIND_MATCH) return h.maxCount >= 4 ? 4 * h.topFace : 0;
        if (kind == LOW_RUN_15) return h.present == RUN_1_TO_5 ? 15 : 0;
        if (kind == HIGH_RUN_20) return h.present == RUN_2_TO_6 ? 20 : 0;
        if (kind == FULL_HOUSE_SUM) return h.fullHouse ? h.sum : 0;
        if (kind == THREE_KIND_20) return h.maxCount >= 3 ? 20 : 0;
        if (kind == FOUR_KIND_30) return h.maxCount >= 4 ? 30 : 0;
        if (kind == HIGH_RUN_30) return h.present == RUN_2_TO_6 ? 30 : 0;
        if (kind == LOW_RUN_40) return h.present == RUN_1_TO_5 ? 40 : 0;
        if (kind == FULL_HOUSE_25_OR_SUM) return h.fullHouse ? (h.sum > 25 ? h.sum : 25) : 0;
        if (kind == PAIR_SUM) return h.maxCount >= 2 ? h.sum : 0;
        if (kind == DOUBLE_PAIR_SUM) return h.pairFaces == 2 ? h.sum : 0;
        // MISERE, the last kind: 36 minus the sum, which is at most 30.
        return 36 - h.sum;
    }

    /// @notice The fixed score a Joker earns in Full House / Small Straight / Large Straight, 0 for other kinds.
    function jokerFixedScore(uint8 kind) internal pure returns (uint256) {
        if (kind == FULL_HOUSE_25) return 25;
        if (kind == SMALL_STRAIGHT_30) return 30;
        if (kind == LARGE_STRAIGHT_40) return 40;
        return 0;
    }

    function hasRunOfFour(uint256 present) internal pure returns (bool) {
        return
            present & 0x0f == 0x0f || // 1-2-3-4
            present & 0x1e == 0x1e || // 2-3-4-5
            present & 0x3c == 0x3c; // 3-4-5-6
    }

    function hasRunOfFive(uint256 present) internal pure returns (bool) {
        return present == RUN_1_TO_5 || present == RUN_2_TO_6;
    }
}

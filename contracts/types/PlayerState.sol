// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev One player's whole state in one game, packed in one storage slot:
///
///   255      165 164      141 140   137 136 135 134 133 132   129 128                  33 32        17 16 15 14      0
///   ├─ owed ──┤├─ points ──┤├─ wins ┤├ join ┤├se┤├fo┤├ yahtzee ┤├──── box scores ──────┤├─ filled ─┤├rolls┤├─ dice ─┤
///     91 bits    24 bits      4 bits   2 bits  1    1   4 bits     16 boxes x 6 bits      16 bits     2 bits  5 x 3 bits
///
/// dice:      die i (1..6, 0 before the first roll of a turn) at bits 3i..3i+2
/// rolls:     rolls used in the current turn, 0..3
/// filled:    bit b set = box b is filled
/// scores:    box b's points at bits 33+6b..38+6b (every box scores at most 50)
/// yahtzee:   Yahtzee bonuses earned (at most 12 in a 13-round game)
/// forfeited: timed out (for the rest of the match); seated: holds a seat; join index: seat in join order (0..3)
/// wins:      a match's games won so far (at most 10); points: its points over the games finished so far
/// owed:      what the game's end left the player (winnings or refund, in the game's token) that payOut may still
///            send them: set when the game settles, cleared when paid out; saturates at 2^91 - 1 (about 2.5e27
///            units): anything above stays in the player's credit for their own withdraw
/// Bits 133 and up are the seat's and the match's; bits 0..132 are the sheet of the game being played.
type PlayerState is uint256;

using PlayerStateLibrary for PlayerState global;

library PlayerStateLibrary {
    uint256 internal constant DICE_OFFSET = 0;
    uint256 internal constant ROLLS_OFFSET = 15;
    uint256 internal constant FILLED_OFFSET = 17;
    uint256 internal constant SCORES_OFFSET = 33;
    uint256 internal constant YAHTZEE_BONUS_OFFSET = 129;
    uint256 internal constant FORFEITED_OFFSET = 133;
    uint256 internal constant SEATED_OFFSET = 134;
    uint256 internal constant JOIN_INDEX_OFFSET = 135;
    uint256 internal constant WINS_OFFSET = 137;
    uint256 internal constant POINTS_OFFSET = 141;
    uint256 internal constant OWED_OFFSET = 165;
    /// @dev Where the seat's and the match's bits begin: a new game of a match blanks everything below.
    uint256 internal constant SEAT_OFFSET = FORFEITED_OFFSET;

    uint256 internal constant DICE_MASK = 0x7fff;
    uint256 internal constant ROLLS_MASK = 0x3;
    uint256 internal constant FILLED_MASK = 0xffff;
    uint256 internal constant SCORE_BITS = 6;
    uint256 internal constant SCORE_MASK = 0x3f;
    uint256 internal constant YAHTZEE_BONUS_MASK = 0xf;
    uint256 internal constant JOIN_INDEX_MASK = 0x3;
    uint256 internal constant WINS_MASK = 0xf;
    uint256 internal constant POINTS_MASK = 0xffffff;
    /// @dev owed is the slot's top field: shifting a word left and back by OWED_BITS clears it.
    uint256 internal constant OWED_BITS = 256 - OWED_OFFSET;
    uint256 internal constant OWED_MAX = (1 << OWED_BITS) - 1;

    /// @notice A seated player with an empty sheet.
    function seatedAt(uint256 seat) internal pure returns (PlayerState) {
        return PlayerState.wrap((1 << SEATED_OFFSET) | (seat << JOIN_INDEX_OFFSET));
    }

    function dice(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> DICE_OFFSET) & DICE_MASK;
    }

    function rollsUsed(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> ROLLS_OFFSET) & ROLLS_MASK;
    }

    function filledMask(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> FILLED_OFFSET) & FILLED_MASK;
    }

    function isFilled(PlayerState self, uint256 box) internal pure returns (bool) {
        return (PlayerState.unwrap(self) >> (FILLED_OFFSET + box)) & 1 == 1;
    }

    function boxScore(PlayerState self, uint256 box) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> (SCORES_OFFSET + box * SCORE_BITS)) & SCORE_MASK;
    }

    function yahtzeeBonusCount(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> YAHTZEE_BONUS_OFFSET) & YAHTZEE_BONUS_MASK;
    }

    function forfeited(PlayerState self) internal pure returns (bool) {
        return (PlayerState.unwrap(self) >> FORFEITED_OFFSET) & 1 == 1;
    }

    function seated(PlayerState self) internal pure returns (bool) {
        return (PlayerState.unwrap(self) >> SEATED_OFFSET) & 1 == 1;
    }

    function joinIndex(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> JOIN_INDEX_OFFSET) & JOIN_INDEX_MASK;
    }

    function matchWins(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> WINS_OFFSET) & WINS_MASK;
    }

    function matchPoints(PlayerState self) internal pure returns (uint256) {
        return (PlayerState.unwrap(self) >> POINTS_OFFSET) & POINTS_MASK;
    }

    function owed(PlayerState self) internal pure returns (uint256) {
        return PlayerState.unwrap(self) >> OWED_OFFSET;
    }

    /// @notice Adds `amount` to what the game owes the player, saturating at OWED_MAX.
    function withOwed(PlayerState self, uint256 amount) internal pure returns (PlayerState) {
        uint256 s = PlayerState.unwrap(self);
        uint256 current = s >> OWED_OFFSET;
        uint256 total = amount >= OWED_MAX - current ? OWED_MAX : current + amount;
        return PlayerState.wrap(((s << OWED_BITS) >> OWED_BITS) | (total << OWED_OFFSET));
    }

    /// @notice Nothing owed any more: paid out (or failed and left in credit).
    function withoutOwed(PlayerState self) internal pure returns (PlayerState) {
        return PlayerState.wrap((PlayerState.unwrap(self) << OWED_BITS) >> OWED_BITS);
    }

    /// @notice A match's standings after a game: `won` adds a win, `total` adds to the points; with `blank` the
    /// sheet (dice, rolls, boxes, bonuses) is cleared for the next game, the seat and forfeit kept.
    /// @dev The caller guarantees at most 10 wins and points below 2^24 (10 games of at most 2 000).
    function withGameResult(
        PlayerState self,
        bool won,
        uint256 total,
        bool blank
    ) internal pure returns (PlayerState) {
        uint256 s = PlayerState.unwrap(self);
        if (blank) s = (s >> SEAT_OFFSET) << SEAT_OFFSET;
        unchecked {
            return PlayerState.wrap(s + (uint256(won ? 1 : 0) << WINS_OFFSET) + (total << POINTS_OFFSET));
        }
    }

    /// @notice The dice after a roll and the roll count of this turn.
    function withRoll(PlayerState self, uint256 newDice, uint256 rolls) internal pure returns (PlayerState) {
        uint256 cleared = PlayerState.unwrap(self) &
            ~((DICE_MASK << DICE_OFFSET) | (ROLLS_MASK << ROLLS_OFFSET));
        return PlayerState.wrap(cleared | (newDice << DICE_OFFSET) | (rolls << ROLLS_OFFSET));
    }

    /// @notice Fills `box` with `points`, adds `bonuses` Yahtzee bonuses, and clears the dice for the next turn.
    /// @dev The caller guarantees the box is open, points < 64 and the bonus count stays below 16.
    function withBoxFilled(
        PlayerState self,
        uint256 box,
        uint256 points,
        uint256 bonuses
    ) internal pure returns (PlayerState) {
        uint256 cleared = PlayerState.unwrap(self) &
            ~((DICE_MASK << DICE_OFFSET) | (ROLLS_MASK << ROLLS_OFFSET));
        // The bonus count is added, not or-ed; it cannot carry out of its 4 bits: only the classic
        // sheet earns bonuses, at most one per round after the Yahtzee box, so at most 12.
        unchecked {
            return
                PlayerState.wrap(
                    (cleared | (1 << (FILLED_OFFSET + box)) | (points << (SCORES_OFFSET + box * SCORE_BITS))) +
                        (bonuses << YAHTZEE_BONUS_OFFSET)
                );
        }
    }

    function withForfeit(PlayerState self) internal pure returns (PlayerState) {
        return PlayerState.wrap(PlayerState.unwrap(self) | (1 << FORFEITED_OFFSET));
    }
}

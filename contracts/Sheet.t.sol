// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {vm} from "./test/Vm.sol";
import {RulesHarness} from "./test/RulesHarness.sol";
import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {PlayerState, PlayerStateLibrary} from "./types/PlayerState.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";
import {Sheet} from "./libraries/Sheet.sol";
import {TurnOrder} from "./libraries/TurnOrder.sol";

/// @notice A slow, plain sheet: arrays, sorted dice and the rules written out as docs/RULES.md says them.
/// The packed code must agree with it on every fuzzed game.
library PlainSheet {
    struct Sheet_ {
        uint8 ruleSet;
        bool[16] filled;
        uint256[16] scores;
        uint256 yahtzeeBonuses;
    }

    function boxCount(uint8 ruleSet) internal pure returns (uint256) {
        return
            ruleSet == 1
                ? 15
                : ruleSet == 3
                    ? 16
                    : 13;
    }

    function sorted(uint8[5] memory d) internal pure returns (uint8[5] memory s) {
        s = d;
        for (uint256 i = 1; i < 5; ++i)
            for (uint256 j = i; j > 0 && s[j - 1] > s[j]; --j) (s[j - 1], s[j]) = (s[j], s[j - 1]);
    }

    function counts(uint8[5] memory d) internal pure returns (uint256[7] memory c) {
        for (uint256 i; i < 5; ++i) c[d[i]]++;
    }

    function sum(uint8[5] memory d) internal pure returns (uint256 s) {
        for (uint256 i; i < 5; ++i) s += d[i];
    }

    function ofAKind(uint8[5] memory d, uint256 n) internal pure returns (uint256 face) {
        uint256[7] memory c = counts(d);
        for (uint256 f = 6; f >= 1; --f) if (c[f] >= n) return f;
        return 0;
    }

    function fullHouse(uint8[5] memory d) internal pure returns (bool) {
        uint8[5] memory s = sorted(d);
        return
            (s[0] == s[1] && s[1] == s[2] && s[3] == s[4] && s[2] != s[3]) ||
            (s[0] == s[1] && s[2] == s[3] && s[3] == s[4] && s[1] != s[2]);
    }

    function hasFaces(uint8[5] memory d, uint256 from, uint256 to) internal pure returns (bool) {
        uint256[7] memory c = counts(d);
        for (uint256 f = from; f <= to; ++f) if (c[f] == 0) return false;
        return true;
    }

    function exactly(uint8[5] memory d, uint256 from) internal pure returns (bool) {
        uint8[5] memory s = sorted(d);
        for (uint256 i; i < 5; ++i) if (s[i] != from + i) return false;
        return true;
    }

    function pairFaces(uint8[5] memory d) internal pure returns (uint256 high, uint256 low, uint256 n) {
        uint256[7] memory c = counts(d);
        for (uint256 f = 6; f >= 1; --f) {
            if (c[f] < 2) continue;
            if (n == 0) high = f;
            else low = f;
            ++n;
        }
    }

    function raw(uint8 ruleSet, uint256 box, uint8[5] memory d) internal pure returns (uint256) {
        if (box < 6) return counts(d)[box + 1] * (box + 1);
        uint256 s = sum(d);
        bool yahtzee = ofAKind(d, 5) != 0;
        if (ruleSet == 1) {
            (uint256 high, uint256 low, uint256 n) = pairFaces(d);
            if (box == 6) return 2 * high;
            if (box == 7) return n == 2 ? 2 * high + 2 * low : 0;
            if (box == 8) return 3 * ofAKind(d, 3);
            if (box == 9) return 4 * ofAKind(d, 4);
            if (box == 10) return exactly(d, 1) ? 15 : 0;
            if (box == 11) return exactly(d, 2) ? 20 : 0;
            if (box == 12) return fullHouse(d) ? s : 0;
            if (box == 13) return s;
            return yahtzee ? 50 : 0;
        }
        if (ruleSet == 2) {
            if (box == 6) return ofAKind(d, 3) != 0 ? 20 : 0;
            if (box == 7) return ofAKind(d, 4) != 0 ? 30 : 0;
            if (box == 8) return fullHouse(d) ? 25 : 0;
            if (box == 9) return exactly(d, 2) ? 30 : 0;
            if (box == 10) return exactly(d, 1) ? 40 : 0;
            if (box == 11) return yahtzee ? 50 : 0;
            return s;
        }
        if (box == 6) return ofAKind(d, 3) != 0 ? s : 0;
        if (box == 7) return ofAKind(d, 4) != 0 ? s : 0;
        if (box == 8) {
            if (!fullHouse(d)) return 0;
            return ruleSet == 3 && s > 25 ? s : 25;
        }
        if (box == 9) return hasFaces(d, 1, 4) || hasFaces(d, 2, 5) || hasFaces(d, 3, 6) ? 30 : 0;
        if (box == 10) return hasFaces(d, 1, 5) || hasFaces(d, 2, 6) ? 40 : 0;
        if (box == 11) return yahtzee ? 50 : 0;
        if (box == 12) return s;
        (, , uint256 pairs) = pairFaces(d);
        if (box == 13) return pairs >= 1 ? s : 0;
        if (box == 14) return pairs == 2 ? s : 0;
        return 36 - s;
    }

    /// @notice (legal, points, bonus) of filling `box`, following docs/RULES.md's Joker steps literally.
    function place(
        Sheet_ memory s,
        uint256 box,
        uint8[5] memory d
    ) internal pure returns (bool legal, uint256 points, uint256 bonus) {
        if (s.filled[box]) return (false, 0, 0);
        uint256 face = ofAKind(d, 5);
        if (s.ruleSet != 0 || face == 0 || !s.filled[11]) return (true, raw(s.ruleSet, box, d), 0);
        bonus = s.scores[11] == 50 ? 100 : 0;
        bool anyLowerOpen;
        for (uint256 b = 6; b <= 12; ++b) if (!s.filled[b]) anyLowerOpen = true;
        if (!s.filled[face - 1]) legal = box == face - 1;
        else if (anyLowerOpen) legal = box >= 6;
        else legal = box < 6;
        if (!legal) return (false, 0, 0);
        if (box == 8) return (true, 25, bonus);
        if (box == 9) return (true, 30, bonus);
        if (box == 10) return (true, 40, bonus);
        return (true, raw(0, box, d), bonus);
    }

    function total(Sheet_ memory s) internal pure returns (uint256 upper, uint256 grand) {
        for (uint256 b; b < boxCount(s.ruleSet); ++b) {
            if (b < 6) upper += s.scores[b];
            grand += s.scores[b];
        }
        if (upper >= 63)
            grand +=
                s.ruleSet == 1
                    ? 50
                    : s.ruleSet == 2
                        ? 0
                        : 35;
        grand += s.yahtzeeBonuses * 100;
    }
}

contract SheetFuzzTest {
    RulesHarness private harness;

    function setUp() public {
        harness = new RulesHarness();
    }

    /// @dev Dice from a seed, with five of a kind one time in four so the Joker paths get exercised.
    function _dice(uint256 seed, uint256 round) private pure returns (uint8[5] memory d) {
        uint256 h = uint256(keccak256(abi.encode(seed, round)));
        if (h % 4 == 0) {
            uint8 face = uint8(1 + ((h >> 8) % 6));
            return [face, face, face, face, face];
        }
        for (uint256 i; i < 5; ++i) d[i] = uint8(1 + ((h >> (16 + 8 * i)) % 6));
    }

    /// @notice A whole sheet played through the packed state agrees with the plain sheet after every move.
    function testFuzz_packedSheet_matchesPlainReference(uint256 seed, uint8 ruleSetSeed) public pure {
        uint8 ruleSet = ruleSetSeed % 4;
        uint256 boxes = PlainSheet.boxCount(ruleSet);
        PlainSheet.Sheet_ memory plain;
        plain.ruleSet = ruleSet;
        PlayerState packed = PlayerStateLibrary.seatedAt(2);

        for (uint256 round; round < boxes; ++round) {
            uint8[5] memory d = _dice(seed, round);
            packed = packed.withRoll(Dice.pack(d), 1 + (round % 3));
            require(packed.rollsUsed() == 1 + (round % 3), "rolls used");
            // Every open box: legal exactly when the plain rules say so, with the same points and bonus.
            uint256 legalCount;
            uint256 pick = uint256(keccak256(abi.encode(seed, "pick", round)));
            uint8 chosen = type(uint8).max;
            for (uint8 b; b < boxes; ++b) {
                (bool legal, uint256 p, uint256 bonus) = PlainSheet.place(plain, b, d);
                if (plain.filled[b]) continue;
                (bool ok, uint256 points, uint256 gotBonus) = _tryPlace(ruleSet, packed, b);
                require(ok == legal, "legality differs");
                if (!legal) continue;
                require(points == p && gotBonus == bonus, "points differ");
                if (chosen == type(uint8).max || pick % (++legalCount) == 0) chosen = b;
            }
            require(chosen != type(uint8).max, "no legal box");
            (, uint256 pts, uint256 bon) = PlainSheet.place(plain, chosen, d);
            plain.filled[chosen] = true;
            plain.scores[chosen] = pts;
            if (bon != 0) plain.yahtzeeBonuses++;
            packed = packed.withBoxFilled(chosen, pts, bon == 0 ? 0 : 1);

            require(packed.dice() == 0 && packed.rollsUsed() == 0, "turn not cleared");
            for (uint8 b; b < boxes; ++b) {
                require(packed.isFilled(b) == plain.filled[b], "filled differs");
                require(packed.boxScore(b) == plain.scores[b], "score differs");
            }
            require(packed.yahtzeeBonusCount() == plain.yahtzeeBonuses, "bonus count differs");
        }
        (uint256 upper, uint256 grand) = PlainSheet.total(plain);
        (uint256 upperTotal, , , uint256 total) = Sheet.totals(ruleSet, packed);
        require(upperTotal == upper && total == grand, "totals differ");
        require(Sheet.isComplete(ruleSet, packed), "sheet not complete");
        require(packed.seated() && packed.joinIndex() == 2 && !packed.forfeited(), "seat bits disturbed");
        require(packed.withForfeit().forfeited(), "forfeit bit");
    }

    /// @notice The raw score of any hand in any box matches the plain rules.
    function testFuzz_scoreBox_matchesPlainReference(
        uint8 ruleSetSeed,
        uint8 boxSeed,
        uint256 diceSeed
    ) public pure {
        uint8 ruleSet = ruleSetSeed % 4;
        uint8 box = uint8(boxSeed % PlainSheet.boxCount(ruleSet));
        uint8[5] memory d = _dice(diceSeed, 0);
        require(
            Scoring.score(ruleSet, box, Scoring.hand(Dice.pack(d))) == PlainSheet.raw(ruleSet, box, d),
            "raw score differs"
        );
    }

    /// @notice Dice drawn from a random number follow docs/RULES.md's formula; kept dice never change.
    function testFuzz_roll_followsFormula(bytes32 random, uint8 keepMask, uint256 before) public pure {
        keepMask %= 32;
        uint256 previous = Dice.pack(_dice(before, 1));
        uint256 rolled = Dice.roll(previous, keepMask, random);
        uint8[5] memory prev = Dice.unpack(previous);
        uint8[5] memory next = Dice.unpack(rolled);
        for (uint256 i; i < 5; ++i) {
            uint8 expected =
                (keepMask >> i) & 1 == 1
                    ? prev[i]
                    : uint8(1 + (uint256(keccak256(abi.encode(random, i))) % 6));
            require(next[i] == expected, "die differs from the formula");
        }
    }

    /// @notice A shuffled turn order is a permutation of the seats, and positions map back to seats.
    function testFuzz_turnOrder_isPermutation(uint256 seed, uint8 seatsSeed) public pure {
        uint8 seats = 2 + (seatsSeed % 3);
        uint8 order = TurnOrder.shuffle(seed, seats);
        uint256 seen;
        for (uint256 p; p < seats; ++p) {
            uint256 j = TurnOrder.at(order, p);
            require(j < seats && (seen >> j) & 1 == 0, "not a permutation");
            seen |= 1 << j;
            require(TurnOrder.positionOf(order, j, seats) == p, "position lookup");
        }
    }

    function test_place_revertsBoxFilled() public {
        uint8[] memory filled = new uint8[](1);
        uint8[] memory scores = new uint8[](1);
        filled[0] = 3;
        scores[0] = 12;
        vm.expectRevert(abi.encodeWithSelector(IDiceHall.BoxFilled.selector, uint8(3)));
        harness.place(0, filled, scores, [4, 4, 4, 1, 2], 3);
    }

    function _tryPlace(
        uint8 ruleSet,
        PlayerState packed,
        uint8 box
    ) private pure returns (bool ok, uint256 points, uint256 bonus) {
        // Sheet.place reverts for an illegal box; mirror its checks without reverting.
        if (packed.isFilled(box)) return (false, 0, 0);
        Scoring.Hand memory h = Scoring.hand(packed.dice());
        if (ruleSet == 0 && h.maxCount == 5 && packed.isFilled(Scoring.YAHTZEE_BOX)) {
            if (!Sheet.jokerAllows(packed, box, h.topFace)) return (false, 0, 0);
        }
        (points, bonus) = Sheet.place(ruleSet, packed, box);
        ok = true;
    }
}

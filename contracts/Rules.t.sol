// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {vm} from "./test/Vm.sol";
import {RulesHarness} from "./test/RulesHarness.sol";
import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";

/// @notice The shared vectors (test/vectors/rules-vectors.json), which the TypeScript engine passes too.
contract RulesVectorsTest {
    // Field order is alphabetical: that is how JSON objects decode.
    struct BoxCase {
        uint256 box;
        uint256[] dice;
        uint256 ruleSet;
        uint256 score;
    }
    struct SheetCase {
        uint256[] bonuses;
        uint256[] boxes;
        uint256[] dice;
        uint256[] points;
        uint256 ruleSet;
        uint256 total;
        uint256 upperBonus;
        uint256 yahtzeeBonus;
    }
    struct JokerCase {
        uint256[] dice;
        uint256[] filledBoxes;
        uint256[] filledScores;
        uint256[] legalBoxes;
        uint256[] legalPoints;
        uint256 ruleSet;
    }
    struct ErrorCase {
        uint256 box;
        uint256[] dice;
        string error;
        uint256 ruleSet;
    }

    RulesHarness private harness;
    string private json;

    function setUp() public {
        harness = new RulesHarness();
        json = vm.readFile("test/vectors/rules-vectors.json");
    }

    function test_vectors_boxCases() public view {
        BoxCase[] memory cases = abi.decode(vm.parseJson(json, ".boxCases"), (BoxCase[]));
        require(cases.length >= 300, "fewer than 300 box cases");
        for (uint256 i; i < cases.length; ++i) {
            BoxCase memory c = cases[i];
            uint256 got = Scoring.score(
                uint8(c.ruleSet),
                uint8(c.box),
                Scoring.hand(Dice.pack(_five(c.dice, 0)))
            );
            require(got == c.score, _where("box case", i, got));
        }
    }

    function test_vectors_sheetCases() public view {
        SheetCase[] memory cases = abi.decode(vm.parseJson(json, ".sheetCases"), (SheetCase[]));
        require(cases.length >= 40, "fewer than 40 sheet cases");
        for (uint256 i; i < cases.length; ++i) {
            SheetCase memory c = cases[i];
            (
                uint256[] memory points,
                uint256[] memory bonuses,
                ,
                uint256 upperBonus,
                uint256 yahtzeeBonus,
                uint256 total
            ) = harness.sheetTotals(uint8(c.ruleSet), _bytes(c.boxes), _bytes(c.dice));
            for (uint256 m; m < points.length; ++m) {
                require(points[m] == c.points[m], _where("sheet case points", i, points[m]));
                require(bonuses[m] == c.bonuses[m], _where("sheet case bonus", i, bonuses[m]));
            }
            require(upperBonus == c.upperBonus, _where("sheet case upper bonus", i, upperBonus));
            require(yahtzeeBonus == c.yahtzeeBonus, _where("sheet case yahtzee bonus", i, yahtzeeBonus));
            require(total == c.total, _where("sheet case total", i, total));
        }
    }

    function test_vectors_jokerCases() public view {
        JokerCase[] memory cases = abi.decode(vm.parseJson(json, ".jokerCases"), (JokerCase[]));
        require(cases.length >= 20, "fewer than 20 joker cases");
        for (uint256 i; i < cases.length; ++i) {
            JokerCase memory c = cases[i];
            uint8 boxes = Scoring.boxCount(uint8(c.ruleSet));
            uint256 legalSeen;
            for (uint8 box; box < boxes; ++box) {
                if (_contains(c.filledBoxes, box)) continue;
                (bool legal, uint256 at) = _indexOf(c.legalBoxes, box);
                try
                    harness.place(
                        uint8(c.ruleSet),
                        _bytes(c.filledBoxes),
                        _bytes(c.filledScores),
                        _five(c.dice, 0),
                        box
                    )
                returns (uint256 points, uint256) {
                    require(legal, _where("joker case allowed an illegal box", i, box));
                    require(points == c.legalPoints[at], _where("joker case points", i, points));
                    ++legalSeen;
                } catch (bytes memory reason) {
                    require(!legal, _where("joker case refused a legal box", i, box));
                    require(
                        bytes4(reason) == IDiceHall.JokerForbidsBox.selector,
                        _where("joker case error", i, box)
                    );
                }
            }
            require(legalSeen == c.legalBoxes.length, _where("joker case legal count", i, legalSeen));
        }
    }

    function test_vectors_errorCases() public view {
        ErrorCase[] memory cases = abi.decode(vm.parseJson(json, ".errorCases"), (ErrorCase[]));
        for (uint256 i; i < cases.length; ++i) {
            ErrorCase memory c = cases[i];
            uint8[] memory ruleSets = new uint8[](1);
            uint8[] memory boxes = new uint8[](1);
            ruleSets[0] = uint8(c.ruleSet);
            boxes[0] = uint8(c.box);
            try harness.scoreMany(ruleSets, boxes, _bytes(c.dice)) {
                revert(string.concat("error case ", vm.toString(i), " did not revert"));
            } catch (bytes memory reason) {
                require(
                    bytes4(reason) == _selector(c.error),
                    string.concat("error case ", vm.toString(i), ": ", c.error)
                );
            }
        }
    }

    function _selector(string memory name) private pure returns (bytes4) {
        bytes32 h = keccak256(bytes(name));
        if (h == keccak256("InvalidDie")) return IDiceHall.InvalidDie.selector;
        if (h == keccak256("UnknownRuleSet")) return IDiceHall.UnknownRuleSet.selector;
        if (h == keccak256("BoxOutOfRange")) return IDiceHall.BoxOutOfRange.selector;
        revert(string.concat("unknown error name in vectors: ", name));
    }

    function _five(uint256[] memory dice, uint256 m) private pure returns (uint8[5] memory five) {
        for (uint256 i; i < 5; ++i) five[i] = uint8(dice[5 * m + i]);
    }

    function _bytes(uint256[] memory xs) private pure returns (uint8[] memory out) {
        out = new uint8[](xs.length);
        for (uint256 i; i < xs.length; ++i) out[i] = uint8(xs[i]);
    }

    function _contains(uint256[] memory xs, uint256 x) private pure returns (bool found) {
        (found, ) = _indexOf(xs, x);
    }

    function _indexOf(uint256[] memory xs, uint256 x) private pure returns (bool, uint256) {
        for (uint256 i; i < xs.length; ++i) if (xs[i] == x) return (true, i);
        return (false, 0);
    }

    function _where(string memory what, uint256 i, uint256 got) private pure returns (string memory) {
        return string.concat(what, " #", vm.toString(i), " got ", vm.toString(got));
    }
}

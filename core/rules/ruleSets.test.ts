// @vitest-environment node
import { describe, expect, it } from "vitest";
import { RulesError } from "./errors.ts";
import { boxCount, RULE_SETS, ruleSet } from "./ruleSets.ts";
import { scoreBox } from "./score.ts";

describe("rule sets", () => {
  it("lists the four rule sets by id with RULES.md's box counts", () => {
    expect(RULE_SETS.map((r) => [r.id, r.key, r.name, r.boxes.length])).toEqual([
      [0, "yahtzee", "Yahtzee", 13],
      [1, "yatzy", "Yatzy", 15],
      [2, "yazty", "Yazty", 13],
      [3, "extended", "Extended", 16],
    ]);
    for (const r of RULE_SETS) expect(boxCount(r.id)).toBe(r.boxes.length);
  });

  it("numbers boxes in score-sheet order with Ones..Sixes as the upper section", () => {
    for (const r of RULE_SETS) {
      r.boxes.forEach((box, i) => {
        expect(box.index).toBe(i);
        expect(box.section).toBe(i < 6 ? "upper" : "lower");
        expect(box.rule.length).toBeGreaterThan(0);
      });
      expect(new Set(r.boxes.map((b) => b.key)).size).toBe(r.boxes.length);
    }
  });

  it("has a few words per box for the score sheet, short enough for one line beside the name", () => {
    for (const r of RULE_SETS) {
      for (const box of r.boxes) {
        expect(box.short.length).toBeGreaterThan(0);
        expect(box.short.length).toBeLessThanOrEqual(24);
      }
    }
  });

  it("uses each game's own box names", () => {
    expect(ruleSet(2).boxes[0].name).toBe("Play of 1");
    expect(ruleSet(2).boxes[11].name).toBe("Yatzi");
    expect(ruleSet(2).boxes[12].name).toBe("Random");
    expect(ruleSet(1).boxes[14].name).toBe("Yatzy");
    expect(ruleSet(3).boxes[15].name).toBe("Misère");
    expect(ruleSet(0).boxes[6].key).toBe("threeOfAKind");
  });

  it("gives bonuses and the Joker only where RULES.md does", () => {
    expect(RULE_SETS.map((r) => [r.upperBonus, r.yahtzeeBonus, r.joker])).toEqual([
      [{ threshold: 63, points: 35 }, true, true],
      [{ threshold: 63, points: 50 }, false, false],
      [null, false, false],
      [{ threshold: 63, points: 35 }, false, false],
    ]);
  });

  it("has a scorer for every listed box and none beyond", () => {
    for (const r of RULE_SETS) {
      for (const box of r.boxes)
        expect(scoreBox(r.id, box.index, [1, 2, 3, 4, 5])).toBeTypeOf("number");
      expect(() => scoreBox(r.id, r.boxes.length, [1, 2, 3, 4, 5])).toThrow(RulesError);
    }
  });

  it.each([4, -1, 1.5, NaN, 255])("rejects rule set %s as UnknownRuleSet", (id) => {
    expect(() => ruleSet(id)).toThrow(expect.objectContaining({ code: "UnknownRuleSet" }));
    expect(() => boxCount(id)).toThrow(RulesError);
  });
});

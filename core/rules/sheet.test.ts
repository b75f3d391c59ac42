// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { RulesErrorCode } from "./errors.ts";
import type { RuleSetId } from "./ruleSets.ts";
import {
  applyScore,
  boxOptions,
  isComplete,
  legalBoxes,
  newSheet,
  openBoxes,
  totals,
  type Sheet,
} from "./sheet.ts";

const rulesError = (code: RulesErrorCode) => expect.objectContaining({ name: "RulesError", code });

/** A classic sheet with the given boxes already filled. */
function classicWith(filled: Record<number, number>): Sheet {
  const sheet = newSheet(0);
  for (const [box, points] of Object.entries(filled)) sheet.boxes[Number(box)] = points;
  return sheet;
}

describe("newSheet", () => {
  it.each([
    [0, 13],
    [1, 15],
    [2, 13],
    [3, 16],
  ] as [RuleSetId, number][])("opens every box of rule set %i (%i boxes)", (ruleSet, count) => {
    const sheet = newSheet(ruleSet);
    expect(sheet).toEqual({ ruleSet, boxes: Array(count).fill(null), yahtzeeBonuses: 0 });
    expect(isComplete(sheet)).toBe(false);
    expect(openBoxes(sheet)).toHaveLength(count);
  });

  it("rejects an unknown rule set", () => {
    expect(() => newSheet(7 as RuleSetId)).toThrow(rulesError("UnknownRuleSet"));
  });
});

describe("boxOptions", () => {
  it("lists only open boxes, with raw scores when no Joker applies", () => {
    const sheet = classicWith({ 0: 3, 8: 25 });
    const options = boxOptions(sheet, [3, 3, 3, 5, 2]);
    expect(options.map((o) => o.box)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12]);
    expect(options.every((o) => o.legal && o.bonus === 0 && o.reason === undefined)).toBe(true);
    expect(options.find((o) => o.box === 6)?.points).toBe(16);
  });

  it("forces the face's upper box and says why the others are refused", () => {
    const options = boxOptions(classicWith({ 11: 50 }), [4, 4, 4, 4, 4]);
    expect(options.filter((o) => o.legal)).toEqual([
      { box: 3, points: 20, bonus: 100, legal: true },
    ]);
    const refused = options.find((o) => o.box === 12)!;
    expect(refused).toMatchObject({ legal: false, bonus: 0 });
    expect(refused.reason).toMatch(/Fours/);
  });

  it("pays the Yahtzee bonus only while the Yahtzee box holds 50", () => {
    expect(boxOptions(classicWith({ 11: 0 }), [6, 6, 6, 6, 6]).find((o) => o.legal)?.bonus).toBe(0);
    expect(boxOptions(classicWith({ 11: 50 }), [6, 6, 6, 6, 6]).find((o) => o.legal)?.bonus).toBe(
      100,
    );
    expect(boxOptions(classicWith({}), [6, 6, 6, 6, 6]).every((o) => o.bonus === 0)).toBe(true);
  });

  it("gives no bonus and no Joker outside classic Yahtzee", () => {
    for (const [ruleSet, yahtzeeBox, fullHouse] of [
      [1, 14, 12],
      [2, 11, 8],
      [3, 11, 8],
    ] as [RuleSetId, number, number][]) {
      const sheet = newSheet(ruleSet);
      sheet.boxes[yahtzeeBox] = 50;
      const options = boxOptions(sheet, [2, 2, 2, 2, 2]);
      expect(options.every((o) => o.legal && o.bonus === 0)).toBe(true);
      expect(options.find((o) => o.box === fullHouse)?.points).toBe(0);
    }
  });

  it("returns nothing for a full sheet", () => {
    const sheet = classicWith(Object.fromEntries(Array.from({ length: 13 }, (_, i) => [i, 0])));
    expect(boxOptions(sheet, [1, 2, 3, 4, 5])).toEqual([]);
    expect(legalBoxes(sheet, [1, 2, 3, 4, 5])).toEqual([]);
  });

  it("rejects bad dice", () => {
    expect(() => boxOptions(newSheet(0), [1, 2, 3, 4])).toThrow(rulesError("InvalidDie"));
  });
});

describe("applyScore", () => {
  it("fills the box and leaves the given sheet untouched", () => {
    const before = newSheet(0);
    const result = applyScore(before, [1, 1, 1, 5, 5], 8);
    expect(result).toEqual({
      sheet: {
        ruleSet: 0,
        boxes: [...Array(8).fill(null), 25, ...Array(4).fill(null)],
        yahtzeeBonuses: 0,
      },
      points: 25,
      bonus: 0,
    });
    expect(before.boxes.every((b) => b === null)).toBe(true);
  });

  it("counts a Yahtzee bonus on the sheet", () => {
    const result = applyScore(classicWith({ 11: 50 }), [2, 2, 2, 2, 2], 1);
    expect([result.points, result.bonus, result.sheet.yahtzeeBonuses]).toEqual([10, 100, 1]);
    expect(totals(result.sheet).yahtzeeBonus).toBe(100);
  });

  it("scores a Joker Full House, Small and Large Straight at full value", () => {
    const sheet = classicWith({ 11: 0, 4: 15 });
    expect(applyScore(sheet, [5, 5, 5, 5, 5], 8).points).toBe(25);
    expect(applyScore(sheet, [5, 5, 5, 5, 5], 9).points).toBe(30);
    expect(applyScore(sheet, [5, 5, 5, 5, 5], 10).points).toBe(40);
    expect(applyScore(sheet, [5, 5, 5, 5, 5], 7).points).toBe(25);
  });

  it.each([
    ["InvalidDie", newSheet(0), [1, 2, 3, 4, 0], 0],
    ["BoxOutOfRange", newSheet(0), [1, 2, 3, 4, 5], 13],
    ["BoxOutOfRange", newSheet(3), [1, 2, 3, 4, 5], -1],
    ["BoxFilled", classicWith({ 6: 16 }), [1, 2, 3, 4, 5], 6],
    ["IllegalBox", classicWith({ 11: 50 }), [3, 3, 3, 3, 3], 12],
    ["IllegalBox", classicWith({ 11: 0, 2: 9 }), [3, 3, 3, 3, 3], 0],
    [
      "SheetFull",
      classicWith(Object.fromEntries(Array.from({ length: 13 }, (_, i) => [i, 0]))),
      [1, 2, 3, 4, 5],
      0,
    ],
  ] as [RulesErrorCode, Sheet, number[], number][])("throws %s", (code, sheet, dice, box) => {
    expect(() => applyScore(sheet, dice, box)).toThrow(rulesError(code));
  });

  it("names the filled box in its message", () => {
    expect(() => applyScore(classicWith({ 12: 20 }), [1, 2, 3, 4, 5], 12)).toThrow(/Chance/);
  });
});

describe("totals", () => {
  it("counts the upper bonus as soon as the upper total reaches 63, sheet complete or not", () => {
    const sheet = classicWith({ 3: 16, 4: 25, 5: 24 });
    expect(totals(sheet)).toEqual({
      upper: 65,
      upperBonus: 35,
      lower: 0,
      yahtzeeBonus: 0,
      total: 100,
    });
  });

  it("gives no upper bonus at 62", () => {
    expect(totals(classicWith({ 3: 16, 4: 25, 5: 18, 2: 3 })).upperBonus).toBe(0);
  });

  it("uses each rule set's own upper bonus", () => {
    const upper63 = [3, 6, 9, 12, 15, 18];
    const bonusFor = (ruleSet: RuleSetId): number => {
      const sheet = newSheet(ruleSet);
      upper63.forEach((points, box) => (sheet.boxes[box] = points));
      return totals(sheet).upperBonus;
    };
    expect([0, 1, 2, 3].map((id) => bonusFor(id as RuleSetId))).toEqual([35, 50, 0, 35]);
  });

  it("adds the lower section and 100 per Yahtzee bonus", () => {
    const sheet: Sheet = {
      ruleSet: 0,
      boxes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
      yahtzeeBonuses: 2,
    };
    expect(totals(sheet)).toEqual({
      upper: 21,
      upperBonus: 0,
      lower: 70,
      yahtzeeBonus: 200,
      total: 291,
    });
  });
});

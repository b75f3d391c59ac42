// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RulesError } from "./errors.ts";
import { boxCount, type RuleSetId } from "./ruleSets.ts";
import { scoreBox } from "./score.ts";
import { applyScore, boxOptions, isComplete, newSheet, totals, type Sheet } from "./sheet.ts";

interface Vectors {
  boxCases: { box: number; dice: number[]; ruleSet: number; score: number }[];
  sheetCases: {
    bonuses: number[];
    boxes: number[];
    dice: number[];
    points: number[];
    ruleSet: RuleSetId;
    total: number;
    upperBonus: number;
    yahtzeeBonus: number;
  }[];
  jokerCases: {
    dice: number[];
    filledBoxes: number[];
    filledScores: number[];
    legalBoxes: number[];
    legalPoints: number[];
    ruleSet: RuleSetId;
  }[];
  errorCases: { box: number; dice: number[]; error: string; ruleSet: number }[];
}

const vectors = JSON.parse(
  readFileSync(new URL("../../test/vectors/rules-vectors.json", import.meta.url), "utf8"),
) as Vectors;

const label = (dice: readonly number[]): string => dice.join("");

describe("shared rule vectors", () => {
  it("has the sections and sizes both test suites rely on", () => {
    expect(vectors.boxCases.length).toBeGreaterThanOrEqual(300);
    expect(vectors.sheetCases.length).toBeGreaterThanOrEqual(40);
    expect(vectors.jokerCases.length).toBeGreaterThanOrEqual(20);
    expect(vectors.errorCases.length).toBeGreaterThanOrEqual(10);
  });

  it("keeps every object's keys in alphabetical order, as Solidity decodes them", () => {
    for (const section of Object.values(vectors)) {
      for (const c of section as object[]) {
        const keys = Object.keys(c);
        expect(keys).toEqual([...keys].sort());
      }
    }
  });

  it("covers every box of every rule set", () => {
    for (const ruleSet of [0, 1, 2, 3]) {
      const covered = new Set(
        vectors.boxCases.filter((c) => c.ruleSet === ruleSet).map((c) => c.box),
      );
      expect(covered.size).toBe(boxCount(ruleSet));
    }
  });

  it.each(vectors.boxCases.map((c) => [c.ruleSet, c.box, label(c.dice), c.score, c.dice] as const))(
    "boxCase: rule set %i, box %i, %s scores %i",
    (ruleSet, box, _, score, dice) => {
      expect(scoreBox(ruleSet, box, dice)).toBe(score);
    },
  );

  it.each(vectors.sheetCases.map((c, i) => [i, c.ruleSet, c.total, c] as const))(
    "sheetCase %i: rule set %i totals %i",
    (_, ruleSet, total, c) => {
      expect(c.boxes.length).toBe(boxCount(ruleSet));
      expect(new Set(c.boxes).size).toBe(c.boxes.length);
      expect(c.dice.length).toBe(5 * c.boxes.length);
      let sheet: Sheet = newSheet(ruleSet);
      c.boxes.forEach((box, move) => {
        const result = applyScore(sheet, c.dice.slice(5 * move, 5 * move + 5), box);
        expect([result.points, result.bonus], `move ${move}`).toEqual([
          c.points[move],
          c.bonuses[move],
        ]);
        sheet = result.sheet;
      });
      expect(isComplete(sheet)).toBe(true);
      const t = totals(sheet);
      expect([t.total, t.upperBonus, t.yahtzeeBonus]).toEqual([
        total,
        c.upperBonus,
        c.yahtzeeBonus,
      ]);
    },
  );

  it.each(vectors.jokerCases.map((c, i) => [i, label(c.dice), c] as const))(
    "jokerCase %i: %s",
    (_, __, c) => {
      const sheet = newSheet(c.ruleSet);
      c.filledBoxes.forEach((box, i) => (sheet.boxes[box] = c.filledScores[i]));
      const legal = boxOptions(sheet, c.dice).filter((o) => o.legal);
      expect(legal.map((o) => o.box)).toEqual(c.legalBoxes);
      expect(legal.map((o) => o.points)).toEqual(c.legalPoints);
      // Every open box that is not listed must be refused when played.
      for (const option of boxOptions(sheet, c.dice).filter((o) => !o.legal)) {
        expect(() => applyScore(sheet, c.dice, option.box)).toThrow(
          expect.objectContaining({ code: "IllegalBox" }),
        );
      }
    },
  );

  it.each(vectors.errorCases.map((c) => [c.error, c.ruleSet, c.box, label(c.dice), c] as const))(
    "errorCase %s: rule set %i, box %i, %s",
    (error, _, __, ___, c) => {
      let thrown: unknown;
      try {
        scoreBox(c.ruleSet, c.box, c.dice);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(RulesError);
      expect((thrown as RulesError).code).toBe(error);
    },
  );
});

import { describe, expect, it } from "vitest";
import { RULE_SETS } from "@dicehall/core/rules/ruleSets.ts";
import { boxExamples, hasExamples, jokerExamples, upperBonusExample } from "./rulesExamples.ts";

const points = (ruleSet: 0 | 1 | 2 | 3, box: number, dice: number[]) =>
  boxExamples(ruleSet, box).find((e) => e.dice.join() === dice.join())?.points;

describe("boxExamples", () => {
  it("has examples for every box of every rule set", () => {
    for (const info of RULE_SETS) expect(hasExamples(info.id)).toBe(true);
  });

  it("scores the public examples of RULES.md as the rules say", () => {
    expect(points(0, 6, [3, 3, 3, 5, 2])).toBe(16);
    expect(points(0, 8, [1, 1, 1, 5, 5])).toBe(25);
    expect(points(0, 9, [1, 2, 3, 4, 6])).toBe(30);
    expect(points(0, 10, [2, 3, 4, 5, 6])).toBe(40);
    expect(points(1, 6, [3, 4, 3, 5, 6])).toBe(6);
    expect(points(1, 7, [3, 3, 5, 4, 5])).toBe(16);
    expect(points(1, 10, [1, 2, 3, 4, 5])).toBe(15);
    expect(points(2, 0, [1, 1, 1, 4, 5])).toBe(3);
    expect(points(2, 12, [1, 4, 4, 5, 6])).toBe(20);
    expect(points(3, 14, [1, 3, 3, 5, 5])).toBe(17);
    expect(points(3, 8, [6, 6, 6, 5, 5])).toBe(28);
    expect(points(3, 8, [1, 1, 1, 5, 5])).toBe(25);
    expect(points(3, 15, [6, 6, 6, 6, 6])).toBe(6);
  });

  it("shows a near miss scoring 0 where a box has a condition", () => {
    expect(points(0, 11, [4, 4, 4, 4, 2])).toBe(0);
    expect(points(0, 8, [6, 6, 6, 6, 6])).toBe(0);
    expect(points(1, 10, [1, 2, 3, 4, 6])).toBe(0);
  });
});

describe("jokerExamples", () => {
  const [forced, lower, zero] = jokerExamples();

  it("forces the open upper box of the face, with the bonus", () => {
    expect(forced.allowed).toEqual([{ box: 3, points: 20, bonus: 100, legal: true }]);
    expect(forced.reason).toMatch(/must go in Fours/);
  });

  it("then allows any open lower box at full value", () => {
    const byBox = Object.fromEntries(lower.allowed.map((o) => [o.box, o.points]));
    expect(byBox).toEqual({ 6: 20, 7: 20, 8: 25, 9: 30, 10: 40, 12: 20 });
    expect(lower.allowed.every((o) => o.bonus === 100)).toBe(true);
    expect(lower.forbidden).toBe(5);
  });

  it("finally a zero in an open upper box, without a bonus when the Yahtzee box holds 0", () => {
    expect(zero.allowed.map((o) => [o.box, o.points, o.bonus])).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
      [4, 0, 0],
      [5, 0, 0],
    ]);
  });
});

describe("upperBonusExample", () => {
  it("reaches the threshold with three of each face", () => {
    expect(upperBonusExample(0)).toEqual({ upper: 63, bonus: 35 });
    expect(upperBonusExample(1)).toEqual({ upper: 63, bonus: 50 });
    expect(upperBonusExample(2)).toBeNull();
  });
});

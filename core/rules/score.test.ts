// @vitest-environment node
import { describe, expect, it } from "vitest";
import { RulesError, type RulesErrorCode } from "./errors.ts";
import { RULE_SETS } from "./ruleSets.ts";
import { scoreBox } from "./score.ts";

function codeOf(run: () => unknown): RulesErrorCode | "none" {
  try {
    run();
    return "none";
  } catch (error) {
    if (error instanceof RulesError) return error.code;
    throw error;
  }
}

/** Every multiset of five dice, once. */
function allHands(): number[][] {
  const out: number[][] = [];
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++)
      for (let c = b; c <= 6; c++)
        for (let d = c; d <= 6; d++) for (let e = d; e <= 6; e++) out.push([a, b, c, d, e]);
  return out;
}

describe("scoreBox", () => {
  it.each([
    [[0, 1, 1, 1, 1]],
    [[1, 1, 1, 1, 7]],
    [[1, 1, 1, 1, 1.5]],
    [[1, 1, 1, 1]],
    [[1, 1, 1, 1, 1, 1]],
    [[1, 1, 1, 1, NaN]],
  ])("rejects %j as InvalidDie", (dice) => {
    expect(codeOf(() => scoreBox(0, 0, dice))).toBe("InvalidDie");
  });

  it("rejects boxes past the sheet, negative or fractional as BoxOutOfRange", () => {
    for (const r of RULE_SETS) {
      for (const box of [-1, 0.5, r.boxes.length, 255]) {
        expect(codeOf(() => scoreBox(r.id, box, [1, 2, 3, 4, 5]))).toBe("BoxOutOfRange");
      }
    }
  });

  it("rejects unknown rule sets before looking at the box or the dice", () => {
    expect(codeOf(() => scoreBox(4, 99, [0, 0, 0, 0, 0]))).toBe("UnknownRuleSet");
  });

  it("explains the error in player words", () => {
    expect(() => scoreBox(0, 0, [1, 2, 3, 4, 9])).toThrow(/1 to 6/);
  });

  it("does not depend on the order of the dice", () => {
    for (const hand of allHands()) {
      const reversed = [...hand].reverse();
      const rotated = [...hand.slice(2), ...hand.slice(0, 2)];
      for (const r of RULE_SETS) {
        for (const box of r.boxes) {
          const score = scoreBox(r.id, box.index, hand);
          expect(scoreBox(r.id, box.index, reversed)).toBe(score);
          expect(scoreBox(r.id, box.index, rotated)).toBe(score);
        }
      }
    }
  });

  it("scores the upper boxes as the sum of that face in every rule set", () => {
    for (const hand of allHands()) {
      for (const r of RULE_SETS) {
        for (let face = 1; face <= 6; face++) {
          const sum = hand.filter((die) => die === face).length * face;
          expect(scoreBox(r.id, face - 1, hand)).toBe(sum);
        }
      }
    }
  });

  it("never scores five of a kind as a Full House", () => {
    for (let face = 1; face <= 6; face++) {
      const dice = [face, face, face, face, face];
      for (const [ruleSet, box] of [
        [0, 8],
        [1, 12],
        [2, 8],
        [3, 8],
      ]) {
        expect(scoreBox(ruleSet, box, dice)).toBe(0);
      }
    }
  });
});

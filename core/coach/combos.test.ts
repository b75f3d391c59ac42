import { describe, expect, it } from "vitest";
import { scoreBox } from "../rules/score.ts";
import {
  CHILD,
  HAND_BASE,
  HAND_COUNT,
  HAND_DICE,
  HAND_PROB,
  KEEP_COUNT,
  KEEP_SIZE,
  SUB_KEEPS,
  SUB_KEEP_START,
  canonicalMask,
  handOf,
  keepDice,
  keepOf,
  keepsOfRoll,
} from "./combos.ts";
import { modelOf } from "./solver.ts";

describe("coach combinatorics", () => {
  it("has 462 keeps, 252 hands, and the odds of a roll sum to 1", () => {
    expect(KEEP_COUNT).toBe(462);
    expect(HAND_COUNT).toBe(252);
    expect([0, 1, 2, 3, 4, 5].map((n) => KEEP_SIZE.filter((s) => s === n).length)).toEqual([
      1, 6, 21, 56, 126, 252,
    ]);
    expect(HAND_PROB.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    expect(HAND_PROB[handOf([1, 2, 3, 4, 5])]).toBeCloseTo(120 / 7776, 15);
    expect(HAND_PROB[handOf([6, 6, 6, 6, 6])]).toBeCloseTo(1 / 7776, 15);
  });

  it("grows a keep by one die and lists each hand's re-rolls", () => {
    const k = keepOf([3, 1]);
    expect(keepDice(CHILD[k * 6 + 5])).toEqual([1, 3, 6]);
    const h = handOf([2, 2, 5, 5, 5]);
    // Sub-multisets of {2,2,5,5,5}: 3 x 4 = 12, less the hand itself.
    expect(SUB_KEEP_START[h + 1] - SUB_KEEP_START[h]).toBe(11);
    expect(keepsOfRoll([4, 1, 4, 6, 2])).toHaveLength(24);
    expect(canonicalMask([4, 1, 4, 6, 2], [4, 4])).toBe(0b00101);
    for (let j = 0; j < SUB_KEEPS.length; j++) expect(SUB_KEEPS[j]).toBeLessThan(HAND_BASE);
  });

  it("takes every score from the rules engine", () => {
    for (const rs of [0, 1, 2, 3] as const) {
      const m = modelOf(rs);
      for (let b = 0; b < m.boxes; b++) {
        for (let h = 0; h < HAND_COUNT; h++) {
          if (m.score[b * HAND_COUNT + h] !== scoreBox(rs, b, HAND_DICE[h]))
            throw new Error(`${rs}/${b}/${h}`);
        }
      }
    }
  });

  it("knows which upper totals the filled upper boxes can make", () => {
    const m = modelOf(0);
    expect([...m.reachable[0]]).toEqual([0]);
    expect([...m.reachable[0b000001]]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...m.reachable[0b100000]]).toEqual([0, 6, 12, 18, 24, 30]);
    expect(m.reachable[0b111111].at(-1)).toBe(63);
    expect(modelOf(2).upperStates).toBe(1);
    expect(modelOf(0).flagStates).toBe(2);
    expect(modelOf(3).flagStates).toBe(1);
  });
});

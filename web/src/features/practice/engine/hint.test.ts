import { describe, expect, it } from "vitest";
import { initialPractice, practiceReducer, type PracticeState } from "./engine.ts";
import { hintKeepMask, practiceHint } from "./hint.ts";

function withDice(dice: number[], rollsUsed: number, ruleSet: 0 | 1 | 2 | 3 = 0): PracticeState {
  const state = practiceReducer(initialPractice(), {
    type: "start",
    setup: { ruleSet, names: ["Ann"], games: 1 },
  });
  return { ...state, game: { ...state.game!, dice, rollsUsed } };
}

describe("practiceHint", () => {
  it("says to roll before the first roll", () => {
    const state = practiceReducer(initialPractice(), {
      type: "start",
      setup: { ruleSet: 1, names: ["Ann"], games: 1 },
    });
    expect(practiceHint(state)).toBe("Hint: roll all five dice.");
  });

  it("scores a Yahtzee at once", () => {
    expect(practiceHint(withDice([5, 5, 5, 5, 5], 1))).toBe(
      "Hint: score 50 in Yahtzee. Why: no re-roll does better on average.",
    );
    expect(hintKeepMask(withDice([5, 5, 5, 5, 5], 1))).toBeNull();
  });

  it("keeps four of a kind and rolls for the fifth", () => {
    const state = withDice([6, 6, 2, 6, 6], 1);
    const hint = practiceHint(state)!;
    expect(hint).toMatch(/^Hint: keep 6, 6, 6, 6 \(dice 1, 2, 4, 5\) and roll again\. Why: /);
    // A sixth 6 in two rolls of one die: 1 - (5/6)^2 = 11/36.
    expect(hint).toContain("Yahtzee (31%)");
    expect(hintKeepMask(state)).toBe(0b11011);
  });

  it("always scores after the third roll", () => {
    expect(practiceHint(withDice([1, 2, 3, 4, 6], 3))).toMatch(
      /^Hint: score \d+ in [A-Za-z ]+\. Why: no rolls are left, /,
    );
  });

  // Issue 11: the hand a player asked about. It is two dice (a 2 and a 3) from either Yatzy
  // straight; the two 1s are the least worth keeping.
  it("does not keep the 1s of 1-6-5-4-1 in Yatzy, and says why", () => {
    for (const rollsUsed of [1, 2]) {
      const state = withDice([1, 6, 5, 4, 1], rollsUsed, 1);
      const hint = practiceHint(state)!;
      expect(hint).toMatch(/^Hint: keep [456, ]+ \(dice? [\d, ]+\) and roll again\. Why: /);
      expect(hint).not.toMatch(/keep 1/);
      const mask = hintKeepMask(state)!;
      expect(mask & 0b10001).toBe(0);
    }
  });

  it("keeps a Yahtzee run and names the straights it aims at", () => {
    const hint = practiceHint(withDice([1, 2, 3, 4, 6], 1))!;
    expect(hint).toMatch(/^Hint: keep 1, 2, 3, 4 \(dice 1, 2, 3, 4\) and roll again\./);
    expect(hint).toMatch(/Why: it most likely ends in .*Small Straight \(\d+%\)/);
    expect(hint).toMatch(/Large Straight \(\d+%\)/);
    expect(hintKeepMask(withDice([1, 2, 3, 4, 6], 1))).toBe(0b01111);
  });

  it("has nothing to say in the setup", () => {
    expect(practiceHint(initialPractice())).toBeNull();
  });
});

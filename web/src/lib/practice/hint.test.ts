import { describe, expect, it } from "vitest";
import { initialPractice, practiceReducer, type PracticeState } from "./engine.ts";
import { hintKeepMask, practiceHint } from "./hint.ts";

function withDice(dice: number[], rollsUsed: number): PracticeState {
  const state = practiceReducer(initialPractice(), {
    type: "start",
    setup: { ruleSet: 0, names: ["Ann"], games: 1 },
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
    expect(practiceHint(withDice([5, 5, 5, 5, 5], 1))).toBe("Hint: score 50 in Yahtzee.");
    expect(hintKeepMask(withDice([5, 5, 5, 5, 5], 1))).toBeNull();
  });

  it("keeps four of a kind and rolls for the fifth", () => {
    const state = withDice([6, 6, 2, 6, 6], 1);
    expect(practiceHint(state)).toBe("Hint: keep 6, 6, 6, 6 (dice 1, 2, 4, 5) and roll again.");
    expect(hintKeepMask(state)).toBe(0b11011);
  });

  it("always scores after the third roll", () => {
    expect(practiceHint(withDice([1, 2, 3, 4, 6], 3))).toMatch(/^Hint: score \d+ in /);
  });

  it("has nothing to say in the setup", () => {
    expect(practiceHint(initialPractice())).toBeNull();
  });
});

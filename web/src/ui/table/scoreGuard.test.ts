import { describe, expect, it } from "vitest";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions, newSheet } from "@dicehall/core/rules/sheet.ts";
import { scoreGuard } from "./scoreGuard.ts";

const name = (box: number) => ruleSet(0).boxes[box].name;
const optionsFor = (dice: number[]) => boxOptions(newSheet(0), dice);

describe("scoreGuard", () => {
  it("asks twice for a box worth 0, naming the best one", () => {
    // 2 2 3 3 3 is a Full House: Ones scores nothing.
    const why = scoreGuard(0, optionsFor([2, 2, 3, 3, 3]), name);
    expect(why).toBe(
      "Ones scores 0 with these dice. Your best box now is Full House for 25. Press again to score 0 in Ones.",
    );
  });

  it("asks twice for a box far below the best", () => {
    // Twos scores 4 where the Full House scores 25.
    expect(scoreGuard(1, optionsFor([2, 2, 3, 3, 3]), name)).toMatch(
      /^Twos scores only 4\. Your best box now is Full House for 25\. Press again/,
    );
  });

  it("lets the best box and the close calls through at one press", () => {
    const options = optionsFor([2, 2, 3, 3, 3]);
    expect(scoreGuard(8, options, name)).toBeNull(); // Full House, 25
    expect(scoreGuard(2, options, name)).toBeNull(); // Threes, 9 where the best is 25
    expect(scoreGuard(12, options, name)).toBeNull(); // Chance, 13
  });

  it("says nothing for a box that cannot be chosen or when nothing can be scored", () => {
    expect(scoreGuard(0, null, name)).toBeNull();
    const options = optionsFor([2, 2, 3, 3, 3]).map((o) =>
      o.box === 0 ? { ...o, legal: false } : o,
    );
    expect(scoreGuard(0, options, name)).toBeNull();
  });
});

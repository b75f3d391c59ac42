import { describe, expect, it } from "vitest";
import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions, newSheet, type Sheet } from "@dicehall/core/rules/sheet.ts";
import { scoreGuard } from "./scoreGuard.ts";

const name = (box: number) => ruleSet(0).boxes[box].name;
const BOX = Object.fromEntries(ruleSet(0).boxes.map((b) => [b.name, b.index])) as Record<
  string,
  number
>;

/** A Yahtzee sheet with these boxes filled (name → points); the rest open. */
function sheetWith(filled: Record<string, number> = {}, ruleSetId: RuleSetId = 0): Sheet {
  const sheet = newSheet(ruleSetId);
  for (const [box, points] of Object.entries(filled)) sheet.boxes[BOX[box]] = points;
  return sheet;
}

/** A sheet late in the game: every box filled (with 1 point) but these. */
const allFilledBut = (open: string[]): Sheet =>
  sheetWith(
    Object.fromEntries(
      ruleSet(0)
        .boxes.filter((b) => !open.includes(b.name))
        .map((b) => [b.name, 1]),
    ),
  );

const ask = (sheet: Sheet, dice: number[], box: string) =>
  scoreGuard(BOX[box], boxOptions(sheet, dice), name, 0) !== null;

/** Real positions: the sheet, the dice, the box pressed, and whether a second press is asked. */
const POSITIONS: [string, Sheet, number[], string, boolean][] = [
  // Dumps: a low score where it costs least. One press.
  ["three 1s in Ones while Chance is 13", sheetWith(), [1, 1, 1, 4, 6], "Ones", false],
  ["one 5 in Fives", sheetWith(), [5, 1, 2, 2, 6], "Fives", false],
  ["one 6 in Sixes", sheetWith(), [6, 1, 2, 2, 5], "Sixes", false],
  ["4 in Twos with a Full House on the table", sheetWith(), [2, 2, 3, 3, 3], "Twos", false],
  [
    "9 in Chance late in the game",
    sheetWith({ Ones: 2, Twos: 4 }),
    [1, 1, 2, 2, 3],
    "Chance",
    false,
  ],
  [
    "13 in Three of a Kind where Chance makes the same",
    sheetWith(),
    [2, 2, 2, 3, 4],
    "Three of a Kind",
    false,
  ],
  [
    "0 in Yahtzee when no open box scores",
    allFilledBut(["Ones", "Yahtzee"]),
    [2, 3, 4, 6, 6],
    "Yahtzee",
    false,
  ],
  // The moves themselves: one press.
  ["25 in Full House", sheetWith(), [2, 2, 3, 3, 3], "Full House", false],
  ["24 in Sixes", sheetWith(), [6, 6, 6, 6, 2], "Sixes", false],
  // Clear slips: a second press.
  ["0 in Ones with a Full House open", sheetWith(), [2, 2, 3, 3, 3], "Ones", true],
  ["0 in Sixes while Ones would take 3", sheetWith({ Chance: 20 }), [1, 1, 1, 5, 5], "Sixes", true],
  ["2 in Twos when Sixes would take 24", sheetWith(), [6, 6, 6, 6, 2], "Twos", true],
  [
    "5 in Three of a Kind when five 1s make a Yahtzee",
    sheetWith(),
    [1, 1, 1, 1, 1],
    "Three of a Kind",
    true,
  ],
];

describe("scoreGuard: a second press for a clear slip, never for a dump", () => {
  it.each(POSITIONS)("%s", (_, sheet, dice, box, asks) => {
    expect(ask(sheet, dice, box)).toBe(asks);
  });

  it("says why, naming the best box", () => {
    expect(scoreGuard(BOX.Ones, boxOptions(newSheet(0), [2, 2, 3, 3, 3]), name, 0)).toBe(
      "Ones scores 0 with these dice. Your best box now is Full House for 25. Press again to score 0 in Ones.",
    );
    expect(scoreGuard(BOX.Twos, boxOptions(newSheet(0), [6, 6, 6, 6, 2]), name, 0)).toBe(
      "Twos scores only 2. Your best box now is Sixes for 24. Press again to score 2 in Twos.",
    );
  });

  it("says nothing for a box that cannot be chosen or when nothing can be scored", () => {
    expect(scoreGuard(0, null, name, 0)).toBeNull();
    const options = boxOptions(newSheet(0), [2, 2, 3, 3, 3]).map((o) =>
      o.box === 0 ? { ...o, legal: false } : o,
    );
    expect(scoreGuard(0, options, name, 0)).toBeNull();
  });
});

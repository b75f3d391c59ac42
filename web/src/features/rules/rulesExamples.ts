import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { scoreBox } from "@dicehall/core/rules/score.ts";
import {
  boxOptions,
  newSheet,
  totals,
  type BoxOption,
  type Sheet,
} from "@dicehall/core/rules/sheet.ts";

/**
 * Examples for the rules pages. Only the dice are chosen here; every score is computed by the
 * rules engine, so the pages cannot drift from what the contract and the table do.
 */

export interface BoxExample {
  dice: number[];
  points: number;
}

/** Dice that show what a box rewards, and a near miss, by box key (shared across rule sets). */
const EXAMPLE_DICE: Record<string, number[][]> = {
  ones: [
    [1, 1, 1, 4, 5],
    [2, 3, 4, 5, 6],
  ],
  twos: [
    [2, 2, 5, 6, 2],
    [1, 3, 4, 5, 6],
  ],
  threes: [
    [3, 3, 3, 3, 1],
    [1, 2, 4, 5, 6],
  ],
  fours: [
    [4, 4, 1, 2, 3],
    [1, 1, 2, 2, 3],
  ],
  fives: [
    [5, 5, 5, 2, 6],
    [1, 2, 3, 4, 6],
  ],
  sixes: [
    [6, 6, 6, 1, 2],
    [1, 2, 3, 4, 5],
  ],
  threeOfAKind: [
    [3, 3, 3, 5, 2],
    [6, 6, 6, 6, 1],
    [1, 2, 3, 4, 4],
  ],
  fourOfAKind: [
    [6, 6, 6, 6, 2],
    [6, 6, 6, 2, 2],
  ],
  fullHouse: [
    [1, 1, 1, 5, 5],
    [6, 6, 6, 5, 5],
    [6, 6, 6, 6, 6],
  ],
  smallStraight: [
    [1, 2, 3, 4, 6],
    [1, 2, 3, 4, 5],
    [1, 2, 3, 5, 6],
  ],
  largeStraight: [
    [2, 3, 4, 5, 6],
    [1, 2, 3, 4, 5],
    [1, 2, 3, 4, 6],
  ],
  yahtzee: [
    [4, 4, 4, 4, 4],
    [4, 4, 4, 4, 2],
  ],
  yatzy: [
    [4, 4, 4, 4, 4],
    [4, 4, 4, 4, 2],
  ],
  yatzi: [
    [4, 4, 4, 4, 4],
    [4, 4, 4, 4, 2],
  ],
  chance: [
    [1, 4, 4, 5, 6],
    [6, 6, 6, 6, 5],
  ],
  random: [
    [1, 4, 4, 5, 6],
    [6, 6, 6, 6, 5],
  ],
  onePair: [
    [3, 4, 3, 5, 6],
    [6, 6, 5, 5, 1],
    [1, 2, 3, 4, 6],
  ],
  twoPairs: [
    [3, 3, 5, 4, 5],
    [2, 2, 2, 5, 5],
    [4, 4, 4, 4, 1],
  ],
  highSequence: [
    [2, 3, 4, 5, 6],
    [1, 2, 3, 4, 5],
  ],
  lowSequence: [
    [1, 2, 3, 4, 5],
    [2, 3, 4, 5, 6],
  ],
  pair: [
    [1, 3, 3, 5, 6],
    [1, 2, 3, 4, 6],
  ],
  doublePair: [
    [1, 3, 3, 5, 5],
    [2, 2, 2, 4, 6],
  ],
  misere: [
    [1, 1, 2, 1, 2],
    [6, 6, 6, 6, 6],
  ],
};

export function boxExamples(ruleSetId: RuleSetId, box: number): BoxExample[] {
  const info = ruleSet(ruleSetId).boxes[box];
  const hands = EXAMPLE_DICE[info.key] ?? [];
  return hands.map((dice) => ({ dice, points: scoreBox(ruleSetId, box, dice) }));
}

export const hasExamples = (ruleSetId: RuleSetId): boolean =>
  ruleSet(ruleSetId).boxes.every((b) => (EXAMPLE_DICE[b.key]?.length ?? 0) > 0);

// ------------------------------------------------------------------ the Joker rule (classic)

export interface JokerExample {
  title: string;
  /** The sheet before the roll, in words. */
  situation: string;
  dice: number[];
  /** The boxes the rules allow, with what each scores (bonus included separately). */
  allowed: BoxOption[];
  /** How many open boxes the Joker rule forbids here. */
  forbidden: number;
  /** The reason the engine gives for a forbidden box, if any. */
  reason: string | null;
}

const CLASSIC: RuleSetId = 0;
const FOURS = 3;
const YAHTZEE_BOX = 11;

function sheetWith(filled: Record<number, number>): Sheet {
  const sheet = newSheet(CLASSIC);
  for (const [box, points] of Object.entries(filled)) sheet.boxes[Number(box)] = points;
  return sheet;
}

function example(title: string, situation: string, sheet: Sheet, dice: number[]): JokerExample {
  const options = boxOptions(sheet, dice);
  const forbidden = options.filter((o) => !o.legal);
  return {
    title,
    situation,
    dice,
    allowed: options.filter((o) => o.legal),
    forbidden: forbidden.length,
    reason: forbidden[0]?.reason ?? null,
  };
}

/** Three rolls of 4-4-4-4-4 on three classic sheets: the three steps of the forced Joker rule. */
export function jokerExamples(): JokerExample[] {
  const dice = [4, 4, 4, 4, 4];
  const lowerFilled: Record<number, number> = { 6: 17, 7: 0, 8: 25, 9: 30, 10: 0, 12: 22 };
  return [
    example(
      "1 · The upper box of that face is open",
      "Yahtzee box holds 50; Fours is open.",
      sheetWith({ [YAHTZEE_BOX]: 50 }),
      dice,
    ),
    example(
      "2 · The face is filled: any open lower box, at full value",
      "Yahtzee box holds 50; Fours is filled (12); every lower box is open.",
      sheetWith({ [YAHTZEE_BOX]: 50, [FOURS]: 12 }),
      dice,
    ),
    example(
      "3 · Every lower box is filled too: a zero in an upper box",
      "Yahtzee box holds 0 (scratched earlier); Fours and every lower box are filled; Ones, Twos, Threes, Fives and Sixes are open.",
      sheetWith({ ...lowerFilled, [YAHTZEE_BOX]: 0, [FOURS]: 12 }),
      dice,
    ),
  ];
}

// ------------------------------------------------------------------ bonuses

/** Three of each face in the upper section: exactly the 63 the upper bonus asks for. */
export function upperBonusExample(ruleSetId: RuleSetId): { upper: number; bonus: number } | null {
  const info = ruleSet(ruleSetId);
  if (!info.upperBonus) return null;
  const sheet = newSheet(ruleSetId);
  for (let face = 1; face <= 6; face++) sheet.boxes[face - 1] = 3 * face;
  const t = totals(sheet);
  return { upper: t.upper, bonus: t.upperBonus };
}

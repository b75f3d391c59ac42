import { RulesError } from "./errors.ts";
import { ruleSet, type RuleSetId } from "./ruleSets.ts";
import { checkDice, type Dice } from "./score.ts";
import { boxOptions, isComplete, totals, type BoxOption, type Sheet } from "./sheet.ts";

/**
 * A bot that plans the rest of its turn exactly (all outcomes of the remaining rolls, by their
 * odds) but values a placement with a fixed table instead of looking at later turns: decent play
 * for the simulator and practice hints, at a few milliseconds a move.
 */

export type TurnAction = { action: "roll"; keepMask: number } | { action: "score"; box: number };

const ROLLS_PER_TURN = 3;

/**
 * What a box is worth to a decent player over a game, so filling it now costs that much.
 * Rough averages; the bot only needs their order to be sensible.
 */
const BOX_WORTH: Record<RuleSetId, readonly number[]> = {
  0: [2, 5, 8, 11, 14, 17, 22, 13, 22, 29, 32, 16, 22],
  1: [2, 5, 8, 11, 14, 17, 10, 15, 12, 8, 6, 7, 14, 22, 10],
  2: [2, 5, 8, 11, 14, 17, 19, 18, 20, 15, 20, 16, 22],
  3: [2, 5, 8, 11, 14, 17, 21, 13, 24, 29, 32, 14, 22, 20, 18, 24],
};

/**
 * What a lower box is charged for being filled now: less than its full worth, since the worth is
 * what a player gets there when the later turns chase it, and those turns have other uses. At the
 * full worth a made straight looked barely better than two 6s, and 1-2-3-4 was thrown back for
 * the 6. (400 bot games a rule set: Yahtzee 245 → 252 mean, the others within noise.)
 */
const LOWER_CHARGE = 0.85;

function placementValue(sheet: Sheet, option: BoxOption, upperSoFar: number): number {
  const upper = option.box < 6;
  const charge = (upper ? 1 : LOWER_CHARGE) * BOX_WORTH[sheet.ruleSet][option.box];
  let value = option.points + option.bonus - charge;
  const bonus = ruleSet(sheet.ruleSet).upperBonus;
  if (upper && bonus !== null && upperSoFar < bonus.threshold) {
    const par = 3 * (option.box + 1);
    // Par (three of the face) in every upper box makes the bonus, so par here earns the box its
    // part of the bonus in proportion to par, less the half it would earn filled later anyway.
    // (A flat part made three 1s worth as much as three 6s: the hint kept 1-1 of 1-6-5-4-1.)
    const share = (bonus.points * par) / bonus.threshold;
    value += (option.points - par) / 2 + (option.points >= par ? share / 2 : -share / 2);
  }
  return value;
}

function bestPlacement(sheet: Sheet, dice: Dice): { box: number; value: number } {
  const upperSoFar = totals(sheet).upper;
  let best = { box: -1, value: -Infinity };
  for (const option of boxOptions(sheet, dice)) {
    if (!option.legal) continue;
    const value = placementValue(sheet, option, upperSoFar);
    if (value > best.value) best = { box: option.box, value };
  }
  return best;
}

/** The box the bot scores `dice` in; always a legal one. */
export function chooseBox(sheet: Sheet, dice: readonly number[]): number {
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  return bestPlacement(sheet, checkDice(dice)).box;
}

// A multiset of dice is its face counts, packed base 6 (a count is at most 5). Packing is
// additive, so kept dice plus re-rolled dice is one addition.
const FACE_WEIGHT = [1, 6, 36, 216, 1296, 7776];

function countsOf(dice: readonly number[]): number[] {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const die of dice) counts[die - 1]++;
  return counts;
}
const keyOf = (counts: readonly number[]): number =>
  counts.reduce((key, count, i) => key + count * FACE_WEIGHT[i], 0);

function multisets(size: number): number[][] {
  const out: number[][] = [];
  const walk = (face: number, left: number, counts: number[]): void => {
    if (face === 5) return void out.push([...counts, left]);
    for (let c = 0; c <= left; c++) walk(face + 1, left - c, [...counts, c]);
  };
  walk(0, size, []);
  return out;
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** OUTCOMES[n]: every multiset that re-rolling n dice can give, with its probability. */
const OUTCOMES = [0, 1, 2, 3, 4, 5].map((n) =>
  multisets(n).map((counts) => ({
    key: keyOf(counts),
    probability: factorial(n) / counts.reduce((d, c) => d * factorial(c), 1) / Math.pow(6, n),
  })),
);
const HANDS = multisets(5).map((counts) => ({
  key: keyOf(counts),
  dice: counts.flatMap((count, i) => Array<number>(count).fill(i + 1)),
  counts,
}));
const HAND_BY_KEY = new Map(HANDS.map((hand) => [hand.key, hand]));
/** Every multiset a player can keep before a re-roll: zero to four dice. */
const KEEPABLE = [0, 1, 2, 3, 4].flatMap((size) =>
  multisets(size).map((counts) => ({ key: keyOf(counts), size })),
);

/** Kept multisets of `counts` that leave at least one die to re-roll. */
function keepChoices(counts: readonly number[]): number[][] {
  const out: number[][] = [];
  const walk = (face: number, kept: number[]): void => {
    if (face === 6) {
      if (kept.some((c, i) => c !== counts[i])) out.push(kept);
      return;
    }
    for (let c = 0; c <= counts[face]; c++) walk(face + 1, [...kept, c]);
  };
  walk(0, []);
  return out;
}

/** For one sheet: the value of stopping with each hand, and of each keep with rolls left. */
class TurnPlan {
  private readonly stopValue = new Map<number, number>();
  private readonly stopBox = new Map<number, number>();
  private readonly keepValue: Map<number, number>[] = [];

  constructor(sheet: Sheet) {
    for (const hand of HANDS) {
      const best = bestPlacement(sheet, hand.dice as unknown as Dice);
      this.stopValue.set(hand.key, best.value);
      this.stopBox.set(hand.key, best.box);
    }
  }

  /**
   * Where the turn ends if the bot keeps `kept` (face counts) and plays on as chooseTurnAction
   * does: each box it may end up scoring in, with its probability.
   */
  endings(kept: readonly number[], rollsLeft: number): Map<number, number> {
    const out = new Map<number, number>();
    const keptKey = keyOf(kept);
    const keptSize = kept.reduce((a, b) => a + b, 0);
    for (const o of OUTCOMES[5 - keptSize]) {
      const hand = HAND_BY_KEY.get(keptKey + o.key)!;
      const next = rollsLeft > 1 ? this.bestKept(hand.counts, rollsLeft - 1) : undefined;
      if (next === undefined || this.stopValue.get(hand.key)! >= next.value) {
        const box = this.stopBox.get(hand.key)!;
        out.set(box, (out.get(box) ?? 0) + o.probability);
      } else {
        for (const [box, p] of this.endings(next.kept, rollsLeft - 1))
          out.set(box, (out.get(box) ?? 0) + o.probability * p);
      }
    }
    return out;
  }

  /** The best dice to keep from `counts` before one of `rollsLeft` rolls. */
  bestKept(counts: readonly number[], rollsLeft: number): { kept: number[]; value: number } {
    const table = this.keepTable(rollsLeft);
    let best = { kept: [] as number[], value: -Infinity };
    for (const kept of keepChoices(counts)) {
      const value = table.get(keyOf(kept))!;
      if (value > best.value) best = { kept, value };
    }
    return best;
  }

  /** Best value with `rollsLeft` rolls still allowed, holding the hand `counts`. */
  handValue(counts: readonly number[], rollsLeft: number): number {
    let value = this.stopValue.get(keyOf(counts))!;
    if (rollsLeft === 0) return value;
    const table = this.keepTable(rollsLeft);
    for (const kept of keepChoices(counts)) value = Math.max(value, table.get(keyOf(kept))!);
    return value;
  }

  keepTable(rollsLeft: number): Map<number, number> {
    if (!this.keepValue[rollsLeft]) {
      const inner = new Map(HANDS.map((h) => [h.key, this.handValue(h.counts, rollsLeft - 1)]));
      this.keepValue[rollsLeft] = this.expectations((key) => inner.get(key)!);
    }
    return this.keepValue[rollsLeft];
  }

  private expectations(valueAfter: (key: number) => number): Map<number, number> {
    const table = new Map<number, number>();
    for (const kept of KEEPABLE) {
      let expected = 0;
      for (const o of OUTCOMES[5 - kept.size])
        expected += o.probability * valueAfter(kept.key + o.key);
      table.set(kept.key, expected);
    }
    return table;
  }
}

/** The keep mask that keeps `kept` (face counts), taking the first dice of each face. */
function maskFor(dice: Dice, kept: readonly number[]): number {
  const left = [...kept];
  let mask = 0;
  dice.forEach((die, position) => {
    if (left[die - 1] > 0) {
      left[die - 1]--;
      mask |= 1 << position;
    }
  });
  return mask;
}

function bestKeep(
  plan: TurnPlan,
  dice: Dice,
  rollsLeft: number,
): { keepMask: number; value: number; kept: number[] } {
  const { kept, value } = plan.bestKept(countsOf(dice), rollsLeft);
  return { keepMask: maskFor(dice, kept), value, kept };
}

/**
 * What the bot does next: roll (with a legal keep mask) or score (in a legal box).
 * `rollsUsed` counts the rolls already made this turn; `dice` is ignored before the first.
 */
export function chooseTurnAction(
  sheet: Sheet,
  dice: readonly number[],
  rollsUsed: number,
): TurnAction {
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  if (rollsUsed === 0) return { action: "roll", keepMask: 0 };
  const hand = checkDice(dice);
  if (rollsUsed >= ROLLS_PER_TURN) return { action: "score", box: chooseBox(sheet, hand) };
  const plan = new TurnPlan(sheet);
  const keep = bestKeep(plan, hand, ROLLS_PER_TURN - rollsUsed);
  const stop = plan.handValue(countsOf(hand), 0);
  return stop >= keep.value
    ? { action: "score", box: chooseBox(sheet, hand) }
    : { action: "roll", keepMask: keep.keepMask };
}

/**
 * The dice to keep if the player rolls again: always a legal re-roll (never all five kept).
 * Whether rolling again beats scoring now is chooseTurnAction's call.
 */
export function chooseKeepMask(sheet: Sheet, dice: readonly number[], rollsUsed: number): number {
  if (rollsUsed === 0) return 0;
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  const rollsLeft = Math.max(1, ROLLS_PER_TURN - rollsUsed);
  return bestKeep(new TurnPlan(sheet), checkDice(dice), rollsLeft).keepMask;
}

/** A box the turn may end in if the player follows the advice, and how likely that is. */
export interface Ending {
  box: number;
  probability: number;
}

/** chooseTurnAction's move, with what it weighed: the grounds for a hint. */
export type TurnAdvice =
  | {
      action: "roll";
      keepMask: number;
      /** Where the turn ends from here with the bot's play, likeliest first. */
      endings: Ending[];
    }
  | {
      action: "score";
      box: number;
      /** The best re-roll's expected placement value minus scoring now's; null on the last roll. */
      rollAgainLoss: number | null;
    };

/** The same move as chooseTurnAction (after the first roll), with its grounds. */
export function adviseTurn(sheet: Sheet, dice: readonly number[], rollsUsed: number): TurnAdvice {
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  const hand = checkDice(dice);
  if (rollsUsed >= ROLLS_PER_TURN)
    return { action: "score", box: chooseBox(sheet, hand), rollAgainLoss: null };
  const plan = new TurnPlan(sheet);
  const rollsLeft = ROLLS_PER_TURN - rollsUsed;
  const keep = bestKeep(plan, hand, rollsLeft);
  const stop = plan.handValue(countsOf(hand), 0);
  if (stop >= keep.value)
    return { action: "score", box: chooseBox(sheet, hand), rollAgainLoss: stop - keep.value };
  const endings = [...plan.endings(keep.kept, rollsLeft)]
    .map(([box, probability]) => ({ box, probability }))
    .sort((a, b) => b.probability - a.probability);
  return { action: "roll", keepMask: keep.keepMask, endings };
}

import { ALL_KEPT, ROLLS_PER_TURN } from "../rules/dice.ts";
import { RulesError } from "../rules/errors.ts";
import { checkDice } from "../rules/score.ts";
import { applyScore, boxOptions, isComplete, totals, type Sheet } from "../rules/sheet.ts";
import type { TurnAction } from "../rules/strategy.ts";
import { HAND_BASE, handOf, keepDice, keepsOfRoll } from "./combos.ts";
import { TurnKernel, stateIndex, type SolverTable, type TurnState } from "./solver.ts";

/**
 * What the coach tells a player, from a filled table: every option of a decision with the
 * expected final score of the sheet it leads to (best play after it), best first.
 *
 * The coach maximises the expected final score of one player's own sheet; it does not look at the
 * opponents, so it is not the play that maximises the chance of winning a particular game.
 */

// In a file of its own, so the page that shows it does not load the solver.
export { COACH_OBJECTIVE } from "./objective.ts";

export { ROLLS_PER_TURN };
/** Keeping all five dice: the turn stops here and the dice are scored (the rules' ALL_KEPT). */
export const KEEP_ALL = ALL_KEPT;

/** The turn-start state of a sheet, as the table indexes it. */
export function turnStateOf(table: SolverTable, sheet: Sheet): TurnState {
  const m = table.model;
  if (sheet.ruleSet !== table.ruleSet) {
    throw new RangeError(`This table is rule set ${table.ruleSet}, the sheet ${sheet.ruleSet}.`);
  }
  let mask = 0;
  let upper = 0;
  sheet.boxes.forEach((points, box) => {
    if (points === null) return;
    mask |= 1 << box;
    if (box < m.upperBoxes) upper += points;
  });
  return {
    mask,
    upper: m.upperStates > 1 ? Math.min(m.threshold, upper) : 0,
    flag: m.flagStates === 2 && sheet.boxes[m.yahtzeeBox] === 50 ? 1 : 0,
  };
}

/** Expected points still to come from a turn-start state, with best play. */
export function stateValue(table: SolverTable, state: TurnState): number {
  const v = table.values[stateIndex(table.model, state.mask, state.upper, state.flag)];
  if (Number.isNaN(v)) throw new RangeError("This sheet cannot be reached in play.");
  return v;
}

/** The expected final score of a sheet at the start of a turn (its total so far included). */
export function positionValue(table: SolverTable, sheet: Sheet): number {
  if (isComplete(sheet)) return totals(sheet).total;
  return totals(sheet).total + stateValue(table, turnStateOf(table, sheet));
}

/** The whole turn's layers for a sheet's state, memoised on the last state asked. */
interface TurnCache {
  kernel: TurnKernel;
  key: number;
}
const caches = new WeakMap<SolverTable, TurnCache>();

function turnOf(table: SolverTable, sheet: Sheet): TurnKernel {
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  let cache = caches.get(table);
  if (!cache) {
    cache = { kernel: new TurnKernel(table.model, table.values, table.jokerRule), key: -1 };
    caches.set(table, cache);
  }
  const s = turnStateOf(table, sheet);
  const key = stateIndex(table.model, s.mask, s.upper, s.flag);
  if (cache.key !== key) {
    cache.key = -1;
    cache.kernel.run(s.mask, s.upper, s.flag);
    cache.key = key;
  }
  return cache.kernel;
}

export interface KeepOption {
  /** The dice positions to keep (bit p keeps die p): the first dice of each kept face. */
  keepMask: number;
  /** The kept faces, ascending. */
  kept: number[];
  /** Keeping all five: no re-roll, the dice are scored now (see adviseBox for where). */
  stop: boolean;
  /** The expected final score of the sheet after this choice, with best play after it. */
  expected: number;
  /** How many expected points this gives up against the best option (0 for the best). */
  loss: number;
}

function checkRollsUsed(rollsUsed: number): void {
  if (!Number.isInteger(rollsUsed) || rollsUsed < 1 || rollsUsed >= ROLLS_PER_TURN) {
    throw new RangeError(`A keep is chosen after roll 1 or 2, not after ${rollsUsed} rolls.`);
  }
}

/**
 * Every distinct keep of `dice` after roll `rollsUsed` (1 or 2) with its expected final score,
 * best first. Keeping all five (stop: true) means scoring now.
 */
export function adviseKeep(
  table: SolverTable,
  sheet: Sheet,
  dice: readonly number[],
  rollsUsed: number,
): KeepOption[] {
  checkRollsUsed(rollsUsed);
  const roll = checkDice(dice);
  const kernel = turnOf(table, sheet);
  const base = totals(sheet).total;
  const E = ROLLS_PER_TURN - rollsUsed === 2 ? kernel.E2 : kernel.E1;
  const options = keepsOfRoll(roll).map(({ keep, keepMask }): KeepOption => {
    const stop = keep >= HAND_BASE;
    const value = stop ? kernel.S[keep - HAND_BASE] : E[keep];
    return { keepMask, kept: keepDice(keep), stop, expected: base + value, loss: 0 };
  });
  return ranked(options);
}

function ranked<T extends { expected: number; loss: number }>(options: T[]): T[] {
  options.sort((a, b) => b.expected - a.expected);
  const best = options[0]?.expected ?? 0;
  for (const o of options) o.loss = best - o.expected;
  return options;
}

export interface BoxChoice {
  box: number;
  /** What the box gets (the Joker's prize included). */
  points: number;
  /** The Yahtzee bonus this earns: 0 or 100. */
  yahtzeeBonus: number;
  /** The upper bonus this earns now (the upper total reaching the threshold), else 0. */
  upperBonus: number;
  /** The expected final score of the sheet after this choice, with best play after it. */
  expected: number;
  loss: number;
}

/** Every box the rules allow for `dice`, with its expected final score, best first. */
export function adviseBox(table: SolverTable, sheet: Sheet, dice: readonly number[]): BoxChoice[] {
  const roll = checkDice(dice);
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  const before = totals(sheet);
  const options = boxOptions(sheet, roll)
    .filter((o) => o.legal)
    .map((o): BoxChoice => {
      const next = applyScore(sheet, roll, o.box).sheet;
      const after = totals(next);
      return {
        box: o.box,
        points: o.points,
        yahtzeeBonus: o.bonus,
        upperBonus: after.upperBonus - before.upperBonus,
        expected: positionValue(table, next),
        loss: 0,
      };
    });
  return ranked(options);
}

/**
 * The expected final score of holding `dice` after roll `rollsUsed` (1..3), with best play from
 * here: the best keep's (or, after roll 3, the best box's).
 */
export function rollValue(
  table: SolverTable,
  sheet: Sheet,
  dice: readonly number[],
  rollsUsed: number,
): number {
  if (rollsUsed >= ROLLS_PER_TURN) return adviseBox(table, sheet, dice)[0].expected;
  const kernel = turnOf(table, sheet);
  checkRollsUsed(rollsUsed);
  const M = ROLLS_PER_TURN - rollsUsed === 2 ? kernel.M2 : kernel.M1;
  return totals(sheet).total + M[HAND_BASE + handOf(checkDice(dice))];
}

/**
 * The strongest bot: the solver's own move. The same shape as strategy.ts's chooseTurnAction
 * (`rollsUsed` rolls made this turn; `dice` ignored before the first), always legal.
 */
export function coachTurnAction(
  table: SolverTable,
  sheet: Sheet,
  dice: readonly number[],
  rollsUsed: number,
): TurnAction {
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  if (rollsUsed === 0) return { action: "roll", keepMask: 0 };
  if (rollsUsed < ROLLS_PER_TURN) {
    const best = adviseKeep(table, sheet, dice, rollsUsed)[0];
    if (!best.stop) return { action: "roll", keepMask: best.keepMask };
  }
  return { action: "score", box: adviseBox(table, sheet, dice)[0].box };
}

/** The keep mask the coach would roll with, or KEEP_ALL when it would score now. */
export function coachKeepMask(
  table: SolverTable,
  sheet: Sheet,
  dice: readonly number[],
  rollsUsed: number,
): number {
  const best = adviseKeep(table, sheet, dice, rollsUsed)[0];
  return best.stop ? KEEP_ALL : best.keepMask;
}

/** The box the coach would fill with `dice`. */
export function coachBox(table: SolverTable, sheet: Sheet, dice: readonly number[]): number {
  return adviseBox(table, sheet, dice)[0].box;
}

/** Internal, for fast play (simulation): the kernel of a sheet's state. */
export function kernelFor(table: SolverTable, sheet: Sheet): TurnKernel {
  return turnOf(table, sheet);
}

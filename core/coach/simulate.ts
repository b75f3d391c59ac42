import type { RuleSetId } from "../rules/ruleSets.ts";
import { ROLLS_PER_TURN } from "../rules/dice.ts";
import {
  applyScore,
  boxOptions,
  isComplete,
  newSheet,
  totals,
  type Sheet,
} from "../rules/sheet.ts";
import * as combos from "./combos.ts";
import { kernelFor, turnStateOf } from "./advise.ts";
import type { SolverTable } from "./solver.ts";
import type { TurnAction } from "../rules/strategy.ts";
import type { TurnRecord } from "./analyse.ts";

// Local copies for the inner loop (see solver.ts).
const { HAND_BASE, SUB_KEEPS, SUB_KEEP_START, handOf, keepDice } = combos;

/** A small seeded generator (mulberry32): the same seed plays the same games everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimulationResult {
  games: number;
  mean: number;
  /** Standard deviation of one game's score. */
  sd: number;
  /** Standard error of the mean: sd / sqrt(games). */
  se: number;
  min: number;
  max: number;
}

/**
 * Plays one solitaire game with the solver's policy on seeded dice; returns the final sheet.
 * The same decisions as coachTurnAction, taken straight from the turn's layers for speed; the
 * sheet advances through the engine's applyScore.
 */
export function playGame(table: SolverTable, random: () => number): Sheet {
  let sheet = newSheet(table.ruleSet as RuleSetId);
  const die = (): number => 1 + Math.floor(random() * 6);
  while (!isComplete(sheet)) {
    const kernel = kernelFor(table, sheet);
    let dice = [die(), die(), die(), die(), die()];
    for (let rollsUsed = 1; rollsUsed < ROLLS_PER_TURN; rollsUsed++) {
      const h = handOf(dice);
      const E = rollsUsed === 1 ? kernel.E2 : kernel.E1;
      let best = kernel.S[h];
      let bestKeep = HAND_BASE + h;
      for (let j = SUB_KEEP_START[h]; j < SUB_KEEP_START[h + 1]; j++) {
        const k = SUB_KEEPS[j];
        if (E[k] > best) {
          best = E[k];
          bestKeep = k;
        }
      }
      if (bestKeep === HAND_BASE + h) break;
      const kept = keepDice(bestKeep);
      while (kept.length < 5) kept.push(die());
      dice = kept;
    }
    const s = turnStateOf(table, sheet);
    let best = -Infinity;
    let bestBox = -1;
    for (const o of boxOptions(sheet, dice)) {
      if (!o.legal) continue;
      const v = o.points + o.bonus + kernel.after(s.mask, s.upper, s.flag, o.box, o.points);
      if (v > best) {
        best = v;
        bestBox = o.box;
      }
    }
    sheet = applyScore(sheet, dice, bestBox).sheet;
  }
  return sheet;
}

/** Plays `games` games from `seed` and summarises their final scores. */
export function simulate(table: SolverTable, games: number, seed = 1): SimulationResult {
  const random = seededRandom(seed);
  let sum = 0;
  let sumSq = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let g = 0; g < games; g++) {
    const score = totals(playGame(table, random)).total;
    sum += score;
    sumSq += score * score;
    if (score < min) min = score;
    if (score > max) max = score;
  }
  const mean = sum / games;
  const sd = Math.sqrt(Math.max(0, sumSq / games - mean * mean) * (games / Math.max(1, games - 1)));
  return { games, mean, sd, se: sd / Math.sqrt(games), min, max };
}

/** A move chooser of chooseTurnAction's shape: the heuristic bot, the coach, a test's player. */
export type TurnChooser = (sheet: Sheet, dice: readonly number[], rollsUsed: number) => TurnAction;

/**
 * Plays one solitaire game with `choose` on seeded dice and records it as analyseGame takes it
 * (dice after each roll in position order, keep masks, boxes).
 */
export function recordGame(
  ruleSet: RuleSetId,
  choose: TurnChooser,
  random: () => number,
): { sheet: Sheet; turns: TurnRecord[] } {
  let sheet = newSheet(ruleSet);
  const die = (): number => 1 + Math.floor(random() * 6);
  const turns: TurnRecord[] = [];
  while (!isComplete(sheet)) {
    const rolls: number[][] = [[die(), die(), die(), die(), die()]];
    const keepMasks: number[] = [];
    for (;;) {
      const dice = rolls[rolls.length - 1];
      const action = choose(sheet, dice, rolls.length);
      if (action.action === "score") {
        turns.push({ rolls, keepMasks, box: action.box });
        sheet = applyScore(sheet, dice, action.box).sheet;
        break;
      }
      if (rolls.length >= 3) throw new Error("A turn has three rolls at most.");
      keepMasks.push(action.keepMask);
      rolls.push(dice.map((d, p) => ((action.keepMask >> p) & 1 ? d : die())));
    }
  }
  return { sheet, turns };
}

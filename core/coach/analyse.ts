import type { RuleSetId } from "../rules/ruleSets.ts";
import { checkDice } from "../rules/score.ts";
import { applyScore, newSheet, totals, type Sheet } from "../rules/sheet.ts";
import { adviseBox, adviseKeep, positionValue, ROLLS_PER_TURN } from "./advise.ts";
import { keepDice, keepOfMask } from "./combos.ts";
import type { SolverTable } from "./solver.ts";

/**
 * Review of a finished (or unfinished) game from its moves alone: what each player did at each
 * decision, what the coach would have done, and the expected points given up. The input is what
 * the chain's events (DiceRolled with its keep mask, BoxScored) or a practice log hold.
 */

/** One turn as played. */
export interface TurnRecord {
  /** The dice after each roll of the turn, in position order: one to three rolls of five. */
  rolls: readonly (readonly number[])[];
  /** The keep mask of each re-roll (bit p keeps die p): one fewer than `rolls`. */
  keepMasks: readonly number[];
  /** The box filled with the last roll; absent if the turn never ended (a timeout, a game in play). */
  box?: number;
}

export interface PlayerRecord {
  /** A name or address, passed through to the review. */
  player: string;
  /** The player's turns in order, from their first. */
  turns: readonly TurnRecord[];
}

export interface GameRecord {
  ruleSet: RuleSetId;
  players: readonly PlayerRecord[];
}

export type Choice =
  | { kind: "keep"; keepMask: number; kept: number[] }
  | { kind: "stop" }
  | { kind: "box"; box: number; points: number };

export interface DecisionReview {
  /** 0-based turn of this player. */
  turn: number;
  /** The decision follows this roll (1..3). */
  rollsUsed: number;
  dice: number[];
  /** "keep": roll again keeping some dice, or stop; "box": which box to fill. */
  kind: "keep" | "box";
  played: Choice;
  best: Choice;
  /** Expected final score after the played choice, with best play after it. */
  playedExpected: number;
  /** Expected final score after the best choice: the position's value before the decision. */
  bestExpected: number;
  /** bestExpected - playedExpected (>= 0), exact; shownLoss() is how it is shown. */
  loss: number;
  /** Within TIE_EPSILON of the best. */
  isBest: boolean;
}

export interface SeriesPoint {
  turn: number;
  /** 0 for the point before the first roll of the game. */
  rollsUsed: number;
  kind: "start" | "keep" | "box";
  /** Expected final score after this point's move as played (best play from then on). */
  expected: number;
}

export interface PlayerReview {
  player: string;
  decisions: DecisionReview[];
  /**
   * Expected points given up over every decision: the sum of the losses as shown (shownLoss: each
   * to a tenth, ties 0), so the summary is what the decisions add up to.
   */
  totalLoss: number;
  bestMoves: number;
  /** bestMoves / decisions (1 with no decisions). */
  bestShare: number;
  /** The decision that gave up the most (null if every move was best). */
  biggestMistake: DecisionReview | null;
  /** The sheet's total as played (the final score once every box is filled). */
  score: number;
  finished: boolean;
  /** Expected final score through the game: the start, then after every decision. */
  series: SeriesPoint[];
}

export interface GameReview {
  ruleSet: RuleSetId;
  /** The expected score from the start with best play. */
  startValue: number;
  players: PlayerReview[];
}

/**
 * Two expected scores within this many points are a tie. The coach shows points to one decimal, so
 * a choice that gives up less than 0.05 (it would show as "0.0") is one of the best: in a game's
 * review (the share of best moves, the biggest mistake, the decisions marked), in the hints and in
 * the chart's numbers.
 */
export const TIE_EPSILON = 0.05;

/** Whether a choice that gives up `loss` expected points is one of the best. */
export const isTie = (loss: number): boolean => loss < TIE_EPSILON;

/** A loss as it is shown: 0 for a tie, else rounded to a tenth of a point. */
export function shownLoss(loss: number): number {
  return isTie(loss) ? 0 : Math.round(loss * 10) / 10;
}

function sameMultiset(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

function reviewPlayer(table: SolverTable, record: PlayerRecord): PlayerReview {
  let sheet: Sheet = newSheet(table.ruleSet);
  const decisions: DecisionReview[] = [];
  const series: SeriesPoint[] = [
    { turn: 0, rollsUsed: 0, kind: "start", expected: positionValue(table, sheet) },
  ];
  const add = (d: DecisionReview): void => {
    decisions.push(d);
    series.push({ turn: d.turn, rollsUsed: d.rollsUsed, kind: d.kind, expected: d.playedExpected });
  };

  record.turns.forEach((turn, t) => {
    const rolls = turn.rolls.map((roll) => [...checkDice(roll)]);
    if (rolls.length < 1 || rolls.length > ROLLS_PER_TURN) {
      throw new RangeError(`Turn ${t + 1}: a turn has one to three rolls, not ${rolls.length}.`);
    }
    if (turn.keepMasks.length !== rolls.length - 1) {
      throw new RangeError(
        `Turn ${t + 1}: ${rolls.length} rolls need ${rolls.length - 1} keep masks.`,
      );
    }
    for (let i = 1; i < rolls.length; i++) {
      for (let p = 0; p < 5; p++) {
        if ((turn.keepMasks[i - 1] >> p) & 1 && rolls[i][p] !== rolls[i - 1][p]) {
          throw new RangeError(`Turn ${t + 1}, roll ${i + 1}: die ${p + 1} was kept but changed.`);
        }
      }
    }
    for (let i = 0; i < rolls.length; i++) {
      const rollsUsed = i + 1;
      const dice = rolls[i];
      const last = i === rolls.length - 1;
      if (rollsUsed < ROLLS_PER_TURN && (!last || turn.box !== undefined)) {
        const options = adviseKeep(table, sheet, dice, rollsUsed);
        const best = options[0];
        let played;
        if (last) {
          played = options.find((o) => o.stop)!;
        } else {
          const kept = keepDice(keepOfMask(dice, turn.keepMasks[i]));
          played = options.find((o) => !o.stop && sameMultiset(o.kept, kept));
          if (!played)
            throw new RangeError(`Turn ${t + 1}: keep mask ${turn.keepMasks[i]} keeps every die.`);
        }
        const choice = (o: typeof best): Choice =>
          o.stop ? { kind: "stop" } : { kind: "keep", keepMask: o.keepMask, kept: o.kept };
        add({
          turn: t,
          rollsUsed,
          dice,
          kind: "keep",
          played: last
            ? { kind: "stop" }
            : { kind: "keep", keepMask: turn.keepMasks[i], kept: played.kept },
          best: choice(best),
          playedExpected: played.expected,
          bestExpected: best.expected,
          loss: Math.max(0, best.expected - played.expected),
          isBest: isTie(best.expected - played.expected),
        });
      }
      if (last && turn.box !== undefined) {
        const options = adviseBox(table, sheet, dice);
        const best = options[0];
        const played = options.find((o) => o.box === turn.box);
        if (!played)
          throw new RangeError(
            `Turn ${t + 1}: box ${turn.box} is not allowed for ${dice.join("-")}.`,
          );
        add({
          turn: t,
          rollsUsed,
          dice,
          kind: "box",
          played: { kind: "box", box: played.box, points: played.points },
          best: { kind: "box", box: best.box, points: best.points },
          playedExpected: played.expected,
          bestExpected: best.expected,
          loss: Math.max(0, best.expected - played.expected),
          isBest: isTie(best.expected - played.expected),
        });
        sheet = applyScore(sheet, dice, turn.box).sheet;
      }
    }
  });

  const bestMoves = decisions.filter((d) => d.isBest).length;
  let biggestMistake: DecisionReview | null = null;
  for (const d of decisions) {
    if (!d.isBest && (biggestMistake === null || d.loss > biggestMistake.loss)) biggestMistake = d;
  }
  return {
    player: record.player,
    decisions,
    // In tenths, so the sum is exactly what the decisions show added up.
    totalLoss: decisions.reduce((tenths, d) => tenths + Math.round(shownLoss(d.loss) * 10), 0) / 10,
    bestMoves,
    bestShare: decisions.length === 0 ? 1 : bestMoves / decisions.length,
    biggestMistake,
    score: totals(sheet).total,
    finished: sheet.boxes.every((b) => b !== null),
    series,
  };
}

/** Reviews every player's decisions against the table of the game's rule set. */
export function analyseGame(table: SolverTable, game: GameRecord): GameReview {
  if (game.ruleSet !== table.ruleSet) {
    throw new RangeError(`This table is rule set ${table.ruleSet}, the game ${game.ruleSet}.`);
  }
  return {
    ruleSet: game.ruleSet,
    startValue: table.startValue,
    players: game.players.map((p) => reviewPlayer(table, p)),
  };
}

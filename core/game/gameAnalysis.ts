import type { Address } from "viem";
import { analyseGame, type Choice, type GameReview } from "../coach/analyse.ts";
import type { SolverTable } from "../coach/solver.ts";
import type { HallLog } from "../events/hallEvents.ts";
import type { RuleSetId } from "../rules/ruleSets.ts";
import { coachRecordOf } from "./coachRecord.ts";
import { foldGame } from "./gameState.ts";
import { foldMatchGame } from "./match.ts";

/**
 * A finished game's review by the coach from its events alone (what the indexer stores for every
 * finished game, and the analysis page shows), and its per-player summary: the numbers of
 * accuracy across games.
 */

/** The decision that gave up the most. */
export interface Mistake {
  /** 0-based turn of the player. */
  turn: number;
  rollsUsed: number;
  dice: number[];
  played: Choice;
  best: Choice;
  /** Expected points given up. */
  loss: number;
}

export interface PlayerAccuracy {
  /** As the game's events spell it (turn order). */
  player: Address;
  decisions: number;
  bestMoves: number;
  /** Expected points given up over the game against best play. */
  pointsLost: number;
  score: number;
  mistake: Mistake | null;
}

export interface AnalysedGame {
  ruleSet: RuleSetId;
  review: GameReview;
  players: PlayerAccuracy[];
}

/** The per-player numbers of a review (players as `addresses`, the review's order). */
export function accuracyOf(review: GameReview, addresses: readonly Address[]): PlayerAccuracy[] {
  return review.players.map((p, i) => ({
    player: addresses[i],
    decisions: p.decisions.length,
    bestMoves: p.bestMoves,
    pointsLost: p.totalLoss,
    score: p.score,
    mistake: p.biggestMistake && {
      turn: p.biggestMistake.turn,
      rollsUsed: p.biggestMistake.rollsUsed,
      dice: p.biggestMistake.dice,
      played: p.biggestMistake.played,
      best: p.biggestMistake.best,
      loss: p.biggestMistake.loss,
    },
  }));
}

/**
 * The coach's review of a finished game from its logs, with the table of its rule set
 * (`tableOf`); null when the game did not finish or has no moves the coach can follow.
 */
export function analyseGameLogs(
  gameId: bigint,
  logs: readonly HallLog[],
  tableOf: (ruleSet: RuleSetId) => SolverTable,
  /** For a match: which of its games (each game of a match is analysed as a game of its own). */
  game?: number,
): AnalysedGame | null {
  const state = game ? foldMatchGame(gameId, logs, game) : foldGame(gameId, logs);
  if (state.status !== "finished") return null;
  const record = coachRecordOf(state);
  if (!record) return null;
  const review = analyseGame(tableOf(record.ruleSet), record);
  return { ruleSet: record.ruleSet, review, players: accuracyOf(review, state.players) };
}

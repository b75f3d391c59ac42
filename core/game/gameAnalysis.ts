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

/**
 * A finished match's numbers, as one game's for the board's accuracy (a match counts once there,
 * as on the board): each of its games analysed as a game of its own; each player's decisions and
 * best moves added up over the games they played, their points lost and score the average per
 * game, their biggest mistake the biggest of any game (its `turn` counted within its game). Null
 * when no game could be analysed. A single game's is analyseGameLogs's own.
 */
export function analyseMatchLogs(
  gameId: bigint,
  logs: readonly HallLog[],
  tableOf: (ruleSet: RuleSetId) => SolverTable,
): { ruleSet: RuleSetId; players: PlayerAccuracy[]; games: number } | null {
  const state = foldGame(gameId, logs);
  if (state.match.length <= 1) {
    const one = analyseGameLogs(gameId, logs, tableOf);
    return one && { ruleSet: one.ruleSet, players: one.players, games: 1 };
  }
  if (state.status !== "finished") return null;
  const byPlayer = new Map<string, PlayerAccuracy>();
  const played = new Map<string, number>();
  let ruleSet: RuleSetId | null = null;
  let games = 0;
  for (const { number } of state.match.games) {
    const analysed = analyseGameLogs(gameId, logs, tableOf, number);
    if (!analysed) continue;
    ruleSet = analysed.ruleSet;
    games += 1;
    for (const p of analysed.players) {
      // A player who sat a game out (forfeited earlier) made no decisions in it.
      if (p.decisions === 0) continue;
      const id = p.player.toLowerCase();
      played.set(id, (played.get(id) ?? 0) + 1);
      const sum = byPlayer.get(id);
      if (!sum) {
        byPlayer.set(id, { ...p });
        continue;
      }
      sum.decisions += p.decisions;
      sum.bestMoves += p.bestMoves;
      sum.pointsLost += p.pointsLost;
      sum.score += p.score;
      if (p.mistake && (!sum.mistake || p.mistake.loss > sum.mistake.loss)) sum.mistake = p.mistake;
    }
  }
  if (ruleSet === null) return null;
  // In the match's last turn order, as GameFinished lists its players.
  const order = state.result?.players ?? state.players;
  const players = order.flatMap((p) => {
    const sum = byPlayer.get(p.toLowerCase());
    if (!sum) return [];
    const n = played.get(p.toLowerCase()) ?? 1;
    return [{ ...sum, pointsLost: sum.pointsLost / n, score: Math.round(sum.score / n) }];
  });
  return { ruleSet, players, games };
}

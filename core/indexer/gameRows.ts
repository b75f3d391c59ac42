import { numberToHex, type Address, type Hex, type RpcLog } from "viem";
import type { PlayerAccuracy } from "../game/gameAnalysis.ts";
import {
  foldLeaderboard,
  sumsOfGameRow,
  type LeaderboardLog,
  type LeaderboardSums,
} from "../leaderboard/leaderboard.ts";
import type { Rating } from "../ratings/ratings.ts";

/**
 * The rows a finished game adds to the index (indexer/ponder.schema.ts), worked out once: the
 * indexer's GameFinished handler writes them through Ponder, and the indexer benchmark's seeder
 * writes the same rows with SQL for a history too long to play on a chain. Addresses and tokens
 * lower-case, as the index keeps them.
 */

export const SECONDS_PER_DAY = 86_400n;

/** One player's result in one finished game (the player_game table). */
export interface PlayerGameRow {
  /** `${gameId}:${player}` */
  id: string;
  player: Hex;
  gameId: bigint;
  ruleSet: number;
  token: Hex;
  finishedBlock: bigint;
  finishedAt: bigint;
  won: number;
  forfeited: number;
  total: number | null;
  yahtzees: number;
  staked: bigint;
  net: bigint;
}

/** Where one game's sums go: the ids of a player's rows in the three sums tables. */
export interface SumsKeys {
  /** player_token_total: all time, every rule set. */
  tokenTotal: string;
  /** player_total: all time, this rule set. */
  ruleSetTotal: string;
  /** player_day: this UTC day and rule set. */
  day: string;
  dayNumber: number;
}

export interface FinishedGameInput {
  gameId: bigint;
  ruleSet: number;
  token: string;
  finishedBlock: bigint;
  finishedAt: bigint;
  /** The game's leaderboard logs (GameCreated, Yahtzee scores, forfeits, GameFinished). */
  logs: readonly LeaderboardLog[];
}

export interface PlayerResult {
  row: PlayerGameRow;
  /** This game alone as sums (what addSums adds to a player's running rows). */
  sums: LeaderboardSums;
  keys: SumsKeys;
}

const lower = (a: string) => a.toLowerCase() as Hex;

/** The app's own leaderboard fold over one game's logs: each player's share of the board. */
export function playerResults(game: FinishedGameInput): PlayerResult[] {
  const token = lower(game.token);
  const dayNumber = Number(game.finishedAt / SECONDS_PER_DAY);
  return foldLeaderboard(game.logs).map((foldRow) => {
    const player = lower(foldRow.player);
    const sums = sumsOfGameRow(foldRow, token);
    return {
      row: {
        id: `${game.gameId}:${player}`,
        player,
        gameId: game.gameId,
        ruleSet: game.ruleSet,
        token,
        finishedBlock: game.finishedBlock,
        finishedAt: game.finishedAt,
        won: sums.wins,
        forfeited: sums.forfeits,
        total: sums.best,
        // A match: all its games' sheets (a single game's are its total and one sheet).
        points: sums.completed > 1 ? sums.points : null,
        completed: sums.completed > 1 ? sums.completed : null,
        yahtzees: sums.yahtzees,
        staked: sums.staked,
        net: sums.net,
      },
      sums,
      keys: {
        tokenTotal: `${player}:${token}`,
        ruleSetTotal: `${player}:${game.ruleSet}:${token}`,
        day: `${player}:${game.ruleSet}:${token}:${dayNumber}`,
        dayNumber,
      },
    };
  });
}

/** The columns the three sums tables share, as one game's sums first write them. */
export function sumsColumns(player: Hex, sums: LeaderboardSums) {
  return { ...sums, player, token: sums.token as Hex, points: BigInt(sums.points) };
}

/** The sums columns of a running row. */
export interface SumsRow {
  games: number;
  wins: number;
  forfeits: number;
  best: number | null;
  points: bigint;
  completed: number;
  yahtzees: number;
  staked: bigint;
  net: bigint;
  lastBlock: bigint;
}

/** A running row plus one game's sums: what foldLeaderboard over both would give. */
export function addSums(t: SumsRow, sums: LeaderboardSums): SumsRow {
  return {
    games: t.games + sums.games,
    wins: t.wins + sums.wins,
    forfeits: t.forfeits + sums.forfeits,
    best: sums.best !== null && (t.best === null || sums.best > t.best) ? sums.best : t.best,
    points: t.points + BigInt(sums.points),
    completed: t.completed + sums.completed,
    yahtzees: t.yahtzees + sums.yahtzees,
    staked: t.staked + sums.staked,
    net: t.net + sums.net,
    lastBlock: sums.lastBlock > t.lastBlock ? sums.lastBlock : t.lastBlock,
  };
}

/** A player's rating in a rule set (player_rating) and its change by one game (rating_change). */
export function ratingRows(
  game: {
    gameId: bigint;
    /** The game of a match (absent for a single game, whose change keeps the plain id). */
    game?: number;
    ruleSet: number;
    finishedBlock: bigint;
    finishedAt: bigint;
  },
  player: string,
  after: Rating,
) {
  const p = lower(player);
  const values = { mu: after.mu, sigma: after.sigma, ordinal: after.ordinal, games: after.games };
  return {
    rating: {
      id: `${p}:${game.ruleSet}`,
      player: p,
      ruleSet: game.ruleSet,
      ...values,
      lastBlock: game.finishedBlock,
    },
    change: {
      id: `${game.game === undefined ? game.gameId : `${game.gameId}.${game.game}`}:${p}`,
      player: p,
      ruleSet: game.ruleSet,
      gameId: game.gameId,
      game: game.game ?? 1,
      finishedBlock: game.finishedBlock,
      finishedAt: game.finishedAt,
      ...values,
    },
  };
}

/**
 * A game's rows in the analysis tables (indexer/src/api/analysis/analyser.ts), keyed by game and
 * finishing block hash; `players` null when the coach could not analyse it (`error` says why).
 */
export function analysisRows(
  game: { gameId: bigint | string; finishedHash: string; ruleSet: number },
  players: readonly PlayerAccuracy[] | null,
  error: string | null,
  analysedAt: number,
) {
  const key = { game_id: game.gameId.toString(), finished_hash: game.finishedHash };
  return {
    // Not yet in the running sums of final games (the analyser folds it once its block is final).
    game: { ...key, rule_set: game.ruleSet, analysed_at: analysedAt, error, folded: false },
    players: (players ?? []).map((p, seat) => ({
      ...key,
      seat,
      player: lower(p.player),
      rule_set: game.ruleSet,
      decisions: p.decisions,
      best_moves: p.bestMoves,
      points_lost: p.pointsLost,
      score: p.score,
      mistake_loss: p.mistake?.loss ?? null,
      mistake: p.mistake,
    })),
  };
}

/** A hall_log row as SQL reads it (snake case; numerics as text or numbers). */
export interface HallLogRow {
  game_id: string | null;
  topics: Hex[];
  data: Hex;
  block_number: string;
  block_hash: Hex;
  log_index: number;
  transaction_index: number;
  transaction_hash: Hex;
}

/** A hall_log row as eth_getLogs would have returned the log (what decodeLogs takes). */
export function rpcLogOfRow(row: HallLogRow, address: Address): RpcLog {
  return {
    address,
    topics: row.topics as RpcLog["topics"],
    data: row.data,
    blockNumber: numberToHex(BigInt(row.block_number)),
    blockHash: row.block_hash,
    logIndex: numberToHex(row.log_index),
    transactionIndex: numberToHex(row.transaction_index),
    transactionHash: row.transaction_hash,
    removed: false,
  };
}

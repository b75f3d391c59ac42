import type { Address, RpcLog } from "viem";
import type { GameReview } from "../coach/analyse.ts";
import type { Mistake } from "../game/gameAnalysis.ts";
import type { FinishedGame } from "../leaderboard/history.ts";
import {
  LEADERBOARD_SORT_KEYS,
  isLeaderboardSortKey,
  type LeaderboardRow,
  type LeaderboardSortKey,
} from "../leaderboard/leaderboard.ts";

/**
 * What the indexer's HTTP API (indexer/src/api) sends and the app reads: JSON, so every bigint
 * travels as a decimal string. Both sides use these types and codecs, so a field added on one
 * side is a type error on the other.
 */

export const INDEXER_API_VERSION = 1;

export interface WireStatus {
  version: number;
  chainId: number;
  /** The DiceHall this indexer follows (checksummed). */
  hall: Address;
  /** The last block the indexer has processed, and its time in seconds. */
  block: string | null;
  timestamp: number | null;
  /** True once the backfill is done and it follows the chain's head. */
  ready: boolean;
}

/**
 * GET /api/analysis: the coach's analysis of finished games: how many the index holds, and this
 * process's work on them (its worker threads, the games they analysed, the seconds its batches
 * took); threads 0 when analysis is off.
 */
export interface WireAnalysisStatus {
  analysed: number;
  /** Of those, the games whose finish is final, summed into the leaderboard's accuracy columns. */
  folded: number;
  /** The last final block (Ponder's finalized checkpoint): games up to it are folded once analysed. */
  finalBlock: string | null;
  threads: number;
  games: number;
  workerSeconds: number;
}

/** A LeaderboardRow with its bigints as decimal strings. */
export type WireRow = Omit<LeaderboardRow, "net" | "staked" | "lastBlock"> & {
  net: Record<string, string>;
  staked: Record<string, string>;
  lastBlock: string;
};

/**
 * A player's skill beside a leaderboard row: the rating (core/ratings; in the filtered rule set,
 * or the best of their rule sets with none) and the coach's accuracy over their analysed games
 * under the same filters.
 */
export interface WireSkill {
  /** The rating's conservative value (mu - 3 sigma); null before a rated game. */
  rating: number | null;
  /** Rated games behind it. */
  ratedGames: number;
  /** Games the coach has analysed (under the filters). */
  analysedGames: number;
  /** Mean expected points given up per analysed game; null with none. */
  lossPerGame: number | null;
  /** Best decisions / decisions over the analysed games; null with none. */
  bestShare: number | null;
}

export interface WireLeaderboard {
  rows: WireRow[];
  /** Each row's skill, in the rows' order (the index alone knows it). */
  skill?: WireSkill[];
  /** Rows that pass the filter, before paging. */
  total: number;
  /** Every token any finished game was played for (lower-case), for the token filter. */
  tokens: string[];
  /** The row and 1-based rank of the player asked about with `me`, if they are on the board. */
  /** The viewer's rank, row and skill, wherever they are on the board (the pinned row). */
  me: { rank: number; row: WireRow; skill: WireSkill } | null;
}

export interface WireGame {
  gameId: string;
  blockNumber: string;
  /** The finishing block's time, seconds. */
  timestamp: number;
  ruleSet: number;
  token: Address;
  bet: string;
  players: Address[];
  totals: string[];
  winners: Address[];
  forfeited: Address[];
  payoutEach: string;
  houseFee: string;
  /** A match's games (FinishedGame.match); absent for a single game. */
  match?: { game: number; players: Address[]; totals: string[]; winners: Address[] }[];
}

export interface WireGames {
  games: WireGame[];
  total: number;
}

/** One player's numbers from the coach's analysis of one game. */
export interface WirePlayerAnalysis {
  player: Address;
  seat: number;
  decisions: number;
  bestMoves: number;
  /** Expected points given up against best play. */
  pointsLost: number;
  score: number;
  mistake: Mistake | null;
}

/** GET /api/games/:id/analysis. */
export interface WireGameAnalysis {
  gameId: string;
  /** False while the index has not analysed the game (or has no such finished game). */
  analysed: boolean;
  ruleSet: number | null;
  players: WirePlayerAnalysis[];
  /** The full review (every decision, the expected-score series), players as addresses. */
  review: GameReview | null;
}

/** A rating after one game (the player page's chart). */
export interface WireRatingPoint {
  gameId: string;
  timestamp: number;
  ordinal: number;
  mu: number;
  sigma: number;
}

/** One of a player's analysed games (the accuracy trend and the mistakes). */
export interface WireAccuracyPoint {
  gameId: string;
  ruleSet: number;
  timestamp: number;
  pointsLost: number;
  decisions: number;
  bestMoves: number;
  mistake: Mistake | null;
}

/** GET /api/players/:address */
export interface WirePlayer {
  player: Address;
  /** Per rule set played: the current rating and its history, oldest first. */
  ratings: {
    ruleSet: number;
    ordinal: number;
    mu: number;
    sigma: number;
    games: number;
    history: WireRatingPoint[];
  }[];
  /** Finished games, won (shared wins included), forfeited. */
  games: number;
  wins: number;
  forfeits: number;
  /** Net result per token (lower-case token: decimal string), and staked. */
  net: Record<string, string>;
  staked: Record<string, string>;
  /** The analysed games, oldest first (the last 200). */
  accuracy: WireAccuracyPoint[];
  /** The largest mistakes of all their analysed games, largest first (ten). */
  mistakes: WireAccuracyPoint[];
  /** Their finished matches of several games (issue 33), newest first (the last 50). */
  matches?: WireMatch[];
}

/** One finished match on a player page: its length and how the player stood game by game. */
export interface WireMatch {
  gameId: string;
  ruleSet: number;
  token: Address;
  timestamp: number;
  /** Games in the match. */
  games: number;
  /** Whether the player won (or shared) the match. */
  won: boolean;
  /** The player's total in each game, in order, and whether they won it. */
  results: { game: number; total: string; won: boolean }[];
}

export interface WireGameLogs {
  logs: RpcLog[];
}

/** Sorts only the index can do (by WireSkill); players without the number go last. */
export const SKILL_SORT_KEYS = ["rating", "lossPerGame", "bestShare"] as const;
export type SkillSortKey = (typeof SKILL_SORT_KEYS)[number];
export const isSkillSortKey = (value: string | null): value is SkillSortKey =>
  (SKILL_SORT_KEYS as readonly (string | null)[]).includes(value);

export interface LeaderboardQuery {
  ruleSet?: number | null;
  token?: Address | null;
  /** Only games finished at or after this block. */
  fromBlock?: bigint | null;
  toBlock?: bigint | null;
  /** Only games finished at or after this time (seconds): the period filter. */
  since?: number | null;
  sort?: LeaderboardSortKey | SkillSortKey;
  direction?: "asc" | "desc";
  /** The token whose net winnings "net" sorts by. */
  sortToken?: Address | null;
  offset?: number;
  limit?: number;
  /** A player whose rank and row to return whatever the page (the viewer). */
  me?: Address | null;
}

export const MAX_PAGE = 500;

const decimals = (record: Record<string, bigint>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.toString()]));
const bigints = (record: Record<string, string>): Record<string, bigint> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, BigInt(v)]));

export function rowToWire(row: LeaderboardRow): WireRow {
  return {
    ...row,
    net: decimals(row.net),
    staked: decimals(row.staked),
    lastBlock: row.lastBlock.toString(),
  };
}

export function rowFromWire(row: WireRow): LeaderboardRow {
  return {
    ...row,
    net: bigints(row.net),
    staked: bigints(row.staked),
    lastBlock: BigInt(row.lastBlock),
  };
}

export function gameToWire(game: FinishedGame & { timestamp: number }): WireGame {
  return {
    gameId: game.gameId.toString(),
    blockNumber: game.blockNumber.toString(),
    timestamp: game.timestamp,
    ruleSet: game.ruleSet,
    token: game.token,
    bet: (game.bet ?? 0n).toString(),
    players: [...game.players],
    totals: game.totals.map(String),
    winners: [...game.winners],
    forfeited: [...game.forfeited],
    payoutEach: game.payoutEach.toString(),
    houseFee: game.houseFee.toString(),
    ...(game.match && {
      match: game.match.map((g) => ({
        game: g.game,
        players: [...g.players],
        totals: g.totals.map(String),
        winners: [...g.winners],
      })),
    }),
  };
}

export function gameFromWire(game: WireGame): FinishedGame & { timestamp: number } {
  return {
    gameId: BigInt(game.gameId),
    blockNumber: BigInt(game.blockNumber),
    timestamp: game.timestamp,
    ruleSet: game.ruleSet,
    token: game.token,
    bet: BigInt(game.bet),
    players: game.players,
    totals: game.totals.map(BigInt),
    winners: game.winners,
    forfeited: game.forfeited,
    payoutEach: BigInt(game.payoutEach),
    houseFee: BigInt(game.houseFee),
    ...(game.match && {
      match: game.match.map((g) => ({ ...g, totals: g.totals.map(BigInt) })),
    }),
  };
}

/** The query string of a leaderboard request (what the server parses with parseLeaderboardQuery). */
export function leaderboardSearch(query: LeaderboardQuery): string {
  const params = new URLSearchParams();
  const set = (name: string, value: unknown) => {
    if (value !== null && value !== undefined) params.set(name, String(value));
  };
  set("ruleSet", query.ruleSet);
  set("token", query.token);
  set("fromBlock", query.fromBlock);
  set("toBlock", query.toBlock);
  set("since", query.since);
  set("sort", query.sort);
  set("dir", query.direction);
  set("sortToken", query.sortToken);
  set("offset", query.offset);
  set("limit", query.limit);
  set("me", query.me);
  return params.toString();
}

export class BadQueryError extends Error {}

/** Readers of query-string fields that throw BadQueryError with the field's name and rule. */
function fields(params: URLSearchParams) {
  const whole = (name: string, max = Number.MAX_SAFE_INTEGER): number | null => {
    const raw = params.get(name);
    if (raw === null || raw === "") return null;
    if (!/^\d+$/.test(raw) || Number(raw) > max) {
      throw new BadQueryError(`${name} must be a whole number up to ${max}, not "${raw}"`);
    }
    return Number(raw);
  };
  const block = (name: string): bigint | null => {
    const raw = params.get(name);
    if (raw === null || raw === "") return null;
    if (!/^\d{1,30}$/.test(raw)) throw new BadQueryError(`${name} must be a block number`);
    return BigInt(raw);
  };
  const address = (name: string): Address | null => {
    const raw = params.get(name);
    if (raw === null || raw === "") return null;
    if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new BadQueryError(`${name} must be an address`);
    return raw.toLowerCase() as Address;
  };
  const page = () => ({ offset: whole("offset") ?? 0, limit: whole("limit", MAX_PAGE) ?? 50 });
  return { whole, block, address, page };
}

/** Parses and checks a leaderboard query string; throws BadQueryError with a readable reason. */
export function parseLeaderboardQuery(params: URLSearchParams): Required<LeaderboardQuery> {
  const { whole, block, address, page } = fields(params);
  const sort = params.get("sort") ?? "wins";
  if (!isLeaderboardSortKey(sort) && !isSkillSortKey(sort)) {
    throw new BadQueryError(
      `sort must be one of ${[...LEADERBOARD_SORT_KEYS, ...SKILL_SORT_KEYS].join(", ")}`,
    );
  }
  const dir = params.get("dir") ?? "desc";
  if (dir !== "asc" && dir !== "desc") throw new BadQueryError(`dir must be asc or desc`);
  return {
    ruleSet: whole("ruleSet", 255),
    token: address("token"),
    fromBlock: block("fromBlock"),
    toBlock: block("toBlock"),
    since: whole("since"),
    sort,
    direction: dir,
    sortToken: address("sortToken"),
    ...page(),
    me: address("me"),
  };
}

/** Parses and checks a games query string (`player`, `offset`, `limit`). */
export function parseGamesQuery(params: URLSearchParams): {
  player: Address | null;
  offset: number;
  limit: number;
} {
  const { address, page } = fields(params);
  return { player: address("player"), ...page() };
}

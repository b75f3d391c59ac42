import { index, onchainTable, type PgColumnsBuilders } from "ponder";
import type { RpcLog } from "viem";

/**
 * What the indexer keeps. Ponder reverts every row a reorged block wrote, so none of these can
 * describe a game the chain no longer has.
 *
 * - hall_log: every DiceHall log, raw (topics and data), so that the app decodes it with the same
 *   ABI code as a log it fetched itself. A game's replay is its rows in chain order.
 * - game: one row per game, with its result once it finished (what the history lists).
 * - player_game: one row per player per finished game, the leaderboard fold's output for that
 *   game alone; the leaderboard is their sum per player.
 * - player_token_total, player_total, player_day: the same sums kept as games finish, per player
 *   and token (all rule sets), per rule set too, and per day too; the leaderboard reads one row per
 *   player and token however many games there were, and a period's whole days from player_day.
 * - player_rating, rating_change: each player's skill rating per rule set (core/ratings), updated
 *   game by game in the order games finish, and every change for the player page's chart.
 * - match_game: one row per finished game of a match (issue 33: several games for one stake,
 *   under the match's one id): its number, players, totals and winners; each is rated as a game
 *   of its own, while the board counts the match (its pot) once, at its GameFinished.
 *
 * The coach's analysis of each finished game is kept beside these, in tables the API process
 * writes (src/api/analysis/analyser.ts): see there for how it stays true across reorgs.
 */
export const hallLog = onchainTable(
  "hall_log",
  (t) => ({
    /** Ponder's event id: unique and in chain order. */
    id: t.text().primaryKey(),
    /** The first topic's game id for the game events; null for hall-wide ones. */
    gameId: t.bigint(),
    eventName: t.text().notNull(),
    blockNumber: t.bigint().notNull(),
    blockHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    transactionIndex: t.integer().notNull(),
    transactionHash: t.hex().notNull(),
    topics: t.hex().array().notNull(),
    data: t.hex().notNull(),
  }),
  (table) => ({
    byGame: index().on(table.gameId, table.blockNumber, table.logIndex),
  }),
);

export const game = onchainTable(
  "game",
  (t) => ({
    id: t.bigint().primaryKey(),
    ruleSet: t.integer().notNull(),
    /** address(0) for the native coin. */
    token: t.hex().notNull(),
    bet: t.bigint().notNull(),
    seats: t.integer().notNull(),
    /** Games in the match (MatchCreated); 1 for a single game. */
    games: t.integer().notNull().default(1),
    creator: t.hex().notNull(),
    createdBlock: t.bigint().notNull(),
    /** open, running, finished or cancelled. */
    status: t.text().notNull(),
    /**
     * The leaderboard's input logs for this game seen so far (GameCreated, Yahtzee scores,
     * forfeits), raw; folded with GameFinished when it comes. Kept on the row so a handler never
     * has to query.
     */
    foldInput: t.json().$type<RpcLog[]>().notNull(),
    forfeited: t.hex().array().notNull(),
    finishedBlock: t.bigint(),
    /** The finishing block's hash: the analysis tables (src/api/analysis) are keyed by it. */
    finishedHash: t.hex(),
    finishedAt: t.bigint(),
    players: t.hex().array(),
    totals: t.bigint().array(),
    winners: t.hex().array(),
    payoutEach: t.bigint(),
    houseFee: t.bigint(),
  }),
  (table) => ({
    byFinish: index().on(table.finishedBlock),
    // A period's first day (the leaderboard's accuracy columns) is found by time.
    byTime: index().on(table.finishedAt),
  }),
);

export const playerGame = onchainTable(
  "player_game",
  (t) => ({
    /** `${gameId}:${player}` */
    id: t.text().primaryKey(),
    /** Lower-case. */
    player: t.hex().notNull(),
    gameId: t.bigint().notNull(),
    ruleSet: t.integer().notNull(),
    /** Lower-case. */
    token: t.hex().notNull(),
    finishedBlock: t.bigint().notNull(),
    finishedAt: t.bigint().notNull(),
    won: t.integer().notNull(),
    forfeited: t.integer().notNull(),
    /** The total of a completed sheet; null when it does not count (see the fold). */
    total: t.integer(),
    /**
     * A match's (issue 33) points and completed sheets over all its games (`total` is then its best
     * game's); null for a single game, whose are `total` and one sheet.
     */
    points: t.integer(),
    completed: t.integer(),
    yahtzees: t.integer().notNull(),
    staked: t.bigint().notNull(),
    net: t.bigint().notNull(),
  }),
  (table) => ({
    byPlayer: index().on(table.player, table.finishedBlock),
    byFinish: index().on(table.finishedBlock),
    // A period's first day is summed from its games, found by time.
    byTime: index().on(table.finishedAt),
  }),
);

/** The columns of a LeaderboardSums (core/leaderboard/leaderboard.ts), shared by the sums tables. */
const sumColumns = (t: PgColumnsBuilders) => ({
  player: t.hex().notNull(),
  token: t.hex().notNull(),
  games: t.integer().notNull(),
  wins: t.integer().notNull(),
  forfeits: t.integer().notNull(),
  best: t.integer(),
  /** Sum and count of the totals that count (completed sheets). */
  points: t.bigint().notNull(),
  completed: t.integer().notNull(),
  yahtzees: t.integer().notNull(),
  staked: t.bigint().notNull(),
  net: t.bigint().notNull(),
  lastBlock: t.bigint().notNull(),
});

/** All time, every rule set: one row per player and token (the default leaderboard). */
export const playerTokenTotal = onchainTable(
  "player_token_total",
  (t) => ({
    /** `${player}:${token}` */
    id: t.text().primaryKey(),
    ...sumColumns(t),
  }),
  (table) => ({
    byToken: index().on(table.token),
  }),
);

/** All time, one rule set: one row per player, rule set and token. */
export const playerTotal = onchainTable(
  "player_total",
  (t) => ({
    /** `${player}:${ruleSet}:${token}` */
    id: t.text().primaryKey(),
    ruleSet: t.integer().notNull(),
    ...sumColumns(t),
  }),
  (table) => ({
    byRuleSet: index().on(table.ruleSet, table.token),
  }),
);

/** One UTC day (finishedAt / 86 400): a period's whole days are read from here. */
export const playerDay = onchainTable(
  "player_day",
  (t) => ({
    /** `${player}:${ruleSet}:${token}:${day}` */
    id: t.text().primaryKey(),
    ruleSet: t.integer().notNull(),
    day: t.integer().notNull(),
    ...sumColumns(t),
  }),
  (table) => ({
    byDay: index().on(table.day),
  }),
);

/**
 * Which finished games the board holds: one row, changed by every GameFinished and reverted with
 * it by a reorg. The API's cache of sorted leaderboards is keyed by it.
 */
export const boardVersion = onchainTable("board_version", (t) => ({
  id: t.integer().primaryKey(),
  games: t.integer().notNull(),
  lastBlock: t.bigint().notNull(),
  lastHash: t.hex().notNull(),
}));

/** Every token a finished game was played for (the token filter's choices). */
export const tokenSeen = onchainTable("token_seen", (t) => ({
  token: t.hex().primaryKey(),
}));

/** One player's rating in one rule set after every game they finished (see core/ratings). */
export const playerRating = onchainTable(
  "player_rating",
  (t) => ({
    /** `${player}:${ruleSet}` */
    id: t.text().primaryKey(),
    player: t.hex().notNull(),
    ruleSet: t.integer().notNull(),
    mu: t.doublePrecision().notNull(),
    sigma: t.doublePrecision().notNull(),
    /** mu - 3 sigma: what the leaderboard shows and sorts by. */
    ordinal: t.doublePrecision().notNull(),
    games: t.integer().notNull(),
    lastBlock: t.bigint().notNull(),
  }),
  (table) => ({
    byRuleSet: index().on(table.ruleSet),
    byPlayer: index().on(table.player),
  }),
);

/** A rating after one game: the player page's history. */
export const ratingChange = onchainTable(
  "rating_change",
  (t) => ({
    /** `${gameId}:${player}`, or `${gameId}.${game}:${player}` for a game of a match. */
    id: t.text().primaryKey(),
    player: t.hex().notNull(),
    ruleSet: t.integer().notNull(),
    gameId: t.bigint().notNull(),
    /** The game of the match (1 for a single game). */
    game: t.integer().notNull().default(1),
    finishedBlock: t.bigint().notNull(),
    finishedAt: t.bigint().notNull(),
    mu: t.doublePrecision().notNull(),
    sigma: t.doublePrecision().notNull(),
    ordinal: t.doublePrecision().notNull(),
    games: t.integer().notNull(),
  }),
  (table) => ({
    byPlayer: index().on(table.player, table.finishedBlock),
  }),
);

/** One finished game of a match (a match of one game has none: its game is the `game` row). */
export const matchGame = onchainTable(
  "match_game",
  (t) => ({
    /** `${gameId}.${game}` (core/game/match.ts matchGameKey). */
    id: t.text().primaryKey(),
    gameId: t.bigint().notNull(),
    game: t.integer().notNull(),
    ruleSet: t.integer().notNull(),
    /** That game's turn order, lower-case. */
    players: t.hex().array().notNull(),
    totals: t.bigint().array().notNull(),
    winners: t.hex().array().notNull(),
    /** Everyone forfeited by this game's end (they sit out, and are not rated in, later games). */
    forfeited: t.hex().array().notNull(),
    finishedBlock: t.bigint().notNull(),
    finishedAt: t.bigint().notNull(),
  }),
  (table) => ({
    byMatch: index().on(table.gameId, table.game),
  }),
);

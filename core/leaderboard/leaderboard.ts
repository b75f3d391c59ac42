import type { Address } from "viem";
import type { HallLogOf } from "../events/hallEvents.ts";

/**
 * The leaderboard as one pure fold over the hall's events, so the browser and a future indexer
 * compute the same table from the same logs.
 *
 * Input: GameCreated (the bet per seat, which GameFinished does not carry), Scored (Yahtzees),
 * PlayerForfeited (whose total is a partial sheet) and GameFinished (players, totals, winners,
 * payouts). The logs may come in any order and from several fetches: everything is keyed by game
 * id and only finished games count, so the result does not depend on how the logs were gathered.
 *
 * Decisions where the rules are silent:
 * - A tie counts as a win for every tied winner.
 * - A forfeited game counts as a game played and lost; its partial total is left out of the best
 *   and average score (those are over completed sheets). So is the winner's total when a forfeit
 *   left one player standing: the game stopped there, usually before their sheet was full (the
 *   events cannot tell the rare last-box forfeit apart, so it is left out too).
 * - A Yahtzee is a 50 in the five-of-a-kind box (classic, Yazty and Extended box 11, Yatzy box
 *   14; no other box can score exactly 50 in any rule set) plus every +100 Yahtzee bonus. A five
 *   of a kind scored elsewhere (a Joker, or a choice) is not counted: Scored does not carry the
 *   dice.
 * - Net winnings per token = what the hall credited the player at the end (payoutEach, plus the
 *   indivisible remainder for the first winner in turn order, as the contract pays) minus the bet
 *   paid for the seat. Roll fees are gas-like costs and are left out. A game whose GameCreated is
 *   missing from the input has no known bet and adds nothing to net winnings.
 * - A match (issue 33: several games for one stake) counts as one game played, won by the
 *   match's winners, its pot once in net winnings; each of its games' scores counts in the best
 *   and average score (a game's total, as for a single game, never a match's sum of points).
 */

export const LEADERBOARD_EVENTS = [
  "GameCreated",
  "Scored",
  "PlayerForfeited",
  "MatchGameFinished",
  "GameFinished",
] as const;

export type LeaderboardEventName = (typeof LEADERBOARD_EVENTS)[number];
export type LeaderboardLog = HallLogOf<LeaderboardEventName>;

/** A Scored log the fold may count (it decides which are Yahtzees); the rest can be skipped. */
export const isYahtzeeScore = (args: { points: bigint; bonus: bigint }): boolean =>
  args.points === YAHTZEE_POINTS || args.bonus > 0n;

/** Every box that holds five of a kind, across the rule sets; see the note above. */
const FIVE_OF_A_KIND_BOXES = new Set([11, 14]);
const YAHTZEE_POINTS = 50n;

export interface LeaderboardFilter {
  /** Only games of this rule set (0..3); all when absent. */
  ruleSet?: number | null;
  /** Only games played for this token (address(0) = native coin); all when absent. */
  token?: Address | null;
  /** Only games that finished in blocks from here on (the period filter). */
  fromBlock?: bigint | null;
  /** ...and up to here. */
  toBlock?: bigint | null;
}

export interface LeaderboardRow {
  player: Address;
  games: number;
  wins: number;
  /** Games lost by running out of time. */
  forfeits: number;
  /** wins / games, 0..1. */
  winRate: number;
  /** Highest total on a completed sheet; null when every game was forfeited. */
  best: number | null;
  /** Mean total over completed sheets; null when there are none. */
  average: number | null;
  yahtzees: number;
  /** Credited at the end minus bets paid, per token (keyed by lower-case token address). */
  net: Record<string, bigint>;
  /** Bets paid per token (lower-case token address). */
  staked: Record<string, bigint>;
  /** The block of this player's latest finished game. */
  lastBlock: bigint;
}

const lower = (a: string): string => a.toLowerCase();

interface Accumulator {
  row: LeaderboardRow;
  completed: number;
  points: number;
  /** Per lower-case token: bets paid and credits received, kept apart until the end. */
  staked: Map<string, bigint>;
  credited: Map<string, bigint>;
}

function inFilter(
  log: HallLogOf<"GameFinished">,
  filter: LeaderboardFilter,
  token: string,
): boolean {
  const { ruleSet, fromBlock, toBlock } = filter;
  if (ruleSet != null && log.args.ruleSet !== ruleSet) return false;
  if (filter.token != null && token !== filter.token.toLowerCase()) return false;
  if (fromBlock != null && log.blockNumber < fromBlock) return false;
  if (toBlock != null && log.blockNumber > toBlock) return false;
  return true;
}

function newAccumulator(player: Address): Accumulator {
  return {
    row: {
      player,
      games: 0,
      wins: 0,
      forfeits: 0,
      winRate: 0,
      best: null,
      average: null,
      yahtzees: 0,
      net: {},
      staked: {},
      lastBlock: 0n,
    },
    completed: 0,
    points: 0,
    staked: new Map(),
    credited: new Map(),
  };
}

const add = (map: Map<string, bigint>, key: string, value: bigint): void => {
  map.set(key, (map.get(key) ?? 0n) + value);
};

/** The ratios of a row, from its counts and the points of its completed sheets. */
function finishRow(row: LeaderboardRow, completed: number, points: number): void {
  row.winRate = row.games === 0 ? 0 : row.wins / row.games;
  row.average = completed === 0 ? null : points / completed;
}

/** One row per player who finished at least one game that passes the filter; unsorted. */
export function foldLeaderboard(
  logs: Iterable<LeaderboardLog>,
  filter: LeaderboardFilter = {},
): LeaderboardRow[] {
  // Addresses arrive checksummed or not; lower-casing each once keeps the hot loops cheap.
  const ids = new Map<string, string>();
  const idOf = (address: string): string => {
    let id = ids.get(address);
    if (id === undefined) ids.set(address, (id = address.toLowerCase()));
    return id;
  };

  const bets = new Map<bigint, bigint>();
  const forfeits = new Map<bigint, Set<string>>();
  const yahtzees = new Map<bigint, Map<string, number>>();
  const finished: HallLogOf<"GameFinished">[] = [];
  /** A match's games' totals, by match and player; a single game has none. */
  const matchTotals = new Map<bigint, Map<string, Map<number, number>>>();
  const scoredSeen = new Set<string>();

  for (const log of logs) {
    if (log.eventName === "Scored") {
      // Nearly every log is a Scored that stops here: this is the hot path.
      const args = log.args;
      if (args.points !== YAHTZEE_POINTS && args.bonus === 0n) continue;
      const five = args.points === YAHTZEE_POINTS && FIVE_OF_A_KIND_BOXES.has(args.category);
      const count = (five ? 1 : 0) + (args.bonus > 0n ? 1 : 0);
      if (count === 0) continue;
      // The same log fetched twice counts once.
      const logId = `${log.blockNumber}:${log.logIndex}`;
      if (scoredSeen.has(logId)) continue;
      scoredSeen.add(logId);
      let byPlayer = yahtzees.get(args.gameId);
      if (!byPlayer) yahtzees.set(args.gameId, (byPlayer = new Map()));
      const id = idOf(args.player);
      byPlayer.set(id, (byPlayer.get(id) ?? 0) + count);
    } else if (log.eventName === "GameFinished") {
      finished.push(log);
    } else if (log.eventName === "GameCreated") {
      bets.set(log.args.gameId, log.args.bet);
    } else if (log.eventName === "MatchGameFinished") {
      let byPlayer = matchTotals.get(log.args.gameId);
      if (!byPlayer) matchTotals.set(log.args.gameId, (byPlayer = new Map()));
      const { players: gamePlayers, totals: gameTotals, game } = log.args;
      gamePlayers.forEach((p, i) => {
        const id = idOf(p);
        let games = byPlayer!.get(id);
        if (!games) byPlayer!.set(id, (games = new Map()));
        // Keyed by game number: the same log fetched twice counts once.
        games.set(game, Number(gameTotals[i]));
      });
    } else if (log.eventName === "PlayerForfeited") {
      let set = forfeits.get(log.args.gameId);
      if (!set) forfeits.set(log.args.gameId, (set = new Set()));
      set.add(idOf(log.args.player));
    }
  }

  const rows = new Map<string, Accumulator>();
  const seen = new Set<bigint>();
  for (const log of finished) {
    const { gameId, token, players, totals, winners, payoutEach, houseFee } = log.args;
    // The same log fetched twice counts once.
    if (seen.has(gameId)) continue;
    seen.add(gameId);
    const tokenKey = idOf(token);
    if (!inFilter(log, filter, tokenKey)) continue;

    const bet = bets.get(gameId);
    const firstWinner = winners.length ? idOf(winners[0]) : null;
    const winnerIds = winners.length > 1 ? winners.map(idOf) : null;
    const remainder =
      bet === undefined
        ? 0n
        : bet * BigInt(players.length) - houseFee - payoutEach * BigInt(winners.length);
    const gameForfeits = forfeits.get(gameId);
    const endedByForfeit = gameForfeits !== undefined && players.length - gameForfeits.size === 1;
    const gameYahtzees = yahtzees.get(gameId);

    for (let seat = 0; seat < players.length; seat++) {
      const id = idOf(players[seat]);
      let acc = rows.get(id);
      if (!acc) rows.set(id, (acc = newAccumulator(players[seat])));
      const row = acc.row;
      row.games += 1;
      if (log.blockNumber > row.lastBlock) row.lastBlock = log.blockNumber;

      const isFirstWinner = id === firstWinner;
      const won = isFirstWinner || (winnerIds !== null && winnerIds.includes(id));
      if (won) row.wins += 1;

      if (gameForfeits !== undefined && gameForfeits.has(id)) {
        row.forfeits += 1;
      } else if (!endedByForfeit) {
        // A match's GameFinished carries its points over all games: its games' own totals count.
        const gameTotals = matchTotals.get(gameId)?.get(id);
        for (const total of gameTotals ? gameTotals.values() : [Number(totals[seat])]) {
          acc.completed += 1;
          acc.points += total;
          if (row.best === null || total > row.best) row.best = total;
        }
      }

      if (gameYahtzees !== undefined) row.yahtzees += gameYahtzees.get(id) ?? 0;

      if (bet !== undefined) {
        add(acc.staked, tokenKey, bet);
        if (won) add(acc.credited, tokenKey, isFirstWinner ? payoutEach + remainder : payoutEach);
      }
    }
  }

  const out: LeaderboardRow[] = [];
  for (const { row, completed, points, staked, credited } of rows.values()) {
    finishRow(row, completed, points);
    scoresOf.set(row, { completed, points });
    for (const [token, paid] of staked) {
      row.staked[token] = paid;
      row.net[token] = (credited.get(token) ?? 0n) - paid;
    }
    out.push(row);
  }
  return out;
}

// ------------------------------------------------------------------ sums kept elsewhere

/**
 * The completed sheets and their points behind a folded row's average: one game's row has one
 * sheet (its best), a match's row one for each of its games.
 */
const scoresOf = new WeakMap<LeaderboardRow, { completed: number; points: number }>();

/**
 * One player's sums in one token, as the indexer keeps them: each field is a sum (or a max) of
 * what foldLeaderboard gives for single games, so adding games up commutes with folding them.
 */
export interface LeaderboardSums {
  /** Lower-case. */
  token: string;
  games: number;
  wins: number;
  forfeits: number;
  best: number | null;
  /** Sum and count of the totals of completed sheets. */
  points: number;
  completed: number;
  yahtzees: number;
  staked: bigint;
  net: bigint;
  lastBlock: bigint;
}

/** The fold's one-game row, as sums in the game's token (what the indexer stores per game). */
export function sumsOfGameRow(row: LeaderboardRow, token: string): LeaderboardSums {
  return {
    token,
    games: row.games,
    wins: row.wins,
    forfeits: row.forfeits,
    best: row.best,
    points: scoresOf.get(row)?.points ?? row.best ?? 0,
    completed: scoresOf.get(row)?.completed ?? (row.best === null ? 0 : 1),
    yahtzees: row.yahtzees,
    staked: row.staked[token] ?? 0n,
    net: row.net[token] ?? 0n,
    lastBlock: row.lastBlock,
  };
}

/** A player's sums over every token they played for: LeaderboardSums less what is per token. */
export type LeaderboardTotals = Omit<LeaderboardSums, "token" | "staked" | "net">;

/**
 * A player's leaderboard row from their totals over every token and their bets and net winnings
 * per token (lower-case token → wei), finished as the fold finishes rows. The indexer sums in SQL
 * and builds only the rows of the page it serves.
 */
export function rowFromTotals(
  player: Address,
  totals: LeaderboardTotals,
  perToken: Iterable<{ token: string; staked: bigint; net: bigint }>,
): LeaderboardRow {
  const row = newAccumulator(player).row;
  row.games = totals.games;
  row.wins = totals.wins;
  row.forfeits = totals.forfeits;
  row.best = totals.best;
  row.yahtzees = totals.yahtzees;
  row.lastBlock = totals.lastBlock;
  for (const t of perToken) {
    row.staked[t.token] = (row.staked[t.token] ?? 0n) + t.staked;
    row.net[t.token] = (row.net[t.token] ?? 0n) + t.net;
  }
  finishRow(row, totals.completed, totals.points);
  return row;
}

// ------------------------------------------------------------------ sorting

export const LEADERBOARD_SORT_KEYS = [
  "wins",
  "games",
  "winRate",
  "best",
  "average",
  "yahtzees",
  "net",
  "player",
] as const;

export type LeaderboardSortKey = (typeof LEADERBOARD_SORT_KEYS)[number];

export const isLeaderboardSortKey = (value: string | null): value is LeaderboardSortKey =>
  (LEADERBOARD_SORT_KEYS as readonly (string | null)[]).includes(value);

export interface LeaderboardSort {
  key: LeaderboardSortKey;
  direction: "asc" | "desc";
  /** The token whose net winnings "net" sorts by (lower-case or checksummed). */
  token?: Address | null;
}

export const DEFAULT_SORT: LeaderboardSort = { key: "wins", direction: "desc" };

function netIn(row: LeaderboardRow, token: Address | null | undefined): bigint | null {
  if (!token) return null;
  return row.net[lower(token)] ?? null;
}

/** Compares two values where null sorts last in either direction. */
function compareNullable<T extends number | bigint>(
  a: T | null,
  b: T | null,
  sign: number,
): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a === b ? 0 : a < b ? -sign : sign;
}

function primary(a: LeaderboardRow, b: LeaderboardRow, sort: LeaderboardSort): number {
  const sign = sort.direction === "asc" ? 1 : -1;
  switch (sort.key) {
    case "player":
      return (
        sign * (lower(a.player) < lower(b.player) ? -1 : lower(a.player) > lower(b.player) ? 1 : 0)
      );
    case "best":
    case "average":
      return compareNullable(a[sort.key], b[sort.key], sign);
    case "net":
      return compareNullable(netIn(a, sort.token), netIn(b, sort.token), sign);
    default:
      return compareNullable(a[sort.key], b[sort.key], sign);
  }
}

/** sortLeaderboard's tie-break in a player's words, for the leaderboard page. */
export const TIE_BREAK_TEXT =
  "Players level in the sorted column are ranked by more wins, then a higher win rate, then " +
  "fewer games (the same record in fewer games ranks higher), then by address. A shared win " +
  "counts as a win for each winner.";

/**
 * A new array in the chosen order; ties fall back to wins, then win rate, then fewer games (the
 * same record in fewer games is better), then address, so the order is total and stable. Say so in
 * TIE_BREAK_TEXT when this changes.
 */
export function sortLeaderboard(
  rows: readonly LeaderboardRow[],
  sort: LeaderboardSort = DEFAULT_SORT,
): LeaderboardRow[] {
  return [...rows].sort(
    (a, b) =>
      primary(a, b, sort) ||
      b.wins - a.wins ||
      b.winRate - a.winRate ||
      a.games - b.games ||
      (lower(a.player) < lower(b.player) ? -1 : lower(a.player) > lower(b.player) ? 1 : 0),
  );
}

/** Tokens that appear in a set of rows (lower-case), for the net-winnings columns and filter. */
export function tokensIn(rows: readonly LeaderboardRow[]): string[] {
  const tokens = new Set<string>();
  for (const row of rows) for (const token of Object.keys(row.staked)) tokens.add(token);
  return [...tokens].sort();
}

import type { Address } from "viem";
import { isGameLog, mergeLogs, type GameLog, type HallLog } from "../events/hallEvents.ts";
import { applyEvent, initialGameState, sameAddress, type GameState } from "./gameState.ts";

/**
 * A match's standings, as the hall scores it (issue 33): one pure function that DiceHall's rule
 * mirrors, shared by practice, the live table, the end screen and the indexer.
 *
 * - Each game's winners are its highest totals; a tied game is a win for each of them.
 * - The match goes to the most games won; a tie on games goes to the highest total of points over
 *   all games; still tied, the pot is split among them.
 * - A player who forfeited (timed out in any game) plays no more games and cannot win; they stand
 *   below everyone who has not.
 *
 * Players are given by index (a seat in practice, a position in the match's player list on chain),
 * so the function needs no addresses; `indexOfPlayer` below maps accounts to indexes.
 */

export interface MatchGameScore {
  /** Each player's total in this game, by player index (a player who sat it out scores 0). */
  totals: readonly number[];
  /** The indexes of this game's winners (several on a tie). */
  winners: readonly number[];
}

export interface MatchStanding {
  index: number;
  /** Games won; a tied game counts as a win for each of its winners. */
  wins: number;
  /** Total of points over the games played so far. */
  points: number;
  best: number | null;
  average: number | null;
  forfeited: boolean;
  /** 1-based; players level on wins and points (and forfeit) share a place. */
  place: number;
}

export interface MatchStandingsResult {
  /** Best first: most wins, then most points; forfeited players last; ties by index. */
  rows: MatchStanding[];
  /**
   * The players in first place, by index in ascending order: the match's winners once every game is
   * played (several = the pot is split), the leaders before that. Empty before any game ends, or
   * when every player forfeited.
   */
  leaders: number[];
}

export function matchStandings(
  playerCount: number,
  games: readonly MatchGameScore[],
  forfeited: readonly number[] = [],
): MatchStandingsResult {
  const rows: MatchStanding[] = Array.from({ length: playerCount }, (_, index) => {
    const mine = games.map((g) => g.totals[index] ?? 0);
    const points = mine.reduce((a, b) => a + b, 0);
    return {
      index,
      wins: games.filter((g) => g.winners.includes(index)).length,
      points,
      best: mine.length ? Math.max(...mine) : null,
      average: mine.length ? points / mine.length : null,
      forfeited: forfeited.includes(index),
      place: 0,
    };
  });
  rows.sort(
    (a, b) =>
      Number(a.forfeited) - Number(b.forfeited) ||
      b.wins - a.wins ||
      b.points - a.points ||
      a.index - b.index,
  );
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    const level =
      prev &&
      prev.forfeited === row.forfeited &&
      prev.wins === row.wins &&
      prev.points === row.points;
    row.place = level ? prev.place : i + 1;
  });
  const leaders =
    games.length === 0
      ? []
      : rows
          .filter((r) => r.place === 1 && !r.forfeited)
          .map((r) => r.index)
          .sort((a, b) => a - b);
  return { rows, leaders };
}

/** A game's winners from its totals: every player on the highest total (by index). */
export function gameWinners(totals: readonly number[], eligible?: readonly boolean[]): number[] {
  const open = totals.map((t, i) => (eligible && !eligible[i] ? -1 : t));
  const best = Math.max(...open);
  return best < 0 ? [] : open.flatMap((t, i) => (t === best ? [i] : []));
}

/** "Game 2 of 5", or "" for a single game. */
export function gameOfMatch(game: number, games: number): string {
  return games > 1 ? `Game ${game} of ${games}` : "";
}

/**
 * The score line from one player's side: "you 1 – 0 Bob" for two, "you 2 · Bob 1 · Carol 0" for
 * more (games won), in the order given.
 */
export function scoreLine(entries: readonly { name: string; wins: number }[]): string {
  if (entries.length === 2)
    return `${entries[0].name} ${entries[0].wins} – ${entries[1].wins} ${entries[1].name}`;
  return entries.map((e) => `${e.name} ${e.wins}`).join(" · ");
}

// ------------------------------------------------------------------ a match on chain

/**
 * The match's players, in a fixed order for its standings (the first game's turn order, then
 * anyone seen later), each game's scores by that order, and who forfeited.
 */
export interface MatchTable {
  players: Address[];
  games: MatchGameScore[];
  forfeited: number[];
}

export function matchTableOf(state: GameState): MatchTable {
  const players: Address[] = [];
  const indexOf = (p: Address): number => {
    const i = players.findIndex((q) => sameAddress(p, q));
    if (i >= 0) return i;
    players.push(p);
    return players.length - 1;
  };
  for (const game of state.match.games) for (const p of game.players) indexOf(p);
  for (const p of state.result?.players ?? state.players) indexOf(p);
  const games = state.match.games.map((game) => {
    const totals = players.map(() => 0);
    game.players.forEach((p, i) => (totals[indexOf(p)] = Number(game.totals[i] ?? 0n)));
    return { totals, winners: game.winners.map(indexOf) };
  });
  const forfeited = state.forfeited.map(indexOf);
  return { players, games, forfeited };
}

/** Whether the table plays a match of several games (as opposed to one game). */
export const isMatch = (state: Pick<GameState, "match">): boolean => state.match.length > 1;

/**
 * "Game 2 of 5 · you 1 – 0 Bob": where a match stands, from `me`'s side (first when seated), in
 * games won; null for a single game.
 */
export function matchLine(
  state: GameState,
  name: (a: Address) => string,
  me?: Address,
): string | null {
  if (!isMatch(state)) return null;
  const { players, games, forfeited } = matchTableOf(state);
  const { rows } = matchStandings(players.length, games, forfeited);
  const wins = new Map(rows.map((r) => [r.index, r.wins]));
  const mine = players.findIndex((p) => sameAddress(p, me));
  const all = players.map((_, i) => i);
  const order = mine >= 0 ? [mine, ...all.filter((i) => i !== mine)] : all;
  const entries = order.map((i) => ({
    name: i === mine ? "you" : name(players[i]),
    wins: wins.get(i) ?? 0,
  }));
  const over = state.status === "finished" || state.status === "cancelled";
  const game = over
    ? `${state.match.games.length} of ${state.match.length} games played`
    : gameOfMatch(state.match.number, state.match.length);
  return `${game} · ${scoreLine(entries)}`;
}

// ------------------------------------------------------------------ each game of a match

/**
 * How a game of a match is named (issue 33): by its match's id and its number, `12` for a single
 * game and `12.3` for game 3 of match 12. Each game of a match is a game of its own for replays,
 * the coach, the analysis and the ratings; the match (the contract's id) holds the stake.
 */
export function matchGameKey(gameId: bigint, game: number, length: number): string {
  return length > 1 ? `${gameId}.${game}` : String(gameId);
}

/** The parts of a game key ("12" or "12.3"), or null when it is not one. */
export function parseMatchGameKey(text: string): { gameId: bigint; game: number | null } | null {
  const m = /^(\d{1,78})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const game = m[2] === undefined ? null : Number(m[2]);
  if (game !== null && (game < 1 || game > 10)) return null;
  return { gameId: BigInt(m[1]), game };
}

/** Events of the table itself, before and between games, that every game of the match keeps. */
const TABLE_EVENTS = new Set<string>([
  "GameCreated",
  "MatchCreated",
  "PlayerInvited",
  "PlayerJoined",
  "PlayerLeft",
]);

/**
 * The logs of game `game` of match `gameId` as a game of its own: the table's opening (created,
 * invited, joined, left) and the forfeits of earlier games, then that game's own logs, from the
 * end of the game before to its MatchGameFinished. A single game's logs are all of them.
 */
export function matchGameLogs(logs: readonly HallLog[], gameId: bigint, game: number): HallLog[] {
  const mine = mergeLogs(logs).filter((l) => isGameLog(l) && l.args.gameId === gameId) as GameLog[];
  const out: HallLog[] = [];
  let number = 1;
  for (const log of mine) {
    if (TABLE_EVENTS.has(log.eventName)) out.push(log);
    else if (number === game) out.push(log);
    else if (number < game && log.eventName === "PlayerForfeited") out.push(log);
    if (log.eventName === "MatchGameFinished") number = log.args.game + 1;
  }
  return out;
}

/**
 * Game `game` of a match, folded as a game of its own (see matchGameLogs): once its
 * MatchGameFinished is in, it is "finished" with that game's players, totals and winners as its
 * result (no payout: the match pays once, at its end), its sheets as they ended. For a single
 * game (or a match's game 1 read as the whole), foldGame's own.
 */
export function foldMatchGame(gameId: bigint, logs: readonly HallLog[], game: number): GameState {
  const slice = matchGameLogs(logs, gameId, game);
  const start = initialGameState(gameId);
  const state = slice.reduce(applyEvent, { ...start, match: { ...start.match, number: game } });
  if (state.match.length <= 1) return state;
  const ended = state.match.games.find((g) => g.number === game);
  if (!ended) return { ...state, match: { ...state.match, number: game } };
  return {
    ...state,
    status: "finished",
    // Its order was drawn (the next game's undrawn order is not this game's).
    orderDrawn: state.log.some((e) => e.kind === "started"),
    match: { ...state.match, number: game },
    result: {
      players: ended.players,
      totals: ended.totals,
      winners: ended.winners,
      payoutEach: 0n,
      houseFee: 0n,
    },
  };
}

/** The game of a match a page's `?game=` names (1–10), or null for the whole table. */
export function matchGameParam(search: URLSearchParams): number | null {
  const raw = search.get("game");
  return raw && /^(10|[1-9])$/.test(raw) ? Number(raw) : null;
}

// ------------------------------------------------------------------ a game a page names

/**
 * What game `game` of a table is, from the whole table's fold (and how many moves its own replay
 * has): "beyond" the match's length (game 4 of 3, or game 2 of a single game), "never played" (the
 * match ended before it), "to come" (it can still start), or "played" (being played or over: it
 * has a replay).
 */
export type MatchGameStatus = "beyond" | "never played" | "to come" | "played";

export function matchGameStatus(table: GameState, game: number, moves = 0): MatchGameStatus {
  const { length, number } = table.match;
  if (game < 1 || game > length) return "beyond";
  if (game <= table.match.games.length) return "played";
  if (table.status === "finished" || table.status === "cancelled") {
    // The game the match ended in was played if anything happened in it (a match called off
    // mid-game); a next game whose order nobody drew was not.
    return game === number && moves > 0 ? "played" : "never played";
  }
  return table.status === "running" && game <= number ? "played" : "to come";
}

/** The sentence for a game of a table that has nothing to replay (see matchGameStatus). */
export function matchGameAbsence(
  table: GameState,
  game: number,
  status: MatchGameStatus,
): string | null {
  const id = String(table.gameId);
  const { length } = table.match;
  if (status === "beyond") {
    return length > 1
      ? `Match #${id} has ${length} games: there is no game ${game} (of ${length}).`
      : `Game #${id} is a single game: there is no game ${game}.`;
  }
  if (status === "never played") {
    const played = table.match.games.length;
    return `Game ${game} of match #${id} was never played: the match ended after ${played} ${played === 1 ? "game" : "games"}.`;
  }
  if (status === "to come") return `Game ${game} of match #${id} has not started yet.`;
  return null;
}

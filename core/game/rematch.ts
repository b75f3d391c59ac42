import type { Address } from "viem";
import { sameAddress, type GameState } from "./gameState.ts";

/**
 * A rematch, as the hall's events show it: a lobby opened after a finished game, by one of its
 * players, at the same table (token, bet, rule set, match length), that either invites every other player of the
 * finished game or is open to all with the same number of seats. The contract has no such link:
 * the app recognises one from these facts, the way the rematch button makes one.
 */
export interface Rematch {
  /** The new lobby. */
  lobby: GameState;
  /** The finished game it replays. */
  of: GameState;
}

/** The players of a finished game (turn order, forfeited ones included). */
const playersOf = (game: GameState): readonly Address[] => game.result?.players ?? game.players;

const sameToken = (a: Address | null, b: Address | null) =>
  (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

export function isRematchOf(lobby: GameState, finished: GameState): boolean {
  if (finished.status !== "finished" || lobby.gameId <= finished.gameId) return false;
  const players = playersOf(finished);
  if (!lobby.creator || !players.some((p) => sameAddress(p, lobby.creator))) return false;
  if (!sameToken(lobby.token, finished.token) || lobby.bet !== finished.bet) return false;
  if (lobby.ruleSet !== finished.ruleSet) return false;
  // A match's rematch is a match of the same length (MatchCreated is in the lobby's own logs).
  if (lobby.match.length !== finished.match.length) return false;
  const others = players.filter((p) => !sameAddress(p, lobby.creator));
  if (lobby.isPrivate) return others.every((p) => lobby.invitees.some((i) => sameAddress(i, p)));
  return lobby.seats === finished.seats;
}

/** The open lobbies that replay `finished`, newest first. */
export function rematchesOf(finished: GameState, games: Iterable<GameState>): GameState[] {
  const found: GameState[] = [];
  for (const g of games) if (g.status === "open" && isRematchOf(g, finished)) found.push(g);
  return found.sort((a, b) => (a.gameId > b.gameId ? -1 : 1));
}

/**
 * The rematches waiting for `me`: open lobbies that replay a finished game I played, opened by
 * another player, where I have no seat yet. Newest first; one per lobby (the latest game it
 * replays).
 */
export function rematchesFor(me: Address | undefined, games: Iterable<GameState>): Rematch[] {
  if (!me) return [];
  const all = [...games];
  const mine = all.filter(
    (g) => g.status === "finished" && playersOf(g).some((p) => sameAddress(p, me)),
  );
  const out: Rematch[] = [];
  for (const lobby of all) {
    if (lobby.status !== "open" || sameAddress(lobby.creator, me)) continue;
    if (lobby.players.some((p) => sameAddress(p, me))) continue;
    if (lobby.isPrivate && !lobby.invitees.some((p) => sameAddress(p, me))) continue;
    const of = mine
      .filter((g) => isRematchOf(lobby, g))
      .sort((a, b) => (a.gameId > b.gameId ? -1 : 1))[0];
    if (of) out.push({ lobby, of });
  }
  return out.sort((a, b) => (a.lobby.gameId > b.lobby.gameId ? -1 : 1));
}

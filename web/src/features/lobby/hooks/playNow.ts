import type { Address } from "viem";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import type { BetToken, HallSettings } from "@/chain/settings.ts";
import type { TablePrefs } from "@/data/tablePrefs.ts";

/** An open table as "Play now" weighs it: from the hall's events and its getGame() view. */
export interface CandidateTable {
  gameId: bigint;
  token: Address;
  bet: bigint;
  seats: number;
  ruleSet: number;
  isPrivate: boolean;
  /** Open (status 1) and not cancelled or started, as far as the view says. */
  open: boolean;
  players: readonly Address[];
  /** The join deadline, in chain seconds; undefined until the view is read. */
  deadline: bigint | undefined;
  /** Games in the match (1: a single game). */
  games?: number;
}

/** What pressing "Play now" does: take a seat, go back to one's own waiting table, or open one. */
export type PlayNowChoice =
  { kind: "join"; gameId: bigint } | { kind: "waiting"; gameId: bigint } | { kind: "open" };

/**
 * A join needs a moment to land (wallet, simulation, a block): a table that closes sooner than
 * this is passed over rather than joined too late.
 */
export const JOIN_MARGIN_MS = 20_000;

/** The bets that count as "about the same": half to twice the remembered bet. */
export function betRange(bet: bigint): { min: bigint; max: bigint } {
  return { min: bet / 2n, max: bet * 2n };
}

/** Whether a table is the kind the player asked for (token, bet range, rule set, seats, match length). */
export function fitsPrefs(table: CandidateTable, prefs: TablePrefs): boolean {
  const { min, max } = betRange(prefs.bet);
  return (
    sameAddress(table.token, prefs.token) &&
    table.ruleSet === prefs.ruleSet &&
    table.seats === prefs.seats &&
    (table.games ?? 1) === (prefs.games ?? 1) &&
    table.bet >= min &&
    table.bet <= max
  );
}

/**
 * What "Play now" does. A player already waiting at a table of the kind goes back to it (no
 * second bet on a second table). Otherwise they take a seat at the oldest (lowest game number)
 * table that is public, open, not full, not about to close and of the kind; with none, they open
 * one.
 */
export function pickTable(
  tables: readonly CandidateTable[],
  prefs: TablePrefs,
  me: Address,
  nowMs: number,
): PlayNowChoice {
  const live = tables
    .filter(
      (t) =>
        t.open &&
        !t.isPrivate &&
        t.deadline !== undefined &&
        Number(t.deadline) * 1000 > nowMs + JOIN_MARGIN_MS &&
        fitsPrefs(t, prefs),
    )
    .sort((a, b) => (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0));
  const seated = (t: CandidateTable) => t.players.some((p) => sameAddress(p, me));
  // Already waiting at such a table: back to it, rather than a second bet on another.
  const mine = live.find(seated);
  if (mine) return { kind: "waiting", gameId: mine.gameId };
  const join = live.find((t) => t.players.length < t.seats);
  return join ? { kind: "join", gameId: join.gameId } : { kind: "open" };
}

/**
 * Two players who press "Play now" in the same moment each open a table before either sees the
 * other's. Once my new table is on chain, the older one wins: if a table of the kind with a lower
 * number than mine is live, public and has a free seat, and I am not at it, I move there (leaving
 * my own table cancels it, my bet back as credit). The player at the older table sees no older
 * twin and stays, so of any two such players exactly one moves, and they meet.
 */
export function olderTwin(
  tables: readonly CandidateTable[],
  mine: bigint,
  prefs: TablePrefs,
  me: Address,
  nowMs: number,
): bigint | null {
  const older = tables.filter((t) => t.gameId < mine && !t.players.some((p) => sameAddress(p, me)));
  const choice = pickTable(older, prefs, me, nowMs);
  return choice.kind === "join" ? choice.gameId : null;
}

/** The join window of a table "Play now" opens: 15 minutes, inside the owner's bounds. */
export const PLAY_NOW_JOIN_WINDOW = 900;
/** Its time per move: 5 minutes, inside the owner's bounds. */
export const PLAY_NOW_MOVE_TIMEOUT = 300;

/** `v` kept inside [min, max]. */
export const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);
const clampBig = (v: bigint, min: bigint, max: bigint) => (v < min ? min : v > max ? max : v);

/**
 * The preferences "Play now" uses under the hall's settings today: the remembered table when its
 * token is still allowed (its bet kept inside the token's limits), else a first table: the native
 * coin if allowed (or the first allowed token) at its minimum bet, two seats, Yahtzee. Null when
 * the hall accepts no token.
 */
export function effectivePrefs(
  remembered: TablePrefs | null,
  settings: HallSettings,
): (TablePrefs & { tokenInfo: BetToken }) | null {
  const allowed = settings.tokens.filter((t) => t.allowed);
  const kept = remembered && allowed.find((t) => sameAddress(t.address, remembered.token));
  if (remembered && kept) {
    return {
      token: kept.address,
      bet: clampBig(remembered.bet, kept.minBet, kept.maxBet),
      seats: clamp(remembered.seats, 2, 4),
      ruleSet: remembered.ruleSet,
      tokenInfo: kept,
    };
  }
  const first = allowed.find((t) => t.native) ?? allowed[0];
  if (!first) return null;
  return { token: first.address, bet: first.minBet, seats: 2, ruleSet: 0, tokenInfo: first };
}

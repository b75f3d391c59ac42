// What becomes of each session key this browser holds for the connected player, decided on every
// page (ui/SessionKeys.tsx runs it): a key still needed plays on; a live key whose games are all
// over pays the player out (its credit in the hall, then its own leftover gas) with no wallet; a
// key whose session is over (ended, revoked, replaced) and still holds coin is shown to the player
// with one button to send it back; an empty one is forgotten.
import type { Address } from "viem";
import { STATUS_NAMES } from "@dicehall/core/game/gameState.ts";
import { KEY_GRACE_MS } from "./session.ts";

export interface KeyFacts {
  key: Address;
  /** When this browser made it (ms). */
  madeAt: number;
  /** The game it was granted for, when known. */
  gameId: bigint | null;
  /** Its own native balance (its gas). */
  balance: bigint;
  /** What of that balance a transfer back can carry (0 when it cannot pay its own gas). */
  returnable: bigint;
  /** The chain's session for the player names this key and has not expired. */
  live: boolean;
}

export interface PlayerGames {
  /**
   * The player is seated in an open lobby or a running game that this browser played with a key
   * (the live key plays all of them; a game signed with the wallet throughout keeps none).
   */
  busy: boolean;
  /** Ids of the player's games that are over (finished or cancelled). */
  over: ReadonlySet<bigint>;
}

export type KeyAction =
  /** Needed (a game goes on, or its grant may still be in flight): left alone. */
  | { kind: "keep" }
  /**
   * A key whose games are over: if still live, the credit out to the player (withdrawFor), then the
   * gas back; if its session is over already (the hall paid it out), the gas back.
   */
  | { kind: "payout" }
  /** A key whose session is over and that still holds coin: shown, one button returns it. */
  | { kind: "return"; amount: bigint }
  /** Over and empty: this browser forgets it. */
  | { kind: "forget" };

export function keyAction(facts: KeyFacts, games: PlayerGames, nowMs: number): KeyAction {
  // A key with no game yet, made a moment ago: its grant may still wait for a block. (A landed
  // grant names its game: create, join, or a session opened at a table.)
  const young = nowMs - facts.madeAt < KEY_GRACE_MS;
  const pending = facts.gameId === null && young;
  if (facts.live) {
    // A live key plays every game of the player's; one granted for a game not yet seen as over
    // (a lobby the lists have not caught up with) waits too.
    if (games.busy || pending) return { kind: "keep" };
    if (facts.gameId !== null && !games.over.has(facts.gameId)) return { kind: "keep" };
    return { kind: "payout" };
  }
  if (pending) return { kind: "keep" };
  // A key whose game is over (its session paid out by the hall's keeper, issue 43) sends its float
  // back by itself, as a live one would: nothing of that session needs it any more.
  if (
    facts.returnable > 0n &&
    facts.gameId !== null &&
    games.over.has(facts.gameId) &&
    !games.busy
  ) {
    return { kind: "payout" };
  }
  if (facts.returnable > 0n) return { kind: "return", amount: facts.returnable };
  // Forgotten only once well past its making: a read from a node a block behind must not lose a
  // key whose grant has just landed.
  return young ? { kind: "keep" } : { kind: "forget" };
}

/** What asking again for a refused roll reads of a game (getGame's view). */
export interface RefusedRoll {
  status: number;
  entropyAttempts: number;
  pendingSequence: bigint;
  /** Unix seconds from which the refused roll may be asked again (0: it may not). */
  retryAt: bigint;
  /** Unix seconds from which the game may be called off. */
  callOffAt: bigint;
}

/**
 * When a seated player's key should ask again for the game's refused roll: the roll is refused
 * (no request out), its retry time has come, the call-off has not, and this app has not asked at
 * this retry time already (`askedAt`: the retryAt it last asked at). The key of a seated player
 * may ask for anyone's roll (the dice stay the mover's), paying from its session's roll fees:
 * every open app of the table asks, so the leader never depends on the hall's keeper alone.
 */
export function shouldAskAgain(
  view: RefusedRoll,
  nowSec: number,
  askedAt: bigint | undefined,
): boolean {
  if (
    STATUS_NAMES[view.status] !== "running" ||
    view.entropyAttempts === 0 ||
    view.pendingSequence !== 0n
  ) {
    return false;
  }
  if (view.retryAt === 0n || BigInt(Math.floor(nowSec)) < view.retryAt) return false;
  if (view.callOffAt !== 0n && BigInt(Math.floor(nowSec)) >= view.callOffAt) return false;
  return askedAt !== view.retryAt;
}

/** Chain seconds after a game's end before the hall's keeper pays its players (scripts/lib/hallKeeper.ts). */
export const KEEPER_PAYS_AFTER_SECONDS = 30;

/** The player's session as the chain holds it, and its game, for saying when its slot comes back. */
export interface SlotFacts {
  /** What is left in the session's slot in the hall (session(player).feeAllowance). */
  slot: bigint;
  /** The session's expiry (unix seconds). */
  expiresAt: number;
  /**
   * The game the session was opened with (create, create a match or join with a session): its
   * end pays the slot out. Null for a session opened on its own (openSession).
   */
  gameId: bigint | null;
  /** That game (the whole match) is over: finished or cancelled. */
  gameOver: boolean;
}

/** When the coin left in a session's slot comes back to the player's wallet. */
export type SlotReturn =
  /** With the payout of the game it was opened with, which is still going. */
  | { when: "game-end"; gameId: bigint; expiresAt: number }
  /** Its game is over: the hall's keeper pays it out shortly (anyone may). */
  | { when: "now"; gameId: bigint }
  /** A session opened on its own: with the payout of a finished game of the player's, once expired. */
  | { when: "expiry"; expiresAt: number }
  /** Expired: with the payout of a finished game of the player's (the keeper's, or anyone's). */
  | { when: "expired" };

/** When a session's slot comes back (null when it holds nothing). */
export function slotReturn(facts: SlotFacts, nowSec: number): SlotReturn | null {
  if (facts.slot === 0n) return null;
  if (facts.gameId !== null) {
    return facts.gameOver
      ? { when: "now", gameId: facts.gameId }
      : { when: "game-end", gameId: facts.gameId, expiresAt: facts.expiresAt };
  }
  return facts.expiresAt > nowSec
    ? { when: "expiry", expiresAt: facts.expiresAt }
    : { when: "expired" };
}

/** The sentence that says when a slot comes back; `time` words a unix time. */
export function slotReturnSentence(r: SlotReturn, time: (unixSec: number) => string): string {
  switch (r.when) {
    case "game-end":
      return `It comes back to your wallet when game #${r.gameId} ends: the hall's keeper pays it out about ${KEEPER_PAYS_AFTER_SECONDS} seconds after the end, with your winnings or refund, whether or not any page of yours is open.`;
    case "now":
      return `Game #${r.gameId} is over: the hall's keeper pays it to your wallet within a minute or so of the end.`;
    case "expiry":
      return `It comes back to your wallet once the session expires (${time(r.expiresAt)}), with the payout of a finished game of yours.`;
    case "expired":
      return "The session has expired: it comes back to your wallet with the payout of a finished game of yours.";
  }
}

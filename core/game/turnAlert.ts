import type { Address } from "viem";
import { sameAddress } from "./gameState.ts";

/**
 * "Your turn, wherever you are": when a move comes to the connected player, the app raises an
 * alert (title, favicon, sound, a notification, a vibration). This is the decision alone, as a pure
 * step over what the table shows now and what was seen before, so that it fires exactly once per
 * move: never for the state a page finds when it loads (a reload is not news), never for someone
 * watching, and once more (no more) when the move's last 30 seconds begin.
 */

/** The table as the alert needs it: plain values from the chain's view and the chain's clock. */
export interface TurnAlertTable {
  gameId: bigint;
  running: boolean;
  /** The first roll has drawn the turn order; until then any seated player may make it. */
  orderDrawn: boolean;
  round: number;
  /** Seated players, in the contract's order. */
  players: readonly Address[];
  /** Whose move it is once the order is drawn; null before or when nobody's. */
  current: Address | null;
  /** Players who forfeited: their seats get no moves. */
  forfeited: readonly Address[];
  /**
   * A roll that is out and may be asked of Entropy again now (refused or late): any seated player
   * may ask. `attempts` tells one request from the next.
   */
  askAgain: { attempts: number } | null;
  /** When the move clock runs out (chain ms); null when no clock runs. */
  deadlineMs: number | null;
  /** The chain's time now (ms). */
  nowMs: number;
}

/** What the move is that came to the player. */
export type TurnPhase = "draw" | "move" | "askAgain";

/** Its last stretch: the alert repeats once when this much time is left. */
export const URGENT_MS = 30_000;

export interface TurnAlertCue {
  /** "turn" when the move first comes; "urgent" when its last 30 s begin. */
  kind: "turn" | "urgent";
  phase: TurnPhase;
  key: string;
}

/** What has been seen: the latest move that was the player's, and whose urgency was raised. */
export interface TurnAlertSeen {
  me: string;
  key: string | null;
  urgentKey: string | null;
}

/** The move that is `me`'s now (game + round + player + phase), or null when none is. */
export function myMove(
  table: TurnAlertTable,
  me: Address | undefined,
): { key: string; phase: TurnPhase } | null {
  if (!me || !table.running) return null;
  if (!table.players.some((p) => sameAddress(p, me))) return null;
  if (table.forfeited.some((p) => sameAddress(p, me))) return null;
  if (table.deadlineMs !== null && table.nowMs > table.deadlineMs) return null;
  const at = `${table.gameId}:${table.round}:${me.toLowerCase()}`;
  if (table.askAgain) return { key: `${at}:askAgain${table.askAgain.attempts}`, phase: "askAgain" };
  if (!table.orderDrawn) return { key: `${at}:draw`, phase: "draw" };
  if (sameAddress(table.current, me)) return { key: `${at}:move`, phase: "move" };
  return null;
}

/**
 * One step: the new seen-state, and the cue to raise now (or null). `seen` is undefined on a
 * page's first look at the table (load or reload): that look is remembered, never announced.
 */
export function turnAlertStep(
  seen: TurnAlertSeen | undefined,
  table: TurnAlertTable,
  me: Address | undefined,
): { seen: TurnAlertSeen; cue: TurnAlertCue | null; mine: TurnPhase | null } {
  const move = myMove(table, me);
  const key = move?.key ?? null;
  const urgent =
    move !== null &&
    table.deadlineMs !== null &&
    table.deadlineMs - table.nowMs <= URGENT_MS &&
    table.deadlineMs >= table.nowMs;
  const who = me?.toLowerCase() ?? "";
  // A first look, or another account connected: remember without a sound.
  if (!seen || seen.me !== who) {
    return {
      seen: { me: who, key, urgentKey: urgent ? key : null },
      cue: null,
      mine: move?.phase ?? null,
    };
  }
  // The last move seen stays remembered: the same move coming back (a view read twice) is no news.
  if (move === null) return { seen, cue: null, mine: null };
  if (move.key !== seen.key) {
    return {
      seen: { me: who, key: move.key, urgentKey: urgent ? move.key : seen.urgentKey },
      cue: { kind: "turn", phase: move.phase, key: move.key },
      mine: move.phase,
    };
  }
  if (urgent && seen.urgentKey !== move.key) {
    return {
      seen: { ...seen, urgentKey: move.key },
      cue: { kind: "urgent", phase: move.phase, key: move.key },
      mine: move.phase,
    };
  }
  return { seen, cue: null, mine: move.phase };
}

/** What a move that came to the player is called: the tab's title and a notification's. */
export const TURN_PHASE_TITLE: Record<TurnPhase, string> = {
  move: "Your turn",
  draw: "Roll for the turn order",
  askAgain: "Ask for the dice again",
};

/** The words of a cue: a notification's title and body, and what a screen reader hears. */
export function turnAlertText(cue: TurnAlertCue, gameId: bigint): { title: string; body: string } {
  const game = `Game #${gameId}`;
  if (cue.kind === "urgent") {
    return {
      title: "Under 30 seconds left",
      body: `${game}: make your move before time runs out.`,
    };
  }
  const title = TURN_PHASE_TITLE[cue.phase];
  switch (cue.phase) {
    case "draw":
      return { title, body: `${game}: every seat is taken. Someone must make the first roll.` };
    case "askAgain":
      return { title, body: `${game}: the roll did not come; you can ask for it again.` };
    default:
      return { title, body: `${game}: it's your move.` };
  }
}

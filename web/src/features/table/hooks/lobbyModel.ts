import type { Address } from "viem";
import { deadlinePassed } from "@/chain/chainClock.ts";
import type { GameView } from "@/data/gameData.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";

export interface JoinState {
  /** The join window is open on the chain's clock. */
  windowOpen: boolean;
  /** Show a Join button (the viewer could take a seat, or could have until the window closed). */
  offered: boolean;
  /** The button works now. */
  canJoin: boolean;
  /** Why it does not, in words; null when it does or when no button is shown. */
  reason: string | null;
}

/** Whether the viewer can take a seat at an open table at chain time `nowMs`. */
export function joinState(view: GameView, me: Address | undefined, nowMs: number): JoinState {
  const windowOpen = !deadlinePassed(view.deadline, nowMs);
  const seated = view.players.some((p) => sameAddress(p, me));
  const { invitees } = view.config;
  const invited = invitees.length === 0 || invitees.some((p) => sameAddress(p, me));
  const offered = !!me && !seated && invited;
  const reason = !offered
    ? null
    : !windowOpen
      ? "The join window has closed: the hall takes no more players at this table."
      : null;
  return { windowOpen, offered, canJoin: offered && windowOpen, reason };
}

/**
 * The Join button's words. An ERC-20 bet needs an approval first; the label chosen when the button
 * was pressed stays until both steps are done, rather than flipping to "Join" in the middle.
 */
export function joinLabel(needsApproval: boolean, symbol: string | undefined, bet: string): string {
  return needsApproval ? `Approve ${symbol ?? "the token"} and join for ${bet}` : `Join for ${bet}`;
}

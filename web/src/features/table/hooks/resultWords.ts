import type { Address } from "viem";
import { sameAddress, type GameState } from "@dicehall/core/game/gameState.ts";

/** The payout line under the standings: "each winner gets" only when there are several. */
export function payoutSentence(winners: number, payout: string): string {
  return winners > 1 ? `the ${winners} winners get ${payout} each.` : `the winner gets ${payout}.`;
}

/**
 * What a cancelled table gave back to `me`: their bet when they held a seat at the cancel, else
 * nothing. (The hall's credit balance may hold more, from other games: that is shown apart.)
 */
export function refundOf(state: GameState | null | undefined, me: Address | undefined): bigint {
  if (!state || !me || state.status !== "cancelled") return 0n;
  return state.players.some((p) => sameAddress(p, me)) ? state.bet : 0n;
}

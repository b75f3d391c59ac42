import type { Address } from "viem";
import { sameAddress, type GameState } from "@dicehall/core/game/gameState.ts";

/** The payout line under the standings: "each winner gets" only when there are several. */
export function payoutSentence(winners: number, payout: string): string {
  return winners > 1 ? `the ${winners} winners get ${payout} each.` : `the winner gets ${payout}.`;
}

/** The line under the standings: the pot, the house fee if any, and what the winners get. */
export function potSentence(
  pot: string,
  houseFee: string | null,
  winners: number,
  payout: string,
): string {
  return `Pot ${pot}${houseFee ? `, house fee ${houseFee}` : ""}; ${payoutSentence(winners, payout)}`;
}

/**
 * The heading over the hall's credit on the end screen. Only a winner's credit holds winnings from
 * this game; anyone else's is named as what it is: roll fees paid in and not spent (a session key's
 * deposit, this game's too, which stays there once the key is revoked), winnings and refunds from
 * other games.
 */
export function creditTitle(iWon: boolean): { title: string; note: string } {
  return iWon
    ? {
        title: "Your winnings",
        note: "Your winnings from this game wait in the hall with any other credit you have, until you withdraw them.",
      }
    : {
        title: "Your credit in the hall",
        note: "No winnings from this game: roll fees you paid in and did not spend (a session key's deposit among them), and winnings or refunds from other games, waiting until you withdraw them.",
      };
}

/**
 * What a cancelled table gave back to `me`: their bet when they held a seat at the cancel, else
 * nothing. (The hall's credit balance may hold more, from other games: that is shown apart.)
 */
export function refundOf(state: GameState | null | undefined, me: Address | undefined): bigint {
  if (!state || !me || state.status !== "cancelled") return 0n;
  return state.players.some((p) => sameAddress(p, me)) ? state.bet : 0n;
}

import type { Address, Hex } from "viem";
import { derivation, type DieDerivation } from "../rules/dice.ts";
import { drawTurnOrder } from "../rules/turnOrder.ts";
import { RulesError } from "../rules/errors.ts";
import { checkDice } from "../rules/score.ts";
import type { LogEntry, RollRecord } from "./gameState.ts";

/**
 * "Verify this roll": the dice recomputed in the browser from the number Pyth Entropy revealed,
 * with docs/RULES.md's formula die[i] = 1 + uint256(keccak256(abi.encode(r, i))) % 6 (rules/dice.ts),
 * and compared die by die with the dice the contract put in DiceRolled.
 */

export interface DieCheck extends DieDerivation {
  /** What DiceRolled says. */
  onChain: number;
  matches: boolean;
}

export interface RollCheck {
  dice: DieCheck[];
  /** Every die agrees. */
  matches: boolean;
  /**
   * The dice before a re-roll were not in the logs we have (kept dice are then taken from the
   * roll itself; only the re-rolled ones are checked).
   */
  previousUnknown: boolean;
  /** Why the roll could not be recomputed at all (a malformed keep mask, say). */
  error: string | null;
}

export type RollToVerify = Pick<
  RollRecord,
  "rollNumber" | "dice" | "randomNumber" | "keepMask" | "previous"
>;

export function verifyRoll(roll: RollToVerify): RollCheck {
  const firstRoll = roll.rollNumber <= 1;
  const previousUnknown = !firstRoll && roll.previous === null;
  const previous = firstRoll ? null : (roll.previous ?? roll.dice);
  try {
    const derived = derivation(
      roll.randomNumber,
      previous === null ? null : checkDice(previous),
      firstRoll ? 0 : roll.keepMask,
    );
    const dice = derived.map((die): DieCheck => {
      const onChain = roll.dice[die.position];
      return { ...die, onChain, matches: die.value === onChain };
    });
    return { dice, matches: dice.every((d) => d.matches), previousUnknown, error: null };
  } catch (error) {
    const message = error instanceof RulesError ? error.message : String(error);
    return { dice: [], matches: false, previousUnknown, error: message };
  }
}

/** keccak256(abi.encode(r, i)) mod 6, as a short line for the page. */
export function explainDie(die: DieDerivation): string {
  if (die.kept || die.hash === null) return `kept from the roll before: ${die.value}`;
  const mod = (BigInt(die.hash) % 6n).toString();
  return `1 + (${die.hash.slice(0, 10)}…${die.hash.slice(-6)} mod 6 = ${mod}) = ${die.value}`;
}

/** Pyth's Entropy explorer names chains by slug; only chains where the real provider runs. */
const EXPLORER_CHAINS: Record<number, string> = {
  8453: "base",
  84532: "base-sepolia-testnet",
  42161: "arbitrum-one",
  421614: "arbitrum-sepolia",
};

export const ENTROPY_EXPLORER = "https://entropy-explorer.pyth.network/";

/**
 * The explorer's search for one request (its page reads `chain` and `search` from the query
 * string; search takes a sequence number, provider, caller or transaction hash). Null on chains
 * it does not cover, such as the local node with its mock.
 */
export function entropyExplorerUrl(chainId: number, sequenceNumber: bigint): string | null {
  const chain = EXPLORER_CHAINS[chainId];
  if (!chain) return null;
  const params = new URLSearchParams({ chain, search: sequenceNumber.toString() });
  return `${ENTROPY_EXPLORER}?${params.toString()}`;
}

export const isHex32 = (value: string): value is Hex => /^0x[0-9a-fA-F]{64}$/.test(value);

/** The turn order a game's first roll drew: what GameStarted says, and what `r` gives. */
export interface OrderDrawCheck {
  joinOrder: Address[];
  onChain: Address[];
  expected: Address[];
  matches: boolean;
}

/**
 * When `rolledId` is a game's first roll (GameStarted sits just before its DiceRolled, in the same
 * block), the draw recomputed from its random number over the players in join order; else null.
 */
export function verifyOrderDraw(log: readonly LogEntry[], rolledId: string): OrderDrawCheck | null {
  const at = log.findIndex((e) => e.id === rolledId);
  const rolled = log[at];
  const started = log[at - 1];
  if (!rolled || rolled.kind !== "rolled" || started?.kind !== "started") return null;
  if (started.blockNumber !== rolled.blockNumber) return null;
  const joinOrder = started.joinOrder;
  if (joinOrder.length < 2 || joinOrder.length > 4) return null;
  const expected = drawTurnOrder(rolled.roll.randomNumber, joinOrder.length).map(
    (j) => joinOrder[j],
  );
  const onChain = [...started.order];
  const matches = expected.every((p, i) => p.toLowerCase() === onChain[i]?.toLowerCase());
  return { joinOrder, onChain, expected, matches };
}

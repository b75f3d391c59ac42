// The end of a game played with a session key: the key pays the player's credit out to the
// player's own address (withdrawFor: the winnings, refunds and the roll fees set aside for the
// session and not spent), then sends
// its own leftover gas back to the player. No wallet opens for either.
import { zeroAddress, type Address, type LocalAccount } from "viem";
import {
  getBalance,
  getGasPrice,
  readContract,
  sendTransaction,
  waitForTransactionReceipt,
} from "viem/actions";
import { leftoverGas, TRANSFER_GAS } from "@dicehall/core/contract/session.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import type { Hall } from "./hall.ts";
import { hallCall, keyClient, sendWrite } from "./write.ts";

export interface Payout {
  /** What withdrawFor paid to the player, per token (only tokens with a credit). */
  withdrawn: Map<Address, bigint>;
  /** The key's gas sent back to the player (0 when there was none to send). */
  gasReturned: bigint;
}

/** Pays `player`'s credit in `tokens` to the player through `key`; `withdraw` false skips that step. */
export async function payOutSession(
  hall: Hall,
  key: LocalAccount,
  player: Address,
  tokens: readonly Address[],
  withdraw: boolean,
): Promise<Payout> {
  const withdrawn = new Map<Address, bigint>();
  if (withdraw) {
    for (const token of new Set(tokens.map((t) => t.toLowerCase() as Address))) {
      const credit = await owed(hall, player, token);
      if (credit === 0n) continue;
      try {
        await sendWrite(
          hall,
          { by: "key", key },
          hallCall(hall.address, "withdrawFor", [player, token]),
        );
        withdrawn.set(token, credit);
      } catch (err) {
        // Paid out by someone else meanwhile (the hall's keeper pays a finished game's players):
        // nothing is left to withdraw, and the key's gas still goes back.
        if ((await owed(hall, player, token)) !== 0n) throw err;
      }
    }
  }
  return { withdrawn, gasReturned: await returnKeyGas(hall, key, player) };
}

/**
 * What withdrawFor would pay `player` in `token`: the credit, and for the native coin the roll fees
 * set aside for the session and not spent.
 */
async function owed(hall: Hall, player: Address, token: Address): Promise<bigint> {
  const read = { address: hall.address, abi: diceHallAbi } as const;
  const [credit, session] = await Promise.all([
    readContract(hall.client, { ...read, functionName: "credits", args: [token, player] }),
    token === zeroAddress
      ? readContract(hall.client, { ...read, functionName: "session", args: [player] })
      : null,
  ]);
  return credit + (session?.active ? session.feeAllowance : 0n);
}

/**
 * Sends what the key holds back to `player`, in a legacy transfer priced a quarter over the
 * current gas price: such a transfer pays exactly its price, so the key ends at zero.
 */
export async function returnKeyGas(
  hall: Hall,
  key: LocalAccount,
  player: Address,
): Promise<bigint> {
  const [balance, price] = await Promise.all([
    getBalance(hall.client, { address: key.address }),
    getGasPrice(hall.client),
  ]);
  const gasPrice = price + price / 4n;
  const value = leftoverGas(balance, gasPrice);
  if (value === 0n) return 0n;
  const hash = await sendTransaction(keyClient(hall, key), {
    account: key,
    chain: hall.chain,
    to: player,
    value,
    gas: TRANSFER_GAS,
    gasPrice,
    type: "legacy",
  });
  await waitForTransactionReceipt(hall.client, { hash });
  return value;
}

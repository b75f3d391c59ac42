import { recoverMessageAddress, type Address, type Hex, type PublicClient } from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";

/** Who signed a subscription's proof for the address: its wallet, its session key, or nobody. */
export type ProofSigner = "wallet" | "key" | null;

export type CheckProof = (
  address: Address,
  message: string,
  signature: Hex,
) => Promise<ProofSigner>;

/**
 * Checks a subscription's proof (core/notify/pushProof.ts) against the chain: an account's own
 * signature (EIP-191); else a session key's, when the hall's `sessionPlayer(key)` names the address
 * now (a seated player turns pushes on with no wallet prompt); else a contract wallet's answer
 * (EIP-1271, or ERC-6492 before it is deployed), which viem's verifyMessage asks the chain for.
 */
export function proofChecker(client: PublicClient, hall: Address): CheckProof {
  return async (address, message, signature) => {
    const signer = await recoverMessageAddress({ message, signature }).catch(() => null);
    if (signer && sameAddress(signer, address)) return "wallet";
    if (signer) {
      const player = await client.readContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "sessionPlayer",
        args: [signer],
      });
      if (sameAddress(player, address)) return "key";
    }
    const contract = await client.getCode({ address }).catch(() => undefined);
    if (!contract || contract === "0x") return null;
    const ok = await client.verifyMessage({ address, message, signature }).catch(() => false);
    return ok ? "wallet" : null;
  };
}

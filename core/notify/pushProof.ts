import type { Address } from "viem";
import type { PushKind } from "./pushKinds.ts";

/**
 * The proof that a push subscription's sender speaks for its address (issue 42): one short text
 * that the player's session key, or else the wallet, signs (EIP-191 personal message). It names
 * the index (the hall and its chain), what is asked, the browser's push endpoint, the kinds and
 * when the proof stops counting, so a signature made for one browser, one index or one request
 * proves nothing for another. The app builds it, the index builds it again from the request and
 * checks the signature against it: one definition for both.
 */

export type PushProofAction = "subscribe" | "delete";

export interface PushProofFields {
  hall: Address;
  chainId: number;
  action: PushProofAction;
  address: Address | string;
  endpoint: string;
  kinds: readonly PushKind[];
  /** Unix seconds after which the index refuses the proof. */
  expires: number;
}

/** How long a proof may be made to last: enough for a slow wallet, short enough not to matter. */
export const PUSH_PROOF_MAX_SECONDS = 15 * 60;

export function pushProofMessage(f: PushProofFields): string {
  return [
    "Dicehall notifications",
    `Index: hall ${f.hall.toLowerCase()} on chain ${f.chainId}`,
    `Action: ${f.action}`,
    `Account: ${f.address.toLowerCase()}`,
    `Browser: ${f.endpoint}`,
    `Kinds: ${[...f.kinds].join(", ") || "none"}`,
    `Valid until: ${new Date(f.expires * 1000).toISOString()}`,
  ].join("\n");
}

/** What a request carries: the signature and the expiry it signed. */
export interface PushProof {
  signature: `0x${string}`;
  expires: number;
}

// The consent a session key gives before a player may name it (issue 31): the key signs, with
// EIP-712, that it agrees to act for this player with this grant, in this hall on this chain. The
// hall (DiceHallDesk's _checkConsent) rebuilds the same typed data and recovers the key from the
// signature, so no address can be named as someone's key without its own private key. One
// definition for the app, the tests and the scripts.
import type { Address, Hex } from "viem";

/** The EIP-712 domain's name and version (DiceHallDesk's EIP712 constructor). */
export const SESSION_CONSENT_NAME = "DiceHall";
export const SESSION_CONSENT_VERSION = "1";

/** The typed data's types: the primary type is SessionConsent. */
export const SESSION_CONSENT_TYPES = {
  SessionConsent: [
    { name: "player", type: "address" },
    { name: "key", type: "address" },
    { name: "expiresAt", type: "uint64" },
    { name: "feeAllowance", type: "uint128" },
    { name: "keyGas", type: "uint128" },
  ],
} as const;

/** What a player grants a key: the contract's SessionGrant. */
export interface SessionGrant {
  key: Address;
  expiresAt: bigint;
  feeAllowance: bigint;
  keyGas: bigint;
}

/** The domain a consent is signed in: this hall on this chain (ERC-5267's `eip712Domain()` says the same). */
export function sessionConsentDomain(chainId: number, hall: Address) {
  return {
    name: SESSION_CONSENT_NAME,
    version: SESSION_CONSENT_VERSION,
    chainId,
    verifyingContract: hall,
  } as const;
}

/** The whole typed data the key signs to agree to act for `player` with `grant` in `hall` on `chainId`. */
export function sessionConsentTypedData({
  chainId,
  hall,
  player,
  grant,
}: {
  chainId: number;
  hall: Address;
  player: Address;
  grant: SessionGrant;
}) {
  return {
    domain: sessionConsentDomain(chainId, hall),
    types: SESSION_CONSENT_TYPES,
    primaryType: "SessionConsent",
    message: {
      player,
      key: grant.key,
      expiresAt: grant.expiresAt,
      feeAllowance: grant.feeAllowance,
      keyGas: grant.keyGas,
    },
  } as const;
}

/** Anything that signs typed data as the key: a viem LocalAccount (privateKeyToAccount) or a wallet client bound to it. */
export interface ConsentSigner {
  signTypedData(typedData: ReturnType<typeof sessionConsentTypedData>): Promise<Hex>;
}

/**
 * The key's signature of its consent: the `consent` argument of `openSession`,
 * `createGameWithSession` and `joinGameWithSession`. `key` must be the grant's key.
 */
export function signSessionConsent(
  key: ConsentSigner,
  args: { chainId: number; hall: Address; player: Address; grant: SessionGrant },
): Promise<Hex> {
  return key.signTypedData(sessionConsentTypedData(args));
}

// The session key: a key made in this browser (viem's generatePrivateKey) that plays a player's
// moves, so that a game costs one wallet confirmation. It is kept in this device's storage per
// chain and player, and never sent anywhere: only its address goes on chain, in the grant.
//
// This file is the part without React: where the key is kept, and who signs a game's moves given
// what the chain says about the player's session. The hooks are in sessionHooks.ts.
import { getAddress, isHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { localStore } from "@/data/localStore.ts";

const PREFIX = "dicehall.sessionKey";

export function sessionKeyStorageKey(chainId: number, player: Address): string {
  return `${PREFIX}.${chainId}.${player.toLowerCase()}`;
}

/** This browser's key for `player` on `chainId`, or null when it has none (or no storage). */
export function loadSessionKey(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): PrivateKeyAccount | null {
  try {
    const value = store?.getItem(sessionKeyStorageKey(chainId, player));
    if (!value || !isHex(value) || value.length !== 66) return null;
    return privateKeyToAccount(value as Hex);
  } catch {
    return null;
  }
}

/**
 * This browser's key for `player`, made (and kept) when there is none. Null where the browser keeps
 * nothing: a key that would be lost on reload is not made, and the player signs every move.
 */
export function ensureSessionKey(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): PrivateKeyAccount | null {
  const known = loadSessionKey(chainId, player, store);
  if (known) return known;
  if (!store) return null;
  const key = generatePrivateKey();
  try {
    store.setItem(sessionKeyStorageKey(chainId, player), key);
  } catch {
    return null;
  }
  // Read back: a store that silently drops writes must not leave a key only in memory.
  return loadSessionKey(chainId, player, store);
}

/** The player's session as the contract's `session(player)` view returns it. */
export interface SessionOnChain {
  key: Address;
  expiresAt: bigint | number;
  feeAllowance: bigint;
}

const ZERO = "0x0000000000000000000000000000000000000000";

/** Who signs a player's moves in a game, and why, in words the table shows. */
export type MoveSigner =
  | { by: "key"; key: Address; until: number }
  | { by: "wallet"; why: "none" | "elsewhere" | "ended" };

/**
 * The key signs when the chain's active session for the player is this browser's key; otherwise
 * the wallet does: "elsewhere" when a live session belongs to a key this browser does not hold (the
 * player joined from another browser), "ended" when this browser's key's session is over.
 */
export function chooseSigner(
  onChain: SessionOnChain | null | undefined,
  localKey: Address | null | undefined,
  nowSec: number,
): MoveSigner {
  if (!onChain || sameAddress(onChain.key, ZERO)) {
    return { by: "wallet", why: "none" };
  }
  const until = Number(onChain.expiresAt);
  const live = until > nowSec;
  if (localKey && sameAddress(onChain.key, localKey)) {
    return live
      ? { by: "key", key: getAddress(onChain.key), until }
      : { by: "wallet", why: "ended" };
  }
  return live ? { by: "wallet", why: "elsewhere" } : { by: "wallet", why: "none" };
}

/** The sentence over the table that says who signs this player's moves. */
export function signerSentence(signer: MoveSigner, untilText: string): string {
  if (signer.by === "key") return `Moves signed by this browser's session key, until ${untilText}.`;
  switch (signer.why) {
    case "elsewhere":
      return "Moves signed by your wallet: the session key that plays this game was made in another browser, and only that browser holds it.";
    case "ended":
      return "Moves signed by your wallet: this browser's session key has ended.";
    default:
      return "Moves signed by your wallet, one confirmation each.";
  }
}

const GAME_PREFIX = "dicehall.sessionGame";

/**
 * The game this browser's key was last granted for (create or join with a session): the one whose
 * end pays the credit out and sends the key's gas back. A finished game opened later, while the
 * key plays another, must not empty it.
 */
export function rememberSessionGame(
  chainId: number,
  player: Address,
  gameId: bigint,
  store: Storage | undefined = localStore(),
): void {
  try {
    store?.setItem(`${GAME_PREFIX}.${chainId}.${player.toLowerCase()}`, gameId.toString());
  } catch {
    // Without storage there is no key either.
  }
}

export function sessionGameOf(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): bigint | null {
  try {
    const value = store?.getItem(`${GAME_PREFIX}.${chainId}.${player.toLowerCase()}`);
    return value && /^\d+$/.test(value) ? BigInt(value) : null;
  } catch {
    return null;
  }
}

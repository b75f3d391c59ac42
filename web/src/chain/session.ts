// The session key: a key made in this browser (viem's generatePrivateKey) that plays a player's
// moves, so that a game costs one wallet confirmation. A fresh key for every session (a key once
// named may be named by someone else after its session ends); this device's storage keeps, per
// chain and player, every key still live or holding coin, and nothing is ever sent anywhere: only
// a key's address and its consent go on chain, in the grant.
//
// This file is the part without React: where the key is kept, and who signs a game's moves given
// what the chain says about the player's session. The hooks are in sessionHooks.ts.
import { getAddress, isHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { localStore } from "@/data/localStore.ts";

const PREFIX = "dicehall.sessionKey";
const GAME_PREFIX = "dicehall.sessionGame";
const KEYED_PREFIX = "dicehall.keyedGames";
const KEYS_PREFIX = "dicehall.sessionKeys";

/** Where a browser of an earlier version kept its one key per chain and player (read, then moved). */
export function sessionKeyStorageKey(chainId: number, player: Address): string {
  return `${PREFIX}.${chainId}.${player.toLowerCase()}`;
}

/** Where this browser keeps the player's keys on a chain: every key still live or holding coin. */
export function sessionKeysStorageKey(chainId: number, player: Address): string {
  return `${KEYS_PREFIX}.${chainId}.${player.toLowerCase()}`;
}

/** One key this browser made for a player: when, and the game it was last granted for. */
export interface StoredKey {
  account: PrivateKeyAccount;
  /** When it was made (ms): a key younger than KEY_GRACE_MS may be in a grant still in flight. */
  madeAt: number;
  gameId: bigint | null;
}

/** How long a new key is kept whatever the chain says: its grant may still wait for a block. */
export const KEY_GRACE_MS = 10 * 60_000;

interface KeyRecord {
  k: Hex;
  at: number;
  game?: string;
}

function readRecords(chainId: number, player: Address, store: Storage | undefined): KeyRecord[] {
  if (!store) return [];
  const records: KeyRecord[] = [];
  try {
    const raw = store.getItem(sessionKeysStorageKey(chainId, player));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) {
      for (const r of parsed as Partial<KeyRecord>[]) {
        if (r && isHex(r.k) && r.k.length === 66 && typeof r.at === "number") {
          records.push({
            k: r.k,
            at: r.at,
            ...(typeof r.game === "string" ? { game: r.game } : {}),
          });
        }
      }
    }
    // The one key of an earlier version joins the list (its game from the old game slot).
    const legacy = store.getItem(sessionKeyStorageKey(chainId, player));
    if (legacy && isHex(legacy) && legacy.length === 66 && !records.some((r) => r.k === legacy)) {
      const game = store.getItem(`${GAME_PREFIX}.${chainId}.${player.toLowerCase()}`);
      records.unshift({ k: legacy, at: 0, ...(game && /^\d+$/.test(game) ? { game } : {}) });
    }
  } catch {
    return records;
  }
  return records;
}

function writeRecords(
  chainId: number,
  player: Address,
  records: readonly KeyRecord[],
  store: Storage,
): boolean {
  try {
    store.setItem(sessionKeysStorageKey(chainId, player), JSON.stringify(records));
    store.removeItem(sessionKeyStorageKey(chainId, player));
    store.removeItem(`${GAME_PREFIX}.${chainId}.${player.toLowerCase()}`);
    return true;
  } catch {
    return false;
  }
}

/** Every key this browser holds for `player` on `chainId`, oldest first. */
export function loadSessionKeys(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): StoredKey[] {
  return readRecords(chainId, player, store).map((r) => ({
    account: privateKeyToAccount(r.k),
    madeAt: r.at,
    gameId: r.game === undefined ? null : BigInt(r.game),
  }));
}

/** This browser's newest key for `player` on `chainId`, or null when it has none. */
export function loadSessionKey(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): PrivateKeyAccount | null {
  return loadSessionKeys(chainId, player, store).at(-1)?.account ?? null;
}

/**
 * A fresh key for a new session (never one used before: a key whose session ended, was revoked or
 * replaced may have been named by someone else since). Kept before its grant is sent, so a grant
 * that lands after the tab closed still finds its key. Null where the browser keeps nothing: a key
 * that would be lost on reload is not made, and the player signs every move.
 */
export function newSessionKey(
  chainId: number,
  player: Address,
  nowMs: number = Date.now(),
  store: Storage | undefined = localStore(),
): PrivateKeyAccount | null {
  if (!store) return null;
  const k = generatePrivateKey();
  const records = readRecords(chainId, player, store);
  if (!writeRecords(chainId, player, [...records, { k, at: nowMs }], store)) return null;
  // Read back: a store that silently drops writes must not leave a key only in memory.
  const kept = loadSessionKeys(chainId, player, store).find(
    (s) => s.account.address === privateKeyToAccount(k).address,
  );
  return kept?.account ?? null;
}

/** Drops a key this browser no longer needs (its session is over and it holds nothing). */
export function forgetSessionKey(
  chainId: number,
  player: Address,
  key: Address,
  store: Storage | undefined = localStore(),
): void {
  if (!store) return;
  const records = readRecords(chainId, player, store);
  const kept = records.filter((r) => !sameAddress(privateKeyToAccount(r.k).address, key));
  if (kept.length !== records.length) writeRecords(chainId, player, kept, store);
}

/** Of this browser's keys, the one the chain names (`onChainKey`), if this browser holds it. */
export function heldKey<K extends { address: Address }>(
  keys: readonly K[],
  onChainKey: Address | null | undefined,
): K | null {
  if (!onChainKey || sameAddress(onChainKey, ZERO)) return null;
  return keys.find((k) => sameAddress(k.address, onChainKey)) ?? null;
}

/** The player's session as the contract's `session(player)` view returns it. */
export interface SessionOnChain {
  key: Address;
  expiresAt: bigint | number;
  feeAllowance: bigint;
  /** The contract's own word that the key may act now (absent: judged by the expiry alone). */
  active?: boolean;
}

const ZERO = "0x0000000000000000000000000000000000000000";

/** Who signs a player's moves in a game, and why, in words the table shows. */
export type MoveSigner =
  | { by: "key"; key: Address; until: number }
  | { by: "wallet"; why: "none" | "elsewhere" | "ended" };

/**
 * The key signs when the chain's session for the player names one of this browser's keys and is
 * live; otherwise the wallet does: "elsewhere" when a live session belongs to a key this browser
 * does not hold (the player joined from another browser), "ended" when the session of this
 * browser's key is over (`session()` shows an expired session until another replaces it).
 */
export function chooseSigner(
  onChain: SessionOnChain | null | undefined,
  localKeys: Address | readonly Address[] | null | undefined,
  nowSec: number,
): MoveSigner {
  if (!onChain || sameAddress(onChain.key, ZERO)) {
    return { by: "wallet", why: "none" };
  }
  const until = Number(onChain.expiresAt);
  const live = until > nowSec && onChain.active !== false;
  const mine = (typeof localKeys === "string" ? [localKeys] : (localKeys ?? [])).some((k) =>
    sameAddress(onChain.key, k),
  );
  if (mine) {
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
      return "Moves signed by your wallet: your key's session ended.";
    default:
      return "Moves signed by your wallet, one confirmation each.";
  }
}

/**
 * The game a key was granted for (create or join with a session): its end, with no other game of
 * the player's still open, pays the credit out and sends the key's gas back. Set on `key`, or on
 * the newest key when none is named (the one the grant just sent was made for).
 */
export function rememberSessionGame(
  chainId: number,
  player: Address,
  gameId: bigint,
  store: Storage | undefined = localStore(),
  key?: Address,
): void {
  if (!store) return;
  const records = readRecords(chainId, player, store);
  const index = key
    ? records.findIndex((r) => sameAddress(privateKeyToAccount(r.k).address, key))
    : records.length - 1;
  if (index < 0) return;
  records[index] = { ...records[index], game: gameId.toString() };
  writeRecords(chainId, player, records, store);
  try {
    const name = `${KEYED_PREFIX}.${chainId}.${player.toLowerCase()}`;
    const games = new Set((store.getItem(name) ?? "").split(",").filter(Boolean));
    games.add(gameId.toString());
    // The latest few are enough: a table asks only about its own, running game.
    store.setItem(name, [...games].slice(-20).join(","));
  } catch {
    // The words "again" are all that depend on it.
  }
}

/** Whether this browser has played `gameId` with a key (a key revoked since and forgotten too). */
export function playedWithKey(
  chainId: number,
  player: Address,
  gameId: bigint,
  store: Storage | undefined = localStore(),
): boolean {
  try {
    const value = store?.getItem(`${KEYED_PREFIX}.${chainId}.${player.toLowerCase()}`) ?? "";
    return value.split(",").includes(gameId.toString());
  } catch {
    return false;
  }
}

/** The game this browser's newest key was granted for. */
export function sessionGameOf(
  chainId: number,
  player: Address,
  store: Storage | undefined = localStore(),
): bigint | null {
  return loadSessionKeys(chainId, player, store).at(-1)?.gameId ?? null;
}

/** A session the player opened, from the chain's logs: its key and the game it came with. */
export interface SessionRecord {
  key: Address;
  expiresAt: number;
  /** The game (or match) opened or joined in the same transaction; null for openSession. */
  gameId: bigint | null;
}

interface LogLike {
  eventName: string;
  args: unknown;
  transactionHash?: Hex | null;
}

/**
 * The player's sessions, oldest first, from their SessionOpened logs and the hall's game logs: a
 * session opened with createGameWithSession, createMatchWithSession or joinGameWithSession
 * belongs to the game created or joined in the same transaction (its end pays the slot out), one
 * opened on its own to none. What any browser of the player's can know of a key it does not hold.
 */
export function sessionRecords(
  player: Address,
  sessionLogs: readonly LogLike[],
  gameLogs: readonly LogLike[],
): SessionRecord[] {
  const gameOfTx = new Map<string, bigint>();
  for (const log of gameLogs) {
    if (!log.transactionHash) continue;
    const args = log.args as { gameId?: bigint; creator?: Address; player?: Address };
    if (args.gameId === undefined) continue;
    const who = log.eventName === "PlayerJoined" ? args.player : args.creator;
    if (
      (log.eventName === "GameCreated" ||
        log.eventName === "MatchCreated" ||
        log.eventName === "PlayerJoined") &&
      who &&
      sameAddress(who, player) &&
      !gameOfTx.has(log.transactionHash)
    ) {
      gameOfTx.set(log.transactionHash, args.gameId);
    }
  }
  const records: SessionRecord[] = [];
  for (const log of sessionLogs) {
    if (log.eventName !== "SessionOpened") continue;
    const args = log.args as { player?: Address; key?: Address; expiresAt?: bigint };
    if (!args.key || !args.player || !sameAddress(args.player, player)) continue;
    records.push({
      key: getAddress(args.key),
      expiresAt: Number(args.expiresAt ?? 0n),
      gameId: (log.transactionHash && gameOfTx.get(log.transactionHash)) ?? null,
    });
  }
  return records;
}

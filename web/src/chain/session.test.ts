import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import {
  chooseSigner,
  forgetSessionKey,
  heldKey,
  loadSessionKey,
  loadSessionKeys,
  newSessionKey,
  playedWithKey,
  rememberSessionGame,
  sessionGameOf,
  sessionKeyStorageKey,
  sessionRecords,
  sessionKeysStorageKey,
  signerSentence,
} from "./session.ts";

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

const PLAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const KEY_A = privateKeyToAccount(`0x${"11".repeat(32)}`).address;
const KEY_B = privateKeyToAccount(`0x${"22".repeat(32)}`).address;

describe("the session keys in this browser", () => {
  it("makes a fresh key for every session, keeps them all per chain and player, found again on reload", () => {
    const store = memoryStorage();
    expect(loadSessionKey(31337, PLAYER, store)).toBeNull();
    const first = newSessionKey(31337, PLAYER, 1_000, store)!;
    expect(first.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const second = newSessionKey(31337, PLAYER, 2_000, store)!;
    // Never the same key twice: a key once named may have been named by someone else since.
    expect(second.address).not.toBe(first.address);
    expect(loadSessionKey(31337, PLAYER, store)!.address).toBe(second.address);
    expect(loadSessionKeys(31337, PLAYER.toLowerCase() as never, store)).toEqual([
      { account: expect.objectContaining({ address: first.address }), madeAt: 1_000, gameId: null },
      {
        account: expect.objectContaining({ address: second.address }),
        madeAt: 2_000,
        gameId: null,
      },
    ]);
    // Another player, or another chain, has keys of its own.
    expect(loadSessionKeys(31337, OTHER, store)).toEqual([]);
    expect(loadSessionKeys(1, PLAYER, store)).toEqual([]);
    expect(JSON.parse(store.getItem(sessionKeysStorageKey(31337, PLAYER))!)).toHaveLength(2);
  });

  it("forgets a key, and finds the one the chain names", () => {
    const store = memoryStorage();
    const a = newSessionKey(31337, PLAYER, 1, store)!;
    const b = newSessionKey(31337, PLAYER, 2, store)!;
    const keys = loadSessionKeys(31337, PLAYER, store).map((k) => k.account);
    expect(heldKey(keys, b.address.toLowerCase() as never)?.address).toBe(b.address);
    expect(heldKey(keys, KEY_A)).toBeNull();
    expect(heldKey(keys, "0x0000000000000000000000000000000000000000")).toBeNull();
    forgetSessionKey(31337, PLAYER, a.address, store);
    expect(loadSessionKeys(31337, PLAYER, store).map((k) => k.account.address)).toEqual([
      b.address,
    ]);
  });

  it("takes in the one key (and its game) an earlier version kept", () => {
    const store = memoryStorage();
    store.setItem(sessionKeyStorageKey(31337, PLAYER), `0x${"11".repeat(32)}`);
    store.setItem(`dicehall.sessionGame.31337.${PLAYER.toLowerCase()}`, "4");
    expect(loadSessionKeys(31337, PLAYER, store)).toEqual([
      { account: expect.objectContaining({ address: KEY_A }), madeAt: 0, gameId: 4n },
    ]);
    const fresh = newSessionKey(31337, PLAYER, 5, store)!;
    expect(store.getItem(sessionKeyStorageKey(31337, PLAYER))).toBeNull();
    expect(loadSessionKeys(31337, PLAYER, store).map((k) => k.account.address)).toEqual([
      KEY_A,
      fresh.address,
    ]);
  });

  it("is not made where the browser keeps nothing", () => {
    expect(newSessionKey(31337, PLAYER, 1, undefined)).toBeNull();
    const dropping = { ...memoryStorage(), setItem: () => {}, getItem: () => null } as Storage;
    expect(newSessionKey(31337, PLAYER, 1, dropping)).toBeNull();
  });

  it("ignores what is not a key", () => {
    const store = memoryStorage();
    store.setItem(sessionKeyStorageKey(31337, PLAYER), "not a key");
    store.setItem(sessionKeysStorageKey(31337, PLAYER), '[{"k":"0x12","at":1}, 7]');
    expect(loadSessionKey(31337, PLAYER, store)).toBeNull();
  });
});

describe("chooseSigner", () => {
  const now = 1_000;
  const live = { key: KEY_A, expiresAt: 2_000n, feeAllowance: 5n };

  it("lets this browser's key sign while its session is live", () => {
    expect(chooseSigner(live, KEY_A, now)).toEqual({ by: "key", key: KEY_A, until: 2_000 });
    expect(chooseSigner(live, [KEY_B, KEY_A], now)).toEqual({
      by: "key",
      key: KEY_A,
      until: 2_000,
    });
  });

  it("falls back to the wallet when the live session's key is in another browser", () => {
    expect(chooseSigner(live, KEY_B, now)).toEqual({ by: "wallet", why: "elsewhere" });
    expect(chooseSigner(live, null, now)).toEqual({ by: "wallet", why: "elsewhere" });
  });

  it("falls back to the wallet when the session is over, revoked or never opened", () => {
    expect(chooseSigner({ ...live, expiresAt: 1_000n }, KEY_A, now)).toEqual({
      by: "wallet",
      why: "ended",
    });
    expect(chooseSigner({ ...live, expiresAt: 999n }, KEY_B, now)).toEqual({
      by: "wallet",
      why: "none",
    });
    const revoked = {
      key: "0x0000000000000000000000000000000000000000" as const,
      expiresAt: 0n,
      feeAllowance: 0n,
    };
    expect(chooseSigner(revoked, KEY_A, now)).toEqual({ by: "wallet", why: "none" });
    expect(chooseSigner(undefined, KEY_A, now)).toEqual({ by: "wallet", why: "none" });
  });

  it("says in words who signs", () => {
    expect(signerSentence({ by: "key", key: KEY_A, until: 2_000 }, "21:40")).toBe(
      "Moves signed by this browser's session key, until 21:40.",
    );
    expect(signerSentence({ by: "wallet", why: "elsewhere" }, "")).toMatch(/another browser/);
    expect(signerSentence({ by: "wallet", why: "ended" }, "")).toBe(
      "Moves signed by your wallet: your key's session ended.",
    );
  });
});

describe("the game a key was granted for", () => {
  it("is remembered on the newest key (or the one named), per chain and player", () => {
    const store = memoryStorage();
    expect(sessionGameOf(31337, PLAYER, store)).toBeNull();
    rememberSessionGame(31337, PLAYER, 6n, store);
    // No key, no game.
    expect(sessionGameOf(31337, PLAYER, store)).toBeNull();
    const older = newSessionKey(31337, PLAYER, 1, store)!;
    newSessionKey(31337, OTHER, 1, store);
    rememberSessionGame(31337, PLAYER, 7n, store);
    rememberSessionGame(31337, OTHER, 8n, store);
    expect(sessionGameOf(31337, PLAYER, store)).toBe(7n);
    newSessionKey(31337, PLAYER, 2, store);
    expect(sessionGameOf(31337, PLAYER, store)).toBeNull();
    rememberSessionGame(31337, PLAYER, 9n, store);
    expect(sessionGameOf(31337, PLAYER, store)).toBe(9n);
    rememberSessionGame(31337, PLAYER, 3n, store, older.address);
    expect(loadSessionKeys(31337, PLAYER, store).map((k) => k.gameId)).toEqual([3n, 9n]);
    // Played with a key, even once the key is forgotten.
    forgetSessionKey(31337, PLAYER, older.address, store);
    expect(playedWithKey(31337, PLAYER, 3n, store)).toBe(true);
    expect(playedWithKey(31337, PLAYER, 4n, store)).toBe(false);
    expect(playedWithKey(31337, OTHER, 3n, store)).toBe(false);
    expect(sessionGameOf(1, PLAYER, store)).toBeNull();
    expect(sessionGameOf(31337, OTHER, store)).toBe(8n);
  });
});

describe("sessionRecords: a player's sessions and their games, from the chain's logs", () => {
  const player = "0x00000000000000000000000000000000000000aa" as const;
  const other = "0x00000000000000000000000000000000000000bb" as const;
  const k1 = "0x0000000000000000000000000000000000000001" as const;
  const k2 = "0x0000000000000000000000000000000000000002" as const;
  const k3 = "0x0000000000000000000000000000000000000003" as const;
  const opened = (key: `0x${string}`, tx: `0x${string}`, who: `0x${string}` = player) => ({
    eventName: "SessionOpened",
    args: { player: who, key, expiresAt: 5_000n, feeAllowance: 1n, keyGas: 1n },
    transactionHash: tx,
  });

  it("names the game created or joined in the session's transaction, none for openSession", () => {
    const records = sessionRecords(
      player,
      [opened(k1, "0x01"), opened(k2, "0x02"), opened(k3, "0x03"), opened(k3, "0x04", other)],
      [
        {
          eventName: "GameCreated",
          args: { gameId: 7n, creator: player },
          transactionHash: "0x01",
        },
        { eventName: "PlayerJoined", args: { gameId: 9n, player }, transactionHash: "0x02" },
        // Someone else's join in another transaction is not this player's session's game.
        {
          eventName: "PlayerJoined",
          args: { gameId: 11n, player: other },
          transactionHash: "0x03",
        },
      ],
    );
    expect(records).toEqual([
      { key: k1, expiresAt: 5_000, gameId: 7n },
      { key: k2, expiresAt: 5_000, gameId: 9n },
      { key: k3, expiresAt: 5_000, gameId: null },
    ]);
  });
});

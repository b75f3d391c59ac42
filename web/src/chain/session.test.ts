import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import {
  chooseSigner,
  ensureSessionKey,
  loadSessionKey,
  rememberSessionGame,
  sessionGameOf,
  sessionKeyStorageKey,
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

describe("the session key in this browser", () => {
  it("is made once per chain and player, and found again (a reload)", () => {
    const store = memoryStorage();
    expect(loadSessionKey(31337, PLAYER, store)).toBeNull();
    const made = ensureSessionKey(31337, PLAYER, store)!;
    expect(made.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(ensureSessionKey(31337, PLAYER, store)!.address).toBe(made.address);
    expect(loadSessionKey(31337, PLAYER.toLowerCase() as never, store)!.address).toBe(made.address);
    // Another player, or another chain, has a key of its own.
    expect(ensureSessionKey(31337, OTHER, store)!.address).not.toBe(made.address);
    expect(ensureSessionKey(1, PLAYER, store)!.address).not.toBe(made.address);
    expect(store.getItem(sessionKeyStorageKey(31337, PLAYER))).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("is not made where the browser keeps nothing", () => {
    expect(ensureSessionKey(31337, PLAYER, undefined)).toBeNull();
    const dropping = { ...memoryStorage(), setItem: () => {}, getItem: () => null } as Storage;
    expect(ensureSessionKey(31337, PLAYER, dropping)).toBeNull();
  });

  it("ignores what is not a key", () => {
    const store = memoryStorage();
    store.setItem(sessionKeyStorageKey(31337, PLAYER), "not a key");
    expect(loadSessionKey(31337, PLAYER, store)).toBeNull();
  });
});

describe("chooseSigner", () => {
  const now = 1_000;
  const live = { key: KEY_A, expiresAt: 2_000n, feeAllowance: 5n };

  it("lets this browser's key sign while its session is live", () => {
    expect(chooseSigner(live, KEY_A, now)).toEqual({ by: "key", key: KEY_A, until: 2_000 });
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
  });
});

describe("the game a key was granted for", () => {
  it("is remembered per chain and player, the latest grant winning", () => {
    const store = memoryStorage();
    expect(sessionGameOf(31337, PLAYER, store)).toBeNull();
    rememberSessionGame(31337, PLAYER, 7n, store);
    rememberSessionGame(31337, OTHER, 8n, store);
    expect(sessionGameOf(31337, PLAYER, store)).toBe(7n);
    rememberSessionGame(31337, PLAYER, 9n, store);
    expect(sessionGameOf(31337, PLAYER, store)).toBe(9n);
    expect(sessionGameOf(1, PLAYER, store)).toBeNull();
    expect(sessionGameOf(31337, OTHER, store)).toBe(8n);
  });
});

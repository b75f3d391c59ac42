import { describe, expect, it } from "vitest";
import {
  keyAction,
  shouldAskAgain,
  slotReturn,
  slotReturnSentence,
  type KeyFacts,
  type PlayerGames,
  type SlotFacts,
} from "./keyWatch.ts";
import { KEY_GRACE_MS } from "./session.ts";

const NOW = 10 * KEY_GRACE_MS;
const key = (over: Partial<KeyFacts> = {}): KeyFacts => ({
  key: "0x1000000000000000000000000000000000000001",
  madeAt: NOW - 2 * KEY_GRACE_MS,
  gameId: 7n,
  balance: 10n ** 15n,
  returnable: 10n ** 15n - 21_000n,
  live: true,
  ...over,
});
const games = (busy: boolean, over: bigint[] = []): PlayerGames => ({ busy, over: new Set(over) });

describe("what becomes of a session key, on every page", () => {
  it("a live key plays on while any game of the player's is open or running", () => {
    expect(keyAction(key(), games(true, [7n]), NOW)).toEqual({ kind: "keep" });
  });

  it("a live key whose games are over pays the player out (credit, then gas)", () => {
    expect(keyAction(key(), games(false, [7n]), NOW)).toEqual({ kind: "payout" });
    // Granted in a session opened at a table, no game remembered: the games decide.
    expect(keyAction(key({ gameId: null }), games(false), NOW)).toEqual({ kind: "payout" });
  });

  it("a live key waits for its game to show as over, and a new key for its grant's block", () => {
    expect(keyAction(key(), games(false, [6n]), NOW)).toEqual({ kind: "keep" });
    const young = { madeAt: NOW - 1_000, gameId: null };
    expect(keyAction(key(young), games(false), NOW)).toEqual({ kind: "keep" });
    expect(keyAction(key({ ...young, live: false }), games(false), NOW)).toEqual({ kind: "keep" });
    // A young key whose grant landed (its game is known) is judged at once: revoked a minute in.
    expect(keyAction(key({ madeAt: NOW - 1_000, live: false }), games(true), NOW)).toEqual({
      kind: "return",
      amount: 10n ** 15n - 21_000n,
    });
  });

  it("a key whose session is over (ended, revoked, replaced) is shown while it holds coin, even mid-game", () => {
    expect(keyAction(key({ live: false }), games(true), NOW)).toEqual({
      kind: "return",
      amount: 10n ** 15n - 21_000n,
    });
  });

  it("a key whose session the hall paid out at its game's end sends its float back by itself", () => {
    expect(keyAction(key({ live: false }), games(false, [7n]), NOW)).toEqual({ kind: "payout" });
    // Not while another game of the player's with a key goes on, nor for a game not over.
    expect(keyAction(key({ live: false }), games(true, [7n]), NOW).kind).toBe("return");
    expect(keyAction(key({ live: false }), games(false, [6n]), NOW).kind).toBe("return");
  });

  it("an over key that holds nothing (or less than its own transfer) is forgotten", () => {
    expect(keyAction(key({ live: false, balance: 0n, returnable: 0n }), games(false), NOW)).toEqual(
      {
        kind: "forget",
      },
    );
    expect(keyAction(key({ live: false, balance: 5n, returnable: 0n }), games(true), NOW)).toEqual({
      kind: "forget",
    });
    // Never one made a moment ago, even with its game known (a lagging read).
    expect(
      keyAction(
        key({ live: false, balance: 0n, returnable: 0n, madeAt: NOW - 1_000 }),
        games(false),
        NOW,
      ),
    ).toEqual({ kind: "keep" });
  });
});

describe("asking again for a refused roll through the key", () => {
  const refused = {
    status: 2, // running
    entropyAttempts: 1,
    pendingSequence: 0n,
    retryAt: 1_000n,
    callOffAt: 5_000n,
  };

  it("asks once the retry time has come, once per retry time", () => {
    expect(shouldAskAgain(refused, 999, undefined)).toBe(false);
    expect(shouldAskAgain(refused, 1_000, undefined)).toBe(true);
    expect(shouldAskAgain(refused, 1_200, 1_000n)).toBe(false);
    // Refused again: a new retry time, asked again.
    expect(shouldAskAgain({ ...refused, entropyAttempts: 2, retryAt: 1_300n }, 1_300, 1_000n)).toBe(
      true,
    );
  });

  it("never while a request is out, with no roll out, past the call-off or in a game not running", () => {
    expect(shouldAskAgain({ ...refused, pendingSequence: 9n }, 2_000, undefined)).toBe(false);
    expect(shouldAskAgain({ ...refused, entropyAttempts: 0 }, 2_000, undefined)).toBe(false);
    expect(shouldAskAgain({ ...refused, retryAt: 0n }, 2_000, undefined)).toBe(false);
    expect(shouldAskAgain(refused, 5_000, undefined)).toBe(false);
    expect(shouldAskAgain({ ...refused, status: 3 }, 2_000, undefined)).toBe(false);
  });
});

describe("when a session's slot comes back, in any browser of the player's", () => {
  const facts = (over: Partial<SlotFacts> = {}): SlotFacts => ({
    slot: 5n * 10n ** 15n,
    expiresAt: 2_000,
    gameId: 12n,
    gameOver: false,
    ...over,
  });
  const time = (t: number) => `t=${t}`;

  it("a session opened with a game comes back when that game ends, paid by the keeper", () => {
    const r = slotReturn(facts(), 1_000);
    expect(r).toEqual({ when: "game-end", gameId: 12n, expiresAt: 2_000 });
    expect(slotReturnSentence(r!, time)).toBe(
      "It comes back to your wallet when game #12 ends: the hall's keeper pays it out about 30 seconds after the end, with your winnings or refund, whether or not any page of yours is open.",
    );
    const now = slotReturn(facts({ gameOver: true }), 1_000);
    expect(now).toEqual({ when: "now", gameId: 12n });
    expect(slotReturnSentence(now!, time)).toMatch(/^Game #12 is over: the hall's keeper pays it/);
  });

  it("a session opened on its own comes back once it has expired", () => {
    const r = slotReturn(facts({ gameId: null }), 1_000);
    expect(r).toEqual({ when: "expiry", expiresAt: 2_000 });
    expect(slotReturnSentence(r!, time)).toMatch(/once the session expires \(t=2000\)/);
    expect(slotReturn(facts({ gameId: null }), 2_000)).toEqual({ when: "expired" });
  });

  it("an empty slot says nothing", () => {
    expect(slotReturn(facts({ slot: 0n }), 1_000)).toBeNull();
  });
});

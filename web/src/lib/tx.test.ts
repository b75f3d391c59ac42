import { describe, expect, it } from "vitest";
import { ROLL_GAS_HEADROOM, gasLimitFor, rollValue } from "./tx.ts";

describe("gasLimitFor", () => {
  it("gives a roll room for the worst path measured under Pyth's real Entropy", () => {
    // Entropy's request slot and our ring slot both held, a surplus opening a credit: 245 385 gas
    // used against a 157 020 estimate on the usual path (README, Gas).
    expect(ROLL_GAS_HEADROOM).toBeGreaterThanOrEqual(245_385n - 157_020n);
    expect(gasLimitFor("roll", 101_000n)).toBe(101_000n + ROLL_GAS_HEADROOM);
  });

  it("leaves every other call's gas to the wallet's own estimate", () => {
    for (const name of ["score", "createGame", "joinGame", "claimTimeout", "withdraw", "approve"]) {
      expect(gasLimitFor(name, 50_000n)).toBeUndefined();
    }
  });
});

describe("rollValue", () => {
  it("sends the quoted fee plus 10 %, which the contract credits back", () => {
    expect(rollValue(1_000_000n)).toBe(1_100_000n);
    expect(rollValue(0n)).toBe(0n); // a free provider (the local mock) costs nothing
  });
});

import { describe, expect, it } from "vitest";
import { ROLL_GAS_HEADROOM, gasLimitFor } from "./tx.ts";

describe("gasLimitFor", () => {
  it("gives a roll room for another table's pending roll taking its ring slot", () => {
    // The fallback slot costs 22 100 gas plus a cold read of the other game: the headroom covers it.
    expect(ROLL_GAS_HEADROOM).toBeGreaterThanOrEqual(22_100n + 2_100n);
    expect(gasLimitFor("roll", 101_000n)).toBe(101_000n + ROLL_GAS_HEADROOM);
  });

  it("leaves every other call's gas to the wallet's own estimate", () => {
    for (const name of ["score", "createGame", "joinGame", "claimTimeout", "withdraw", "approve"]) {
      expect(gasLimitFor(name, 50_000n)).toBeUndefined();
    }
  });
});

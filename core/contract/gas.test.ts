import { describe, expect, it } from "vitest";
import {
  GAS_MARGIN_PERCENT,
  ROLL_GAS_HEADROOM,
  SESSION_WRITES,
  gasLimitFor,
  rollValue,
} from "./gas.ts";

describe("gasLimitFor", () => {
  it("gives a roll room for the worst path measured under Pyth's real Entropy", () => {
    // Entropy's request slot and our ring slot both held, and the roller's credit opened anew by a
    // withdraw mined between the estimate and the block: 107 350 gas over the usual path's estimate
    // (issue 17's review, reproduced on our Entropy model by test/gasHeadroom.test.ts), with room.
    expect(ROLL_GAS_HEADROOM).toBeGreaterThanOrEqual((107_350n * 130n) / 100n);
    expect(gasLimitFor("roll", 101_000n)).toBe(101_000n + ROLL_GAS_HEADROOM);
  });

  it("never sends another call with its bare estimate", () => {
    for (const name of [
      "score",
      "createGame",
      "joinGame",
      "claimTimeout",
      "withdraw",
      "approve",
      ...SESSION_WRITES,
    ]) {
      expect(gasLimitFor(name, 50_000n)).toBe(50_000n + (50_000n * GAS_MARGIN_PERCENT) / 100n);
    }
    // A score moved into the next second pays 2 900 instead of 100 for the clock's slot
    // (test/gasMargin.test.ts shows it on the chain): the margin covers that on the cheapest score.
    expect(gasLimitFor("score", 40_000n) - 40_000n).toBeGreaterThan(2_900n - 100n);
  });
});

describe("rollValue", () => {
  it("sends the quoted fee plus 10 %, which the contract credits back", () => {
    expect(rollValue(1_000_000n)).toBe(1_100_000n);
    expect(rollValue(0n)).toBe(0n); // a free provider (the local mock) costs nothing
  });
});

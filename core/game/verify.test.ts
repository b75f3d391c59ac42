import { describe, expect, it } from "vitest";
import { keccak256, pad, toBytes, type Hex } from "viem";
import { entropyExplorerUrl, explainDie, verifyOrderDraw, verifyRoll } from "./verify.ts";
import { foldGame } from "./gameState.ts";
import { ALICE, BOB, RANDOM, twoPlayerOpening } from "../test/testLogs.ts";
import { drawTurnOrder } from "../rules/turnOrder.ts";

const ZERO: Hex = pad("0x00", { size: 32 });
const ONES: Hex = `0x${"ff".repeat(32)}`;
const NAMED: Hex = keccak256(toBytes("dicehall"));

const first = (randomNumber: Hex, dice: number[]) => ({
  rollNumber: 1,
  dice,
  randomNumber,
  keepMask: 0,
  previous: null,
});

describe("verifyRoll", () => {
  it.each([
    [ZERO, [2, 4, 6, 4, 1]],
    [NAMED, [3, 4, 1, 3, 6]],
    [ONES, [1, 4, 4, 5, 5]],
  ] as [Hex, number[]][])("recomputes the first roll of %s as %j", (random, dice) => {
    const check = verifyRoll(first(random, dice));
    expect(check.matches).toBe(true);
    expect(check.error).toBeNull();
    expect(check.dice.map((d) => d.value)).toEqual(dice);
    expect(check.dice.every((d) => !d.kept && d.hash !== null)).toBe(true);
  });

  it("flags a die the contract reported differently", () => {
    const check = verifyRoll(first(ZERO, [2, 4, 6, 4, 2]));
    expect(check.matches).toBe(false);
    expect(check.dice.map((d) => d.matches)).toEqual([true, true, true, true, false]);
    expect(check.dice[4]).toMatchObject({ value: 1, onChain: 2 });
  });

  it("keeps the kept dice of a re-roll and derives the others at their own positions", () => {
    // Keep dice 1 and 3 of 6-6-6-6-6 (mask 0b01010); r = 0 gives 2, 6, 1 at positions 0, 2, 4.
    const check = verifyRoll({
      rollNumber: 2,
      dice: [2, 6, 6, 6, 1],
      randomNumber: ZERO,
      keepMask: 0b01010,
      previous: [6, 6, 6, 6, 6],
    });
    expect(check.matches).toBe(true);
    expect(check.dice.map((d) => d.kept)).toEqual([false, true, false, true, false]);
    expect(check.dice[1].hash).toBeNull();
    expect(check.previousUnknown).toBe(false);
  });

  it("checks only the re-rolled dice when the dice before are unknown", () => {
    const check = verifyRoll({
      rollNumber: 3,
      dice: [3, 5, 1, 5, 6],
      randomNumber: NAMED,
      keepMask: 0b01010,
      previous: null,
    });
    expect(check.previousUnknown).toBe(true);
    expect(check.matches).toBe(true);
  });

  it("reports a keep mask that no roll could have", () => {
    const check = verifyRoll({
      rollNumber: 2,
      dice: [1, 1, 1, 1, 1],
      randomNumber: ZERO,
      keepMask: 31,
      previous: [1, 1, 1, 1, 1],
    });
    expect(check.matches).toBe(false);
    expect(check.error).toMatch(/at least one die/);
  });

  it("explains each die in one line", () => {
    const [die] = verifyRoll(first(ZERO, [2, 4, 6, 4, 1])).dice;
    expect(explainDie(die)).toMatch(/^1 \+ \(0x[0-9a-f]{8}…[0-9a-f]{6} mod 6 = 1\) = 2$/);
  });
});

describe("entropyExplorerUrl", () => {
  it("links Pyth's explorer on the public chains, searching the sequence number", () => {
    expect(entropyExplorerUrl(8453, 42n)).toBe(
      "https://entropy-explorer.pyth.network/?chain=base&search=42",
    );
    expect(entropyExplorerUrl(84532, 7n)).toContain("chain=base-sepolia-testnet");
    expect(entropyExplorerUrl(42161, 7n)).toContain("chain=arbitrum-one");
    expect(entropyExplorerUrl(421614, 7n)).toContain("chain=arbitrum-sepolia");
  });

  it("has no link on the local node", () => {
    expect(entropyExplorerUrl(31337, 1n)).toBeNull();
  });
});

describe("verifyOrderDraw", () => {
  const want = drawTurnOrder(RANDOM, 2).map((j) => [ALICE, BOB][j]);
  /** The opening fixture with GameStarted announcing `order`. */
  const withOrder = (order: string[]) => {
    const logs = twoPlayerOpening().map((l) =>
      l.eventName === "GameStarted" ? { ...l, args: { ...l.args, order } } : l,
    );
    return foldGame(1n, logs as ReturnType<typeof twoPlayerOpening>).log;
  };

  it("recomputes the first roll's draw over the seats in join order", () => {
    const log = withOrder(want);
    const first = log.find((e) => e.kind === "rolled")!;
    const check = verifyOrderDraw(log, first.id);
    expect(check).toEqual({
      joinOrder: [ALICE, BOB],
      onChain: want,
      expected: want,
      matches: true,
    });
  });

  it("flags an order the number does not give, and ignores later rolls", () => {
    const log = withOrder([...want].reverse());
    const rolls = log.filter((e) => e.kind === "rolled");
    expect(verifyOrderDraw(log, rolls[0].id)!.matches).toBe(false);
    expect(verifyOrderDraw(log, rolls[1].id)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { firstBlockAtOrAfter, isPeriod, periodStart } from "./leaderboardPeriod.ts";

describe("periodStart", () => {
  it("is null for all time and counts back from now otherwise", () => {
    expect(periodStart("all", 1_000_000)).toBeNull();
    expect(periodStart("day", 1_000_000)).toBe(1_000_000 - 86_400);
    expect(periodStart("week", 1_000_000.7)).toBe(1_000_000 - 7 * 86_400);
  });

  it("knows its periods", () => {
    expect(isPeriod("month")).toBe(true);
    expect(isPeriod("decade")).toBe(false);
    expect(isPeriod(null)).toBe(false);
  });
});

describe("firstBlockAtOrAfter", () => {
  // Blocks 0..999, 12 s apart from t = 1000, with a few blocks sharing a timestamp.
  const time = (block: bigint) => 1000 + Math.floor(Number(block) / 2) * 12;
  let reads = 0;
  const blockTime = async (block: bigint) => {
    reads += 1;
    return time(block);
  };

  it("finds the first block at or after a time in a few reads", async () => {
    reads = 0;
    expect(await firstBlockAtOrAfter(1000 + 12 * 100, 0n, 999n, blockTime)).toBe(200n);
    expect(reads).toBeLessThanOrEqual(11);
    expect(await firstBlockAtOrAfter(1000 + 12 * 100 + 1, 0n, 999n, blockTime)).toBe(202n);
  });

  it("clamps to the range's ends", async () => {
    expect(await firstBlockAtOrAfter(0, 5n, 999n, blockTime)).toBe(5n);
    expect(await firstBlockAtOrAfter(10_000_000, 0n, 999n, blockTime)).toBe(1000n);
  });
});

import { describe, expect, it } from "vitest";
import { chainNowMs, deadlinePassed, nextAnchor } from "./chainClock.ts";

const block = (number: bigint, timestamp: number) => ({ number, timestamp: BigInt(timestamp) });

describe("chain clock", () => {
  it("is the latest block's timestamp plus the time since that block was seen", () => {
    // The chain runs 66 s ahead of this computer (a local node moved forward).
    const localNow = 1_700_000_000_000;
    const anchor = nextAnchor(undefined, block(10n, 1_700_000_066), localNow);
    expect(chainNowMs(anchor, localNow)).toBe(1_700_000_066_000);
    expect(chainNowMs(anchor, localNow + 4_500)).toBe(1_700_000_070_500);
  });

  it("keeps the first sighting of a block: re-reading it does not pull the clock back", () => {
    const first = nextAnchor(undefined, block(10n, 1_000), 50_000);
    expect(nextAnchor(first, block(10n, 1_000), 59_000)).toBe(first);
    // A lagging RPC node answering with an older block changes nothing either.
    expect(nextAnchor(first, block(9n, 990), 60_000)).toBe(first);
    expect(chainNowMs(first, 60_000)).toBe(1_010_000);
    // A new block re-anchors.
    const next = nextAnchor(first, block(11n, 1_012), 61_000);
    expect(next).toEqual({ block: 11n, timestampMs: 1_012_000, seenAtMs: 61_000 });
    expect(chainNowMs(next, 62_000)).toBe(1_013_000);
  });

  it("falls back to this computer's clock until a block is seen, and never runs backwards", () => {
    expect(chainNowMs(undefined, 123_456)).toBe(123_456);
    const anchor = nextAnchor(undefined, block(1n, 100), 10_000);
    expect(chainNowMs(anchor, 9_000)).toBe(100_000); // a local clock set back
  });

  it("compares a deadline in chain seconds with the chain's time", () => {
    expect(deadlinePassed(1_000n, 999_999)).toBe(false);
    expect(deadlinePassed(1_000n, 1_000_000)).toBe(true);
    expect(deadlinePassed(1_000, 1_000_001)).toBe(true);
  });
});

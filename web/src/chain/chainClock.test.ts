import { describe, expect, it } from "vitest";
import {
  blockPastDeadline,
  chainNowMs,
  deadlinePassed,
  nextAnchor,
  readChainClock,
  watchBlocksFor,
} from "./chainClock.ts";

const block = (number: bigint, timestamp: number) => ({ number, timestamp: BigInt(timestamp) });

describe("chain clock", () => {
  it("is the latest block's timestamp plus the time since that block was seen", () => {
    // The chain runs 66 s ahead of this computer (a local node moved forward).
    const localNow = 1_700_000_000_000;
    const anchor = nextAnchor(undefined, block(10n, 1_700_000_066), localNow);
    expect(chainNowMs(anchor, localNow)).toBe(1_700_000_066_000);
    expect(chainNowMs(anchor, localNow + 4_500)).toBe(1_700_000_070_500);
  });

  it("follows a chain that runs behind this computer", () => {
    const anchor = nextAnchor(undefined, block(3n, 1_000), 1_120_000);
    expect(chainNowMs(anchor, 1_130_000)).toBe(1_010_000);
  });

  it("keeps the first sighting of a block: re-reading it does not pull the clock back", () => {
    const first = nextAnchor(undefined, block(10n, 1_000), 1_000_000);
    expect(nextAnchor(first, block(10n, 1_000), 1_009_000)).toBe(first);
    // A lagging RPC node answering with an older block changes nothing either.
    expect(nextAnchor(first, block(9n, 990), 1_010_000)).toBe(first);
    expect(chainNowMs(first, 1_010_000)).toBe(1_010_000);
  });

  it("keeps a local node's lead while it mines nothing, though its latest block grows old", () => {
    // The node was moved 22 minutes ahead; a block mined then was seen at once.
    const lead = 22 * 60_000;
    const local = 1_700_000_000_000;
    let clock = nextAnchor(undefined, block(50n, (local + lead) / 1000), local);
    // Five idle minutes later a page sees the same block: still 22 minutes ahead.
    clock = nextAnchor(clock, block(50n, (local + lead) / 1000), local + 5 * 60_000);
    expect(chainNowMs(clock, local + 5 * 60_000)).toBe(local + 5 * 60_000 + lead);
    // A block seen long after it was mined (a fresh page on an idle node) does not lower the lead...
    clock = nextAnchor(clock, block(51n, (local + lead) / 1000 + 1), local + 9 * 60_000);
    expect(clock.leadMs).toBe(lead);
    // ...and one page that only saw the stale block learns the lead from the next fresh one.
    let page = nextAnchor(undefined, block(51n, (local + lead) / 1000 + 1), local + 9 * 60_000);
    expect(page.leadMs).toBeLessThan(lead);
    page = nextAnchor(page, block(52n, (local + 10 * 60_000 + lead) / 1000), local + 10 * 60_000);
    expect(chainNowMs(page, local + 10 * 60_000)).toBe(local + 10 * 60_000 + lead);
  });

  it("a page loaded on an idle node reads the time from the pending block, not the stale latest", () => {
    // A move clock of 5:00 started with block 40, mined three minutes ago; nothing mined since.
    const local = 1_700_000_000_000;
    const mined = (local - 180_000) / 1000;
    const deadline = mined + 300;
    const stale = nextAnchor(undefined, block(40n, mined), local);
    // Reading the latest block alone, the page would count 5:00 from now: three minutes late.
    expect(deadline * 1000 - chainNowMs(stale, local)).toBe(300_000);
    // The node stamps its pending block with its "now": 2:00 are left, as on chain.
    const fresh = nextAnchor(undefined, block(40n, mined), local, {
      timestamp: BigInt(local / 1000),
    });
    expect(deadline * 1000 - chainNowMs(fresh, local)).toBe(120_000);
    // A pending block is fresh at every read: the same latest block does not keep it out.
    const later = nextAnchor(stale, block(40n, mined), local + 1_000, {
      timestamp: BigInt((local + 1_000) / 1000),
    });
    expect(chainNowMs(later, local + 1_000)).toBe(local + 1_000);
  });

  it("two tabs that loaded at different times agree on the time left within a second", async () => {
    // The node runs 66.4 s ahead of this computer and mined its latest block ten minutes ago.
    const lead = 66_400;
    const node = (at: number) => async (tag: "latest" | "pending") =>
      tag === "latest"
        ? { number: 9n, timestamp: BigInt(Math.floor((at - 600_000 + lead) / 1000)) }
        : { number: null, timestamp: BigInt(Math.floor((at + lead) / 1000)) };
    const local = 1_700_000_000_250;
    const tabA = await readChainClock(node(local), undefined, () => local);
    const tabB = await readChainClock(node(local + 97_730), undefined, () => local + 97_730);
    const at = local + 120_000;
    expect(Math.abs(chainNowMs(tabA, at) - chainNowMs(tabB, at))).toBeLessThan(1_000);
    expect(Math.abs(chainNowMs(tabA, at) - (at + lead))).toBeLessThan(1_000);
  });

  it("reads the latest block alone from a node that has no pending block", async () => {
    const anchor = await readChainClock(
      async (tag) => {
        if (tag === "pending") throw new Error("unsupported block tag");
        return { number: 3n, timestamp: 1_000n };
      },
      undefined,
      () => 1_000_500,
    );
    expect(anchor).toEqual({ block: 3n, leadMs: -500 });
  });

  it("falls back to this computer's clock until a block is seen", () => {
    expect(chainNowMs(undefined, 123_456)).toBe(123_456);
  });

  it("compares a deadline in chain seconds with the chain's time", () => {
    expect(deadlinePassed(1_000n, 999_999)).toBe(false);
    expect(deadlinePassed(1_000n, 1_000_000)).toBe(true);
    expect(deadlinePassed(1_000, 1_000_001)).toBe(true);
  });
});

describe("deadlines by block", () => {
  it("a block is past a deadline only when its timestamp is greater (claimTimeout's check)", () => {
    expect(blockPastDeadline(1_000n, 1_000n)).toBe(false);
    expect(blockPastDeadline(999n, 1_000)).toBe(false);
    expect(blockPastDeadline(1_001n, 1_000n)).toBe(true);
  });

  it("watches the latest block from a few seconds before the deadline until a block is past it", () => {
    // 13.9 s into a 15 s turn: the estimate is close, and no block has passed the deadline yet.
    expect(watchBlocksFor(1_000n, 998_900, undefined)).toBe(true);
    expect(watchBlocksFor(1_000n, 1_001_000, 1_000n)).toBe(true);
    // Once a block is past it, the claim is open and there is nothing more to watch for.
    expect(watchBlocksFor(1_000n, 1_003_000, 1_001n)).toBe(false);
    // A minute early, or with no deadline at all, the table's own reads are enough.
    expect(watchBlocksFor(1_000n, 940_000, undefined)).toBe(false);
    expect(watchBlocksFor(null, 940_000, undefined)).toBe(false);
  });
});

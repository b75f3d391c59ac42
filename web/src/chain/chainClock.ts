/**
 * The chain's clock as the app sees it. Deadlines are block timestamps, and a chain's clock need not
 * agree with this computer's: a local node that was told to skip ahead runs minutes early, a
 * computer's clock may be off. A block's timestamp plus the time passed here since the block was
 * first seen is the chain's time now, give or take how long the block took to reach us.
 *
 * That holds for a block seen as soon as it is made. A local node mines only when a transaction
 * comes, so its latest block may be minutes old when a page first sees it, while its next block will
 * still carry "now" plus its lead. So the clock keeps the largest lead any block has shown over this
 * computer's clock: a fresh block's, which is the truest.
 */
export interface ChainClockAnchor {
  /** The latest block seen. */
  block: bigint;
  /** How far the chain's clock runs ahead of this computer's (ms; negative when behind). */
  leadMs: number;
}

/**
 * The clock after reading the latest block at local time `seenAtMs`. The same block (or an older
 * one, from an RPC node that lags behind another) changes nothing: re-reading a block later would
 * make it look older than it is.
 *
 * `pending` is the block the node would mine next, read at the same moment. A node stamps it with
 * its own "now" (plus any lead it was told to keep), so it is fresh by construction even on an idle
 * local node whose latest block is minutes old: a page that just loaded learns the true time from
 * it at once, instead of counting down from the old block (a "5:00 left" three minutes late).
 */
export function nextAnchor(
  prev: ChainClockAnchor | undefined,
  latest: { number: bigint; timestamp: bigint },
  seenAtMs: number,
  pending?: { timestamp: bigint } | null,
): ChainClockAnchor {
  const pendingLead =
    pending && pending.timestamp >= latest.timestamp
      ? Number(pending.timestamp) * 1000 - seenAtMs
      : -Infinity;
  const newBlock = !prev || latest.number > prev.block;
  const blockLead = newBlock ? Number(latest.timestamp) * 1000 - seenAtMs : -Infinity;
  const lead = Math.max(prev?.leadMs ?? -Infinity, blockLead, pendingLead);
  if (prev && lead === prev.leadMs && !newBlock) return prev;
  return { block: newBlock ? latest.number : prev!.block, leadMs: lead };
}

/** Reads the latest and the pending block (a node without pending blocks answers latest alone). */
export async function readChainClock(
  getBlock: (tag: "latest" | "pending") => Promise<{ number: bigint | null; timestamp: bigint }>,
  prev: ChainClockAnchor | undefined,
  now: () => number = Date.now,
): Promise<ChainClockAnchor> {
  const [latest, pending] = await Promise.all([
    getBlock("latest"),
    getBlock("pending").catch(() => null),
  ]);
  return nextAnchor(
    prev,
    { number: latest.number ?? 0n, timestamp: latest.timestamp },
    now(),
    pending,
  );
}

/** The chain's time now (ms); this computer's clock until a block has been seen. */
export function chainNowMs(anchor: ChainClockAnchor | undefined, localNowMs: number): number {
  return localNowMs + (anchor?.leadMs ?? 0);
}

/** Whether a contract deadline (block timestamp, seconds) has passed at chain time `nowMs`. */
export const deadlinePassed = (deadlineSec: number | bigint, nowMs: number): boolean =>
  nowMs >= Number(deadlineSec) * 1000;

/**
 * Whether a block stamped `blockTimestampSec` lets a transaction act on a deadline: the contract
 * checks `block.timestamp > deadline` in the block the transaction lands in. The latest block is
 * the one a simulation runs against, so a claim is offered by it, not by the estimate above: a
 * chain that mines every few seconds is past a deadline only once a block says so.
 */
export const blockPastDeadline = (
  blockTimestampSec: bigint | number,
  deadlineSec: bigint | number,
): boolean => BigInt(blockTimestampSec) > BigInt(deadlineSec);

/**
 * Whether a page should watch the latest block for a deadline: from `leadMs` before it by the
 * chain's clock, until a block is past it. Far from a deadline the table's own reads suffice.
 */
export function watchBlocksFor(
  deadlineSec: bigint | number | null,
  nowMs: number,
  latestBlockSec: bigint | undefined,
  leadMs = 5_000,
): boolean {
  if (deadlineSec === null) return false;
  if (latestBlockSec !== undefined && blockPastDeadline(latestBlockSec, deadlineSec)) return false;
  return nowMs >= Number(deadlineSec) * 1000 - leadMs;
}

/**
 * The chain's clock as the app sees it. Deadlines are block timestamps, and a chain's clock need not
 * agree with this computer's: a local node that was told to skip ahead runs minutes early, a
 * computer's clock may be off. So "now" is the latest block's timestamp plus the time that has passed
 * here since that block was first seen.
 */
export interface ChainClockAnchor {
  /** The block the anchor was taken from. */
  block: bigint;
  /** Its timestamp, in ms. */
  timestampMs: number;
  /** This computer's clock when the block was first seen, in ms. */
  seenAtMs: number;
}

/**
 * The anchor after reading the latest block at local time `seenAtMs`. The same block (or an older
 * one, from an RPC node that lags behind another) keeps the earlier anchor: its timestamp was seen
 * first back then, and re-reading it must not pull the clock back.
 */
export function nextAnchor(
  prev: ChainClockAnchor | undefined,
  latest: { number: bigint; timestamp: bigint },
  seenAtMs: number,
): ChainClockAnchor {
  if (prev && latest.number <= prev.block) return prev;
  return { block: latest.number, timestampMs: Number(latest.timestamp) * 1000, seenAtMs };
}

/** The chain's time now (ms); this computer's clock until a block has been seen. */
export function chainNowMs(anchor: ChainClockAnchor | undefined, localNowMs: number): number {
  if (!anchor) return localNowMs;
  return anchor.timestampMs + Math.max(0, localNowMs - anchor.seenAtMs);
}

/** Whether a contract deadline (block timestamp, seconds) has passed at chain time `nowMs`. */
export const deadlinePassed = (deadlineSec: number | bigint, nowMs: number): boolean =>
  nowMs >= Number(deadlineSec) * 1000;

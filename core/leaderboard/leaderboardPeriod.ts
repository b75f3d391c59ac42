/**
 * The leaderboard's period filter works on block numbers (what logs carry), so a period's start
 * time becomes the first block at or after it: a binary search over block timestamps, a couple
 * of dozen header reads however long the chain.
 */

export type Period = "all" | "day" | "week" | "month" | "year";

export const PERIODS: readonly { value: Period; label: string; seconds: number | null }[] = [
  { value: "all", label: "All time", seconds: null },
  { value: "day", label: "Last 24 hours", seconds: 86_400 },
  { value: "week", label: "Last 7 days", seconds: 7 * 86_400 },
  { value: "month", label: "Last 30 days", seconds: 30 * 86_400 },
  { value: "year", label: "Last 365 days", seconds: 365 * 86_400 },
];

export const isPeriod = (value: string | null): value is Period =>
  PERIODS.some((p) => p.value === value);

/** The period's first second, or null for all time. */
export function periodStart(period: Period, nowSeconds: number): number | null {
  const seconds = PERIODS.find((p) => p.value === period)?.seconds ?? null;
  return seconds === null ? null : Math.floor(nowSeconds) - seconds;
}

/**
 * The first block in [low, high] whose timestamp is at or after `timestamp`; `high + 1` when
 * every block is older. Block timestamps never decrease, which is all the search needs.
 */
export async function firstBlockAtOrAfter(
  timestamp: number,
  low: bigint,
  high: bigint,
  blockTime: (block: bigint) => Promise<number>,
): Promise<bigint> {
  let lo = low;
  let hi = high + 1n;
  while (lo < hi) {
    const mid = lo + (hi - lo) / 2n;
    if ((await blockTime(mid)) >= timestamp) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

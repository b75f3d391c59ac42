import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getBlock } from "viem/actions";
import { chainNowMs, readChainClock, type ChainClockAnchor } from "@/chain/chainClock.ts";
import { useHall } from "@/chain/hall.ts";
import { queryKeys } from "@/data/queryKeys.ts";

/** This computer's time in ms, re-rendering every `intervalMs`. Not for contract deadlines. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * How far the chain's clock runs ahead of this computer's, from the blocks seen (chainClock.ts).
 * `enabled` false holds its block reads back (ui/Later.tsx's useLater); a clock another component
 * has read already is still given.
 */
export function useChainClockAnchor(enabled = true): ChainClockAnchor | undefined {
  const hall = useHall();
  const queryClient = useQueryClient();
  const queryKey = hall ? queryKeys.chainClock(hall.scope) : queryKeys.idle("chainClock");
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      return readChainClock(
        (blockTag) => getBlock(hall!.client, { blockTag }),
        queryClient.getQueryData<ChainClockAnchor>(queryKey),
      );
    },
    enabled: !!hall && enabled,
    staleTime: 10_000,
    refetchInterval: 10_000,
  });
  return query.data;
}

/**
 * The chain's time in ms, re-rendering every `intervalMs`: what every contract deadline (join
 * window, move clock, pending roll) is compared with.
 */
export function useChainNow(intervalMs = 1_000, enabled = true): number {
  const anchor = useChainClockAnchor(enabled);
  return chainNowMs(anchor, useNow(intervalMs));
}

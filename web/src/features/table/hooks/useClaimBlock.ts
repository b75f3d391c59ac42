import { useQuery } from "@tanstack/react-query";
import { getBlock } from "viem/actions";
import { watchBlocksFor } from "@/chain/chainClock.ts";
import { pollingInterval } from "@/chain/chains.ts";
import type { Hall } from "@/chain/hall.ts";
import { queryKeys } from "@/data/queryKeys.ts";

export interface LatestBlock {
  number: bigint;
  timestamp: bigint;
}

/**
 * The latest block, read at the hall watcher's pace while a deadline is near or just past
 * (`watchBlocksFor`): a claim is offered when a block is past the deadline, as the contract
 * checks it, and not when this computer's estimate of the chain's clock says so.
 */
export function useClaimBlock(
  hall: Hall | null,
  deadlineSec: number | null,
  nowMs: number,
  clockKnown: boolean,
): LatestBlock | undefined {
  const queryKey = hall
    ? ([...queryKeys.chainClock(hall.scope), "latestBlock"] as const)
    : queryKeys.idle("latestBlock");
  const query = useQuery({
    queryKey,
    queryFn: async (): Promise<LatestBlock> => {
      const block = await getBlock(hall!.client, { blockTag: "latest" });
      return { number: block.number ?? 0n, timestamp: block.timestamp };
    },
    enabled: !!hall && deadlineSec !== null,
    staleTime: 0,
    refetchInterval: (q) =>
      hall && clockKnown && watchBlocksFor(deadlineSec, nowMs, q.state.data?.timestamp)
        ? pollingInterval(hall.chainId)
        : false,
  });
  return query.data;
}

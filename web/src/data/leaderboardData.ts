import { useQuery } from "@tanstack/react-query";
import { getBlock, getBlockNumber } from "viem/actions";
import type { Client } from "viem";
import { LOCAL_CHAIN_ID } from "@/chain/chains.ts";
import { useHall, type Hall } from "@/chain/hall.ts";
import type { HallLogOf } from "@dicehall/core/events/hallEvents.ts";
import {
  LEADERBOARD_EVENTS,
  isYahtzeeScore,
  type LeaderboardLog,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import {
  firstBlockAtOrAfter,
  periodStart,
  type Period,
} from "@dicehall/core/leaderboard/leaderboardPeriod.ts";
import { logStore, sharedBlockHashes, syncEventLogs } from "./logCache.ts";
import { queryKeys } from "./queryKeys.ts";

/**
 * The hall's leaderboard events (GameCreated, Scored with a Yahtzee, PlayerForfeited,
 * GameFinished), from the browser's log cache plus whatever blocks are new. The leaderboard and
 * the history pages both read them.
 */

type Scope = Hall["scope"];

/** Public chains may reorg their latest blocks: those are read every time and never cached. */
const confirmationsFor = (chainId: number): bigint => (chainId === LOCAL_CHAIN_ID ? 0n : 12n);

export interface LeaderboardLogs {
  logs: LeaderboardLog[];
  head: bigint;
}

export async function loadLeaderboardLogs(hall: Hall): Promise<LeaderboardLogs> {
  const head = await getBlockNumber(hall.client, { cacheTime: 0 });
  const common = {
    client: hall.client,
    store: logStore(),
    chainId: hall.chainId,
    address: hall.address,
    fromBlock: hall.deployment.deploymentBlock,
    head,
    confirmations: confirmationsFor(hall.chainId),
    hashOf: sharedBlockHashes(hall.client),
  };
  const streams = await Promise.all(
    LEADERBOARD_EVENTS.map((eventName) =>
      eventName === "Scored"
        ? syncEventLogs<"Scored">({
            ...common,
            eventName,
            variant: "yahtzees",
            keep: (log: HallLogOf<"Scored">) => isYahtzeeScore(log.args),
          })
        : syncEventLogs({ ...common, eventName }),
    ),
  );
  const logs = ([] as LeaderboardLog[]).concat(...streams.map((s) => s.logs as LeaderboardLog[]));
  return { logs, head };
}

/** `enabled: false` while the game index serves the page instead (see indexer.ts). */
export function useLeaderboardLogs({ enabled = true }: { enabled?: boolean } = {}) {
  const hall = useHall();
  return useQuery({
    queryKey: hall ? queryKeys.cachedLogs(hall.scope, "leaderboard") : ["leaderboard", "none"],
    queryFn: () => loadLeaderboardLogs(hall!),
    enabled: !!hall && enabled,
    // The hall watcher invalidates this key (it extends hallLogs) when events arrive.
    staleTime: 30_000,
    refetchInterval: 60_000,
    placeholderData: (previous) => previous,
  });
}

async function blockTime(client: Client, blockNumber: bigint): Promise<number> {
  return Number((await getBlock(client, { blockNumber })).timestamp);
}

/** The first block of a period (null for all time), refreshed every few minutes. */
export function usePeriodFromBlock(period: Period, { enabled = true }: { enabled?: boolean } = {}) {
  const hall = useHall();
  // Rounded so the key (and the search) only changes every five minutes.
  const now = Math.floor(Date.now() / 300_000) * 300;
  return useQuery({
    queryKey: hall ? queryKeys.periodStart(hall.scope, period, now) : ["periodStart", "none"],
    queryFn: async (): Promise<bigint | null> => {
      const start = periodStart(period, now);
      if (start === null) return null;
      const head = await getBlockNumber(hall!.client);
      const low = hall!.deployment.deploymentBlock;
      return firstBlockAtOrAfter(start, low, head, (b) => blockTime(hall!.client, b));
    },
    enabled: !!hall && enabled,
    staleTime: Infinity,
  });
}

/** Timestamps (seconds) of a few blocks, for dates in lists. */
export function useBlockTimes(blocks: readonly bigint[]) {
  const hall = useHall();
  const sorted = [...new Set(blocks.map(String))].sort();
  return useQuery({
    queryKey: hall ? queryKeys.blockTimes(hall.scope, sorted.join(",")) : ["blockTimes", "none"],
    queryFn: async () => {
      const times = await Promise.all(sorted.map((b) => blockTime(hall!.client, BigInt(b))));
      return new Map(sorted.map((b, i) => [b, times[i]]));
    },
    enabled: !!hall && sorted.length > 0,
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}

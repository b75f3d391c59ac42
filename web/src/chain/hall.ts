import { useEffect, useMemo } from "react";
import { useQueryClient, type Query, type QueryClient } from "@tanstack/react-query";
import { getBlockNumber } from "viem/actions";
import type { Address, Client } from "viem";
import { useChainId, useClient, useConnection } from "wagmi";
import { chainById, pollingInterval, type AppChain } from "./chains.ts";
import { deployedChainIds, deploymentFor, type Deployment } from "./deployments.ts";
import { fetchLogs, type HallLog } from "@dicehall/core/events/hallEvents.ts";
import { queryKeys } from "@/data/queryKeys.ts";

/** The DiceHall deployment the app reads from, with a client for its chain. */
export interface Hall {
  chainId: number;
  chain: AppChain;
  deployment: Deployment;
  address: Address;
  client: Client;
  scope: { chainId: number; hall: Address };
}

export interface HallStatus {
  hall: Hall | null;
  /** The wallet is connected to a chain without a deployment. */
  wrongNetwork: boolean;
  /** The chain the wallet is on (or would use). */
  walletChainId: number | undefined;
}

/**
 * Reads follow the wallet's chain when the hall is deployed there; otherwise (no wallet, or a
 * wallet on another network) the first chain with a deployment, so the hall can still be browsed.
 */
export function useHallStatus(): HallStatus {
  const connection = useConnection();
  const configChainId = useChainId();
  const walletChainId = connection.isConnected ? connection.chainId : undefined;
  const chainId = [walletChainId, configChainId, ...deployedChainIds()].find(
    (id) => id !== undefined && deploymentFor(id),
  );
  const client = useClient({ chainId: chainId as AppChain["id"] | undefined });
  const hall = useMemo<Hall | null>(() => {
    const deployment = deploymentFor(chainId);
    const chain = chainById(chainId);
    if (!deployment || !chain || !client) return null;
    return {
      chainId: deployment.chainId,
      chain,
      deployment,
      address: deployment.diceHall,
      client: client as Client,
      scope: { chainId: deployment.chainId, hall: deployment.diceHall },
    };
  }, [chainId, client]);
  return {
    hall,
    wrongNetwork: walletChainId !== undefined && !deploymentFor(walletChainId),
    walletChainId: walletChainId ?? configChainId,
  };
}

export function useHall(): Hall | null {
  return useHallStatus().hall;
}

/** The latest block with a game event the watcher saw, and when it saw it. */
export interface WatchedBlock {
  block: bigint;
  seenAt: number;
}

/** Records a block with game events, unless a later one is already recorded. */
export function noteWatchedBlock(
  queryClient: QueryClient,
  scope: Hall["scope"],
  block: bigint,
  now = Date.now(),
): void {
  const key = queryKeys.watchedBlock(scope);
  const known = queryClient.getQueryData<WatchedBlock>(key);
  if (known && known.block >= block) return;
  queryClient.setQueryData<WatchedBlock>(key, { block, seenAt: now });
}

/** Past this many blocks since the last poll (a laptop woken from sleep) the queries re-read. */
const MAX_WATCH_RANGE = 5_000n;

export interface HallWatch {
  address: Address;
  pollingInterval: number;
  /** The hall's logs of blocks after the last poll's head, each block once, newest last. */
  onLogs: (logs: HallLog[]) => void;
  /**
   * The watch does not know what happened before `head` (its first look, a node that went back, a
   * long sleep): every query must read up to it from where it stands.
   */
  onCatchUp: (head: bigint) => void;
  onError?: (error: Error) => void;
}

/**
 * Polls the node for the hall's events by block range: the head, then eth_getLogs from the block
 * after the last one read to the head. Nothing is lost to a dropped request or to a node that
 * forgets a filter (load-balanced RPCs, a restarted node, a filter expired while a tab slept):
 * the range only moves on once its logs are in hand, and a failed poll is retried whole by the
 * next one. Returns the function that stops it.
 */
export function watchHallLogs(client: Client, watch: HallWatch): () => void {
  let last: bigint | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    try {
      const head = await getBlockNumber(client, { cacheTime: 0 });
      if (stopped) return;
      if (last === undefined || head < last || head - last > MAX_WATCH_RANGE) {
        last = head;
        watch.onCatchUp(head);
      } else if (head > last) {
        const logs = await fetchLogs(
          client,
          { address: watch.address, topics: [] },
          last + 1n,
          head,
        );
        if (stopped) return;
        last = head;
        if (logs.length > 0) watch.onLogs(logs);
      }
    } catch (error) {
      if (!stopped) watch.onError?.(error as Error);
    } finally {
      if (!stopped) timer = setTimeout(() => void poll(), watch.pollingInterval);
    }
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Invalidates exactly the queries the hall's new logs touch; the queries then extend their logs
 * incrementally. On a catch-up, every query of the hall that may not have read up to the head.
 */
export function startHallWatch(
  queryClient: QueryClient,
  hall: Pick<Hall, "client" | "address" | "chainId" | "scope">,
): () => void {
  const { scope } = hall;
  const invalidate = (queryKey: readonly unknown[]) =>
    void queryClient.invalidateQueries({ queryKey });
  return watchHallLogs(hall.client, {
    address: hall.address,
    pollingInterval: pollingInterval(hall.chainId),
    onCatchUp(head) {
      const readAt = Date.now();
      // What events change, and may have been read before the head: a query of logs knows the
      // block it has read to; a view, when it was read. The clock and the settings are not here.
      const stale = (query: Query) => {
        const data = query.state.data as { syncedTo?: unknown } | undefined;
        return typeof data?.syncedTo === "bigint"
          ? data.syncedTo < head
          : query.state.dataUpdatedAt < readAt;
      };
      for (const queryKey of [
        queryKeys.hallLogs(scope),
        queryKeys.gamesAll(scope),
        queryKeys.gameViewsAll(scope),
        queryKeys.invitesAll(scope),
        queryKeys.creditsAll(scope),
        queryKeys.rollFeesAll(scope),
      ]) {
        void queryClient.invalidateQueries({ queryKey, predicate: stale });
      }
      invalidate(queryKeys.balancesOnChain(hall.chainId));
    },
    onLogs(logs) {
      const games = new Set<string>();
      let settings = false;
      let money = false;
      let gameBlock: bigint | null = null;
      for (const log of logs) {
        const args = (log as { args?: Record<string, unknown> }).args ?? {};
        if (typeof args.gameId === "bigint") {
          games.add(args.gameId.toString());
          if (gameBlock === null || log.blockNumber > gameBlock) gameBlock = log.blockNumber;
        }
        if (log.eventName === "Credited" || log.eventName === "Withdrawn") money = true;
        else if (!("gameId" in args)) settings = true; // an owner change
      }
      if (gameBlock !== null) noteWatchedBlock(queryClient, scope, gameBlock);
      if (games.size) {
        invalidate(queryKeys.hallLogs(scope));
        invalidate(queryKeys.gameViewsAll(scope));
        for (const id of games) invalidate(queryKeys.game(scope, BigInt(id)));
        invalidate(queryKeys.invitesAll(scope));
      }
      if (money || games.size) invalidate(queryKeys.creditsAll(scope));
      if (settings) {
        invalidate(queryKeys.settings(scope));
        invalidate(queryKeys.rollFeesAll(scope));
      }
      // Any of our transactions can move a balance.
      invalidate(queryKeys.balancesOnChain(hall.chainId));
    },
    onError(error) {
      console.warn("Event watch hiccup; the next poll reads the same blocks again.", error.message);
    },
  });
}

/** Watches the hall's events (startHallWatch). Mounted once, in the layout. */
export function useHallWatcher(): void {
  const hall = useHall();
  const queryClient = useQueryClient();
  useEffect(() => (hall ? startHallWatch(queryClient, hall) : undefined), [hall, queryClient]);
}

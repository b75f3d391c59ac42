import { useEffect, useMemo, useSyncExternalStore } from "react";
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
  /** Each poll's outcome: whether the node answered, and when. */
  onReach?: (reach: HallReach) => void;
  /** The browser's word on its network; outside a browser, always online. */
  network?: Network;
}

/** Whether there is a network (navigator.onLine), and a call when it comes back. */
export interface Network {
  online(): boolean;
  onBack(resume: () => void): () => void;
}

const browserNetwork: Network = {
  online: () => typeof navigator === "undefined" || navigator.onLine !== false,
  onBack(resume) {
    if (typeof window === "undefined") return () => {};
    window.addEventListener("online", resume);
    return () => window.removeEventListener("online", resume);
  },
};

/** Whether the hall's node answered the watcher's last poll, and when it last did. */
export interface HallReach {
  live: boolean;
  /** Local time (ms) of the last poll the node answered; null before the first. */
  lastOkAt: number | null;
}

/** The longest wait between polls of a node that does not answer. */
export const MAX_POLL_BACKOFF_MS = 30_000;

/**
 * How long the watcher waits before its next poll: the chain's polling interval while the node
 * answers; after `failures` polls in a row that failed, that doubled each time, up to
 * MAX_POLL_BACKOFF_MS, so a phone with no network is not asked for a request four times a second.
 */
export function nextPollDelay(baseMs: number, failures: number): number {
  if (failures <= 0) return baseMs;
  return Math.min(MAX_POLL_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 16));
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
  let failures = 0;
  let lastOkAt: number | null = null;
  let polling = false;
  const online = () => watch.network?.online() ?? true;
  const poll = async () => {
    // With no network nothing is asked: the browser's "online" event starts the next poll.
    if (!online()) {
      watch.onReach?.({ live: false, lastOkAt });
      return;
    }
    polling = true;
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
      failures = 0;
      lastOkAt = Date.now();
      if (!stopped) watch.onReach?.({ live: true, lastOkAt });
    } catch (error) {
      failures += 1;
      if (!stopped) {
        watch.onError?.(error as Error);
        // One lost request is a hiccup (the next poll reads the same blocks); two in a row are
        // a node out of reach.
        watch.onReach?.({ live: failures < 2, lastOkAt });
      }
    } finally {
      polling = false;
      if (!stopped) {
        timer = setTimeout(() => void poll(), nextPollDelay(watch.pollingInterval, failures));
      }
    }
  };
  // Back online: poll at once rather than at the end of a back-off.
  const resume = () => {
    if (stopped || polling) return;
    clearTimeout(timer);
    failures = 0;
    void poll();
  };
  const stopListening = watch.network?.onBack(resume);
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopListening?.();
  };
}

// The watcher's last word on the node, for every page that shows chain data as live.
let reach: HallReach = { live: true, lastOkAt: null };
const reachListeners = new Set<() => void>();
function setReach(next: HallReach): void {
  if (next.live === reach.live && next.lastOkAt === reach.lastOkAt) return;
  reach = next;
  for (const listener of reachListeners) listener();
}

/**
 * Whether what the page shows from the chain is live: false while the browser is offline or the
 * node has not answered the hall watcher's last poll; with the last time it did.
 */
export function useHallReach(): HallReach {
  return useSyncExternalStore(
    (listener) => {
      reachListeners.add(listener);
      return () => reachListeners.delete(listener);
    },
    () => reach,
    () => reach,
  );
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
    network: browserNetwork,
    onReach: setReach,
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

import { useEffect, useMemo } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { watchContractEvent } from "viem/actions";
import type { Address, Client } from "viem";
import { useChainId, useClient, useConnection } from "wagmi";
import { chainById, pollingInterval, type AppChain } from "./chains.ts";
import { deployedChainIds, deploymentFor, type Deployment } from "./deployments.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
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

/**
 * Watches every DiceHall event and invalidates exactly the queries it touches; the queries then
 * extend their logs incrementally. Mounted once, in the layout.
 */
export function useHallWatcher(): void {
  const hall = useHall();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!hall) return;
    const { scope } = hall;
    return watchContractEvent(hall.client, {
      address: hall.address,
      abi: diceHallAbi,
      pollingInterval: pollingInterval(hall.chainId),
      onLogs(logs) {
        const games = new Set<string>();
        let settings = false;
        let money = false;
        let gameBlock: bigint | null = null;
        for (const log of logs) {
          const args = (log as { args?: Record<string, unknown> }).args ?? {};
          if (typeof args.gameId === "bigint") {
            games.add(args.gameId.toString());
            if (log.blockNumber !== null && (gameBlock === null || log.blockNumber > gameBlock)) {
              gameBlock = log.blockNumber;
            }
          }
          if (log.eventName === "Credited" || log.eventName === "Withdrawn") money = true;
          else if (!("gameId" in args)) settings = true; // an owner change
        }
        const invalidate = (queryKey: readonly unknown[]) =>
          void queryClient.invalidateQueries({ queryKey });
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
        console.warn("Event watch hiccup; retrying on the next poll.", error.message);
      },
    });
  }, [hall, queryClient]);
}

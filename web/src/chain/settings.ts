import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { getBlockNumber, readContract } from "viem/actions";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { eventSelector, fetchLogs } from "@dicehall/core/events/hallEvents.ts";
import { useHall, type Hall } from "./hall.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { fetchTokenInfo, NATIVE, type TokenInfo } from "./tokens.ts";

export interface Bounds {
  min: number;
  max: number;
}

export interface BetToken extends TokenInfo {
  allowed: boolean;
  minBet: bigint;
  maxBet: bigint;
}

/** What the owner allows for lobbies opened now. */
export interface HallSettings {
  joinWindow: Bounds;
  moveTimeout: Bounds;
  houseFeeBps: number;
  entropyTimeout: number;
  /** Every token ever configured (native first); `allowed` says whether bets are open in it. */
  tokens: BetToken[];
}

async function fetchSettings(hall: Hall): Promise<HallSettings> {
  const read = <
    F extends "joinWindowBounds" | "moveTimeoutBounds" | "houseFeeBps" | "entropyTimeout",
  >(
    functionName: F,
  ) => readContract(hall.client, { address: hall.address, abi: diceHallAbi, functionName });
  const head = await getBlockNumber(hall.client);
  const [joinWindow, moveTimeout, houseFeeBps, entropyTimeout, configured] = await Promise.all([
    read("joinWindowBounds"),
    read("moveTimeoutBounds"),
    read("houseFeeBps"),
    read("entropyTimeout"),
    fetchLogs(
      hall.client,
      { address: hall.address, topics: [eventSelector("TokenConfigured")] },
      hall.deployment.deploymentBlock,
      head,
    ),
  ]);
  const candidates = new Map<string, Address>([[NATIVE, NATIVE]]);
  if (hall.deployment.testToken)
    candidates.set(hall.deployment.testToken.toLowerCase(), hall.deployment.testToken);
  for (const log of configured) {
    if (log.eventName === "TokenConfigured")
      candidates.set(log.args.token.toLowerCase(), log.args.token);
  }
  const tokens = await Promise.all(
    [...candidates.values()].map(async (token): Promise<BetToken | null> => {
      try {
        const [config, info] = await Promise.all([
          readContract(hall.client, {
            address: hall.address,
            abi: diceHallAbi,
            functionName: "tokenConfig",
            args: [token],
          }),
          fetchTokenInfo(hall, token),
        ]);
        return { ...info, allowed: config.allowed, minBet: config.minBet, maxBet: config.maxBet };
      } catch {
        return null;
      }
    }),
  );
  return {
    joinWindow: { min: joinWindow[0], max: joinWindow[1] },
    moveTimeout: { min: moveTimeout[0], max: moveTimeout[1] },
    houseFeeBps,
    entropyTimeout,
    tokens: tokens.filter((t): t is BetToken => t !== null),
  };
}

export function useHallSettings() {
  const hall = useHall();
  return useQuery({
    queryKey: hall ? queryKeys.settings(hall.scope) : queryKeys.idle("settings"),
    queryFn: () => fetchSettings(hall!),
    enabled: !!hall,
    staleTime: 60_000,
  });
}

/** What a roll of this game costs now: its own provider's fee at its own callback gas. */
export async function fetchRollFee(hall: Hall, gameId: bigint): Promise<bigint> {
  return readContract(hall.client, {
    address: hall.address,
    abi: diceHallAbi,
    functionName: "gameRollFee",
    args: [gameId],
  });
}

/** A game's roll fee; `enabled` false holds the read back (ui/Later.tsx's useLater). */
export function useRollFee(gameId: bigint, enabled = true) {
  const hall = useHall();
  return useQuery({
    queryKey: hall ? queryKeys.rollFee(hall.scope, gameId) : queryKeys.idle("rollFee"),
    queryFn: () => fetchRollFee(hall!, gameId),
    enabled: !!hall && enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

import { useMemo } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { Address, ContractFunctionReturnType } from "viem";
import { getBlockNumber, readContract } from "viem/actions";
import { retryUnlessReverted } from "@/chain/errors.ts";
import {
  foldGame,
  foldHall,
  key,
  STATUS_NAMES,
  type GameState,
} from "@dicehall/core/game/gameState.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import {
  addressTopic,
  eventSelector,
  extendLogs,
  gameEventSelectors,
  uintTopic,
  type HallLog,
  type LogCache,
} from "@dicehall/core/events/hallEvents.ts";
import { pollingInterval } from "@/chain/chains.ts";
import { useHall, type Hall, type WatchedBlock } from "@/chain/hall.ts";
import { queryKeys } from "./queryKeys.ts";

export type GameView = ContractFunctionReturnType<typeof diceHallAbi, "view", "getGame">;
export type PlayerView = ContractFunctionReturnType<typeof diceHallAbi, "view", "getPlayer">;

/**
 * When claimTimeout becomes possible (ms). Nobody forfeits while a roll is out: the clock waits for
 * Entropy, and only once the roll has been out for the game's whole call-off window can the game be
 * called off.
 */
export function moveDeadlineMs(view: GameView): number | null {
  if (STATUS_NAMES[view.status] !== "running") return null;
  if (view.entropyAttempts === 0) return view.deadline > 0n ? Number(view.deadline) * 1000 : null;
  return Number(view.callOffAt) * 1000;
}

/**
 * When the roll that is out may be asked of Entropy again (ms): only a refused roll may, from the
 * second after its refusal. Null with no roll out, while its accepted request is out (it is never
 * replaced) and when the call-off comes first: no retry past the call-off is ever promised.
 */
export function rollRetryAtMs(view: GameView): number | null {
  if (view.entropyAttempts === 0 || view.retryAt === 0n) return null;
  return Number(view.retryAt) * 1000;
}

/** Logs are only ever extended; a refetch asks for the blocks after the last one seen. */
function previous<T>(queryClient: QueryClient, queryKey: readonly unknown[]): T | undefined {
  return queryClient.getQueryData<T>(queryKey);
}

// ------------------------------------------------------------------ hall-wide

export function useHallLogs() {
  const hall = useHall();
  const queryClient = useQueryClient();
  const queryKey = hall ? queryKeys.hallLogs(hall.scope) : queryKeys.idle("hallLogs");
  return useQuery({
    queryKey,
    queryFn: async (): Promise<LogCache> => {
      const head = await getBlockNumber(hall!.client, { cacheTime: 0 });
      const { logs, syncedTo } = await extendLogs(
        hall!.client,
        { address: hall!.address, topics: [gameEventSelectors()] },
        previous<LogCache>(queryClient, queryKey),
        hall!.deployment.deploymentBlock,
        head,
      );
      return { logs, syncedTo };
    },
    enabled: !!hall,
    staleTime: Infinity,
    // A safety net for a missed watch poll; the watcher normally invalidates within a second.
    refetchInterval: 20_000,
  });
}

/** Every game of the hall, folded from its events. */
export function useHallGames() {
  const logs = useHallLogs();
  const games = useMemo(() => foldHall(logs.data?.logs ?? []), [logs.data]);
  return { games, isPending: logs.isPending, error: logs.error, refetch: logs.refetch };
}

/** getGame() of each id, in the order given. */
export function readGameViews(hall: Hall, ids: readonly bigint[]): Promise<GameView[]> {
  return Promise.all(
    ids.map((gameId) =>
      readContract(hall.client, {
        address: hall.address,
        abi: diceHallAbi,
        functionName: "getGame",
        args: [gameId],
      }),
    ),
  );
}

export function useGameViews(ids: readonly bigint[]) {
  const hall = useHall();
  const sorted = useMemo(() => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), [ids]);
  return useQuery({
    queryKey: hall ? queryKeys.gameViews(hall.scope, sorted) : queryKeys.idle("gameViews"),
    queryFn: async () => {
      const views = await readGameViews(hall!, sorted);
      return new Map(sorted.map((id, i) => [id.toString(), views[i]]));
    },
    enabled: !!hall && sorted.length > 0,
    placeholderData: (prev) => prev,
    retry: retryUnlessReverted,
  });
}

/** Ids of the lobbies that list `account` as an invitee (PlayerInvited filtered by topic). */
export function useInvites(account: Address | undefined) {
  const hall = useHall();
  const queryClient = useQueryClient();
  const queryKey =
    hall && account ? queryKeys.invites(hall.scope, account) : queryKeys.idle("invites");
  return useQuery({
    queryKey,
    queryFn: async (): Promise<LogCache> => {
      const head = await getBlockNumber(hall!.client, { cacheTime: 0 });
      const { logs, syncedTo } = await extendLogs(
        hall!.client,
        {
          address: hall!.address,
          topics: [eventSelector("PlayerInvited"), null, addressTopic(account!)],
        },
        previous<LogCache>(queryClient, queryKey),
        hall!.deployment.deploymentBlock,
        head,
      );
      return { logs, syncedTo };
    },
    enabled: !!hall && !!account,
    staleTime: Infinity,
    select: (cache) =>
      cache.logs.flatMap((log) => (log.eventName === "PlayerInvited" ? [log.args.gameId] : [])),
  });
}

export function useCredits(account: Address | undefined, tokens: readonly Address[]) {
  const hall = useHall();
  const list = useMemo(
    () => [...new Set(tokens.map((t) => t.toLowerCase()))] as Address[],
    [tokens],
  );
  return useQuery({
    queryKey:
      hall && account ? queryKeys.credits(hall.scope, account, list) : queryKeys.idle("credits"),
    queryFn: async () => {
      const amounts = await Promise.all(
        list.map((token) =>
          readContract(hall!.client, {
            address: hall!.address,
            abi: diceHallAbi,
            functionName: "credits",
            args: [token, account!],
          }),
        ),
      );
      return new Map(list.map((token, i) => [token, amounts[i]]));
    },
    enabled: !!hall && !!account && list.length > 0,
    placeholderData: (prev) => prev,
  });
}

// ------------------------------------------------------------------ one game

/** One game's events and its views, read at the same block so they always agree. */
export interface GameSnapshot extends LogCache {
  view: GameView;
  /** getPlayer per seated player, keyed by lower-case address. */
  players: Record<string, PlayerView>;
}

export async function loadGameSnapshot(
  hall: Hall,
  gameId: bigint,
  prev: GameSnapshot | undefined,
): Promise<GameSnapshot> {
  const head = await getBlockNumber(hall.client, { cacheTime: 0 });
  const cache = await extendLogs(
    hall.client,
    { address: hall.address, topics: [gameEventSelectors(), uintTopic(gameId)] },
    prev,
    hall.deployment.deploymentBlock,
    head,
  );
  // Views only change in transactions that emit one of this game's events.
  if (prev && cache.added === 0) return { ...prev, syncedTo: cache.syncedTo };
  // Decoding a game's logs is a phone's longest piece of work here: the next read starts a task on.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const read = { address: hall.address, abi: diceHallAbi, blockNumber: head } as const;
  const view = await readContract(hall.client, {
    ...read,
    functionName: "getGame",
    args: [gameId],
  });
  const players = await Promise.all(
    view.players.map((player) =>
      readContract(hall.client, { ...read, functionName: "getPlayer", args: [gameId, player] }),
    ),
  );
  return {
    logs: cache.logs,
    syncedTo: cache.syncedTo,
    view,
    players: Object.fromEntries(view.players.map((p, i) => [key(p), players[i]])),
  };
}

/** A table re-reads its game this often when the watcher has nothing new for it: a safety net. */
export const SNAPSHOT_INTERVAL_MS = 15_000;

/**
 * How soon a table reads its game again: at the watcher's pace while the snapshot is behind a
 * block in which the watcher saw a game event (a node behind the one that answered the watcher, as
 * a load-balanced RPC can be), else the safety net's.
 */
export function snapshotInterval(
  queryClient: QueryClient,
  hall: Hall | null,
  data: GameSnapshot | undefined,
): number {
  if (!hall || !data) return SNAPSHOT_INTERVAL_MS;
  const watched = queryClient.getQueryData<WatchedBlock>(queryKeys.watchedBlock(hall.scope));
  return watched && data.syncedTo < watched.block
    ? pollingInterval(hall.chainId)
    : SNAPSHOT_INTERVAL_MS;
}

export function useGameSnapshot(gameId: bigint | null) {
  const hall = useHall();
  const queryClient = useQueryClient();
  const queryKey =
    hall && gameId !== null ? queryKeys.game(hall.scope, gameId) : queryKeys.idle("game");
  const query = useQuery({
    queryKey,
    queryFn: () => loadGameSnapshot(hall!, gameId!, previous<GameSnapshot>(queryClient, queryKey)),
    enabled: !!hall && gameId !== null,
    staleTime: Infinity,
    refetchInterval: (q) => snapshotInterval(queryClient, hall, q.state.data),
    // A table in a background tab still follows the game, so "your turn" can call its player back.
    refetchIntervalInBackground: true,
    retry: retryUnlessReverted,
  });
  const state = useMemo<GameState | null>(
    () => (query.data && gameId !== null ? foldGame(gameId, query.data.logs as HallLog[]) : null),
    [query.data, gameId],
  );
  return { ...query, state };
}

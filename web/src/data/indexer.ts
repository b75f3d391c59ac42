import { useMemo, useState } from "react";
import {
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
} from "@tanstack/react-query";
import type { Address } from "viem";
import { useGameSnapshot } from "./gameData.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { useHall } from "@/chain/hall.ts";
import { decodeLogs, type HallLog } from "@dicehall/core/events/hallEvents.ts";
import { finishedGames, type FinishedGame } from "@dicehall/core/leaderboard/history.ts";
import {
  foldLeaderboard,
  sortLeaderboard,
  tokensIn,
  type LeaderboardRow,
  type LeaderboardSort,
  type LeaderboardSortKey,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import { useLeaderboardLogs, usePeriodFromBlock, type LeaderboardLogs } from "./leaderboardData.ts";
import { periodStart, type Period } from "@dicehall/core/leaderboard/leaderboardPeriod.ts";
import {
  gameFromWire,
  isSkillSortKey,
  leaderboardSearch,
  rowFromWire,
  type LeaderboardQuery,
  type SkillSortKey,
  type WireGameAnalysis,
  type WireGameLogs,
  type WirePlayer,
  type WireSkill,
  type WireGames,
  type WireLeaderboard,
} from "@dicehall/core/indexer/indexerWire.ts";
import {
  fallbackNotice,
  fetchIndexer,
  IndexerError,
  useIndexer,
  type IndexerState,
} from "./indexerStatus.ts";
import { queryKeys } from "./queryKeys.ts";

export {
  fallbackNotice,
  fetchIndexer,
  IndexerError,
  indexerUrl,
  statusProblem,
  useIndexer,
  type IndexerFailure,
  type IndexerState,
} from "./indexerStatus.ts";

/**
 * The game index (the Ponder indexer in indexer/, set with VITE_INDEXER_URL) answers the
 * leaderboard, history and replay reads in one request instead of a scan of the hall's logs
 * from its deployment block. Each hook here returns what the page shows plus where it came from:
 * the index when it is configured, follows this hall and answers; otherwise the browser's own
 * scan of the chain, with a notice saying why when the index failed. The index's status is
 * checked again every 30 s, so it takes over again on its own once it is back.
 */

/** What a paged hook returns when the index serves its pages. */
function servedByIndex<T>(
  served: {
    refetch(): unknown;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage(): unknown;
  },
  data: T,
) {
  return {
    source: "indexer" as const,
    data,
    error: null,
    refetch: () => void served.refetch(),
    hasMore: served.hasNextPage,
    showMore: () => void (served.isFetchingNextPage || served.fetchNextPage()),
  };
}

/** Runs a conversion of the index's answer; a shape it doesn't expect is a bad answer. */
function readAnswer<T>(convert: () => T): T {
  try {
    return convert();
  } catch {
    throw new IndexerError("bad-answer", "sent an answer this app can't read");
  }
}

// ------------------------------------------------------------------ the status

/** Which path a read takes, given the index's state and its own request to the index. */
function route(
  indexer: IndexerState,
  served: { error: unknown; data: unknown },
): { chain: boolean; notice?: string } {
  if (indexer.mode === "off") return { chain: true };
  if (indexer.mode === "failed") return { chain: true, notice: indexer.notice };
  if (served.error) return { chain: true, notice: fallbackNotice(indexer.url, served.error) };
  return { chain: false };
}

export type Source = "indexer" | "chain";

interface Read {
  source: Source;
  /** Why the page reads the chain although an index is configured; absent otherwise. */
  notice?: string;
  /** The chain scan failed too (the index's failures only ever lead to the fallback). */
  error: unknown;
  refetch: () => void;
}

/** The index's reads refresh on their own too: the watcher's nudge may beat the index. */
const INDEXED_INTERVAL_MS = 15_000;

// ------------------------------------------------------------------ leaderboard

export const LEADERBOARD_PAGE = 50;

/** A leaderboard sort: the fold's keys, or a skill column's (the index alone sorts by those). */
export type BoardSort = Omit<LeaderboardSort, "key"> & { key: LeaderboardSortKey | SkillSortKey };

export interface LeaderboardParams {
  ruleSet: number | null;
  token: Address | null;
  period: Period;
  sort: BoardSort;
  /** The viewer, whose rank and row come with every page. */
  me: Address | undefined;
}

export interface LeaderboardView {
  /** The rows loaded so far, ranked from 1. */
  rows: LeaderboardRow[];
  /** Rows that pass the filters. */
  total: number;
  /** Every token any finished game was played for (lower-case), for the token filter. */
  tokens: string[];
  me: { rank: number; row: LeaderboardRow } | null;
  /** Each player's rating and accuracy (lower-case player), when the index answered. */
  skill?: Map<string, WireSkill>;
}

/** The period's start rounded to five minutes, so the query key only moves that often. */
function periodSince(period: Period): number | null {
  const now = Math.floor(Date.now() / 300_000) * 300;
  return periodStart(period, now);
}

/** The query the leaderboard page sends for its filters, sort and viewer (paging added later). */
export function leaderboardQuery(params: LeaderboardParams): LeaderboardQuery {
  const { ruleSet, token, period, sort, me } = params;
  return {
    ruleSet,
    token: token ? (token.toLowerCase() as Address) : null,
    since: periodSince(period),
    sort: sort.key,
    direction: sort.direction,
    sortToken: sort.key === "net" && sort.token ? (sort.token.toLowerCase() as Address) : null,
    me: me ? (me.toLowerCase() as Address) : null,
  };
}

/** The leaderboard page's rows: pages from the index, or the whole board folded in the browser. */
export function useLeaderboard(params: LeaderboardParams): Read & {
  data: LeaderboardView | undefined;
  hasMore: boolean;
  showMore: () => void;
} {
  const hall = useHall();
  const indexer = useIndexer();
  const query = leaderboardQuery(params);
  const search = leaderboardSearch(query);
  const served = useInfiniteQuery({
    queryKey:
      hall && indexer.mode !== "off"
        ? queryKeys.indexed(hall.scope, indexer.url, "leaderboard", search)
        : queryKeys.idle("indexedLeaderboard"),
    queryFn: async ({ pageParam, signal }) => {
      const page = leaderboardSearch({ ...query, offset: pageParam, limit: LEADERBOARD_PAGE });
      const answer = await fetchIndexer<WireLeaderboard>(
        (indexer as { url: string }).url,
        `/api/leaderboard?${page}`,
        { signal },
      );
      return readAnswer(() => ({
        rows: answer.rows.map(rowFromWire),
        total: Number(answer.total),
        tokens: [...answer.tokens].map((t) => t.toLowerCase()).sort(),
        me: answer.me ? { rank: answer.me.rank, row: rowFromWire(answer.me.row) } : null,
        // The pinned row of the viewer, further down the board, has its skill beside its row.
        skill:
          answer.skill &&
          new Map([
            ...answer.skill.map((k, i) => [answer.rows[i].player.toLowerCase(), k] as const),
            ...(answer.me?.skill
              ? [[answer.me.row.player.toLowerCase(), answer.me.skill] as const]
              : []),
          ]),
      }));
    },
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
      return last.rows.length > 0 && loaded < last.total ? loaded : undefined;
    },
    enabled: !!hall && indexer.mode === "on",
    retry: false,
    refetchInterval: INDEXED_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const path = route(indexer, served);

  const logs = useLeaderboardLogs({ enabled: path.chain });
  const fromBlock = usePeriodFromBlock(params.period, { enabled: path.chain });
  const [shown, setShown] = useState(LEADERBOARD_PAGE);
  const folded = useFoldedLeaderboard(logs.data, params, fromBlock.data);

  const fromIndex = useMemo(() => joinPages(served.data), [served.data]);

  if (!path.chain && fromIndex) {
    return servedByIndex(served, fromIndex);
  }
  // While the index is checked (or its answer is on its way) whatever the chain scan already
  // has stays on screen.
  const onChain = folded && {
    ...folded,
    rows: folded.rows.slice(0, shown),
  };
  return {
    source: "chain",
    notice: path.notice,
    data: onChain ?? undefined,
    error: path.chain && logs.error && !logs.data ? logs.error : null,
    refetch: () => void logs.refetch(),
    hasMore: !!folded && folded.rows.length > shown,
    showMore: () => setShown((n) => n + LEADERBOARD_PAGE),
  };
}

function joinPages(data: InfiniteData<LeaderboardView> | undefined): LeaderboardView | undefined {
  if (!data || data.pages.length === 0) return undefined;
  const last = data.pages[data.pages.length - 1];
  return {
    ...last,
    rows: data.pages.flatMap((p) => p.rows),
    // An index without ratings and analyses sends no skill: no skill columns then.
    skill: last.skill && new Map(data.pages.flatMap((p) => [...(p.skill ?? [])])),
  };
}

/** Today's path: the whole board folded from the hall's logs, then filtered and sorted here. */
function useFoldedLeaderboard(
  data: LeaderboardLogs | undefined,
  { ruleSet, token, period, sort, me }: LeaderboardParams,
  fromBlock: bigint | null | undefined,
): LeaderboardView | null {
  const allRows = useMemo(() => foldLeaderboard(data?.logs ?? []), [data]);
  const tokens = useMemo(() => tokensIn(allRows), [allRows]);
  const rows = useMemo(() => {
    if (!data || (period !== "all" && fromBlock === undefined)) return null;
    const filtered = foldLeaderboard(data.logs, {
      ruleSet,
      token,
      fromBlock: period === "all" ? null : fromBlock,
    });
    // The chain alone has no ratings or analyses: a skill sort falls back to the default order.
    return isSkillSortKey(sort.key)
      ? sortLeaderboard(filtered)
      : sortLeaderboard(filtered, sort as LeaderboardSort);
  }, [data, ruleSet, token, period, fromBlock, sort]);
  return useMemo(() => {
    if (!rows) return null;
    const index = rows.findIndex((r) => sameAddress(r.player, me));
    return {
      rows,
      total: rows.length,
      tokens,
      me: index < 0 ? null : { rank: index + 1, row: rows[index] },
    };
  }, [rows, tokens, me]);
}

// ------------------------------------------------------------------ finished games

export type ListedGame = FinishedGame & { timestamp?: number };

export interface GamesView {
  /** Newest first, as many as shown. */
  games: ListedGame[];
  total: number;
}

/** finishedGames of one fetch of the logs, shared by the lists that read it. */
const gamesOfLogs = new WeakMap<LeaderboardLogs, FinishedGame[]>();
function gamesOf(data: LeaderboardLogs): FinishedGame[] {
  let games = gamesOfLogs.get(data);
  if (!games) gamesOfLogs.set(data, (games = finishedGames(data.logs)));
  return games;
}

/**
 * The hall's finished games, newest first: all of them, or the ones `player` played in;
 * `pageSize` at a time. `enabled: false` (say, no wallet for "my games") reads nothing.
 */
export function useFinishedGames({
  player,
  pageSize,
  enabled = true,
}: {
  player?: Address;
  pageSize: number;
  enabled?: boolean;
}): Read & { data: GamesView | undefined; hasMore: boolean; showMore: () => void } {
  const hall = useHall();
  const indexer = useIndexer();
  const who = player ? `player=${player.toLowerCase()}&` : "";
  const served = useInfiniteQuery({
    queryKey:
      hall && indexer.mode !== "off"
        ? queryKeys.indexed(hall.scope, indexer.url, "games", `${who}limit=${pageSize}`)
        : queryKeys.idle("indexedGames"),
    queryFn: async ({ pageParam, signal }) => {
      const answer = await fetchIndexer<WireGames>(
        (indexer as { url: string }).url,
        `/api/games?${who}offset=${pageParam}&limit=${pageSize}`,
        { signal },
      );
      return readAnswer(() => ({
        games: answer.games.map(gameFromWire) as ListedGame[],
        total: Number(answer.total),
      }));
    },
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.games.length, 0);
      return last.games.length > 0 && loaded < last.total ? loaded : undefined;
    },
    enabled: !!hall && enabled && indexer.mode === "on",
    retry: false,
    refetchInterval: INDEXED_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const path = route(indexer, served);
  const logs = useLeaderboardLogs({ enabled: enabled && path.chain });
  const [shown, setShown] = useState(pageSize);
  const scanned = useMemo(() => {
    if (!logs.data) return null;
    const all = gamesOf(logs.data);
    return player ? all.filter((g) => g.players.some((p) => sameAddress(p, player))) : all;
  }, [logs.data, player]);

  const fromIndex = useMemo<GamesView | undefined>(() => {
    const pages = served.data?.pages;
    if (!pages || pages.length === 0) return undefined;
    return { games: pages.flatMap((p) => p.games), total: pages[pages.length - 1].total };
  }, [served.data]);

  if (!path.chain && fromIndex) {
    return servedByIndex(served, fromIndex);
  }
  const onChain = scanned && { games: scanned.slice(0, shown), total: scanned.length };
  return {
    source: "chain",
    notice: path.notice,
    data: onChain ?? undefined,
    error: path.chain && logs.error && !logs.data ? logs.error : null,
    refetch: () => void logs.refetch(),
    hasMore: !!scanned && scanned.length > shown,
    showMore: () => setShown((n) => n + pageSize),
  };
}

// ------------------------------------------------------------------ one game's logs

/**
 * Every log of one game, for the replay. A game the index doesn't have (yet) is read from the
 * chain, which knows whether it exists; no notice for that, the index is not at fault.
 */
export function useGameLogs(gameId: bigint | null): Read & {
  data: { logs: HallLog[] } | undefined;
} {
  const hall = useHall();
  const indexer = useIndexer();
  const served = useQuery({
    queryKey:
      hall && gameId !== null && indexer.mode !== "off"
        ? queryKeys.indexed(hall.scope, indexer.url, "gameLogs", gameId.toString())
        : queryKeys.idle("indexedGameLogs"),
    queryFn: async ({ signal }) => {
      const answer = await fetchIndexer<WireGameLogs>(
        (indexer as { url: string }).url,
        `/api/games/${gameId}/logs`,
        { signal },
      );
      return readAnswer(() => ({ logs: decodeLogs(answer.logs) }));
    },
    enabled: !!hall && gameId !== null && indexer.mode === "on",
    retry: false,
    refetchInterval: INDEXED_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const path = route(indexer, served);
  const unknownToIndex = !path.chain && served.data?.logs.length === 0;
  const chain = path.chain || unknownToIndex;
  const snapshot = useGameSnapshot(chain ? gameId : null);

  if (!chain && served.data) {
    return {
      source: "indexer",
      data: served.data,
      error: null,
      refetch: () => void served.refetch(),
    };
  }
  return {
    source: "chain",
    notice: path.notice,
    data: snapshot.data ? { logs: snapshot.data.logs as HallLog[] } : undefined,
    error: chain ? snapshot.error : null,
    refetch: () => void snapshot.refetch(),
  };
}

// ------------------------------------------------------------------ skill

/**
 * The index's analysis of one finished game (the coach's numbers and full review): undefined while
 * asked, null when there is no index or it has not analysed the game (yet): the page then runs the
 * coach in the browser.
 */
export function useIndexedAnalysis(
  gameId: bigint | null,
  /** For a match: which of its games (each is analysed as a game of its own). */
  game?: number | null,
): {
  data: WireGameAnalysis | null | undefined;
} {
  const hall = useHall();
  const indexer = useIndexer();
  const asked = !!hall && gameId !== null && indexer.mode === "on";
  const which = game ? `${gameId}.${game}` : String(gameId);
  const served = useQuery({
    queryKey: asked
      ? queryKeys.indexed(hall.scope, indexer.url, "analysis", which)
      : queryKeys.idle("indexedAnalysis"),
    queryFn: async ({ signal }) => {
      try {
        const answer = await fetchIndexer<WireGameAnalysis>(
          (indexer as { url: string }).url,
          `/api/games/${gameId}/analysis${game ? `?game=${game}` : ""}`,
          { signal },
        );
        return answer.review ? answer : null;
      } catch {
        return null;
      }
    },
    enabled: asked,
    retry: false,
    staleTime: Infinity,
  });
  if (indexer.mode === "off" || indexer.mode === "failed" || !hall || gameId === null) {
    return { data: null };
  }
  if (indexer.mode !== "on") return { data: undefined };
  return { data: served.data };
}

/** A player's page from the index (ratings, accuracy, mistakes): no index, no page. */
export function usePlayer(player: Address | null) {
  const hall = useHall();
  const indexer = useIndexer();
  const asked = !!hall && player !== null && indexer.mode === "on";
  const served = useQuery({
    queryKey: asked
      ? queryKeys.indexed(hall.scope, indexer.url, "player", player.toLowerCase())
      : queryKeys.idle("indexedPlayer"),
    queryFn: ({ signal }) =>
      fetchIndexer<WirePlayer>((indexer as { url: string }).url, `/api/players/${player}`, {
        signal,
      }),
    enabled: asked,
    retry: false,
    refetchInterval: INDEXED_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  return { indexer, ...served };
}

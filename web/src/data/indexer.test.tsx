// @vitest-environment jsdom
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { finishedGames } from "@dicehall/core/leaderboard/history.ts";
import {
  fetchIndexer,
  IndexerError,
  indexerUrl,
  statusProblem,
  useFinishedGames,
  useGameLogs,
} from "./indexer.ts";
import { CATCH_UP_INTERVAL_MS, useIndexCatchUp } from "./indexerStatus.ts";
import { gameToWire, type WireStatus } from "@dicehall/core/indexer/indexerWire.ts";
import type { LeaderboardLog } from "@dicehall/core/leaderboard/leaderboard.ts";
import { queryKeys } from "./queryKeys.ts";
import { PLAYERS, scriptedGame } from "@dicehall/core/test/replay.testkit.ts";
import { HALL, rpcLog, twoPlayerOpening } from "@dicehall/core/test/testLogs.ts";

const URL_ = "http://index.test";
const SCOPE = { chainId: 31337, hall: HALL };
const STATUS: WireStatus = {
  version: 1,
  chainId: 31337,
  hall: HALL,
  block: "90",
  timestamp: 1_700_000_000,
  ready: true,
};

// The chain paths, faked at their hooks so the tests see which one ran.
const chain = vi.hoisted(() => ({ snapshotIds: [] as (bigint | null)[], logs: [] as unknown[] }));
vi.mock("@/chain/hall.ts", () => ({
  useHall: () => ({ chainId: 31337, address: HALL, scope: SCOPE }),
}));
vi.mock("./gameData.ts", () => ({
  useGameSnapshot: (gameId: bigint | null) => {
    chain.snapshotIds.push(gameId);
    return {
      data: gameId === null ? undefined : { logs: [{ eventName: "fromChain" }] },
      error: null,
      refetch: () => {},
    };
  },
}));
vi.mock("./leaderboardData.ts", async () => {
  const { useQuery } = await import("@tanstack/react-query");
  return {
    useLeaderboardLogs: ({ enabled = true }: { enabled?: boolean } = {}) =>
      useQuery({
        queryKey: ["test", "chainScan"],
        queryFn: async () => ({ logs: chain.logs as LeaderboardLog[], head: 1000n }),
        enabled,
      }),
    usePeriodFromBlock: () => ({ data: null }),
  };
});

function serve(answer: (url: URL) => Response | Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    if (url.pathname === "/api/status") return Response.json(STATUS);
    return answer(url);
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

beforeEach(() => {
  chain.snapshotIds = [];
  chain.logs = [];
  vi.stubEnv("VITE_INDEXER_URL", URL_);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("indexerUrl", () => {
  it("trims the setting and drops trailing slashes; blank means none", () => {
    vi.stubEnv("VITE_INDEXER_URL", "  http://127.0.0.1:42069//  ");
    expect(indexerUrl()).toBe("http://127.0.0.1:42069");
    vi.stubEnv("VITE_INDEXER_URL", "   ");
    expect(indexerUrl()).toBeNull();
  });
});

describe("fetchIndexer", () => {
  it("gives up after the timeout and says so", async () => {
    vi.stubGlobal(
      "fetch",
      (_: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal!.addEventListener("abort", () => reject(new DOMException("", "AbortError"))),
        ),
    );
    const error = await fetchIndexer<never>(URL_, "/api/status", { timeoutMs: 20 }).catch(
      (e: IndexerError) => e,
    );
    expect(error).toBeInstanceOf(IndexerError);
    expect(error.failure).toBe("timeout");
    expect(error.message).toBe("did not answer within 0.02 s");
  });

  it("reports a refused request with the server's reason", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: "sort must be one of …" }, { status: 400 }),
    );
    const error = await fetchIndexer<never>(URL_, "/api/leaderboard?sort=x").catch(
      (e: IndexerError) => e,
    );
    expect(error.failure).toBe("refused");
    expect(error.message).toBe("refused the request (sort must be one of …)");
  });
});

describe("statusProblem", () => {
  it("accepts this hall in any letter case and rejects another version", () => {
    expect(statusProblem({ ...STATUS, hall: HALL.toLowerCase() as never }, SCOPE)).toBeNull();
    expect(statusProblem({ ...STATUS, version: 2 }, SCOPE)?.failure).toBe("other-version");
  });
});

describe("useGameLogs", () => {
  it("decodes the game's logs from the index without reading the chain", async () => {
    const logs = twoPlayerOpening(5n);
    const fetch = serve(() => Response.json({ logs: logs.map((l) => rpcLog(l)) }));
    const { result } = renderHook(() => useGameLogs(5n), { wrapper });
    await waitFor(() => expect(result.current.source).toBe("indexer"));
    expect(result.current.data?.logs).toEqual(
      logs.map((l) => ({ ...l, transactionHash: expect.any(String) })),
    );
    expect(fetch.mock.calls.map(([u]) => new URL(String(u)).pathname)).toContain(
      "/api/games/5/logs",
    );
    expect(chain.snapshotIds.every((id) => id === null)).toBe(true);
  });

  it("reads the chain for a game the index doesn't have, without a notice", async () => {
    serve(() => Response.json({ logs: [] }));
    const { result } = renderHook(() => useGameLogs(6n), { wrapper });
    await waitFor(() => expect(chain.snapshotIds).toContain(6n));
    expect(result.current.source).toBe("chain");
    expect(result.current.notice).toBeUndefined();
  });

  it("falls back to the chain with a notice when the index fails", async () => {
    serve(() => Response.json({ error: "boom" }, { status: 503 }));
    const { result } = renderHook(() => useGameLogs(7n), { wrapper });
    await waitFor(() => expect(result.current.notice).toBeDefined());
    expect(result.current.notice).toBe(
      `The game index at ${URL_} failed to answer (boom), so this page reads the chain directly; it may be slower.`,
    );
    expect(result.current.data?.logs).toEqual([{ eventName: "fromChain" }]);
  });
});

describe("useFinishedGames", () => {
  const games = [
    scriptedGame(1n, 0, [PLAYERS[0], PLAYERS[1]]),
    scriptedGame(2n, 1, [PLAYERS[1], PLAYERS[2]], { startBlock: 300n }),
  ].flatMap((g) => g.logs) as LeaderboardLog[];

  it("lists the index's games, with their times, the same as the browser's fold", async () => {
    const folded = finishedGames(games);
    const fetch = serve((url) => {
      const player = url.searchParams.get("player");
      const list = folded.filter(
        (g) => !player || g.players.some((p) => p.toLowerCase() === player),
      );
      return Response.json({
        games: list.map((g) => gameToWire({ ...g, timestamp: 1_700_000_000 + Number(g.gameId) })),
        total: list.length,
      });
    });
    const { result } = renderHook(() => useFinishedGames({ player: PLAYERS[2], pageSize: 20 }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.source).toBe("indexer"));
    const asked = new URL(String(fetch.mock.calls.at(-1)![0]));
    expect(asked.searchParams.get("player")).toBe(PLAYERS[2].toLowerCase());
    expect(result.current.data).toEqual({
      games: [{ ...folded[0], timestamp: 1_700_000_002, forfeited: [] }],
      total: 1,
    });
  });

  it("reads the chain and never calls an index when none is configured", async () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    chain.logs = games;
    const fetch = serve(() => Response.json({}));
    const { result } = renderHook(() => useFinishedGames({ pageSize: 20 }), { wrapper });
    await waitFor(() => expect(result.current.data?.total).toBe(2));
    expect(result.current.source).toBe("chain");
    expect(result.current.notice).toBeUndefined();
    expect(result.current.data?.games).toEqual(finishedGames(games));
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("useIndexCatchUp", () => {
  it("refreshes the index's reads once the index has the block the watcher saw, not before", async () => {
    let indexedBlock = 11;
    const statusCalls: number[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input));
        expect(url.pathname).toBe("/api/status");
        statusCalls.push(indexedBlock);
        return Response.json({ ...STATUS, block: String(indexedBlock) });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let reads = 0;
    const { unmount } = renderHook(
      () => {
        useIndexCatchUp();
        // One read from the index, as the leaderboard page holds it.
        useQuery({
          queryKey: queryKeys.indexed(SCOPE, URL_, "leaderboard", ""),
          queryFn: () => ++reads,
        });
      },
      {
        wrapper: ({ children }) => (
          <QueryClientProvider client={client}>{children}</QueryClientProvider>
        ),
      },
    );
    await waitFor(() => expect(reads).toBe(1));
    // Nothing seen yet: the catch-up asks nothing.
    await new Promise((r) => setTimeout(r, CATCH_UP_INTERVAL_MS + 100));
    expect(statusCalls).toEqual([]);

    // The watcher sees a game event in block 12; the index is still at 11.
    act(() => noteWatched(client, 12n));
    await waitFor(() => expect(statusCalls.length).toBeGreaterThanOrEqual(2));
    expect(reads).toBe(1);

    // The index gets there: the read is fetched again, once, and the asking stops.
    indexedBlock = 12;
    await waitFor(() => expect(reads).toBe(2), { timeout: 3 * CATCH_UP_INTERVAL_MS });
    const asked = statusCalls.length;
    await new Promise((r) => setTimeout(r, 3 * CATCH_UP_INTERVAL_MS));
    expect(statusCalls.length).toBe(asked);
    expect(reads).toBe(2);
    unmount();
  });
});

function noteWatched(client: QueryClient, block: bigint) {
  client.setQueryData(queryKeys.watchedBlock(SCOPE), { block, seenAt: Date.now() });
}

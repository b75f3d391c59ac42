import { QueryClient, QueryObserver } from "@tanstack/react-query";
import {
  createPublicClient,
  custom,
  hexToBigInt,
  numberToHex,
  type Client,
  type RpcLog,
} from "viem";
import { getBlockNumber } from "viem/actions";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  extendLogs,
  gameEventSelectors,
  uintTopic,
  type HallLog,
  type LogCache,
} from "@dicehall/core/events/hallEvents.ts";
import { ALICE, HALL, log, rpcLog } from "@dicehall/core/test/testLogs.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import {
  MAX_POLL_BACKOFF_MS,
  nextPollDelay,
  startHallWatch,
  watchHallLogs,
  type HallReach,
} from "./hall.ts";

const CHAIN = 31337;
const SCOPE = { chainId: CHAIN, hall: HALL };
/** The local node's polling interval (chains.ts), and the dice latency target. */
const POLL_MS = 250;
const TARGET_MS = 1_500;

/**
 * A node: blocks with the hall's logs; eth_blockNumber and eth_getLogs. `drop` makes the next
 * calls of a method fail as a lost request does (the node may well have answered). Filters are
 * not offered: the watch must never need one.
 */
class FakeNode {
  head = 5n;
  logs: RpcLog[] = [];
  drop: Record<string, number> = {};
  calls: string[] = [];

  /** A move mined in a new block: Alice scores in game 7. */
  mineScore(gameId = 7n): bigint {
    this.head += 1n;
    this.logs.push(
      rpcLog(
        log(
          "Scored",
          { gameId, player: ALICE, category: 0, points: 3n, bonus: 0n },
          Number(this.head),
        ),
      ),
    );
    return this.head;
  }

  client(): Client {
    return createPublicClient({
      transport: custom({
        request: async ({ method, params }: { method: string; params?: unknown }) => {
          this.calls.push(method);
          if ((this.drop[method] ?? 0) > 0) {
            this.drop[method] -= 1;
            throw new Error("the request was lost");
          }
          if (method === "eth_blockNumber") return numberToHex(this.head);
          if (method === "eth_getLogs") {
            const [filter] = params as [
              { fromBlock: `0x${string}`; toBlock: `0x${string}`; topics?: unknown[] },
            ];
            const from = hexToBigInt(filter.fromBlock);
            const to = hexToBigInt(filter.toBlock);
            const topics = (filter.topics ?? []) as (string | string[] | null)[];
            return this.logs.filter((l) => {
              const block = hexToBigInt(l.blockNumber!);
              if (block < from || block > to) return false;
              return topics.every((t, i) =>
                t === null ? true : Array.isArray(t) ? t.includes(l.topics[i]!) : t === l.topics[i],
              );
            });
          }
          throw new Error(`not in this test: ${method}`);
        },
      }),
    });
  }
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Lets the timers run for `ms` of the page's time, settling the promises in between. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("watchHallLogs", () => {
  it("reads every block once, in ranges, and a lost request loses no log", async () => {
    const node = new FakeNode();
    const seen: HallLog[] = [];
    const catchUps: bigint[] = [];
    const stop = watchHallLogs(node.client(), {
      address: HALL,
      pollingInterval: POLL_MS,
      onLogs: (logs) => seen.push(...logs),
      onCatchUp: (head) => catchUps.push(head),
    });
    await advance(0);
    expect(catchUps).toEqual([5n]);

    // A move, then the poll's eth_getLogs is lost: the next poll reads the same blocks again.
    node.drop.eth_getLogs = 1;
    const block = node.mineScore();
    await advance(POLL_MS);
    expect(seen).toEqual([]);
    await advance(POLL_MS);
    expect(seen.map((l) => [l.eventName, l.blockNumber])).toEqual([["Scored", block]]);

    // Nothing new: only the head is asked; nothing is delivered twice.
    const before = node.calls.length;
    await advance(POLL_MS * 4);
    expect(node.calls.slice(before).every((m) => m === "eth_blockNumber")).toBe(true);
    expect(seen).toHaveLength(1);
    stop();
  });
});

describe("a node out of reach", () => {
  it("waits twice as long after each failed poll, up to 30 s", () => {
    expect(nextPollDelay(250, 0)).toBe(250);
    expect(nextPollDelay(250, 1)).toBe(500);
    expect(nextPollDelay(250, 3)).toBe(2_000);
    expect(nextPollDelay(250, 40)).toBe(MAX_POLL_BACKOFF_MS);
  });

  it("asks a few times a minute, not four times a second, and says the chain is not live", async () => {
    const node = new FakeNode();
    const reaches: HallReach[] = [];
    const stop = watchHallLogs(node.client(), {
      address: HALL,
      pollingInterval: POLL_MS,
      onLogs: () => {},
      onCatchUp: () => {},
      onReach: (r) => reaches.push(r),
    });
    await advance(0);
    const answeredAt = reaches.at(-1)?.lastOkAt;
    expect(reaches.at(-1)).toMatchObject({ live: true });
    node.drop.eth_blockNumber = 1_000;
    const before = node.calls.length;
    await advance(60_000);
    // Every 250 ms, each poll retried three times by the transport, would be ~180 requests in a
    // minute; backing off, it is 7 polls.
    expect(node.calls.length - before).toBeLessThanOrEqual(7 * 4);
    expect(reaches.at(-1)).toEqual({ live: false, lastOkAt: answeredAt });
    stop();
  });

  it("asks nothing while the browser is offline, and polls at once when it is back", async () => {
    const node = new FakeNode();
    let online = true;
    let back = () => {};
    const reaches: HallReach[] = [];
    const stop = watchHallLogs(node.client(), {
      address: HALL,
      pollingInterval: POLL_MS,
      onLogs: () => {},
      onCatchUp: () => {},
      onReach: (r) => reaches.push(r),
      network: {
        online: () => online,
        onBack: (resume) => {
          back = resume;
          return () => {};
        },
      },
    });
    await advance(0);
    online = false;
    await advance(POLL_MS);
    const before = node.calls.length;
    await advance(60_000);
    expect(node.calls.length).toBe(before);
    expect(reaches.at(-1)?.live).toBe(false);
    online = true;
    back();
    await advance(0);
    expect(node.calls.length).toBeGreaterThan(before);
    expect(reaches.at(-1)?.live).toBe(true);
    stop();
  });
});

describe("the table learns of a mined move within 1.5 s, whatever happened before", () => {
  /** A table's game query as useGameSnapshot keeps it: logs extended to the head, never stale. */
  function tableQuery(queryClient: QueryClient, client: Client) {
    const queryKey = queryKeys.game(SCOPE, 7n);
    const observer = new QueryObserver<LogCache>(queryClient, {
      queryKey,
      queryFn: async () => {
        const head = await getBlockNumber(client, { cacheTime: 0 });
        return extendLogs(
          client,
          { address: HALL, topics: [gameEventSelectors(), uintTopic(7n)] },
          queryClient.getQueryData<LogCache>(queryKey),
          0n,
          head,
        );
      },
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => {});
    const moves = () => observer.getCurrentResult().data?.logs.length ?? 0;
    return { moves, unsubscribe };
  }

  async function afterLoad(drop: Record<string, number>) {
    const node = new FakeNode();
    const client = node.client();
    const queryClient = new QueryClient();
    const table = tableQuery(queryClient, client);
    await advance(0);
    expect(table.moves()).toBe(0);
    node.drop = drop;
    const stop = startHallWatch(queryClient, {
      client,
      address: HALL,
      chainId: CHAIN,
      scope: SCOPE,
    });
    return { node, table, stop, queryClient, client };
  }

  it("when the watch's first poll is lost and the move is mined before the next", async () => {
    const { node, table, stop } = await afterLoad({ eth_blockNumber: 1 });
    await advance(0);
    node.mineScore();
    await advance(TARGET_MS);
    expect(table.moves()).toBe(1);
    stop();
    table.unsubscribe();
  });

  it("when the move is mined while the watch's first look is out", async () => {
    const { node, table, stop } = await afterLoad({});
    node.mineScore();
    await advance(TARGET_MS);
    expect(table.moves()).toBe(1);
    stop();
    table.unsubscribe();
  });

  it("when the node drops the poll that would have brought it", async () => {
    const { node, table, stop } = await afterLoad({});
    await advance(POLL_MS);
    node.mineScore();
    node.drop = { eth_getLogs: 1 };
    await advance(TARGET_MS);
    expect(table.moves()).toBe(1);
    stop();
    table.unsubscribe();
  });

  it("when the watch was stopped and started again (a new subscription) around the move", async () => {
    const { node, table, stop, queryClient, client } = await afterLoad({});
    await advance(POLL_MS);
    stop();
    node.mineScore();
    await advance(POLL_MS * 3);
    expect(table.moves()).toBe(0);
    const again = startHallWatch(queryClient, {
      client,
      address: HALL,
      chainId: CHAIN,
      scope: SCOPE,
    });
    await advance(TARGET_MS);
    expect(table.moves()).toBe(1);
    again();
    table.unsubscribe();
  });
});

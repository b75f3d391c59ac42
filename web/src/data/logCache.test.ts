import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createPublicClient,
  custom,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  keccak256,
  numberToHex,
  toHex,
  type AbiEvent,
  type Address,
  type Hex,
  type RpcLog,
} from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { eventSelector } from "@dicehall/core/events/hallEvents.ts";
import {
  indexedDbLogStore,
  memoryLogStore,
  sharedBlockHashes,
  streamKey,
  syncEventLogs,
  type LogStore,
  type SyncOptions,
} from "./logCache.ts";

const HALL = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" as Address;
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;

/** A node in a test: a chain of blocks with our logs, answering the three calls the sync makes. */
class FakeNode {
  head = 0n;
  logs: RpcLog[] = [];
  /** [from, to] of every eth_getLogs call. */
  getLogsCalls: [bigint, bigint][] = [];
  getBlockCalls = 0;
  /** Changes every block hash, as a restarted local node does. */
  epoch = "a";

  mine(blocks: bigint): void {
    this.head += blocks;
  }

  emitScored(gameId: bigint, category: number, points: bigint, bonus = 0n): void {
    this.head += 1n;
    const event = getAbiItem({ abi: diceHallAbi, name: "Scored" }) as AbiEvent;
    const topics = encodeEventTopics({
      abi: diceHallAbi,
      eventName: "Scored",
      args: { gameId, player: ALICE },
    }) as Hex[];
    const data = encodeAbiParameters(
      event.inputs.filter((i) => !i.indexed),
      [category, points, bonus],
    );
    this.logs.push({
      address: HALL,
      topics: topics as [Hex, ...Hex[]],
      data,
      blockNumber: numberToHex(this.head),
      blockHash: this.hash(this.head),
      logIndex: "0x0",
      transactionHash: keccak256(toHex(`tx${this.head}`)),
      transactionIndex: "0x0",
      removed: false,
    });
  }

  hash(block: bigint): Hex {
    return keccak256(toHex(`${this.epoch}:${block}`));
  }

  client() {
    return createPublicClient({
      transport: custom({
        request: async ({ method, params }: { method: string; params?: unknown }) => {
          if (method === "eth_blockNumber") return numberToHex(this.head);
          if (method === "eth_chainId") return "0x7a69";
          if (method === "eth_getBlockByNumber") {
            this.getBlockCalls += 1;
            const [tag] = params as [Hex];
            const number = BigInt(tag);
            if (number > this.head) return null;
            return {
              number: numberToHex(number),
              hash: this.hash(number),
              parentHash: this.hash(number - 1n),
              timestamp: numberToHex(1_700_000_000n + number),
              transactions: [],
              logsBloom: null,
              nonce: null,
              gasLimit: "0x0",
              gasUsed: "0x0",
              baseFeePerGas: "0x0",
              difficulty: "0x0",
              totalDifficulty: null,
              size: "0x0",
              uncles: [],
            };
          }
          if (method === "eth_getLogs") {
            const [filter] = params as [
              { fromBlock: Hex; toBlock: Hex; topics: (Hex | Hex[] | null)[] },
            ];
            const from = BigInt(filter.fromBlock);
            const to = BigInt(filter.toBlock);
            this.getLogsCalls.push([from, to]);
            return this.logs.filter((l) => {
              const n = BigInt(l.blockNumber!);
              const topic0 = filter.topics[0];
              const matches =
                topic0 === null ||
                (Array.isArray(topic0) ? topic0.includes(l.topics[0]!) : topic0 === l.topics[0]);
              return n >= from && n <= to && matches;
            });
          }
          throw new Error(`unexpected ${method}`);
        },
      }),
    });
  }
}

const DEPLOYED = 3n;

describe("syncEventLogs with IndexedDB", () => {
  let factory: IDBFactory;
  let node: FakeNode;
  const sync = (store: LogStore, extra: Partial<SyncOptions<"Scored">> = {}) =>
    syncEventLogs<"Scored">({
      client: node.client(),
      store,
      chainId: 31337,
      address: HALL,
      eventName: "Scored",
      fromBlock: DEPLOYED,
      range: 50n,
      ...extra,
    });

  beforeEach(() => {
    factory = new IDBFactory();
    node = new FakeNode();
    node.mine(DEPLOYED);
  });

  it("backfills from the deployment block in bounded ranges on the first visit", async () => {
    for (let i = 0; i < 5; i++) node.emitScored(1n, i, BigInt(i));
    node.mine(120n);
    const result = await sync(indexedDbLogStore(factory));
    expect(result.logs).toHaveLength(5);
    expect(result.syncedTo).toBe(node.head);
    expect(node.getLogsCalls[0][0]).toBe(DEPLOYED);
    expect(node.getLogsCalls.at(-1)![1]).toBe(node.head);
    for (const [from, to] of node.getLogsCalls) expect(to - from + 1n).toBeLessThanOrEqual(50n);
    expect(result.logs[0]).toMatchObject({
      eventName: "Scored",
      args: { gameId: 1n, category: 0, points: 0n },
    });
  });

  it("fetches only the new blocks on a revisit (a new page load, same database)", async () => {
    for (let i = 0; i < 3; i++) node.emitScored(1n, i, 10n);
    await sync(indexedDbLogStore(factory));
    const firstHead = node.head;

    node.emitScored(2n, 11, 50n);
    node.mine(4n);
    node.getLogsCalls = [];
    const again = await sync(indexedDbLogStore(factory));
    expect(node.getLogsCalls).toEqual([[firstHead + 1n, node.head]]);
    expect(again.logs).toHaveLength(4);
    expect(again.logs.map((l) => l.args.gameId)).toEqual([1n, 1n, 1n, 2n]);

    node.getLogsCalls = [];
    const idle = await sync(indexedDbLogStore(factory));
    expect(node.getLogsCalls).toEqual([]);
    expect(idle.logs).toHaveLength(4);
  });

  it("starts over when the chain under the cache changed (a restarted local node)", async () => {
    node.emitScored(1n, 0, 1n);
    node.mine(10n);
    await sync(indexedDbLogStore(factory));
    node.epoch = "b"; // same numbers, different blocks
    node.getLogsCalls = [];
    const result = await sync(indexedDbLogStore(factory));
    expect(node.getLogsCalls[0][0]).toBe(DEPLOYED);
    expect(result.logs).toHaveLength(1);
  });

  it("starts over when the head is behind what was stored", async () => {
    node.mine(30n);
    await sync(indexedDbLogStore(factory));
    const fresh = new FakeNode();
    fresh.mine(10n);
    node = fresh;
    const result = await sync(indexedDbLogStore(factory));
    expect(node.getLogsCalls[0]).toEqual([DEPLOYED, 10n]);
    expect(result.syncedTo).toBe(10n);
  });

  it("keeps unconfirmed blocks out of the store and asks for them again", async () => {
    node.emitScored(1n, 0, 1n);
    node.mine(5n);
    node.emitScored(1n, 1, 2n); // within the last 3 blocks
    node.mine(1n);
    const store = indexedDbLogStore(factory);
    const first = await sync(store, { confirmations: 3n });
    expect(first.logs).toHaveLength(2);
    expect(first.syncedTo).toBe(node.head - 3n);
    node.getLogsCalls = [];
    await sync(indexedDbLogStore(factory), { confirmations: 3n });
    expect(node.getLogsCalls).toEqual([[node.head - 2n, node.head]]);
  });

  it("stores only the logs a filtered stream keeps, under its own key", async () => {
    node.emitScored(1n, 3, 9n);
    node.emitScored(1n, 11, 50n);
    node.emitScored(1n, 5, 30n, 100n);
    const store = indexedDbLogStore(factory);
    const result = await sync(store, {
      variant: "yahtzees",
      keep: (log) => log.args.points === 50n || log.args.bonus > 0n,
    });
    expect(result.logs.map((l) => l.args.category)).toEqual([11, 5]);
    const stored = await store.read(streamKey(31337, HALL, "Scored", "yahtzees"));
    expect(stored?.logs).toHaveLength(2);
    expect(await store.read(streamKey(31337, HALL, "Scored"))).toBeUndefined();
  });

  it("keeps every log across many visits (chunks are compacted)", async () => {
    const store = indexedDbLogStore(factory);
    for (let visit = 0; visit < 40; visit++) {
      node.emitScored(BigInt(visit), 0, 1n);
      await sync(store);
    }
    const result = await sync(indexedDbLogStore(factory));
    expect(result.logs.map((l) => l.args.gameId)).toEqual(
      Array.from({ length: 40 }, (_, i) => BigInt(i)),
    );
  });

  it("keeps bigints intact through IndexedDB", async () => {
    node.emitScored(123456789012345678901234567890n, 11, 50n, 100n);
    await sync(indexedDbLogStore(factory));
    const stored = await indexedDbLogStore(factory).read(streamKey(31337, HALL, "Scored"));
    expect(stored?.logs[0].blockNumber).toBe(DEPLOYED + 1n);
    const [log] = stored!.logs;
    expect(log.eventName === "Scored" && log.args.gameId).toBe(123456789012345678901234567890n);
    expect(stored?.syncedTo).toBe(node.head);
  });

  it("works the same with the memory store", async () => {
    node.emitScored(1n, 0, 1n);
    const store = memoryLogStore();
    await sync(store);
    node.emitScored(1n, 1, 1n);
    node.getLogsCalls = [];
    const result = await sync(store);
    expect(node.getLogsCalls).toEqual([[node.head, node.head]]);
    expect(result.logs).toHaveLength(2);
  });

  it("lets streams synced together share their block-hash reads", async () => {
    node.emitScored(1n, 0, 1n);
    const store = indexedDbLogStore(factory);
    const client = node.client();
    const both = () => {
      const hashOf = sharedBlockHashes(client);
      return Promise.all(
        (["Scored", "GameFinished"] as const).map((eventName) =>
          syncEventLogs({
            client,
            store,
            chainId: 31337,
            address: HALL,
            eventName,
            fromBlock: DEPLOYED,
            hashOf,
          }),
        ),
      );
    };
    await both();
    expect(node.getBlockCalls).toBe(1); // the hash of the new last block, read once
    node.mine(2n);
    node.getBlockCalls = 0;
    await both();
    expect(node.getBlockCalls).toBe(2); // the old last block (still there?) and the new one
  });

  it("filters by the event's selector", () => {
    expect(eventSelector("Scored")).toBe(
      encodeEventTopics({ abi: diceHallAbi, eventName: "Scored" })[0],
    );
  });
});

import { describe, expect, it } from "vitest";
import {
  encodeEventTopics,
  getAbiItem,
  hexToBigInt,
  toEventSelector,
  type AbiEvent,
  type Address,
  type Client,
  type Hex,
} from "viem";
import { diceHallAbi, diceHallEventSelectors } from "../generated/abis.ts";
import {
  CREDIT_EVENTS,
  decodeLogs,
  encodeHallLog,
  eventSelector,
  extendLogs,
  fetchLogs,
  gameEventSelectors,
  isGameLog,
  isSessionLog,
  uintTopic,
  type LogFilter,
} from "./hallEvents.ts";
import { ALICE, CAROL, HALL, log, rpcLog, twoPlayerOpening } from "../test/testLogs.ts";
import { scriptedGame } from "../test/replay.testkit.ts";

/** A node that serves the given logs by block range and records each eth_getLogs call. */
function fakeNode(logs = twoPlayerOpening(), maxRange?: bigint) {
  const calls: [bigint, bigint][] = [];
  const client = {
    request: async ({
      method,
      params,
    }: {
      method: string;
      params: [{ fromBlock: Hex; toBlock: Hex }];
    }) => {
      if (method !== "eth_getLogs") throw new Error(method);
      const from = hexToBigInt(params[0].fromBlock);
      const to = hexToBigInt(params[0].toBlock);
      calls.push([from, to]);
      if (maxRange !== undefined && to - from + 1n > maxRange)
        throw new Error("query returned more than 10000 results");
      return logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to).map((l) => rpcLog(l));
    },
  } as unknown as Client;
  return { client, calls };
}

const filter: LogFilter = { address: HALL, topics: [gameEventSelectors(), uintTopic(1n)] };

describe("fetchLogs", () => {
  it("backfills in bounded ranges and decodes in order", async () => {
    const { client, calls } = fakeNode();
    const logs = await fetchLogs(client, filter, 0n, 12_000n, 5_000n);
    expect(calls).toEqual([
      [0n, 4_999n],
      [5_000n, 9_999n],
      [10_000n, 12_000n],
    ]);
    expect(logs.map((l) => l.eventName)).toEqual(twoPlayerOpening().map((l) => l.eventName));
  });

  it("splits a range the provider refuses", async () => {
    const { client, calls } = fakeNode(twoPlayerOpening(), 1_000n);
    const logs = await fetchLogs(client, filter, 0n, 4_999n);
    expect(logs).toHaveLength(twoPlayerOpening().length);
    expect(calls.every(([a, b]) => b >= a)).toBe(true);
    expect(calls.length).toBeGreaterThan(1);
  });
});

describe("extendLogs", () => {
  it("asks only for blocks after the last sync and reports what was added", async () => {
    const all = twoPlayerOpening();
    const { client, calls } = fakeNode(all);
    const first = await extendLogs(client, filter, undefined, 0n, 14n);
    expect(first.logs).toHaveLength(all.filter((l) => l.blockNumber <= 14n).length);
    const second = await extendLogs(client, filter, first, 0n, 20n);
    expect(calls.at(-1)).toEqual([15n, 20n]);
    expect(second.logs).toHaveLength(all.length);
    expect(second.added).toBe(all.length - first.logs.length);
    const idle = await extendLogs(client, filter, second, 0n, 20n);
    expect(idle.added).toBe(0);
    expect(calls).toHaveLength(2);
  });
});

describe("a session's events", () => {
  const KEY: Address = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
  const opened = log(
    "SessionOpened",
    { player: ALICE, key: KEY, expiresAt: 1_800_000_000n, feeAllowance: 5_000n, keyGas: 700n },
    3,
  );
  const revoked = log("SessionRevoked", { player: ALICE, key: KEY }, 5);

  it("decode from a node's logs, and are told apart from a table's", () => {
    const decoded = decodeLogs([opened, revoked].map((l) => rpcLog(l)));
    expect(decoded.map((l) => [l.eventName, l.args])).toEqual(
      [opened, revoked].map((l) => [l.eventName, l.args]),
    );
    expect(decoded.every(isSessionLog)).toBe(true);
    expect(decoded.some(isGameLog)).toBe(false);
  });

  it("leave a key's roll fee out of what changes a credit (it comes from the session's own fees)", () => {
    expect(CREDIT_EVENTS).not.toContain("SessionFeeSpent");
    expect(CREDIT_EVENTS).toContain("Deposited");
  });
});

describe("encodeHallLog", () => {
  it("gives the topics and data the contract emits: every event of a whole game decodes back", () => {
    const { logs } = scriptedGame(12n, 0, [ALICE, CAROL], { forfeitAfterRound: 11 });
    const names = new Set(logs.map((l) => l.eventName));
    expect(names).toEqual(
      new Set([
        "GameCreated",
        "PlayerJoined",
        "GameStarted",
        "RollRequested",
        "DiceRolled",
        "Scored",
        "PlayerForfeited",
        "GameFinished",
      ]),
    );
    const decoded = decodeLogs(logs.map((l) => rpcLog(l)));
    expect(decoded.map((l) => [l.eventName, l.args])).toEqual(
      logs.map((l) => [l.eventName, l.args]),
    );
  });

  it("matches viem's own encoder on the indexed topics", () => {
    const created = log(
      "GameCreated",
      {
        gameId: 3n,
        creator: ALICE,
        token: HALL,
        bet: 5n,
        seats: 2,
        ruleSet: 1,
        isPrivate: true,
      },
      1,
    );
    const event = getAbiItem({ abi: diceHallAbi, name: "GameCreated" });
    expect(encodeHallLog(created).topics).toEqual(
      encodeEventTopics({ abi: [event], args: { gameId: 3n, creator: ALICE } }),
    );
  });

  it("knows each event by the selector its signature hashes to (the build's table, not a stale one)", () => {
    const events = diceHallAbi.filter(
      (i): i is Extract<typeof i, { type: "event" }> => i.type === "event",
    );
    expect(Object.keys(diceHallEventSelectors).sort()).toEqual(events.map((e) => e.name).sort());
    for (const event of events) {
      expect(eventSelector(event.name)).toBe(toEventSelector(event as AbiEvent));
    }
  });

  it("leaves out logs that are not the hall's events, or that do not decode as theirs", () => {
    const [created, joined] = twoPlayerOpening();
    const good = rpcLog(joined);
    const foreign = { ...rpcLog(created), topics: [`0x${"77".repeat(32)}`] as [Hex] };
    // GameCreated's selector with too few topics for its indexed arguments.
    const short = { ...rpcLog(created), topics: rpcLog(created).topics.slice(0, 1) as [Hex] };
    const decoded = decodeLogs([foreign, short, good]);
    expect(decoded.map((l) => [l.eventName, l.args])).toEqual([[joined.eventName, joined.args]]);
    expect(decoded[0].blockNumber).toBe(joined.blockNumber);
    expect(decoded[0].logIndex).toBe(joined.logIndex);
  });
});

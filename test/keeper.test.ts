import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { artifacts, network } from "hardhat";
import type { JsonRpcServer } from "hardhat/types/network";
import { zeroAddress, type Address, type Hex } from "viem";

import { mockEntropyAbi } from "@dicehall/core/generated/abis.ts";
import { LOCAL_ENTROPY_PROVIDER } from "../ignition/modules/LocalDiceHall.ts";
import { clients, nodeAccounts, waitFor } from "../scripts/lib/chain.ts";
import { startKeeper, type Keeper } from "../scripts/lib/keeper.ts";

// The keeper against a real JSON-RPC node (Hardhat's server on a free port), with requests made
// straight to MockEntropy by accounts: no callback, so only the keeper's own behaviour is tested.

const provider = LOCAL_ENTROPY_PROVIDER as Address;

interface Node {
  server: JsonRpcServer;
  port: number;
}

async function startNode(port?: number): Promise<Node> {
  const server = await network.createServer(
    { network: "default", chainType: "l1" },
    "127.0.0.1",
    port,
  );
  const listening = await server.listen();
  return { server, port: listening.port };
}

describe("the local entropy keeper", () => {
  let node: Node;
  let rpcUrl: string;
  let chain: ReturnType<typeof clients>;
  let accounts: Address[];
  let mockEntropy: Address;
  let deployBlock: bigint;
  const keepers: Keeper[] = [];
  const logs: string[] = [];

  async function deployMockEntropy(): Promise<void> {
    const hash = await chain.wallet(accounts[0]).deployContract({
      abi: mockEntropyAbi,
      bytecode: await mockEntropyBytecode(),
      args: [provider],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    mockEntropy = receipt.contractAddress!;
    deployBlock = receipt.blockNumber;
  }

  /** Asks MockEntropy for `count` numbers from different accounts; returns their sequence numbers. */
  async function request(count: number): Promise<bigint[]> {
    const sequences: bigint[] = [];
    for (let i = 0; i < count; i++) {
      const from = accounts[1 + (i % 5)];
      const { result, request: tx } = await chain.publicClient.simulateContract({
        account: from,
        address: mockEntropy,
        abi: mockEntropyAbi,
        functionName: "requestV2",
        args: [provider, `0x${"ab".repeat(32)}`, 100_000],
      });
      await chain.publicClient.waitForTransactionReceipt({
        hash: await chain.wallet(from).writeContract(tx),
      });
      sequences.push(result);
    }
    return sequences;
  }

  const isAnswered = async (sequence: bigint): Promise<boolean> => {
    const pending = await chain.publicClient.readContract({
      address: mockEntropy,
      abi: mockEntropyAbi,
      functionName: "getRequestV2",
      args: [provider, sequence],
    });
    return pending.requester === zeroAddress;
  };

  const allAnswered = (sequences: bigint[]) =>
    waitFor(`reveals of requests ${sequences.join(", ")}`, async () => {
      for (const s of sequences) if (!(await isAnswered(s))) return undefined;
      return true;
    });

  /** How many times each sequence number was revealed on chain. */
  async function revealCounts(): Promise<Map<bigint, number>> {
    const revealed = await chain.publicClient.getContractEvents({
      address: mockEntropy,
      abi: mockEntropyAbi,
      eventName: "Revealed",
      fromBlock: 0n,
    });
    const counts = new Map<bigint, number>();
    for (const e of revealed) {
      counts.set(e.args.sequenceNumber!, (counts.get(e.args.sequenceNumber!) ?? 0) + 1);
    }
    return counts;
  }

  function keeper(
    options: { delay?: number; summaryMs?: number; log?: (line: string) => void } = {},
  ): Keeper {
    const k = startKeeper({
      rpcUrl,
      mockEntropy,
      fromBlock: deployBlock,
      revealDelayMs: options.delay ?? 0,
      pollIntervalMs: 50,
      summaryIntervalMs: options.summaryMs,
      log: options.log ?? ((line) => logs.push(line)),
    });
    keepers.push(k);
    return k;
  }

  before(async () => {
    node = await startNode();
    rpcUrl = `http://127.0.0.1:${node.port}`;
    chain = clients(rpcUrl);
    accounts = await nodeAccounts(chain.publicClient);
    await deployMockEntropy();
  });

  after(async () => {
    await Promise.all(keepers.map((k) => k.stop()));
    await node.server.close();
  });

  it("reveals each request exactly once, even with two keepers racing", async () => {
    const a = keeper();
    const b = keeper();
    const sequences = await request(6);
    await allAnswered(sequences);
    const counts = await revealCounts();
    for (const s of sequences) assert.equal(counts.get(s), 1, `request ${s} revealed once`);
    await waitFor("both keepers to settle every request", async () =>
      a.stats.revealed + a.stats.skipped >= 6 && b.stats.revealed + b.stats.skipped >= 6
        ? true
        : undefined,
    );
    assert.equal(a.stats.revealed + b.stats.revealed, 6);
    assert.equal(a.stats.failed + b.stats.failed, 0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("catches up on requests made while it was down and skips those already answered", async () => {
    const missed = await request(3);
    // One of them is answered by someone else before the keeper comes back.
    await chain.wallet(accounts[9]).writeContract({
      address: mockEntropy,
      abi: mockEntropyAbi,
      functionName: "mockReveal",
      args: [provider, missed[0], `0x${"cd".repeat(32)}`],
    });
    const k = keeper();
    await allAnswered(missed);
    // It rescans from the deployment block: the 6 earlier requests and `missed[0]` were answered.
    await waitFor("the keeper to look at all 9 requests", async () =>
      k.stats.revealed + k.stats.skipped === 9 ? true : undefined,
    );
    assert.equal(k.stats.revealed, 2);
    assert.equal(k.stats.skipped, 7);
    const counts = await revealCounts();
    for (const s of missed) assert.equal(counts.get(s), 1, `request ${s} revealed once`);
    await k.stop();
  });

  it("sums reveals up in a line per interval instead of a line each", async () => {
    const lines: string[] = [];
    // Started after the requests are answered by nobody else: it reveals them all at once.
    const sequences = await request(5);
    const k = keeper({ summaryMs: 400, log: (line) => lines.push(line) });
    await allAnswered(sequences);
    const summary = await waitFor("a summary line", async () =>
      lines.find((l) => l.startsWith("revealed 5 in the last")),
    );
    assert.match(summary, /\(\d+ in all; \d+ ms median, \d+ ms worst after being seen\)/);
    assert.equal(lines.filter((l) => l.startsWith("revealed request")).length, 0);
    // Nothing new to report: no more lines, however many intervals pass.
    const before = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(lines.length, before, lines.join("\n"));
    // The next reveal comes in the next summary; stopping flushes what is left at once.
    const [one] = await request(1);
    await allAnswered([one]);
    await k.stop();
    assert.ok(
      lines.some((l) => l.startsWith("revealed 1 in the last")),
      lines.join("\n"),
    );
  });

  it("still logs each reveal with a summary interval of 0", async () => {
    const lines: string[] = [];
    const k = keeper({ summaryMs: 0, log: (line) => lines.push(line) });
    const [sequence] = await request(1);
    await allAnswered([sequence]);
    await waitFor("the reveal's line", async () =>
      lines.find((l) => l.startsWith(`revealed request ${sequence} `)),
    );
    await k.stop();
  });

  it("waits the configured delay before revealing", async () => {
    const k = keeper({ delay: 600 });
    const started = Date.now();
    const [sequence] = await request(1);
    await allAnswered([sequence]);
    const waited = Date.now() - started;
    assert.ok(waited >= 600, `revealed after ${waited} ms`);
    await k.stop();
  });

  it("survives the node going away and serves the new chain that replaces it", async () => {
    const k = keeper();
    const [before] = await request(1);
    await allAnswered([before]);

    await node.server.close();
    await waitFor("the keeper to notice the node is gone", async () =>
      logs.some((l) => l.includes("cannot reach")) ? true : undefined,
    );
    // A fresh node on the same port: a new chain where sequence numbers start again at 1.
    node = await startNode(node.port);
    await deployMockEntropy();
    const sequences = await request(2);
    assert.equal(sequences[0], 1n);
    await allAnswered(sequences);
    assert.ok(logs.some((l) => l.includes("is back")));
    assert.ok(logs.some((l) => l.includes("chain was replaced")));
    const counts = await revealCounts();
    for (const s of sequences) assert.equal(counts.get(s), 1);
    await k.stop();
  });
});

async function mockEntropyBytecode(): Promise<Hex> {
  return (await artifacts.readArtifact("MockEntropy")).bytecode as Hex;
}

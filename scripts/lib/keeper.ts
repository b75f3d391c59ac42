// The local entropy keeper: plays Pyth's provider. It watches `Requested` events and answers each:
// against MockEntropy with fresh random bytes through `mockReveal`; against our Entropy model
// (`revelationOf` given) with the provider's revelation from its hash chain through
// `revealWithCallback`, as the real provider's keeper does. Only for local chains.
import { randomBytes } from "node:crypto";
import {
  BaseError,
  ContractFunctionRevertedError,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";

import { mockEntropyAbi } from "@dicehall/core/generated/abis.ts";
import { entropyRevealAbi } from "@dicehall/core/contract/revelations.ts";
import { clients, errorLine, isUnreachable, nodeAccounts, sleep } from "./chain.ts";

export interface KeeperOptions {
  rpcUrl: string;
  /** The Entropy contract: MockEntropy, or our model when `revelationOf` is given. */
  mockEntropy: Address;
  /** The provider's revelation of a request (the model's hash chain): reveal the real way. */
  revelationOf?: (provider: Address, sequenceNumber: bigint) => Hex | undefined;
  /** Where to start scanning for requests (the deployment block); later ones are caught up. */
  fromBlock?: bigint;
  /** How long after seeing a request it is revealed, like a real provider's latency. */
  revealDelayMs?: number;
  pollIntervalMs?: number;
  /** The account that sends the reveals; default the node's last account (players use the first). */
  sender?: Address;
  /** Reveals of a request whose callback keeps reverting stop after this many tries. */
  maxAttempts?: number;
  log?: (line: string) => void;
  /**
   * Reveals are logged as one summary line per this many ms (when there were any), not one line
   * each: a session makes hundreds. Problems are logged at once. 0 logs every reveal.
   */
  summaryIntervalMs?: number;
  /** Called after each successful reveal (tests and latency measurements). */
  onReveal?: (reveal: Reveal) => void;
}

export interface Reveal {
  provider: Address;
  sequenceNumber: bigint;
  caller: Address;
  requestBlock: bigint;
  transactionHash: Hex;
  /** From the keeper first seeing the request to its reveal being mined. */
  latencyMs: number;
}

export interface KeeperStats {
  revealed: number;
  /** Requests that someone else had already answered when their turn came. */
  skipped: number;
  /** Requests given up on after `maxAttempts` failed reveals. */
  failed: number;
}

export interface Keeper {
  readonly stats: KeeperStats;
  stop(): Promise<void>;
}

export const DEFAULT_REVEAL_DELAY_MS = 1000;
export const DEFAULT_SUMMARY_INTERVAL_MS = 30_000;
const DEFAULT_POLL_MS = 200;
const MAX_BACKOFF_MS = 5000;
const LOG_RANGE = 5000n;

interface PendingRequest {
  key: string;
  provider: Address;
  sequenceNumber: bigint;
  caller: Address;
  requestBlock: bigint;
  userContribution: Hex;
  seenAt: number;
  dueAt: number;
  attempts: number;
}

export function startKeeper(options: KeeperOptions): Keeper {
  const {
    rpcUrl,
    mockEntropy,
    fromBlock = 0n,
    revealDelayMs = DEFAULT_REVEAL_DELAY_MS,
    pollIntervalMs = DEFAULT_POLL_MS,
    maxAttempts = 5,
    log = () => {},
    summaryIntervalMs = DEFAULT_SUMMARY_INTERVAL_MS,
    onReveal,
  } = options;
  const { publicClient, wallet } = clients(rpcUrl);
  const stats: KeeperStats = { revealed: 0, skipped: 0, failed: 0 };
  const stopping = new AbortController();

  let sender = options.sender;
  /** The last block scanned, with its hash: a different hash there means a new chain. */
  let cursor: { number: bigint; hash: Hex } | undefined;
  /** Requests seen and not yet settled, and keys settled (revealed, skipped or given up). */
  let pending = new Map<string, PendingRequest>();
  let settled = new Set<string>();

  /** Latencies of the reveals since the last summary line. */
  let latencies: number[] = [];
  let summarisedAt = Date.now();
  function summarise(force = false): void {
    const now = Date.now();
    if (latencies.length === 0 || (!force && now - summarisedAt < summaryIntervalMs)) return;
    const sorted = latencies.sort((a, b) => a - b);
    log(
      `revealed ${sorted.length} in the last ${Math.round((now - summarisedAt) / 1000)} s ` +
        `(${stats.revealed} in all; ${sorted[Math.floor(sorted.length / 2)]} ms median, ` +
        `${sorted.at(-1)} ms worst after being seen)`,
    );
    latencies = [];
    summarisedAt = now;
  }

  async function detectNewChain(latest: bigint): Promise<boolean> {
    if (cursor === undefined) return false;
    if (latest < cursor.number) return true;
    const block = await publicClient.getBlock({ blockNumber: cursor.number });
    return block.hash !== cursor.hash;
  }

  async function scan(latest: bigint, from: bigint): Promise<void> {
    for (let start = from; start <= latest; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < latest ? start + LOG_RANGE - 1n : latest;
      const logs = await publicClient.getContractEvents({
        address: mockEntropy,
        abi: mockEntropyAbi,
        eventName: "Requested",
        fromBlock: start,
        toBlock: end,
      });
      const now = Date.now();
      for (const event of logs) {
        const { provider, caller, sequenceNumber, userContribution } = event.args;
        if (provider === undefined || caller === undefined || sequenceNumber === undefined)
          continue;
        const key = `${provider.toLowerCase()}:${sequenceNumber}`;
        if (settled.has(key) || pending.has(key)) continue;
        pending.set(key, {
          key,
          provider,
          sequenceNumber,
          caller,
          requestBlock: event.blockNumber,
          userContribution: userContribution ?? "0x",
          seenAt: now,
          dueAt: now + revealDelayMs,
          attempts: 0,
        });
      }
    }
    const head = await publicClient.getBlock({ blockNumber: latest });
    cursor = { number: latest, hash: head.hash };
  }

  async function reveal(request: PendingRequest): Promise<void> {
    const { key, provider, sequenceNumber } = request;
    const onChain = await publicClient.readContract({
      address: mockEntropy,
      abi: mockEntropyAbi,
      functionName: "getRequestV2",
      args: [provider, sequenceNumber],
    });
    if (onChain.requester === zeroAddress) {
      // Answered already (by another keeper, a test, or before a restart of this one).
      settle(key);
      stats.skipped++;
      return;
    }
    sender ??= (await nodeAccounts(publicClient)).at(-1);
    if (sender === undefined) throw new Error(`the node at ${rpcUrl} has no unlocked accounts`);
    try {
      const revelation = options.revelationOf?.(provider, sequenceNumber);
      if (options.revelationOf !== undefined && revelation === undefined) {
        throw new Error(`no revelation for request ${sequenceNumber} of ${provider}`);
      }
      const call =
        revelation !== undefined
          ? ({
              account: sender,
              address: mockEntropy,
              abi: entropyRevealAbi,
              functionName: "revealWithCallback",
              args: [provider, sequenceNumber, request.userContribution, revelation],
            } as const)
          : ({
              account: sender,
              address: mockEntropy,
              abi: mockEntropyAbi,
              functionName: "mockReveal",
              args: [provider, sequenceNumber, toHex(randomBytes(32))],
            } as const);
      // The estimate also surfaces a reverting callback before anything is sent. The margin covers
      // state that changes between estimate and inclusion (other games' moves).
      const gas = await publicClient.estimateContractGas(call as never);
      const hash = await wallet(sender).writeContract({ ...call, gas: (gas * 13n) / 10n } as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`reveal transaction ${hash} reverted`);
      settle(key);
      stats.revealed++;
      const latencyMs = Date.now() - request.seenAt;
      if (summaryIntervalMs === 0) {
        log(
          `revealed request ${sequenceNumber} of ${request.caller} (${latencyMs} ms after it was seen)`,
        );
      } else latencies.push(latencyMs);
      onReveal?.({
        provider,
        sequenceNumber,
        caller: request.caller,
        requestBlock: request.requestBlock,
        transactionHash: hash,
        latencyMs,
      });
    } catch (err) {
      if (isUnreachable(err)) throw err;
      request.attempts++;
      const reason = revertReason(err);
      if (request.attempts >= maxAttempts) {
        settle(key);
        stats.failed++;
        log(
          `giving up on request ${sequenceNumber} after ${request.attempts} tries: ${reason} ` +
            `(the requester's own timeout has to take over)`,
        );
      } else {
        request.dueAt = Date.now() + Math.min(MAX_BACKOFF_MS, 500 * 2 ** request.attempts);
        log(`reveal of request ${sequenceNumber} failed (${reason}); trying again`);
      }
    }
  }

  function settle(key: string): void {
    pending.delete(key);
    settled.add(key);
  }

  /** One round: notice a new chain, read new requests, reveal the ones that are due. */
  async function tick(): Promise<void> {
    const latest = await publicClient.getBlockNumber({ cacheTime: 0 });
    if (await detectNewChain(latest)) {
      log("the chain was replaced (node restarted?); scanning it from the start");
      cursor = undefined;
      pending = new Map();
      settled = new Set();
      await scan(latest, 0n);
    } else {
      await scan(latest, cursor === undefined ? fromBlock : cursor.number + 1n);
    }
    const due = [...pending.values()]
      .filter((request) => request.dueAt <= Date.now())
      .sort((a, b) => a.dueAt - b.dueAt);
    for (const request of due) {
      if (stopping.signal.aborted) return;
      await reveal(request);
    }
  }

  function nextWakeUp(): number {
    let wait = pollIntervalMs;
    for (const request of pending.values()) {
      wait = Math.min(wait, Math.max(0, request.dueAt - Date.now()));
    }
    return wait;
  }

  const running = (async () => {
    let down = false;
    let backoff = pollIntervalMs;
    while (!stopping.signal.aborted) {
      try {
        await tick();
        summarise();
        if (down) log(`node at ${rpcUrl} is back`);
        down = false;
        backoff = pollIntervalMs;
        await sleep(nextWakeUp(), stopping.signal);
      } catch (err) {
        if (stopping.signal.aborted) break;
        if (!down) {
          log(
            isUnreachable(err)
              ? `cannot reach the node at ${rpcUrl}; retrying until it is back`
              : `error: ${errorLine(err)}; retrying`,
          );
        }
        down = true;
        await sleep(backoff, stopping.signal);
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      }
    }
  })();

  return {
    stats,
    async stop() {
      stopping.abort();
      await running;
      summarise(true);
    },
  };
}

function revertReason(err: unknown): string {
  if (err instanceof BaseError) {
    const revert = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      return revert.data?.errorName ?? revert.reason ?? revert.shortMessage;
    }
  }
  return errorLine(err);
}

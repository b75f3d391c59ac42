// The hall's keeper (issue 27): an operator's process that keeps every roll of a hall moving on any
// chain where Pyth Entropy (or our model of it) runs. It watches the hall's rolls and
// - asks again for a refused roll (anyone may, from the second after the refusal), paying the fee
//   from its own account; the surplus, or the whole value on another refusal, is credited back to it;
// - delivers an accepted request that has waited STALLED_AFTER_SECONDS: it fetches the provider's
//   revelation from the public revelation service (Pyth's Fortuna, or the local keeper's server) and
//   calls Entropy's `revealWithCallback`, which anyone may.
// It never holds a choice: a refused roll has no number, and an accepted one has exactly one.
import {
  BaseError,
  ContractFunctionRevertedError,
  parseEventLogs,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { rollValue } from "@dicehall/core/contract/gas.ts";
import {
  STALLED_AFTER_SECONDS,
  entropyRequestedEvent,
  entropyRevealAbi,
  fetchRevelation,
} from "@dicehall/core/contract/revelations.ts";
import { errorLine, sleep } from "./chain.ts";

export interface HallKeeperOptions {
  publicClient: PublicClient<Transport, Chain>;
  /** The keeper's account: it pays the retries' fees and the deliveries' gas. */
  wallet: WalletClient<Transport, Chain, Account>;
  hall: Address;
  /** Where rolls are looked for from (the hall's deployment block). */
  fromBlock: bigint;
  /** The provider's revelation service, `<base>/v1/chains/<chain>`; none: stalled rolls wait. */
  revelations?: string;
  /** Chain seconds an accepted request waits before the keeper delivers it itself. */
  stalledAfterSeconds?: number;
  /** The longest pause between two refused retries of one roll (chain seconds); the first comes at once. */
  maxRetryIntervalSeconds?: number;
  pollIntervalMs?: number;
  /** Turns delivery off (a test's "the provider's keeper and ours are both down"). */
  deliver?: boolean;
  fetchImpl?: typeof fetch;
  log?: (line: string) => void;
}

export interface HallKeeperStats {
  /** Retries the keeper sent that Entropy accepted. */
  retried: number;
  /** Retries the keeper sent that were refused again (their value was credited back). */
  refused: number;
  /** Stalled requests the keeper delivered from the revelation service. */
  delivered: number;
}

export interface HallKeeper {
  readonly stats: HallKeeperStats;
  /** One round: read new rolls, ask again or deliver where due. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

const ROLL_EVENTS = ["RollRequested", "RollRefused"] as const;
const LOG_RANGE = 5000n;

interface Watched {
  /** The chain time before which this roll is not asked again (backoff after refusals). */
  notBefore: bigint;
  interval: bigint;
}

export function startHallKeeper(o: HallKeeperOptions): HallKeeper {
  const {
    publicClient,
    wallet,
    hall,
    revelations,
    stalledAfterSeconds = STALLED_AFTER_SECONDS,
    maxRetryIntervalSeconds = 60,
    pollIntervalMs = 1000,
    deliver = true,
    fetchImpl = fetch,
    log = () => {},
  } = o;
  const stats: HallKeeperStats = { retried: 0, refused: 0, delivered: 0 };
  const watched = new Map<bigint, Watched>();
  let next = o.fromBlock;
  const stopping = new AbortController();

  async function scan(): Promise<void> {
    const latest = await publicClient.getBlockNumber({ cacheTime: 0 });
    for (let start = next; start <= latest; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < latest ? start + LOG_RANGE - 1n : latest;
      for (const eventName of ROLL_EVENTS) {
        const logs = await publicClient.getContractEvents({
          address: hall,
          abi: diceHallAbi,
          eventName,
          fromBlock: start,
          toBlock: end,
        });
        for (const event of logs) {
          const gameId = (event.args as { gameId?: bigint }).gameId;
          if (gameId !== undefined && !watched.has(gameId)) {
            watched.set(gameId, { notBefore: 0n, interval: 0n });
          }
        }
      }
    }
    next = latest + 1n;
  }

  async function askAgain(gameId: bigint, w: Watched, keepMask: number, cap: bigint, now: bigint) {
    // The fee read may itself be the refusal; the game's cap bounds what a roll can charge.
    const fee = await publicClient
      .readContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "gameRollFee",
        args: [gameId],
      })
      .catch(() => cap);
    const value = rollValue(fee) < cap ? rollValue(fee) : cap;
    const hash = await wallet.writeContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "roll",
      args: [gameId, keepMask],
      value,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const accepted = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "RollRequested",
    }).some((e) => e.args.gameId === gameId);
    if (accepted) {
      stats.retried++;
      w.interval = 0n;
      log(`game ${gameId}: asked again for its refused roll; accepted`);
    } else {
      stats.refused++;
      // Once a second at first, then less often: a provider refusing for long (a fee spike) costs gas.
      const doubled = w.interval === 0n ? 1n : w.interval * 2n;
      const max = BigInt(maxRetryIntervalSeconds);
      w.interval = doubled < max ? doubled : max;
      w.notBefore = now + w.interval;
      log(`game ${gameId}: asked again; refused again (next try in ${w.interval} s)`);
    }
  }

  async function deliverStalled(gameId: bigint, provider: Address, sequence: bigint) {
    if (!revelations) return;
    const revelation = await fetchRevelation(revelations, sequence, fetchImpl);
    if (revelation === undefined) return; // not served yet: the next round asks again
    const entropy = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "entropy",
    });
    const [requested] = await publicClient.getLogs({
      address: entropy,
      event: entropyRequestedEvent,
      args: { provider, sequenceNumber: sequence },
      fromBlock: o.fromBlock,
    });
    const userRandom: Hex | undefined = requested?.args.userContribution;
    if (userRandom === undefined) return;
    try {
      const hash = await wallet.writeContract({
        address: entropy,
        abi: entropyRevealAbi,
        functionName: "revealWithCallback",
        args: [provider, sequence, userRandom, revelation],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`delivery ${hash} reverted`);
      stats.delivered++;
      log(`game ${gameId}: delivered stalled request ${sequence} from the revelation service`);
    } catch (err) {
      // Someone (the provider's keeper, a player's app) delivered it first: nothing to do.
      log(`game ${gameId}: delivery of request ${sequence} not sent (${reason(err)})`);
    }
  }

  async function tick(): Promise<void> {
    await scan();
    const now = (await publicClient.getBlock({ blockTag: "latest" })).timestamp;
    for (const [gameId, w] of watched) {
      if (stopping.signal.aborted) return;
      const game = await publicClient.readContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "getGame",
        args: [gameId],
      });
      // 2 = Running; a game with no roll out leaves the watch until its next roll.
      if (game.status !== 2 || game.entropyAttempts === 0) {
        watched.delete(gameId);
        continue;
      }
      try {
        if (game.pendingSequence === 0n) {
          // The next block is at least a second on: due when retryAt is at most that.
          if (game.retryAt !== 0n && now + 1n >= game.retryAt && now >= w.notBefore) {
            await askAgain(gameId, w, game.pendingKeepMask, game.rollFeeCap, now);
          }
        } else if (deliver && now >= game.rollRequestedAt + BigInt(stalledAfterSeconds)) {
          await deliverStalled(gameId, game.provider, game.pendingSequence);
        }
      } catch (err) {
        log(`game ${gameId}: ${reason(err)}`);
      }
    }
  }

  const running =
    o.pollIntervalMs === 0
      ? Promise.resolve()
      : (async () => {
          while (!stopping.signal.aborted) {
            try {
              await tick();
            } catch (err) {
              if (!stopping.signal.aborted) log(`error: ${errorLine(err)}; retrying`);
            }
            await sleep(pollIntervalMs, stopping.signal);
          }
        })();

  return {
    stats,
    tick,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

function reason(err: unknown): string {
  if (err instanceof BaseError) {
    const revert = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      return revert.data?.errorName ?? revert.reason ?? revert.shortMessage;
    }
  }
  return errorLine(err);
}

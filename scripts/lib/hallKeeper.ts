// The hall's keeper (issue 27): an operator's process that keeps every roll of a hall moving on any
// chain where Pyth Entropy (or our model of it) runs. It watches the hall's rolls and
// - asks again for a refused roll at every block while it stays refused (anyone may, from the second
//   after the refusal, until the call-off window's last hour), paying the fee from its own account;
//   the surplus, or the whole value on another refusal, is credited back to it, and it withdraws that
//   credit once it holds a few fees' worth. So holding a roll refused takes a full provider backlog
//   at every block (docs/PROTOCOL.md, "What holding a roll costs"), and a flood that stops is
//   answered in the next block;
// - delivers an accepted request that has waited STALLED_AFTER_SECONDS: it fetches the provider's
//   revelation from the public revelation service (Pyth's Fortuna, or the local keeper's server) and
//   calls Entropy's `revealWithCallback`, which anyone may.
// - pays a finished (or called-off) game's players their credit, to each player's own address and
//   nowhere else (the hall's payOut), PAY_OUT_AFTER_SECONDS after the game ended if the player's own
//   app has not taken it by then, when it is worth more than the payout's gas.
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

const NATIVE = "0x0000000000000000000000000000000000000000" as const;

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
  /** How often to look (ms): at most a block time, so that a refused roll is asked again at every block. */
  pollIntervalMs?: number;
  /** Chain seconds after a game ended before the keeper pays its players out; false: never. */
  payOutAfterSeconds?: number | false;
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
  /** Payouts of a finished game's credit to a player's own address. */
  paidOut: number;
  /** Gas the keeper's transactions used, and what it paid for it (wei). */
  gasUsed: bigint;
  gasPaid: bigint;
}

export interface HallKeeper {
  readonly stats: HallKeeperStats;
  /** One round: read new rolls, ask again or deliver where due. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

const ROLL_EVENTS = ["RollRequested", "RollRefused"] as const;
const END_EVENTS = ["GameFinished", "GameCancelled"] as const;
const LOG_RANGE = 5000n;

function isOneOf<T extends string>(names: readonly T[], name: string): name is T {
  return (names as readonly string[]).includes(name);
}
/** How long the player's own app has to pay a finished game out before the keeper does (chain seconds). */
export const PAY_OUT_AFTER_SECONDS = 30;
/** A payout is sent only when it is worth this many times its gas. */
const PAY_OUT_WORTH_GAS = 10n;
const PAY_OUT_GAS = 60_000n;
/** The keeper withdraws its credit (refused retries' value) once it holds this many retries' worth. */
const WITHDRAW_AFTER_RETRIES = 10n;

interface Watched {
  /** The block of the keeper's last attempt for this roll: it asks at most once a block. */
  lastBlock: bigint;
}

interface Ended {
  gameId: bigint;
  /** Chain time from which the keeper pays the game's players out. */
  dueAt: bigint;
}

export function startHallKeeper(o: HallKeeperOptions): HallKeeper {
  const {
    publicClient,
    wallet,
    hall,
    revelations,
    stalledAfterSeconds = STALLED_AFTER_SECONDS,
    pollIntervalMs = 1000,
    payOutAfterSeconds = PAY_OUT_AFTER_SECONDS,
    deliver = true,
    fetchImpl = fetch,
    log = () => {},
  } = o;
  const stats: HallKeeperStats = {
    retried: 0,
    refused: 0,
    delivered: 0,
    paidOut: 0,
    gasUsed: 0n,
    gasPaid: 0n,
  };
  const watched = new Map<bigint, Watched>();
  const ended = new Map<bigint, Ended>();
  let lastRetryBeforeCallOff: bigint | undefined;
  let next = o.fromBlock;
  const stopping = new AbortController();

  async function scan(): Promise<void> {
    const latest = await publicClient.getBlockNumber({ cacheTime: 0 });
    for (let start = next; start <= latest; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < latest ? start + LOG_RANGE - 1n : latest;
      // One read of the hall's logs for the range serves both lists (rolls to watch, games to pay out).
      const logs = await publicClient.getContractEvents({
        address: hall,
        abi: diceHallAbi,
        fromBlock: start,
        toBlock: end,
      });
      for (const event of logs) {
        const gameId = (event.args as { gameId?: bigint }).gameId;
        if (gameId === undefined) continue;
        if (isOneOf(ROLL_EVENTS, event.eventName)) {
          if (!watched.has(gameId)) watched.set(gameId, { lastBlock: -1n });
        } else if (
          payOutAfterSeconds !== false &&
          isOneOf(END_EVENTS, event.eventName) &&
          !ended.has(gameId)
        ) {
          const block = await publicClient.getBlock({ blockNumber: event.blockNumber });
          ended.set(gameId, { gameId, dueAt: block.timestamp + BigInt(payOutAfterSeconds) });
        }
      }
    }
    next = latest + 1n;
  }

  function counted(receipt: { gasUsed: bigint; effectiveGasPrice: bigint }) {
    stats.gasUsed += receipt.gasUsed;
    stats.gasPaid += receipt.gasUsed * receipt.effectiveGasPrice;
  }

  async function askAgain(
    gameId: bigint,
    w: Watched,
    keepMask: number,
    cap: bigint,
    block: bigint,
  ) {
    w.lastBlock = block;
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
    counted(receipt);
    const accepted = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "RollRequested",
    }).some((e) => e.args.gameId === gameId);
    if (accepted) {
      stats.retried++;
      log(`game ${gameId}: asked again for its refused roll; accepted`);
    } else {
      stats.refused++;
      // Every block, never less often: a schedule that thins out lets a flooder time its floods.
      log(`game ${gameId}: asked again; refused again (asking again next block)`);
      await withdrawCredit(value);
    }
  }

  /** Takes back the value refused retries left in the keeper's credit, once it is worth a transaction. */
  async function withdrawCredit(value: bigint) {
    const credit = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "credits",
      args: [NATIVE, wallet.account.address],
    });
    if (credit < value * WITHDRAW_AFTER_RETRIES) return;
    const hash = await wallet.writeContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "withdraw",
      args: [NATIVE],
    });
    counted(await publicClient.waitForTransactionReceipt({ hash }));
    log(`withdrew ${credit} wei of refused retries' value`);
  }

  /** Pays each of a finished game's players their credit (the game's token and the coin), to themselves. */
  async function payOutGame(gameId: bigint) {
    const game = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "getGame",
      args: [gameId],
    });
    const tokens = game.config.token === NATIVE ? [NATIVE] : [game.config.token, NATIVE];
    const gasPrice = await publicClient.getGasPrice();
    const worth = PAY_OUT_GAS * gasPrice * PAY_OUT_WORTH_GAS;
    for (const player of game.players) {
      for (const token of tokens) {
        const credit = await publicClient.readContract({
          address: hall,
          abi: diceHallAbi,
          functionName: "credits",
          args: [token, player],
        });
        // The coin: an expired session's unspent fees come too.
        let amount = credit;
        if (token === NATIVE) {
          const session = await publicClient.readContract({
            address: hall,
            abi: diceHallAbi,
            functionName: "session",
            args: [player],
          });
          if (!session.active) amount += session.feeAllowance;
        }
        // A token payout is worth it whenever there is one; the coin's must beat its gas.
        if (amount === 0n || (token === NATIVE && amount < worth)) continue;
        try {
          const hash = await wallet.writeContract({
            address: hall,
            abi: diceHallAbi,
            functionName: "payOut",
            args: [gameId, player, token],
          });
          const receipt = await publicClient.waitForTransactionReceipt({ hash });
          counted(receipt);
          if (receipt.status !== "success") throw new Error(`payout ${hash} reverted`);
          stats.paidOut++;
          log(`game ${gameId}: paid ${amount} of ${token} to ${player}`);
        } catch (err) {
          // The player's app (or the player) took it first, or their address refuses the coin.
          log(`game ${gameId}: payout to ${player} not sent (${reason(err)})`);
        }
      }
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
      counted(receipt);
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
    const latest = await publicClient.getBlock({ blockTag: "latest" });
    const now = latest.timestamp;
    lastRetryBeforeCallOff ??= BigInt(
      await publicClient.readContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "LAST_RETRY_BEFORE_CALL_OFF",
      }),
    );
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
          // The next block is at least a second on: due when retryAt is at most that, once a block,
          // until the call-off window's last hour (no request is taken then).
          const open = now + 1n < game.callOffAt - lastRetryBeforeCallOff;
          if (
            game.retryAt !== 0n &&
            now + 1n >= game.retryAt &&
            open &&
            latest.number > w.lastBlock
          ) {
            await askAgain(gameId, w, game.pendingKeepMask, game.rollFeeCap, latest.number);
          }
        } else if (deliver && now >= game.rollRequestedAt + BigInt(stalledAfterSeconds)) {
          await deliverStalled(gameId, game.provider, game.pendingSequence);
        }
      } catch (err) {
        log(`game ${gameId}: ${reason(err)}`);
      }
    }
    for (const [gameId, e] of ended) {
      if (stopping.signal.aborted) return;
      if (now < e.dueAt) continue;
      ended.delete(gameId);
      try {
        await payOutGame(gameId);
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

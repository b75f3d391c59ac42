// The hall's keeper (issues 27, 31, 41): an operator's process that keeps every roll of a hall moving
// on any chain where Pyth Entropy (or our model of it) runs. Two loops, each with its own account
// (its own nonces), so that neither waits for the other:
// - the roll lane asks again for a refused roll at every block while it stays refused (anyone may,
//   from the second after the refusal, until the call-off window's last hour), paying the fee from
//   its own account; the surplus, or the whole value on another refusal, is credited back to it, and
//   it withdraws that credit once it holds a few fees' worth. When the refusal is the provider's
//   backlog (more than `maxNumHashes` requests past its current commitment: a flood, with or without
//   callbacks), it first advances the provider's commitment with the provider's public revelation
//   (Entropy's `advanceProviderCommitment`, open to anyone) and sends the retry right behind it, so
//   both land in one block: holding a roll refused takes a full flood in every block
//   (docs/PROTOCOL.md, "What holding a roll costs"). It also delivers an accepted request that has
//   waited STALLED_AFTER_SECONDS, from the same revelation service (Pyth's Fortuna, or the local one),
//   with Entropy's `revealWithCallback`, which anyone may call.
// - the payout lane pays a finished (or called-off) game's players what that game left them, to each
//   player's own address and nowhere else (the hall's payOut), PAY_OUT_AFTER_SECONDS after the game
//   ended if the player's own app has not taken it by then, and only when the payout's gas bound is at
//   most a set share of what it pays (payOutGasShareBps, 10 % by default).
// It never holds a choice: a refused roll has no number, and an accepted one has exactly one.
import { GAME_STATUS } from "@dicehall/core/contract/gameStatus.ts";
import {
  BaseError,
  ContractFunctionRevertedError,
  parseEventLogs,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { gasLimitFor, rollValue } from "@dicehall/core/contract/gas.ts";
import {
  STALLED_AFTER_SECONDS,
  entropyBacklogAbi,
  entropyRequestedEvent,
  entropyRevealAbi,
  fetchRevelation,
} from "@dicehall/core/contract/revelations.ts";
import { errorLine, sleep } from "./chain.ts";

const NATIVE = "0x0000000000000000000000000000000000000000" as const;

type KeeperWallet = WalletClient<Transport, Chain, Account>;

export interface HallKeeperOptions {
  publicClient: PublicClient<Transport, Chain>;
  /** The roll lane's account: it pays the retries' fees, the advances' and the deliveries' gas. */
  wallet: KeeperWallet;
  /**
   * The payout lane's account, so that a payout waiting in the mempool never holds a retry's nonce
   * back. Without one the payouts share `wallet`'s nonces (their sends are queued one at a time).
   */
  payoutWallet?: KeeperWallet;
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
  /** The most a payout's gas may cost, in basis points of what it pays (default 1 000: 10 %). */
  payOutGasShareBps?: bigint;
  /**
   * What a whole token is worth in wei, by token address, so a token payout can be weighed against
   * its gas; a token without a price is left for its player to withdraw.
   */
  tokenPricesWei?: Readonly<Record<Address, bigint>>;
  /** Turns delivery off (a test's "the provider's keeper and ours are both down"). */
  deliver?: boolean;
  /** Turns the commitment advance off (bench:hold's "before issue 41"). */
  advance?: boolean;
  fetchImpl?: typeof fetch;
  log?: (line: string) => void;
}

export interface HallKeeperStats {
  /** Retries the keeper sent that Entropy accepted. */
  retried: number;
  /** Retries the keeper sent that were refused again (their value was credited back). */
  refused: number;
  /** Provider commitments the keeper advanced to turn a backlog's refusal into an acceptance. */
  advanced: number;
  /** Stalled requests the keeper delivered from the revelation service. */
  delivered: number;
  /** Payouts of what a finished game left a player, to the player's own address. */
  paidOut: number;
  /** Payouts the receiver refused or ran out of its gas on (the amount stays the player's credit). */
  payOutsFailed: number;
  /** Payouts left to the player: their gas bound is over the share of what they pay. */
  payOutsDeclined: number;
  /** Gas the keeper's transactions used, and what it paid for it (wei). */
  gasUsed: bigint;
  gasPaid: bigint;
  /** Gas the payouts used, and the most one payout used. */
  payOutGasUsed: bigint;
  payOutGasMax: bigint;
}

export interface HallKeeper {
  readonly stats: HallKeeperStats;
  /** One round of both lanes, one after the other (tests drive the keeper this way). */
  tick(): Promise<void>;
  /** One round of the roll lane: read new rolls, ask again or deliver where due. */
  tickRolls(): Promise<void>;
  /** One round of the payout lane: pay out the games that are due. */
  tickPayouts(): Promise<void>;
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
/** The keeper's default: a payout's gas may cost at most 10 % of what it pays. */
export const PAY_OUT_GAS_SHARE_BPS = 1_000n;
/** The keeper withdraws its credit (refused retries' value) once it holds this many retries' worth. */
const WITHDRAW_AFTER_RETRIES = 10n;
/**
 * The gas a retry sent right behind an advance gets: its estimate is made before the advance is
 * mined, on the refused path, which writes far less than an accepted request. An accepted roll on
 * Entropy's worst path (fresh request slots, a fresh credit slot) stays under 400 000; unused gas
 * is not charged.
 */
const RETRY_GAS_AFTER_ADVANCE = 600_000n;

/**
 * The hall's own work in a payout, where the node cannot estimate it (a receiver that burns its
 * stipend): a native payout to an account without code is estimated at about 57 000 gas, and
 * payOut refuses to send unless PAYOUT_GAS * 64 / 63 + 40 000 is left at that point
 * (PayoutGasTooLow: a starved call must not fail a willing receiver), so the limit holds that too.
 */
const PAYOUT_WORK_GAS = 110_000n;

interface Watched {
  /** The block of the keeper's last attempt for this roll: it asks at most once a block. */
  lastBlock: bigint;
}

interface Ended {
  gameId: bigint;
  /** Chain time from which the keeper pays the game's players out. */
  dueAt: bigint;
}

/** What the keeper has spent on a player's payouts and what it has paid them (wei). */
interface PlayerBook {
  spent: bigint;
  paid: bigint;
}

export function startHallKeeper(o: HallKeeperOptions): HallKeeper {
  const {
    publicClient,
    wallet,
    payoutWallet = o.wallet,
    hall,
    revelations,
    stalledAfterSeconds = STALLED_AFTER_SECONDS,
    pollIntervalMs = 1000,
    payOutAfterSeconds = PAY_OUT_AFTER_SECONDS,
    payOutGasShareBps = PAY_OUT_GAS_SHARE_BPS,
    tokenPricesWei = {},
    deliver = true,
    advance = true,
    fetchImpl = fetch,
    log = () => {},
  } = o;
  const stats: HallKeeperStats = {
    retried: 0,
    refused: 0,
    advanced: 0,
    delivered: 0,
    paidOut: 0,
    payOutsFailed: 0,
    payOutsDeclined: 0,
    gasUsed: 0n,
    gasPaid: 0n,
    payOutGasUsed: 0n,
    payOutGasMax: 0n,
  };
  const watched = new Map<bigint, Watched>();
  const ended = new Map<bigint, Ended>();
  const books = new Map<Address, PlayerBook>();
  /** Players whose address refused a payout: the keeper leaves their money for them to withdraw. */
  const refusingReceivers = new Set<Address>();
  const tokenDecimals = new Map<Address, bigint>();
  let lastRetryBeforeCallOff: bigint | undefined;
  let entropyAddress: Address | undefined;
  let payOutGas: bigint | undefined;
  let next = o.fromBlock;
  let scanning: Promise<void> | undefined;
  let withdrawing: Promise<void> | undefined;
  const stopping = new AbortController();

  // One queue of sends per account: a send is over once the node has the transaction, so nonces are
  // taken in order even when both lanes share an account; receipts are awaited outside the queue.
  const sendQueues = new Map<Address, Promise<unknown>>();
  function sendFrom<T>(w: KeeperWallet, send: () => Promise<T>): Promise<T> {
    const queue = sendQueues.get(w.account.address) ?? Promise.resolve();
    const sent = queue.then(send, send);
    sendQueues.set(
      w.account.address,
      sent.catch(() => {}),
    );
    return sent;
  }

  async function scan(): Promise<void> {
    const latest = await publicClient.getBlockNumber({ cacheTime: 0 });
    for (let start = next; start <= latest; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < latest ? start + LOG_RANGE - 1n : latest;
      // One read of the hall's logs for the range serves both lanes (rolls to watch, games to pay out).
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

  /** Both lanes read the logs; one read at a time serves whichever asks. */
  function scanOnce(): Promise<void> {
    scanning ??= scan().finally(() => {
      scanning = undefined;
    });
    return scanning;
  }

  function counted(receipt: TransactionReceipt) {
    stats.gasUsed += receipt.gasUsed;
    stats.gasPaid += receipt.gasUsed * receipt.effectiveGasPrice;
  }

  async function entropy(): Promise<Address> {
    entropyAddress ??= await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "entropy",
    });
    return entropyAddress;
  }

  /**
   * When the provider's backlog is what refuses the next request (more than maxNumHashes past its
   * current commitment), sends an advance of its commitment to the latest sequence whose revelation
   * the service serves, so that the next request is taken. Returns the advance's hash, or undefined
   * when no advance would turn the refusal (another cause, or no revelation served yet).
   */
  async function clearBacklog(provider: Address): Promise<Hash | undefined> {
    if (!advance || !revelations) return undefined;
    const address = await entropy();
    const info = await publicClient.readContract({
      address,
      abi: entropyBacklogAbi,
      functionName: "getProviderInfoV2",
      args: [provider],
    });
    const max = BigInt(info.maxNumHashes);
    const current = info.currentCommitmentSequenceNumber;
    const nextSequence = info.sequenceNumber;
    if (max === 0n || nextSequence - current <= max) return undefined;
    // The latest request gives the most room; the service may hold it back for its reveal delay,
    // and the least sequence that still turns the refusal is the last one worth trying.
    for (const target of [nextSequence - 1n, nextSequence - max]) {
      if (target <= current) continue;
      const revelation = await fetchRevelation(revelations, target, fetchImpl).catch(
        () => undefined,
      );
      if (revelation === undefined) continue;
      const request = {
        address,
        abi: entropyBacklogAbi,
        functionName: "advanceProviderCommitment",
        args: [provider, target, revelation],
        account: wallet.account,
      } as const;
      // Someone (the provider's keeper) may have advanced it already: the estimate says so.
      const estimate = await publicClient.estimateContractGas(request).catch(() => undefined);
      if (estimate === undefined) return undefined;
      const hash = await sendFrom(wallet, () =>
        wallet.writeContract({
          ...request,
          gas: gasLimitFor("advanceProviderCommitment", estimate),
        }),
      );
      log(`provider ${provider}: advancing its commitment to ${target} past a backlog`);
      return hash;
    }
    return undefined;
  }

  async function askAgain(
    gameId: bigint,
    w: Watched,
    game: { pendingKeepMask: number; rollFeeCap: bigint; provider: Address },
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
      .catch(() => game.rollFeeCap);
    const value = rollValue(fee) < game.rollFeeCap ? rollValue(fee) : game.rollFeeCap;
    const advanced = await clearBacklog(game.provider).catch((err: unknown) => {
      log(`game ${gameId}: no advance (${reason(err)})`);
      return undefined;
    });
    // Right behind the advance, unawaited: on a chain both land in the same block.
    const hash = await sendFrom(wallet, () =>
      wallet.writeContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "roll",
        args: [gameId, game.pendingKeepMask],
        value,
        ...(advanced === undefined ? {} : { gas: RETRY_GAS_AFTER_ADVANCE }),
      }),
    );
    if (advanced !== undefined) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: advanced });
      counted(receipt);
      if (receipt.status === "success") stats.advanced++;
      else log(`game ${gameId}: the advance ${advanced} reverted (advanced by someone first)`);
    }
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

  /**
   * Takes back the value refused retries left in the keeper's credit, once it is worth a transaction.
   * Its receipt is not waited for: the next block's retry must not be.
   */
  async function withdrawCredit(value: bigint) {
    if (withdrawing) return;
    const credit = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "credits",
      args: [NATIVE, wallet.account.address],
    });
    if (credit < value * WITHDRAW_AFTER_RETRIES) return;
    const hash = await sendFrom(wallet, () =>
      wallet.writeContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "withdraw",
        args: [NATIVE],
      }),
    );
    withdrawing = publicClient
      .waitForTransactionReceipt({ hash })
      .then((receipt) => {
        counted(receipt);
        log(`withdrew ${credit} wei of refused retries' value`);
      })
      .catch((err: unknown) => log(`withdraw ${hash}: ${reason(err)}`))
      .finally(() => {
        withdrawing = undefined;
      });
  }

  /** What a payout of `amount` of `token` is worth in wei; undefined for a token without a price. */
  async function worthInWei(token: Address, amount: bigint): Promise<bigint | undefined> {
    if (token === NATIVE) return amount;
    const price = Object.entries(tokenPricesWei).find(
      ([address]) => address.toLowerCase() === token.toLowerCase(),
    )?.[1];
    if (price === undefined) return undefined;
    let decimals = tokenDecimals.get(token);
    if (decimals === undefined) {
      decimals = BigInt(
        await publicClient.readContract({
          address: token,
          abi: [
            {
              type: "function",
              name: "decimals",
              stateMutability: "view",
              inputs: [],
              outputs: [{ type: "uint8" }],
            },
          ],
          functionName: "decimals",
        }),
      );
      tokenDecimals.set(token, decimals);
    }
    return (amount * price) / 10n ** decimals;
  }

  /**
   * Pays one player what one game left them in one token, when its gas bound (the gas limit it is
   * sent with, at today's gas price) fits within the share of what it pays, counting what the keeper
   * has already spent on and paid to that player.
   */
  async function payOutOne(gameId: bigint, player: Address, token: Address, gasPrice: bigint) {
    if (refusingReceivers.has(player)) return;
    // What that game left the player (winnings or refund, and a finished session's fees in the coin).
    const amount = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "payOutAmount",
      args: [gameId, player, token],
    });
    if (amount === 0n) return;
    const worth = await worthInWei(token, amount);
    if (worth === undefined) {
      stats.payOutsDeclined++;
      log(`game ${gameId}: ${amount} of ${token} left for ${player} (no price to weigh its gas)`);
      return;
    }
    const request = {
      address: hall,
      abi: diceHallAbi,
      functionName: "payOut",
      args: [gameId, player, token],
      account: payoutWallet.account,
    } as const;
    // PAYOUT_GAS is the most the receiver's code can take, on top of the hall's own work: the gas
    // limit bounds what the payout can cost whatever the receiver does, and gives it its whole
    // stipend even when the estimate was made at a gas where it got less.
    payOutGas ??= await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "PAYOUT_GAS",
    });
    const estimate = await publicClient.estimateContractGas(request).catch(async () => {
      // A node may refuse to estimate a call whose receiver burns its gas (no limit would make that
      // inner call succeed); a payout that would revert (nothing owed any more) is not sent.
      await publicClient.simulateContract(request);
      return PAYOUT_WORK_GAS;
    });
    const gas = gasLimitFor("payOut", estimate) + payOutGas;
    const bound = gas * gasPrice;
    const book = books.get(player) ?? { spent: 0n, paid: 0n };
    if ((book.spent + bound) * 10_000n > (book.paid + worth) * payOutGasShareBps) {
      stats.payOutsDeclined++;
      log(
        `game ${gameId}: ${amount} of ${token} left for ${player} (its gas, up to ${bound} wei, is over ` +
          `${Number(payOutGasShareBps) / 100} % of it)`,
      );
      return;
    }
    const hash = await sendFrom(payoutWallet, () =>
      payoutWallet.writeContract({ ...request, gas }),
    );
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    counted(receipt);
    stats.payOutGasUsed += receipt.gasUsed;
    if (receipt.gasUsed > stats.payOutGasMax) stats.payOutGasMax = receipt.gasUsed;
    book.spent += receipt.gasUsed * receipt.effectiveGasPrice;
    books.set(player, book);
    if (receipt.status !== "success") throw new Error(`payout ${hash} reverted`);
    const failed = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "PayoutFailed",
    }).some((e) => e.args.account.toLowerCase() === player.toLowerCase());
    if (failed) {
      // Its address refused the coin or burnt the stipend: the amount is back in its credit, for its
      // own withdraw. One bounded payout is all such a receiver gets of the keeper.
      stats.payOutsFailed++;
      refusingReceivers.add(player);
      log(`game ${gameId}: ${player} did not take ${amount} of ${token}; left in its credit`);
      return;
    }
    book.paid += worth;
    stats.paidOut++;
    log(`game ${gameId}: paid ${amount} of ${token} to ${player}`);
  }

  /** Pays each of a finished game's players what it left them (the game's token and the coin). */
  async function payOutGame(gameId: bigint) {
    const game = await publicClient.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "getGame",
      args: [gameId],
    });
    const tokens = game.config.token === NATIVE ? [NATIVE] : [game.config.token, NATIVE];
    const gasPrice = await publicClient.getGasPrice();
    for (const player of game.players) {
      for (const token of tokens) {
        if (stopping.signal.aborted) return;
        try {
          await payOutOne(gameId, player, token, gasPrice);
        } catch (err) {
          // The player's app (or the player) took it first.
          log(`game ${gameId}: payout to ${player} not sent (${reason(err)})`);
        }
      }
    }
  }

  async function deliverStalled(gameId: bigint, provider: Address, sequence: bigint) {
    if (!revelations) return;
    const revelation = await fetchRevelation(revelations, sequence, fetchImpl);
    if (revelation === undefined) return; // not served yet: the next round asks again
    const address = await entropy();
    const [requested] = await publicClient.getLogs({
      address,
      event: entropyRequestedEvent,
      args: { provider, sequenceNumber: sequence },
      fromBlock: o.fromBlock,
    });
    const userRandom: Hex | undefined = requested?.args.userContribution;
    if (userRandom === undefined) return;
    try {
      const hash = await sendFrom(wallet, () =>
        wallet.writeContract({
          address,
          abi: entropyRevealAbi,
          functionName: "revealWithCallback",
          args: [provider, sequence, userRandom, revelation],
        }),
      );
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

  async function tickRolls(): Promise<void> {
    await scanOnce();
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
      if (game.status !== GAME_STATUS.Running || game.entropyAttempts === 0) {
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
            await askAgain(gameId, w, game, latest.number);
          }
        } else if (deliver && now >= game.rollRequestedAt + BigInt(stalledAfterSeconds)) {
          await deliverStalled(gameId, game.provider, game.pendingSequence);
        }
      } catch (err) {
        log(`game ${gameId}: ${reason(err)}`);
      }
    }
  }

  async function tickPayouts(): Promise<void> {
    await scanOnce();
    if (ended.size === 0) return;
    const now = (await publicClient.getBlock({ blockTag: "latest" })).timestamp;
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

  async function tick(): Promise<void> {
    await tickRolls();
    await tickPayouts();
  }

  async function loop(round: () => Promise<void>): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        await round();
      } catch (err) {
        if (!stopping.signal.aborted) log(`error: ${errorLine(err)}; retrying`);
      }
      await sleep(pollIntervalMs, stopping.signal);
    }
  }

  // The lanes run apart: a payout awaiting its receipt never holds the next block's retry back.
  const running =
    o.pollIntervalMs === 0
      ? Promise.resolve()
      : Promise.all([
          loop(tickRolls),
          payOutAfterSeconds === false ? Promise.resolve() : loop(tickPayouts),
        ]);

  return {
    stats,
    tick,
    tickRolls,
    tickPayouts,
    async stop() {
      stopping.abort();
      await running;
      await withdrawing;
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

// Puts many real, finished DiceHall games on a running local chain fast: a HallFiller contract
// (contracts/test/HallFiller.sol) plays whole games in one transaction each, through the hall's
// public functions and MockEntropy's mockReveal, with its own seats as the players. For the indexer
// benchmark and tests that need a long history; a script playing move by move sends ~85
// transactions a game.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  parseEventLogs,
  zeroAddress,
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
import type { ArtifactMap } from "hardhat/types/artifacts";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { errorLine } from "./chain.ts";
import { ROOT } from "./deployments.ts";

type HallFillerAbi = ArtifactMap["HallFiller"]["abi"];

export interface FillProgress {
  games: number;
  of: number;
  transactions: number;
  gasUsed: bigint;
  seconds: number;
}

export interface FillGamesOptions {
  publicClient: PublicClient<Transport, Chain>;
  /** Pays for everything: one of the node's unlocked accounts, or an account that signs itself. */
  wallet: WalletClient<Transport, Chain, Account>;
  diceHall: Address;
  mockEntropy: Address;
  /** Test USD (the local stack's TestToken): about one game in five is played in it when given. */
  testToken?: Address;
  /** How many games to finish. */
  games: number;
  /** Games played by one transaction (default 1: a 4-seat Extended game takes up to ~9M gas). */
  gamesPerTransaction?: number;
  /** Transactions sent before waiting for their receipts (default 32). */
  inFlight?: number;
  /** Distinct players the games are spread over (default 40; at least 4). */
  seats?: number;
  /** Everything a game varies in follows from this (default 1); same seed, same games. */
  seed?: bigint;
  /** Gas limit of each game transaction (default 15M per game, at most 16 777 216: Osaka's cap). */
  gasPerTransaction?: bigint;
  /** A filler deployed by an earlier call (its `filler` result), to add games with the same players. */
  filler?: Address;
  onProgress?: (progress: FillProgress) => void;
}

export interface FillResult {
  games: number;
  /** Game transactions (the filler's deployment, seats and funding not counted). */
  transactions: number;
  /** Gas of the game transactions. */
  gasUsed: bigint;
  seconds: number;
  firstBlock: bigint;
  lastBlock: bigint;
  /** The ids of the games played, in order. */
  gameIds: bigint[];
  filler: Address;
}

/** EIP-7825's per-transaction gas cap (Osaka), which the local node enforces. */
const TX_GAS_CAP = 16_777_216n;
const GAS_PER_GAME = 15_000_000n;
/** Seats deployed per transaction (~0.5M gas each). */
const SEATS_PER_TRANSACTION = 10;

function artifact(name: "HallFiller") {
  const file = join(ROOT, `artifacts/contracts/test/HallFiller.sol/${name}.json`);
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: build the contracts first (npx hardhat build, or npm run build).`,
    );
  }
  const { abi, bytecode } = JSON.parse(readFileSync(file, "utf8")) as {
    abi: HallFillerAbi;
    bytecode: Hex;
  };
  return { abi, bytecode };
}

/** Plays `opts.games` whole games on the chain and returns what it took. */
export async function fillGames(opts: FillGamesOptions): Promise<FillResult> {
  const { publicClient, wallet, games } = opts;
  const perTx = opts.gamesPerTransaction ?? 1;
  const inFlight = opts.inFlight ?? 32;
  const seatCount = opts.seats ?? 40;
  const seed = opts.seed ?? 1n;
  if (!Number.isInteger(games) || games < 0)
    throw new Error(`games must be a whole number >= 0, got ${games}`);
  if (!Number.isInteger(perTx) || perTx < 1)
    throw new Error(`gamesPerTransaction must be >= 1, got ${perTx}`);
  if (!Number.isInteger(inFlight) || inFlight < 1)
    throw new Error(`inFlight must be >= 1, got ${inFlight}`);
  if (!Number.isInteger(seatCount) || seatCount < 4)
    throw new Error(`seats must be >= 4, got ${seatCount}`);
  const gas = opts.gasPerTransaction ?? minBig(GAS_PER_GAME * BigInt(perTx), TX_GAS_CAP);
  const { abi, bytecode } = artifact("HallFiller");
  const account = wallet.account;

  const confirm = async (hash: Hash, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${what} reverted (transaction ${hash})`);
    return receipt;
  };

  // The filler and its seats, once.
  let filler = opts.filler;
  if (filler === undefined) {
    const hash = await wallet.deployContract({
      abi,
      bytecode,
      args: [opts.diceHall, opts.mockEntropy, opts.testToken ?? zeroAddress],
    });
    const receipt = await confirm(hash, "Deploying the HallFiller");
    if (!receipt.contractAddress)
      throw new Error(`Deploying the HallFiller made no contract (${hash})`);
    filler = receipt.contractAddress;
  }
  const contract = { address: filler, abi } as const;
  const [hall, existingSeats] = await Promise.all([
    publicClient.readContract({ ...contract, functionName: "HALL" }),
    publicClient.readContract({ ...contract, functionName: "seatCount" }),
  ]);
  if (hall.toLowerCase() !== opts.diceHall.toLowerCase()) {
    throw new Error(`The filler ${filler} plays at ${hall}, not at ${opts.diceHall}`);
  }
  for (let have = Number(existingSeats); have < seatCount; have += SEATS_PER_TRANSACTION) {
    const count = BigInt(Math.min(SEATS_PER_TRANSACTION, seatCount - have));
    const hash = await wallet.writeContract({
      ...contract,
      functionName: "addSeats",
      args: [count],
    });
    await confirm(hash, `Adding ${count} seats to the filler`);
  }
  const maxCostPerGame = await publicClient.readContract({
    ...contract,
    functionName: "maxCostPerGame",
  });

  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const result: FillResult = {
    games: 0,
    transactions: 0,
    gasUsed: 0n,
    seconds: 0,
    firstBlock: 0n,
    lastBlock: 0n,
    gameIds: [],
    filler,
  };
  const transactions = Math.ceil(games / perTx);
  let nonce = await publicClient.getTransactionCount({
    address: account.address,
    blockTag: "pending",
  });

  for (let wave = 0; wave < transactions; wave += inFlight) {
    const batch: { index: number; count: number }[] = [];
    for (let i = wave; i < Math.min(wave + inFlight, transactions); i++) {
      batch.push({ index: i, count: Math.min(perTx, games - i * perTx) });
    }

    // Bets come out of the filler's balance; winners hand theirs back, the house fee and credits
    // left in the hall do not come back. Top it up to what this wave could spend at most.
    const waveGames = BigInt(batch.reduce((n, b) => n + b.count, 0));
    const need = waveGames * maxCostPerGame;
    const balance = await publicClient.getBalance({ address: filler });
    if (balance < need) {
      const hash = await wallet.sendTransaction({
        to: filler,
        value: 2n * need - balance,
        nonce: nonce++,
      });
      await confirm(hash, "Funding the filler");
    }

    // Sent one after the other (explicit nonces, explicit gas: no estimate per transaction), then
    // their receipts awaited together. Not all at once: requests sent together can reach the node
    // out of order, and an automining node refuses a nonce ahead of the next one instead of
    // queueing it ("Nonce too high", seen at game 7 155 of 10 000). The local node refuses a
    // reverting transaction at once (it still mines it), so a game can fail at either step.
    const sent: PromiseSettledResult<Hex>[] = [];
    for (const { index, count } of batch) {
      sent.push(
        await wallet
          .writeContract({
            ...contract,
            functionName: "playGames",
            args: [(seed << 32n) + BigInt(index), BigInt(count)],
            gas,
            nonce: nonce + (index - wave),
          })
          .then(
            (value): PromiseSettledResult<Hex> => ({ status: "fulfilled", value }),
            (reason: unknown): PromiseSettledResult<Hex> => ({ status: "rejected", reason }),
          ),
      );
    }
    nonce += batch.length;
    const receipts = await Promise.allSettled(
      sent.map((s) =>
        s.status === "fulfilled"
          ? publicClient.waitForTransactionReceipt({ hash: s.value, pollingInterval: 20 })
          : Promise.reject(s.reason as Error),
      ),
    );

    for (const [k, settled] of receipts.entries()) {
      const { index, count } = batch[k];
      const first = index * perTx + 1;
      const which = `${count === 1 ? `game ${first}` : `games ${first}-${first + count - 1}`} of ${games}`;
      if (settled.status === "rejected") {
        throw new Error(`${which} reverted: ${describeRevert(settled.reason, abi)}`, {
          cause: settled.reason,
        });
      }
      const receipt = settled.value;
      if (receipt.status !== "success") {
        throw new Error(`${which} reverted: ${await whyReverted(opts, receipt, gas, contract)}`);
      }
      const finished = parseEventLogs({
        abi: diceHallAbi,
        logs: receipt.logs,
        eventName: "GameFinished",
      }).filter((log) => log.address.toLowerCase() === opts.diceHall.toLowerCase());
      if (finished.length !== count) {
        throw new Error(
          `${which}: the transaction ${receipt.transactionHash} finished ${finished.length} games, not ${count}`,
        );
      }
      result.gameIds.push(...finished.map((log) => log.args.gameId));
      result.games += count;
      result.transactions += 1;
      result.gasUsed += receipt.gasUsed;
      if (result.firstBlock === 0n || receipt.blockNumber < result.firstBlock) {
        result.firstBlock = receipt.blockNumber;
      }
      if (receipt.blockNumber > result.lastBlock) result.lastBlock = receipt.blockNumber;
    }
    opts.onProgress?.({
      games: result.games,
      of: games,
      transactions: result.transactions,
      gasUsed: result.gasUsed,
      seconds: seconds(),
    });
  }
  result.seconds = seconds();
  return result;
}

/** Replays a reverted game transaction on the state before it, to name the contract's error. */
async function whyReverted(
  opts: FillGamesOptions,
  receipt: TransactionReceipt,
  gas: bigint,
  contract: { address: Address; abi: HallFillerAbi },
): Promise<string> {
  const where = `(transaction ${receipt.transactionHash})`;
  if (receipt.gasUsed >= gas) {
    return `out of gas at the limit of ${gas} ${where}: lower gamesPerTransaction or raise gasPerTransaction`;
  }
  const tx = await opts.publicClient.getTransaction({ hash: receipt.transactionHash });
  try {
    await opts.publicClient.call({
      account: tx.from,
      to: contract.address,
      data: tx.input,
      gas,
      blockNumber: receipt.blockNumber - 1n,
    });
    return `no error when replayed on the block before ${where}`;
  } catch (err) {
    return `${describeRevert(err, contract.abi)} ${where}`;
  }
}

/** The custom error in `err`, decoded with the filler's ABI or the hall's (its errors come up through the seats). */
function describeRevert(err: unknown, fillerAbi: HallFillerAbi): string {
  if (err instanceof BaseError) {
    const found = err.walk((e) => e instanceof ContractFunctionRevertedError || hasHexData(e));
    const data =
      found instanceof ContractFunctionRevertedError
        ? found.raw
        : (found as { data?: Hex } | null)?.data;
    if (data !== undefined && data.length >= 10) {
      for (const abi of [fillerAbi, diceHallAbi] as const) {
        try {
          const { errorName, args } = decodeErrorResult({ abi, data });
          return `${errorName}(${(args ?? []).map(String).join(", ")})`;
        } catch {
          // not one of this ABI's errors
        }
      }
    }
  }
  return errorLine(err);
}

const hasHexData = (e: unknown): boolean => {
  const data = (e as { data?: unknown }).data;
  return typeof data === "string" && data.startsWith("0x");
};

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

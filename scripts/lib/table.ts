// Moves at a DiceHall table for scripts that play through the real contract (the simulator and the
// dev-stack smoke test): open, join, roll, wait for the dice, score, time out.
import { randomBytes } from "node:crypto";
import {
  createWalletClient,
  erc20Abi,
  http,
  maxUint256,
  parseEventLogs,
  toHex,
  zeroAddress,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hash,
  type Hex,
  type LocalAccount,
} from "viem";

import { diceHallAbi, mockEntropyAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";
import { entropyRequestedEvent, entropyRevealAbi } from "@dicehall/core/contract/revelations.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { Sheet } from "@dicehall/core/rules/sheet.ts";
import { clients, nodeAccounts, sleep } from "./chain.ts";

export const NATIVE: Address = zeroAddress;
export const STATUS = { None: 0, Open: 1, Running: 2, Finished: 3, Cancelled: 4 } as const;

/** Who sends a move: one of the node's unlocked accounts, or an account that signs for itself. */
export type Player = Address | LocalAccount;

export const addressOf = (player: Player): Address =>
  typeof player === "string" ? player : player.address;

export interface Table {
  rpcUrl: string;
  publicClient: ReturnType<typeof clients>["publicClient"];
  wallet: ReturnType<typeof clients>["wallet"];
  diceHall: Address;
  /** Set on the local chain: lets `waitForDice` reveal by itself (MockEntropy, or the model). */
  mockEntropy?: Address;
  /** On our Entropy model: the provider's revelations, to reveal with `revealWithCallback`. */
  revelationOf?: (provider: Address, sequenceNumber: bigint) => Hex | undefined;
}

export function table(
  rpcUrl: string,
  diceHall: Address,
  mockEntropy?: Address,
  revelationOf?: Table["revelationOf"],
): Table {
  const { publicClient, wallet } = clients(rpcUrl);
  return { rpcUrl, publicClient, wallet, diceHall, mockEntropy, revelationOf };
}

const signers = new WeakMap<LocalAccount, ReturnType<Table["wallet"]>>();

/** A wallet client for `player`: the node signs for its own accounts, a LocalAccount signs here. */
function walletOf(t: Table, player: Player): ReturnType<Table["wallet"]> {
  if (typeof player === "string") return t.wallet(player);
  let signer = signers.get(player);
  if (signer === undefined) {
    signer = createWalletClient({
      chain: t.publicClient.chain,
      transport: http(t.rpcUrl, { retryCount: 0, timeout: 10_000 }),
      account: player,
    });
    signers.set(player, signer);
  }
  return signer;
}

async function confirmed(t: Table, hash: Hash) {
  const receipt = await t.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

type Writable = "payable" | "nonpayable";

/**
 * Sends a contract call from `from` and waits for it. The gas is estimated
 * here with a margin: the cost of a move depends on state that other tables share (the pending
 * roll registry), so an exact estimate can fall short when another move lands first. The estimate
 * also turns a revert into the contract's custom error before anything is sent.
 */
async function send<const abi extends Abi, name extends ContractFunctionName<abi, Writable>>(
  t: Table,
  from: Player,
  call: {
    address: Address;
    abi: abi;
    functionName: name;
    args: ContractFunctionArgs<abi, Writable, name>;
    value?: bigint;
  },
) {
  const request = { ...call, account: from } as never;
  const gas = await t.publicClient.estimateContractGas(request);
  const hash = await walletOf(t, from).writeContract({
    ...(request as object),
    gas: (gas * 13n) / 10n,
  } as never);
  return confirmed(t, hash);
}

export interface NewGame {
  token: Address;
  bet: bigint;
  seats: number;
  ruleSet: RuleSetId;
  joinWindow: number;
  moveTimeout: number;
  invitees?: Address[];
}

/** Opens a lobby for `creator`, who pays the bet; returns the game id. */
export async function openGame(t: Table, creator: Player, game: NewGame): Promise<bigint> {
  const receipt = await send(t, creator, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "createGame",
    args: [{ ...game, invitees: game.invitees ?? [] }],
    value: game.token === NATIVE ? game.bet : 0n,
  });
  const [created] = parseEventLogs({
    abi: diceHallAbi,
    logs: receipt.logs,
    eventName: "GameCreated",
  });
  return created.args.gameId;
}

/** Opens a match of `games` games (issue 33) for `creator`, who pays the one stake; its id. */
export async function openMatch(
  t: Table,
  creator: Player,
  game: NewGame,
  games: number,
): Promise<bigint> {
  const receipt = await send(t, creator, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "createMatch",
    args: [{ ...game, invitees: game.invitees ?? [] }, games],
    value: game.token === NATIVE ? game.bet : 0n,
  });
  const [created] = parseEventLogs({
    abi: diceHallAbi,
    logs: receipt.logs,
    eventName: "GameCreated",
  });
  return created.args.gameId;
}

export async function joinGame(
  t: Table,
  player: Player,
  gameId: bigint,
  token: Address,
  bet: bigint,
) {
  return send(t, player, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "joinGame",
    args: [gameId],
    value: token === NATIVE ? bet : 0n,
  });
}

/**
 * Mints Test USD to `player`, sent by `player` itself (TestToken's mint is open to anyone), so the
 * gas comes out of no one else's balance.
 */
export async function mintTestToken(
  t: Table,
  player: Player,
  token: Address,
  amount: bigint,
): Promise<void> {
  await send(t, player, {
    address: token,
    abi: testTokenAbi,
    functionName: "mint",
    args: [addressOf(player), amount],
  });
}

/** Lets DiceHall pull `player`'s tokens for bets (once, for good). */
export async function approveBets(t: Table, player: Player, token: Address): Promise<void> {
  const allowance = await t.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [addressOf(player), t.diceHall],
  });
  if (allowance > 2n ** 128n) return;
  await send(t, player, {
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [t.diceHall, maxUint256],
  });
}

/**
 * Asks for a roll (a game's first roll may come from any seated player: it draws the turn order);
 * returns the Entropy sequence number the dice will come with.
 */
export async function roll(t: Table, player: Player, gameId: bigint, keepMask: number) {
  // The game's own fee (its provider, its callback gas), read right before sending.
  const fee = await t.publicClient.readContract({
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "gameRollFee",
    args: [gameId],
  });

  const receipt = await send(t, player, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "roll",
    args: [gameId, keepMask],
    value: fee,
  });
  const [requested] = parseEventLogs({
    abi: diceHallAbi,
    logs: receipt.logs,
    eventName: "RollRequested",
  });
  if (!requested) {
    throw new Error(
      `game ${gameId}: Entropy refused the roll (RollRefused); anyone may ask again from the next second`,
    );
  }
  return { sequence: requested.args.sequenceNumber, blockNumber: receipt.blockNumber };
}

export async function score(t: Table, player: Player, gameId: bigint, box: number) {
  return send(t, player, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "score",
    args: [gameId, box],
  });
}

export async function claimTimeout(t: Table, caller: Player, gameId: bigint) {
  return send(t, caller, {
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "claimTimeout",
    args: [gameId],
  });
}

export function getGame(t: Table, gameId: bigint) {
  return t.publicClient.readContract({
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "getGame",
    args: [gameId],
  });
}

/** A player's sheet as the TS engine sees it, plus the dice on the table. */
export async function getSeat(t: Table, gameId: bigint, ruleSet: RuleSetId, player: Address) {
  const p = await t.publicClient.readContract({
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "getPlayer",
    args: [gameId, player],
  });
  const sheet: Sheet = {
    ruleSet,
    boxes: p.filled.map((filled, box) => (filled ? Number(p.boxScores[box]) : null)),
    yahtzeeBonuses: p.yahtzeeBonusCount,
  };
  return {
    sheet,
    dice: [...p.dice],
    rollsUsed: p.rollsUsed,
    total: Number(p.total),
    forfeited: p.forfeited,
  };
}

export interface WaitForDiceOptions {
  /** Reveal through MockEntropy at once instead of waiting for a keeper. */
  reveal?: boolean;
  timeoutMs?: number;
  /** Called once if no dice came after this long (a hint that no keeper runs). */
  slowAfterMs?: number;
  onSlow?: () => void;
}

/** Waits until the roll with `sequence` has its dice (DiceRolled); returns them. */
export async function waitForDice(
  t: Table,
  gameId: bigint,
  sequence: bigint,
  fromBlock: bigint,
  { reveal = false, timeoutMs = 60_000, slowAfterMs = 10_000, onSlow }: WaitForDiceOptions = {},
) {
  if (reveal) await revealNow(t, sequence);
  const started = Date.now();
  let warned = false;
  for (;;) {
    const rolled = await t.publicClient.getContractEvents({
      address: t.diceHall,
      abi: diceHallAbi,
      eventName: "DiceRolled",
      args: { gameId },
      fromBlock,
    });
    const mine = rolled.find((e) => e.args.sequenceNumber === sequence);
    if (mine !== undefined) return { ...mine.args, blockNumber: mine.blockNumber };
    const waited = Date.now() - started;
    if (!warned && waited > slowAfterMs) {
      warned = true;
      onSlow?.();
    }
    if (waited > timeoutMs) {
      throw new Error(
        `No dice for game ${gameId} (request ${sequence}) after ${timeoutMs / 1000} s: ` +
          "is the keeper running? (`npm run dev` starts one, `npm run keeper` runs one alone)",
      );
    }
    await sleep(50);
  }
}

/** Plays the provider's part for one request, unless someone already answered it. */
export async function revealNow(t: Table, sequence: bigint): Promise<void> {
  if (t.mockEntropy === undefined)
    throw new Error("revealing needs MockEntropy (local chain only)");
  const provider = await t.publicClient.readContract({
    address: t.diceHall,
    abi: diceHallAbi,
    functionName: "entropyProvider",
  });
  const pending = await t.publicClient.readContract({
    address: t.mockEntropy,
    abi: mockEntropyAbi,
    functionName: "getRequestV2",
    args: [provider, sequence],
  });
  if (pending.requester === zeroAddress) return;
  // The last account, as the keeper: the first ones are the players' in the app.
  const sender = (await nodeAccounts(t.publicClient)).at(-1)!;
  try {
    if (t.revelationOf !== undefined) {
      // On the model, as the provider's keeper: its revelation and the request's user number.
      const revelation = t.revelationOf(provider, sequence);
      const [requested] = await t.publicClient.getLogs({
        address: t.mockEntropy,
        event: entropyRequestedEvent,
        args: { provider, sequenceNumber: sequence },
        fromBlock: 0n,
      });
      if (revelation === undefined || requested === undefined)
        throw new Error(`no revelation for request ${sequence}`);
      await send(t, sender, {
        address: t.mockEntropy,
        abi: entropyRevealAbi,
        functionName: "revealWithCallback",
        args: [provider, sequence, requested.args.userContribution!, revelation],
      });
      return;
    }
    await send(t, sender, {
      address: t.mockEntropy,
      abi: mockEntropyAbi,
      functionName: "mockReveal",
      args: [provider, sequence, toHex(randomBytes(32))],
    });
  } catch (err) {
    // A keeper may have answered between the check and our transaction.
    const again = await t.publicClient.readContract({
      address: t.mockEntropy,
      abi: mockEntropyAbi,
      functionName: "getRequestV2",
      args: [provider, sequence],
    });
    if (again.requester !== zeroAddress) throw err;
  }
}

/** Moves the local chain's clock forward (Hardhat node only): every open game's clocks jump too. */
export async function advanceTime(t: Table, seconds: number): Promise<void> {
  await t.publicClient.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
  await t.publicClient.request({ method: "evm_mine" as never, params: [] as never });
}

/** The GameFinished event of a game. */
export async function finished(t: Table, gameId: bigint, fromBlock: bigint) {
  const [event] = await t.publicClient.getContractEvents({
    address: t.diceHall,
    abi: diceHallAbi,
    eventName: "GameFinished",
    args: { gameId },
    fromBlock,
  });
  return event?.args;
}

/** The latest block's timestamp: the chain's clock, in seconds. */
export async function chainNow(t: Table): Promise<number> {
  const block = await t.publicClient.getBlock({ blockTag: "latest", cacheTime: 0 } as never);
  return Number(block.timestamp);
}

// The chain side of the tests: what the contract says (to compare with what the page shows), and
// quick set-ups played straight through the contract when a scenario needs a game in some state
// but is not about getting it there.
import { erc20Abi, parseEther, type Address } from "viem";

import { sleep } from "../../../scripts/lib/chain.ts";
import {
  NATIVE,
  STATUS,
  finished,
  getGame,
  getSeat,
  joinGame,
  openGame,
  roll,
  score,
  table,
  waitForDice,
  type NewGame,
  type Table,
} from "../../../scripts/lib/table.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions } from "@dicehall/core/rules/sheet.ts";
import type { E2EStack } from "./stack.ts";
import { MOVE_TIMEOUT_MS, PAGE_TIMEOUT_MS } from "./timing.ts";

export { NATIVE, STATUS };

export function hallTable(stack: E2EStack): Table {
  return table(stack.rpcUrl, stack.diceHall, stack.mockEntropy, stack.chain.revelationOf);
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * Polls `probe` until it returns something other than undefined (or throws after `timeoutMs`): the
 * suite's one way to wait for a state that no Playwright locator waits for.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = PAGE_TIMEOUT_MS,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${why}`);
    }
    await sleep(intervalMs);
  }
}

export async function gameView(stack: E2EStack, gameId: bigint) {
  return getGame(hallTable(stack), gameId);
}

export async function playerView(stack: E2EStack, gameId: bigint, player: Address) {
  return stack.publicClient.readContract({
    address: stack.diceHall,
    abi: diceHallAbi,
    functionName: "getPlayer",
    args: [gameId, player],
  });
}

/** "round:seat:status": changes with every move that passes the turn. */
export async function turnKey(stack: E2EStack, gameId: bigint): Promise<string> {
  const g = await gameView(stack, gameId);
  return `${g.round}:${g.currentSeat}:${g.status}`;
}

export async function currentPlayer(stack: E2EStack, gameId: bigint): Promise<Address | null> {
  const g = await gameView(stack, gameId);
  return g.status === STATUS.Running ? g.players[g.currentSeat] : null;
}

export async function tokenBalance(stack: E2EStack, token: Address, account: Address) {
  return stack.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [account],
  });
}

export async function credits(stack: E2EStack, token: Address, account: Address) {
  return stack.publicClient.readContract({
    address: stack.diceHall,
    abi: diceHallAbi,
    functionName: "credits",
    args: [token, account],
  });
}

export async function gameFinished(stack: E2EStack, gameId: bigint) {
  return finished(hallTable(stack), gameId, BigInt(stack.chain.deployment.deploymentBlock));
}

/** Whether `joinGame` from `account` would go through; the custom error's name if not. */
export async function joinRefusal(
  stack: E2EStack,
  account: Address,
  gameId: bigint,
  value: bigint,
): Promise<string | null> {
  try {
    await stack.publicClient.simulateContract({
      account,
      address: stack.diceHall,
      abi: diceHallAbi,
      functionName: "joinGame",
      args: [gameId],
      value,
    });
    return null;
  } catch (err) {
    const text = String((err as Error).message ?? err);
    return /NotInvited/.test(text) ? "NotInvited" : text.split("\n")[0];
  }
}

// ------------------------------------------------------------------ set-ups through the contract

const QUICK_GAME: Omit<NewGame, "invitees"> = {
  token: NATIVE,
  bet: parseEther("0.001"),
  seats: 2,
  ruleSet: 0,
  joinWindow: 3600,
  moveTimeout: 3600,
};

/** A lobby opened by `creator`, not joined by anyone. */
export async function openLobby(
  stack: E2EStack,
  creator: Address,
  game: Partial<NewGame> = {},
): Promise<bigint> {
  return openGame(hallTable(stack), creator, { ...QUICK_GAME, ...game });
}

/**
 * A running two-player game between `a` and `b` whose first turn is played on chain: the first
 * roll draws the turn order, and whoever it puts first scores those dice. The second player in
 * that order is to move, with no roll yet.
 */
export async function startGame(
  stack: E2EStack,
  a: Address,
  b: Address,
  game: Partial<NewGame> = {},
): Promise<bigint> {
  const gameId = await fullTable(stack, a, b, game);
  await playTurnOnChain(stack, gameId);
  return gameId;
}

/** A two-player game whose seats are both taken and whose first roll (the draw) is not made yet. */
export async function fullTable(
  stack: E2EStack,
  a: Address,
  b: Address,
  game: Partial<NewGame> = {},
): Promise<bigint> {
  const config = { ...QUICK_GAME, ...game };
  const t = hallTable(stack);
  const gameId = await openGame(t, a, config);
  await joinGame(t, b, gameId, config.token, config.bet);
  return gameId;
}

/**
 * The current player rolls and the dice are revealed at once (no waiting for the keeper); returns
 * whose dice they are. A game's first roll is made by the first to join and draws the order: its
 * dice go to whoever the draw puts first.
 */
export async function rollOnChain(stack: E2EStack, gameId: bigint, keepMask = 0) {
  const t = hallTable(stack);
  const g = await getGame(t, gameId);
  const player = g.players[g.currentSeat];
  const { sequence, blockNumber } = await roll(t, player, gameId, keepMask);
  const rolled = await waitForDice(t, gameId, sequence, blockNumber, {
    reveal: true,
    timeoutMs: MOVE_TIMEOUT_MS,
  });
  if (!rolled.player) throw new Error(`game ${gameId}: no player in DiceRolled`);
  return rolled.player;
}

/** The current player rolls once and fills their first legal box. */
export async function playTurnOnChain(stack: E2EStack, gameId: bigint): Promise<void> {
  const t = hallTable(stack);
  const player = await rollOnChain(stack, gameId);
  const g = await getGame(t, gameId);
  const ruleSet = g.config.ruleSet as RuleSetId;
  const seat = await getSeat(t, gameId, ruleSet, player);
  const option = boxOptions(seat.sheet, seat.dice).find((o) => o.legal);
  if (!option) throw new Error(`no legal box for ${player} with dice ${seat.dice.join(",")}`);
  await score(t, player, gameId, option.box);
}

/** Plays every remaining turn of a game through the contract. */
export async function playToEnd(stack: E2EStack, gameId: bigint): Promise<void> {
  for (let turns = 0; turns < 200; turns++) {
    const g = await gameView(stack, gameId);
    if (g.status !== STATUS.Running) return;
    await playTurnOnChain(stack, gameId);
  }
  throw new Error(`game ${gameId} did not end`);
}

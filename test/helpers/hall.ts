import assert from "node:assert/strict";
import {
  getAddress,
  maxUint256,
  parseAbi,
  parseEventLogs,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import type { NetworkConnection } from "hardhat/types/network";
import type { ContractReturnType, WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { keepsJoinOrder, randomForRoll } from "./dice.ts";
import { deployEntropyModel, revealTx, type EntropyModel } from "../../scripts/lib/entropyModel.ts";
import { signSessionConsent, type SessionGrant } from "@dicehall/core/contract/sessionConsent.ts";

/**
 * Fixtures and moves for the DiceHall protocol tests: a deployed hall on MockEntropy (or on a
 * silent or priced Entropy), players with coins and tokens, and helpers that play a move and
 * hand back what the contract said about it in its events.
 */

export const NATIVE = zeroAddress;
export const BET = 10n ** 16n;
export const NATIVE_MIN_BET = 10n ** 15n;
export const NATIVE_MAX_BET = 10n ** 19n;
export const TOKEN_BET = 5_000_000n;
export const TOKEN_MIN_BET = 1_000_000n;
export const TOKEN_MAX_BET = 1_000_000_000n;
export const FEE_BPS = 500;
export const JOIN_WINDOW = 3600;
export const MOVE_TIMEOUT = 600;
/** The protocol's defaults at deployment (PROTOCOL.md). */
export const DEFAULT_ENTROPY_TIMEOUT = 1800;
/** How long a roll may stay out before its game may be called off, by default (24 h). */
export const DEFAULT_CALL_OFF_WINDOW = 24 * 3600;
export const DEFAULT_CALLBACK_GAS_LIMIT = 100_000;
export const DEFAULT_WINDOW_MIN = 60;
export const DEFAULT_WINDOW_MAX = 7 * 24 * 3600;
export const FEE_CAP = 1000;
export const PRICED_ROLL_FEE = 12_345n;

export const STATUS = { None: 0, Open: 1, Running: 2, Finished: 3, Cancelled: 4 } as const;

export type DiceHall = ContractReturnType<"DiceHall">;

/**
 * Errors DiceHall raises through OpenZeppelin. They are in its ABI when the build lists them;
 * adding them here keeps the tests decoding them by name either way.
 */
export const FOREIGN_ERRORS = parseAbi([
  "error OwnableUnauthorizedAccount(address account)",
  "error EnforcedPause()",
  "error ExpectedPause()",
  "error ReentrancyGuardReentrantCall()",
  "error SafeERC20FailedOperation(address token)",
]);
export type EntropyKind = "mock" | "silent" | "priced" | "model";

export interface Hall {
  connection: NetworkConnection;
  viem: NetworkConnection["viem"];
  networkHelpers: NetworkConnection["networkHelpers"];
  publicClient: Awaited<ReturnType<NetworkConnection["viem"]["getPublicClient"]>>;
  hall: DiceHall;
  /** The hall's ABI plus FOREIGN_ERRORS, for asserting OpenZeppelin's errors. */
  hallErrors: { abi: Abi; address: Address };
  /** MockEntropy, SilentEntropyMock or PricedEntropyMock, by the fixture. */
  entropy: ContractReturnType<"MockEntropy">;
  entropyKind: EntropyKind;
  silentEntropy?: ContractReturnType<"SilentEntropyMock">;
  pricedEntropy?: ContractReturnType<"PricedEntropyMock">;
  /**
   * Our Entropy model (scripts/lib/entropyModel.ts), whose provider is `provider` on a keccak hash
   * chain: its random numbers are the chain's and cannot be scripted.
   */
  model?: EntropyModel;
  token: ContractReturnType<"TestToken">;
  provider: Address;
  owner: WalletClient;
  alice: WalletClient;
  bob: WalletClient;
  carol: WalletClient;
  dave: WalletClient;
  erin: WalletClient;
  stranger: WalletClient;
  /** alice, bob, carol, dave, erin: the usual seat holders, in that order. */
  players: WalletClient[];
  wallets: WalletClient[];
}

async function buildHall(
  connection: NetworkConnection,
  entropyKind: EntropyKind,
  configure: boolean,
): Promise<Hall> {
  const { viem, networkHelpers } = connection;
  const wallets = await viem.getWalletClients();
  const publicClient = await viem.getPublicClient();
  const [owner, alice, bob, carol, dave, erin, stranger] = wallets;
  // Any address works as the provider: the mocks only use it as a key.
  const provider = wallets[9].account.address;

  let entropyAddress: Address;
  let silentEntropy: ContractReturnType<"SilentEntropyMock"> | undefined;
  let pricedEntropy: ContractReturnType<"PricedEntropyMock"> | undefined;
  let model: EntropyModel | undefined;
  const mockEntropy = await viem.deployContract("MockEntropy", [provider]);
  if (entropyKind === "silent") {
    silentEntropy = await viem.deployContract("SilentEntropyMock", [provider]);
    entropyAddress = silentEntropy.address;
  } else if (entropyKind === "priced") {
    pricedEntropy = await viem.deployContract("PricedEntropyMock", [provider, PRICED_ROLL_FEE]);
    entropyAddress = pricedEntropy.address;
  } else if (entropyKind === "model") {
    model = await deployEntropyModel(viem, wallets[9]);
    entropyAddress = model.address;
  } else {
    entropyAddress = mockEntropy.address;
  }

  const hall = await viem.deployContract("DiceHall", [entropyAddress, owner.account.address]);
  const token = await viem.deployContract("TestToken");

  const h: Hall = {
    connection,
    viem,
    networkHelpers,
    publicClient,
    hall,
    hallErrors: { abi: [...hall.abi, ...FOREIGN_ERRORS] as Abi, address: hall.address },
    entropy: mockEntropy,
    entropyKind,
    silentEntropy,
    pricedEntropy,
    model,
    token,
    provider,
    owner,
    alice,
    bob,
    carol,
    dave,
    erin,
    stranger,
    players: [alice, bob, carol, dave, erin],
    wallets,
  };

  for (const w of [alice, bob, carol, dave, erin, stranger]) {
    await send(h, token.write.mint([w.account.address, 10n ** 12n]));
    await send(h, token.write.approve([hall.address, maxUint256], { account: w.account }));
  }
  if (configure) {
    await send(h, hall.write.setTokenConfig([NATIVE, true, NATIVE_MIN_BET, NATIVE_MAX_BET]));
    await send(h, hall.write.setTokenConfig([token.address, true, TOKEN_MIN_BET, TOKEN_MAX_BET]));
    await send(h, hall.write.setHouseFee([FEE_BPS]));
  }
  return h;
}

/** A hall on MockEntropy, native coin and Test USD allowed, house fee FEE_BPS. */
export async function hallFixture(connection: NetworkConnection): Promise<Hall> {
  return buildHall(connection, "mock", true);
}

/** A hall exactly as deployed: nothing allowed, no fee. */
export async function bareHallFixture(connection: NetworkConnection): Promise<Hall> {
  return buildHall(connection, "mock", false);
}

/** A configured hall whose Entropy takes requests and never answers. */
export async function silentHallFixture(connection: NetworkConnection): Promise<Hall> {
  return buildHall(connection, "silent", true);
}

/** A configured hall on our Entropy model: real fees, a hash chain, numbers that cannot be chosen. */
export async function modelHallFixture(connection: NetworkConnection): Promise<Hall> {
  return buildHall(connection, "model", true);
}

/** A configured hall whose Entropy charges PRICED_ROLL_FEE per roll. */
export async function pricedHallFixture(connection: NetworkConnection): Promise<Hall> {
  return buildHall(connection, "priced", true);
}

// ---------------------------------------------------------------------------------- plumbing

/** Waits for a transaction and insists it succeeded. */
export async function send(h: Hall, hash: Promise<Hex> | Hex): Promise<TransactionReceipt> {
  const receipt = await h.publicClient.waitForTransactionReceipt({ hash: await hash });
  assert.equal(receipt.status, "success");
  return receipt;
}

/** The hall's events of one name in a receipt, decoded. */
export function hallEvents(h: Hall, receipt: TransactionReceipt, eventName: string) {
  const logs = parseEventLogs({
    abi: h.hall.abi,
    logs: receipt.logs,
    eventName: eventName as never,
  }) as unknown as { address: Address; args: Record<string, unknown> }[];
  return logs.filter((log) => sameAddress(log.address, h.hall.address)).map((log) => log.args);
}

/** The one event of a name in a receipt; fails unless there is exactly one. */
export function hallEvent(h: Hall, receipt: TransactionReceipt, eventName: string) {
  const found = hallEvents(h, receipt, eventName);
  assert.equal(found.length, 1, `expected one ${eventName}, got ${found.length}`);
  return found[0] as Record<string, any>;
}

export function sameAddress(a: string, b: string): boolean {
  return getAddress(a) === getAddress(b);
}

/** A player's address, checksummed as the contract's events and views return it. */
export function addressOf(w: WalletClient): Address {
  return getAddress(w.account.address);
}

/**
 * `key`'s EIP-712 consent to act for `player` with `grant` in this hall (core/contract/sessionConsent.ts):
 * the `consent` argument of openSession, createGameWithSession and joinGameWithSession.
 */
export async function consentOf(
  h: Hall,
  key: WalletClient,
  player: Address | WalletClient,
  grant: SessionGrant,
): Promise<Hex> {
  return signSessionConsent(
    { signTypedData: (typedData) => key.signTypedData({ account: key.account, ...typedData }) },
    {
      chainId: await h.publicClient.getChainId(),
      hall: h.hall.address,
      player: typeof player === "string" ? player : player.account.address,
      grant,
    },
  );
}

export function walletOf(h: Hall, address: string): WalletClient {
  const w = h.wallets.find((wallet) => sameAddress(wallet.account.address, address));
  assert.ok(w, `no wallet for ${address}`);
  return w;
}

// ---------------------------------------------------------------------------------- lobby

export interface LobbyOptions {
  token?: Address;
  bet?: bigint;
  seats?: number;
  ruleSet?: number;
  joinWindow?: number;
  moveTimeout?: number;
  invitees?: Address[];
  /** What to send; by default the bet for the native coin and nothing for a token. */
  value?: bigint;
}

export function lobbyConfig(o: LobbyOptions = {}) {
  const token = o.token ?? NATIVE;
  return {
    token,
    bet: o.bet ?? (token === NATIVE ? BET : TOKEN_BET),
    seats: o.seats ?? 2,
    ruleSet: o.ruleSet ?? 0,
    joinWindow: o.joinWindow ?? JOIN_WINDOW,
    moveTimeout: o.moveTimeout ?? MOVE_TIMEOUT,
    invitees: o.invitees ?? [],
  };
}

function paymentFor(cfg: { token: Address; bet: bigint }, value?: bigint): bigint {
  return value ?? (cfg.token === NATIVE ? cfg.bet : 0n);
}

/** The createGame call, unsent, so a test can also expect it to revert. */
export function createGameTx(h: Hall, creator: WalletClient, o: LobbyOptions = {}) {
  const cfg = lobbyConfig(o);
  return h.hall.write.createGame([cfg], {
    account: creator.account,
    value: paymentFor(cfg, o.value),
  });
}

export async function openLobby(
  h: Hall,
  creator: WalletClient,
  o: LobbyOptions = {},
): Promise<{ gameId: bigint; receipt: TransactionReceipt }> {
  const receipt = await send(h, createGameTx(h, creator, o));
  const created = hallEvent(h, receipt, "GameCreated");
  return { gameId: created.gameId as bigint, receipt };
}

export function joinGameTx(h: Hall, gameId: bigint, player: WalletClient, value?: bigint) {
  return (async () => {
    const game = await h.hall.read.getGame([gameId]);
    const cfg = game.config as { token: Address; bet: bigint };
    return h.hall.write.joinGame([gameId], {
      account: player.account,
      value: paymentFor(cfg, value),
    });
  })();
}

export async function joinLobby(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  value?: bigint,
): Promise<TransactionReceipt> {
  return send(h, joinGameTx(h, gameId, player, value));
}

export interface StartedGame {
  gameId: bigint;
  /**
   * The players in the turn order the game's first roll will draw. The roll helpers below script
   * that roll's number so that it draws the join order, so this is the join order.
   */
  order: WalletClient[];
  /** The last join: the game is running, its order not drawn yet. */
  startReceipt: TransactionReceipt;
}

/** Opens a lobby for `o.seats` (default 2) of the given players and fills it (no roll yet). */
export async function startGame(
  h: Hall,
  o: LobbyOptions & { players?: WalletClient[] } = {},
): Promise<StartedGame> {
  const seats = o.seats ?? 2;
  const players = o.players ?? h.players.slice(0, seats);
  assert.equal(players.length, seats);
  const { gameId } = await openLobby(h, players[0], { ...o, seats });
  let startReceipt: TransactionReceipt | undefined;
  for (const p of players.slice(1)) startReceipt = await joinLobby(h, gameId, p);
  assert.ok(startReceipt);
  assert.equal(
    hallEvents(h, startReceipt, "GameStarted").length,
    0,
    "the first roll draws the order",
  );
  return { gameId, order: players, startReceipt };
}

// ---------------------------------------------------------------------------------- turns

export async function gameView(h: Hall, gameId: bigint) {
  return h.hall.read.getGame([gameId]);
}

export async function playerView(h: Hall, gameId: bigint, player: WalletClient | Address) {
  const address = typeof player === "string" ? player : player.account.address;
  return h.hall.read.getPlayer([gameId, address]);
}

/** Whose turn it is, by the contract's own view. */
export async function currentPlayer(h: Hall, gameId: bigint): Promise<WalletClient> {
  const game = await gameView(h, gameId);
  return walletOf(h, game.players[game.currentSeat]);
}

export function rollTx(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  value?: bigint,
) {
  return (async () => {
    const fee = value ?? (await h.hall.read.gameRollFee([gameId]));
    return h.hall.write.roll([gameId, keepMask], { account: player.account, value: fee });
  })();
}

/** Asks for a roll; returns the Entropy sequence number that will answer it. */
export async function requestRoll(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  value?: bigint,
): Promise<{ sequenceNumber: bigint; receipt: TransactionReceipt }> {
  const receipt = await send(h, rollTx(h, gameId, player, keepMask, value));
  const requested = hallEvent(h, receipt, "RollRequested");
  assert.equal(requested.keepMask, keepMask);
  assert.ok(sameAddress(requested.player as string, player.account.address));
  return { sequenceNumber: requested.sequenceNumber as bigint, receipt };
}

/**
 * Entropy answers a request (through whichever mock the hall uses). The model answers with its
 * provider's revelation, so its number is not `r` (DiceRolled says which it is).
 */
export async function reveal(h: Hall, sequenceNumber: bigint, r: Hex): Promise<TransactionReceipt> {
  if (h.model) return send(h, revealTx(h.model, h.provider, sequenceNumber));
  if (h.pricedEntropy) return send(h, h.pricedEntropy.write.reveal([sequenceNumber, r]));
  assert.equal(h.entropyKind, "mock", "a silent Entropy never answers");
  return send(h, h.entropy.write.mockReveal([h.provider, sequenceNumber, r]));
}

export interface Rolled {
  dice: number[];
  /** The number the dice came from: `r`, except on the model. */
  randomNumber: Hex;
  rollNumber: number;
  sequenceNumber: bigint;
  receipt: TransactionReceipt;
}

/**
 * Rolls and has Entropy answer with `r`; returns the dice DiceRolled announced. On a game's first
 * roll `player` is the one who moves first, and `r` must draw the join order (see `keepsJoinOrder`),
 * so that the order startGame returned stays true. On the model `r` is not used: the number is the
 * provider's, a first roll draws whatever order it draws, and its dice are the drawn first player's.
 */
export async function rollRandom(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  r: Hex,
): Promise<Rolled> {
  const game = await gameView(h, gameId);
  const scripted = !h.model;
  if (!game.orderDrawn && scripted) {
    assert.ok(
      keepsJoinOrder(game.players.length)(r),
      "a first roll's number must draw the join order",
    );
  }
  const { sequenceNumber } = await requestRoll(h, gameId, player, keepMask);
  const receipt = await reveal(h, sequenceNumber, r);
  if (!game.orderDrawn) {
    const started = hallEvent(h, receipt, "GameStarted");
    if (scripted) assert.deepEqual(started.order, game.players, "the draw kept the join order");
  }
  const rolled = hallEvent(h, receipt, "DiceRolled");
  assert.equal(rolled.gameId, gameId);
  if (scripted || game.orderDrawn) {
    assert.ok(sameAddress(rolled.player as string, player.account.address));
  }
  assert.equal(rolled.sequenceNumber, sequenceNumber);
  if (scripted) assert.equal(rolled.randomNumber, r);
  return {
    dice: [...(rolled.dice as readonly number[])],
    randomNumber: rolled.randomNumber as Hex,
    rollNumber: Number(rolled.rollNumber),
    sequenceNumber,
    receipt,
  };
}

/**
 * Rolls so that the dice come out as `dice`: the kept positions must already show their face,
 * the others are scripted through the random number Entropy reveals.
 */
export async function rollWith(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  dice: readonly number[],
): Promise<Rolled> {
  assert.ok(!h.model, "the model's dice cannot be scripted: use rollRandom");
  if (keepMask !== 0) {
    const sheet = await playerView(h, gameId, player);
    for (let i = 0; i < 5; i++) {
      if (((keepMask >> i) & 1) === 1) {
        assert.equal(sheet.dice[i], dice[i], `die ${i} is kept, so it cannot change`);
      }
    }
  }
  const game = await gameView(h, gameId);
  const accept = game.orderDrawn ? undefined : keepsJoinOrder(game.players.length);
  const rolled = await rollRandom(
    h,
    gameId,
    player,
    keepMask,
    randomForRoll(keepMask, dice, accept),
  );
  assert.deepEqual(rolled.dice, [...dice]);
  return rolled;
}

export interface ScoredBox {
  points: number;
  bonus: number;
  receipt: TransactionReceipt;
}

export function scoreTx(h: Hall, gameId: bigint, player: WalletClient, box: number) {
  return h.hall.write.score([gameId, box], { account: player.account });
}

export async function scoreBox(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  box: number,
): Promise<ScoredBox> {
  const receipt = await send(h, scoreTx(h, gameId, player, box));
  const scored = hallEvent(h, receipt, "Scored");
  assert.equal(scored.gameId, gameId);
  assert.ok(sameAddress(scored.player as string, player.account.address));
  assert.equal(Number(scored.category), box);
  return { points: Number(scored.points), bonus: Number(scored.bonus), receipt };
}

/** One whole turn with scripted dice: a single roll showing `dice`, then `box`. */
export async function playTurn(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  dice: readonly number[],
  box: number,
): Promise<ScoredBox> {
  await rollWith(h, gameId, player, 0, dice);
  return scoreBox(h, gameId, player, box);
}

/** Pot, fee and each winner's share as PROTOCOL.md "Settlement" computes them. */
export function settlement(bet: bigint, seats: number, feeBps: number, winners: number) {
  const pot = bet * BigInt(seats);
  const fee = (pot * BigInt(feeBps)) / 10_000n;
  const payoutEach = (pot - fee) / BigInt(winners);
  const remainder = pot - fee - payoutEach * BigInt(winners);
  return { pot, fee, payoutEach, remainder };
}

export async function credits(h: Hall, token: Address, who: WalletClient | Address) {
  const address = typeof who === "string" ? who : who.account.address;
  return h.hall.read.credits([token, address]);
}

/** What the hall holds in a token (or the native coin). */
export async function hallBalance(h: Hall, token: Address = NATIVE): Promise<bigint> {
  if (token === NATIVE) return h.publicClient.getBalance({ address: h.hall.address });
  return h.publicClient.readContract({
    address: token,
    abi: h.token.abi,
    functionName: "balanceOf",
    args: [h.hall.address],
  }) as Promise<bigint>;
}

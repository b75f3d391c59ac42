// What a session key needs for one game or a whole match (issue 33: one confirmation for every
// game of it), in pure numbers. Since issue 43 the key holds only a float (a move or two of gas);
// the rest of the session's coin, the roll fees and the rest of the key's gas, stays in the hall in
// the session's slot, which the key refuels from (refuelKey) and which the hall pays back to the
// player when the session ends. The app shows these before the wallet opens.
import { ROLL_GAS_HEADROOM } from "./gas.ts";

/** The contract's bound on a session: at most 7 days from now. */
export const MAX_SESSION_SECONDS = 7 * 86_400;
/** The shortest session the app opens: long enough for a quick game with a slow opponent. */
export const MIN_SESSION_SECONDS = 3_600;

/**
 * Gas one key move uses, rounded up from `npm run gas`: a key's roll is 107 218 on MockEntropy and
 * 138 050 on our Entropy model (a paid request, as on a real chain); a score ≤ 50 000.
 */
export const KEY_GAS_PER_ROLL = 145_000n;
export const KEY_GAS_PER_SCORE = 60_000n;
/** Claiming a timeout, or a payout the key sends itself (the hall's keeper sends the usual one). */
export const KEY_GAS_PER_OTHER = 80_000n;
/** What a refuelKey call uses (about 40 000) and the gas limit the app sends it with. */
export const REFUEL_GAS = 45_000n;
export const REFUEL_GAS_LIMIT = 60_000n;
/**
 * The gas limit a key's roll is sent with: its gas and ROLL_GAS_HEADROOM. A node takes a
 * transaction only from a sender that can pay its whole gas limit at its max fee per gas, so this
 * at the session's max fee is the least a key must hold to roll.
 */
export const KEY_ROLL_GAS_LIMIT = KEY_GAS_PER_ROLL + ROLL_GAS_HEADROOM;
/**
 * The key's float, in gas: a roll's gas limit (the floor), one more roll's gas (so the key refuels
 * at most every other move, not before each one) and a refuel's limit (so it can always send the
 * refuel). 500 000 gas, under two rolls' gas limits (590 000): what the key holds when its session
 * ends is no more than two moves' gas at the session's price.
 */
export const KEY_FLOAT_GAS = KEY_ROLL_GAS_LIMIT + KEY_GAS_PER_ROLL + REFUEL_GAS_LIMIT;
/** Kept for the table's "running low" test: what a key must hold to send a roll. */
export const KEY_GAS_RESERVE = KEY_ROLL_GAS_LIMIT;
/**
 * The session's max fee per gas is today's gas price and this much on top (percent): a node
 * checks a sender's balance at the max fee a wallet offers (viem's: 1.2 × the base fee and the
 * tip), and the base fee may rise during a game.
 */
export const SESSION_MARGIN_PERCENT = 25n;
/** The roll fees set aside get this much on top (percent), the margin every roll is sent with. */
export const ROLL_FEE_MARGIN_PERCENT = 10n;
/** A roll asked again when the randomness is late, a couple of times a game at most. */
export const ASK_AGAIN_ROLLS = 2;
/**
 * Rolls a turn takes on average, in quarters: 2.75. Three is the most; a player who keeps a
 * straight, a full house or a Yahtzee stops early, and one who fills a box in the last turns
 * often does. The ask is sized by this; when a player rolls more, the table offers a top-up.
 */
export const EXPECTED_QUARTER_ROLLS_PER_TURN = 11;

/** The most rolls one player can make in a game with `boxes` boxes: 3 a turn, plus the order draw and asking again. */
export function rollsForGame(boxes: number): number {
  return boxes * 3 + 1 + ASK_AGAIN_ROLLS;
}

/** The rolls one player's game of `boxes` boxes is expected to take: the order draw and its turns. */
export function expectedRollsForGame(boxes: number): number {
  return Math.ceil((boxes * EXPECTED_QUARTER_ROLLS_PER_TURN) / 4) + 1;
}

/** What one player's game costs beyond the bet, in the chain's coin; none of it comes back. */
export interface GameCost {
  /** Every roll's randomness fee at today's fee. */
  fees: bigint;
  /** Every move's gas at today's gas price. */
  gas: bigint;
  total: bigint;
}

export interface SessionNeeds {
  /** The rolls the ask is sized for (expected); the key may make more while its slot lasts. */
  rolls: number;
  /**
   * The session's slot (the grant's feeAllowance): set aside in the hall for the key's roll fees
   * and its gas beyond the float, which the key refuels from.
   */
  feeDeposit: bigint;
  /** The key's float (the grant's keyGas): sent to the key now, and what refuelKey tops it up to. */
  keyGas: bigint;
  /** The session's max fee per gas, which the float is sized at. */
  maxFeePerGas: bigint;
  /** What the game is expected to cost at today's prices (what the ask is sized by). */
  expected: GameCost;
}

const GWEI = 1_000_000_000n;
const withPercent = (value: bigint, percent: bigint) => value + (value * percent) / 100n;
const roundUpGwei = (wei: bigint) => ((wei + GWEI - 1n) / GWEI) * GWEI;

/** The gas a key spends on `rolls` rolls and `scores` scores, its refuels (one every other move) and a claim. */
function keyGasUsed(rolls: bigint, scores: bigint): bigint {
  const refuels = (rolls + scores + 1n) / 2n;
  return (
    rolls * KEY_GAS_PER_ROLL + scores * KEY_GAS_PER_SCORE + refuels * REFUEL_GAS + KEY_GAS_PER_OTHER
  );
}

/** The key's float at `maxFeePerGas`, in whole gwei as the hall keeps it. */
export function keyFloat(maxFeePerGas: bigint): bigint {
  return roundUpGwei(KEY_FLOAT_GAS * maxFeePerGas);
}

/**
 * What a key needs for `rolls` rolls and `scores` scores at today's `rollFee` and `gasPrice`: the
 * float at the session's max fee per gas (SESSION_MARGIN_PERCENT over today's price), and a slot
 * holding the roll fees (ROLL_FEE_MARGIN_PERCENT on top) and the rest of the moves' gas at today's
 * price. So the ask is what the game is expected to cost (and a small float), not the worst case:
 * a player who rolls more, or meets dearer gas, is offered a top-up between moves. Everything
 * unspent comes back: the slot when the session ends, the float by the key.
 */
export function sessionNeeds({
  rolls,
  scores,
  rollFee,
  gasPrice,
}: {
  rolls: number;
  scores: number;
  rollFee: bigint;
  gasPrice: bigint;
}): SessionNeeds {
  const maxFeePerGas = withPercent(gasPrice, SESSION_MARGIN_PERCENT);
  const keyGas = keyFloat(maxFeePerGas);
  const fees = BigInt(rolls) * rollFee;
  const gas = keyGasUsed(BigInt(rolls), BigInt(scores)) * gasPrice;
  return {
    rolls,
    // The float is gas too: the slot holds the rest of the moves' gas beyond it.
    feeDeposit: withPercent(fees, ROLL_FEE_MARGIN_PERCENT) + (gas > keyGas ? gas - keyGas : 0n),
    keyGas,
    maxFeePerGas,
    expected: { fees, gas, total: fees + gas },
  };
}

/**
 * A whole match's needs for a sheet of `boxes` boxes: `games` games (1 = a single game), each
 * with its order draw and turns at the expected rolls a turn; one claim at the match's end.
 */
export function gameSessionNeeds(
  boxes: number,
  rollFee: bigint,
  gasPrice: bigint,
  games = 1,
): SessionNeeds {
  return sessionNeeds({
    rolls: games * expectedRollsForGame(boxes),
    scores: games * boxes,
    rollFee,
    gasPrice,
  });
}

/**
 * The most one player's game of `boxes` boxes costs beyond the bet at today's `rollFee` and
 * `gasPrice`, with no margin: every roll a game can take (rollsForGame), every score and the
 * refuels between them, and a claim; a match of `games` games costs that many times as much. What
 * the player is shown beside the bet (and beside the expected cost), and warned of when the bet is
 * smaller.
 */
export function gameCost(boxes: number, rollFee: bigint, gasPrice: bigint, games = 1): GameCost {
  const rolls = BigInt(rollsForGame(boxes) * games);
  const fees = rolls * rollFee;
  const gas = keyGasUsed(rolls, BigInt(boxes * games)) * gasPrice;
  return { fees, gas, total: fees + gas };
}

/**
 * When a session opened now for a game or a match of `games` games ends (unix seconds): the join
 * window, then every seat's every turn of every game at the longest allowed move time, bounded to [MIN_SESSION_SECONDS, MAX_SESSION_SECONDS]
 * (a minute short of the contract's bound, so a block a little later still accepts it).
 */
export function sessionExpiry({
  nowSec,
  joinWindow,
  moveTimeout,
  seats,
  boxes,
  games = 1,
}: {
  nowSec: number;
  joinWindow: number;
  moveTimeout: number;
  seats: number;
  boxes: number;
  games?: number;
}): number {
  const wanted = joinWindow + games * seats * boxes * moveTimeout;
  const bounded = Math.min(MAX_SESSION_SECONDS - 60, Math.max(MIN_SESSION_SECONDS, wanted));
  return Math.floor(nowSec) + bounded;
}

/** Why a key needs topping up before its next move; null when it has enough. */
export type LowOn = "gas" | "allowance" | "credit";

/**
 * Whether the key runs low: what it holds and what its slot holds beyond `ahead` roll fees cannot
 * pay `ahead` more rolls and scores (gas: the key refuels from the slot), or cannot pay a refuel
 * (the key itself); or the slot cannot pay `ahead` more roll fees (allowance; `credit` is what
 * stands behind it, the slot itself since issue 24). Asked between moves, so the top-up comes
 * before the key runs out, never in the middle of a roll.
 */
export function sessionLowOn({
  keyBalance,
  allowanceLeft,
  credit,
  rollFee,
  gasPrice,
  ahead = 3,
}: {
  keyBalance: bigint;
  allowanceLeft: bigint;
  credit: bigint;
  rollFee: bigint;
  gasPrice: bigint;
  ahead?: number;
}): LowOn | null {
  const fees = BigInt(ahead) * rollFee;
  const slotForGas = allowanceLeft > fees ? allowanceLeft - fees : 0n;
  const gasNeeded =
    (BigInt(ahead) * (KEY_GAS_PER_ROLL + KEY_GAS_PER_SCORE + REFUEL_GAS) + ROLL_GAS_HEADROOM) *
    gasPrice;
  if (keyBalance < REFUEL_GAS_LIMIT * gasPrice || keyBalance + slotForGas < gasNeeded) return "gas";
  if (allowanceLeft < fees) return "allowance";
  if (credit < fees) return "credit";
  return null;
}

/**
 * Whether a key must refuel before it sends a move: a node takes the move only if the key can pay
 * its whole gas limit at the max fee per gas it offers, and the move's value.
 */
export function keyNeedsRefuel({
  balance,
  gasLimit,
  maxFeePerGas,
  value = 0n,
}: {
  balance: bigint;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  value?: bigint;
}): boolean {
  return balance < gasLimit * maxFeePerGas + value;
}

/** The gas of a plain transfer: what sending the leftover back costs. */
export const TRANSFER_GAS = 21_000n;

/**
 * What the key can send back to its player in a transfer priced at exactly `gasPrice` (a legacy
 * transaction pays its price, no more, so the key ends at zero): its balance less that transfer's
 * gas; 0 when that would leave nothing.
 */
export function leftoverGas(balance: bigint, gasPrice: bigint): bigint {
  const cost = TRANSFER_GAS * gasPrice;
  return balance > cost ? balance - cost : 0n;
}

/**
 * Whether the key can make this one move itself: the slot covers a roll's fee, and the key can pay
 * the move's gas limit, at once or after a refuel from the slot (which it must be able to send).
 * When not, the move goes through the wallet (and the table offers a top-up).
 */
export function keyCanMove(
  move: "roll" | "score" | "claim",
  funds: {
    keyBalance: bigint;
    allowanceLeft: bigint;
    credit: bigint;
    rollFee: bigint;
    gasPrice: bigint;
  },
): boolean {
  const { keyBalance, allowanceLeft, credit, gasPrice } = funds;
  const fee = move === "roll" ? funds.rollFee : 0n;
  if (allowanceLeft < fee || credit < fee) return false;
  const gas = (move === "roll" ? KEY_ROLL_GAS_LIMIT : KEY_GAS_PER_OTHER) * gasPrice;
  if (keyBalance >= gas) return true;
  return keyBalance >= REFUEL_GAS_LIMIT * gasPrice && keyBalance + allowanceLeft - fee >= gas;
}

// What a session key needs for one game or a whole match (issue 33: one confirmation for every
// game of it), in pure numbers: how many rolls and moves a game can
// take, the roll fees to put into the player's credit (and the allowance the key may spend of it),
// the gas to forward to the key, and how long the session lasts. The app shows these before the
// wallet opens; whatever is not spent comes back to the player at the end of the game.

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
/** Claiming a timeout, paying out the winnings (one per token), sending the leftover gas back. */
export const KEY_GAS_PER_OTHER = 80_000n;
/**
 * What the key must hold on top to send its last roll: a node checks that the sender can pay the
 * whole gas limit (the estimate plus ROLL_GAS_HEADROOM) at the offered price before it accepts it.
 */
export const KEY_GAS_RESERVE = 300_000n;
/** Roll fees and gas prices can rise during a game: the deposit and the key's gas get this much on top (percent). */
export const SESSION_MARGIN_PERCENT = 50n;
/** A roll asked again when the randomness is late, a couple of times a game at most. */
export const ASK_AGAIN_ROLLS = 2;

/** The most rolls one player can make in a game with `boxes` boxes: 3 a turn, plus the order draw and asking again. */
export function rollsForGame(boxes: number): number {
  return boxes * 3 + 1 + ASK_AGAIN_ROLLS;
}

export interface SessionNeeds {
  /** The most rolls the key may make. */
  rolls: number;
  /** Roll fees put into the player's credit for the key to spend (also the allowance). */
  feeDeposit: bigint;
  /** Native coin forwarded to the key for its own gas. */
  keyGas: bigint;
}

const withMargin = (value: bigint) => value + (value * SESSION_MARGIN_PERCENT) / 100n;

/**
 * What a key needs to play `rolls` rolls and `scores` scores (plus a timeout claim and the payouts
 * at the end) at today's `rollFee` and `gasPrice` (wei per gas), with SESSION_MARGIN_PERCENT on top.
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
  const gas =
    BigInt(rolls) * KEY_GAS_PER_ROLL +
    BigInt(scores) * KEY_GAS_PER_SCORE +
    4n * KEY_GAS_PER_OTHER +
    KEY_GAS_RESERVE;
  return {
    rolls,
    feeDeposit: withMargin(BigInt(rolls) * rollFee),
    keyGas: withMargin(gas * gasPrice),
  };
}

/**
 * A whole match's needs for a sheet of `boxes` boxes: `games` games (1 = a single game), each
 * with its own order draw and turns; one timeout claim and the payouts once, at the match end.
 */
export function gameSessionNeeds(
  boxes: number,
  rollFee: bigint,
  gasPrice: bigint,
  games = 1,
): SessionNeeds {
  return sessionNeeds({
    rolls: games * rollsForGame(boxes),
    scores: games * boxes,
    rollFee,
    gasPrice,
  });
}

/** What one player's game costs beyond the bet, in the chain's coin; none of it comes back. */
export interface GameCost {
  /** Every roll's randomness fee at today's fee. */
  fees: bigint;
  /** Every move's gas at today's gas price. */
  gas: bigint;
  total: bigint;
}

/**
 * The most one player's game of `boxes` boxes costs beyond the bet at today's `rollFee` and
 * `gasPrice`, with no margin: every roll a game can take (rollsForGame) and every score, a claim
 * and the payouts; a match of `games` games costs that many times as much. What the player is
 * shown beside the bet, and warned of when the bet is smaller.
 */
export function gameCost(boxes: number, rollFee: bigint, gasPrice: bigint, games = 1): GameCost {
  const rolls = BigInt(rollsForGame(boxes));
  const fees = rolls * rollFee * BigInt(games);
  const gas =
    (rolls * KEY_GAS_PER_ROLL + BigInt(boxes) * KEY_GAS_PER_SCORE + 2n * KEY_GAS_PER_OTHER) *
    gasPrice *
    BigInt(games);
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
 * Whether the key runs low: it can no longer pay for `ahead` more rolls and scores (gas), or
 * spend `ahead` more roll fees (allowance, or the player's credit behind it). Asked between
 * moves, so the top-up comes before the key runs out, never in the middle of a roll.
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
  const gasNeeded =
    (BigInt(ahead) * (KEY_GAS_PER_ROLL + KEY_GAS_PER_SCORE) + KEY_GAS_RESERVE) * gasPrice;
  if (keyBalance < gasNeeded) return "gas";
  const fees = BigInt(ahead) * rollFee;
  if (allowanceLeft < fees) return "allowance";
  if (credit < fees) return "credit";
  return null;
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
 * Whether the key can make this one move itself: its gas covers it, and for a roll the allowance
 * and the credit cover the fee. When not, the move goes through the wallet (and the table offers
 * a top-up).
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
  return (
    sessionLowOn({ ...funds, rollFee: move === "roll" ? funds.rollFee : 0n, ahead: 1 }) === null
  );
}

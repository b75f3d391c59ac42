import {
  BaseError,
  ChainMismatchError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  formatEther,
  HttpRequestError,
  InsufficientFundsError,
  maxUint256,
  RpcError,
  TimeoutError,
  TransactionReceiptNotFoundError,
  UserRejectedRequestError,
  WaitForTransactionReceiptTimeoutError,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { diceHallAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";
import { formatDuration, formatTimestamp, shortAddress } from "@dicehall/core/game/format.ts";

/** What the sentences may need to speak about addresses, amounts and boxes in player words. */
export interface ErrorContext {
  /** "You", "Alice", or 0x1234…abcd. */
  name?: (account: Address) => string;
  /** An amount of the game's token, e.g. "0.01 ETH". */
  amount?: (value: bigint) => string;
  /** A box index as the sheet calls it. */
  boxName?: (box: number) => string;
  /** What pays for gas here, e.g. "ETH". */
  nativeSymbol?: string;
}

export type PlayerErrorKind =
  "revert" | "rejected" | "funds" | "network" | "refused" | "dropped" | "other";

export interface PlayerError {
  kind: PlayerErrorKind;
  message: string;
  /** The contract's custom error, when there was one. */
  errorName?: string;
}

/** Every error a hall transaction can revert with: DiceHall's own, then the token's. */
const errorAbi = [...diceHallAbi, ...testTokenAbi].filter((item) => item.type === "error") as Abi;

type Args = readonly unknown[];
type Sentence = (args: Args, ctx: Required<ErrorContext>) => string;

const STATUS_WORDS = ["does not exist", "still open", "being played", "finished", "cancelled"];
const statusWords = (status: unknown) => STATUS_WORDS[Number(status)] ?? "not in that state";
const game = (id: unknown) => `game #${String(id)}`;
const when = (seconds: unknown) => formatTimestamp(BigInt(seconds as bigint));
const big = (v: unknown) => BigInt(v as bigint);
/** "dice 1 and 3 kept" / "no dice kept", for a keep mask (bit i keeps die i + 1). */
const keptList = (mask: number) => {
  const kept = [0, 1, 2, 3, 4].filter((i) => (mask >> i) & 1).map((i) => String(i + 1));
  if (kept.length === 0) return "no dice kept";
  const last = kept.pop();
  return `${kept.length ? `dice ${kept.join(", ")} and ${last}` : `die ${last}`} kept`;
};

/** One sentence per error name, in the words of someone at the table. */
export const REVERT_SENTENCES: Record<string, Sentence> = {
  // Rules and sheet
  UnknownRuleSet: ([id]) => `There is no rule set number ${String(id)}.`,
  BoxOutOfRange: ([, box]) => `Box ${String(box)} is not on this score sheet.`,
  InvalidDie: () => "Dice must show 1 to 6.",
  // Lobby
  UnknownGame: ([id]) => `There is no ${game(id)}.`,
  GameNotOpen: ([id, status]) =>
    `You can no longer join or leave ${game(id)}: it is ${statusWords(status)}.`,
  GameNotRunning: ([id, status]) =>
    `${capital(game(id))} is not being played: it is ${statusWords(status)}.`,
  JoinWindowClosed: ([id, at]) => `The join window of ${game(id)} closed at ${when(at)}.`,
  JoinWindowStillOpen: ([, at]) =>
    `Only the creator can cancel before the join window closes at ${when(at)}.`,
  NotInvited: () => "This table is private and you are not on its invite list.",
  AlreadyJoined: () => "You already have a seat at this table.",
  NotInGame: () => "You don't have a seat at this table.",
  TokenNotAllowed: () => "The hall does not accept bets in this token.",
  BetOutOfRange: ([bet, min, max], c) =>
    `A bet of ${c.amount(big(bet))} is not allowed: it must be between ${c.amount(big(min))} and ${c.amount(big(max))}.`,
  SeatsOutOfRange: ([seats]) => `A table has 2 to 4 seats, not ${String(seats)}.`,
  GamesOutOfRange: ([games]) => `A match has 1 to 10 games, not ${String(games)}.`,
  JoinWindowOutOfRange: ([, min, max]) =>
    `The join window must be between ${formatDuration(Number(min))} and ${formatDuration(Number(max))}.`,
  MoveTimeoutOutOfRange: ([, min, max]) =>
    `The time per move must be between ${formatDuration(Number(min))} and ${formatDuration(Number(max))}.`,
  TooManyInvitees: ([, max]) => `You can invite at most ${String(max)} players.`,
  NotEnoughInvitees: ([count, open]) =>
    `Invite at least ${String(open)} players to fill the other seats (you listed ${String(count)}), or leave the list empty for a public table.`,
  InvalidInvitee: ([invitee], c) =>
    `${c.name(invitee as Address)} can't be invited: an invitee must be a real address, not you, and listed once.`,
  WrongPayment: ([sent, expected], c) =>
    `The payment was ${c.amount(big(sent))} but this costs exactly ${c.amount(big(expected))}.`,
  TransferAmountMismatch: () =>
    "The token moved a different amount than the bet. Tokens that take a fee on transfer can't be used.",
  // Turns
  NotYourTurn: ([, expected], c) =>
    `It's not your turn — waiting for ${c.name(expected as Address)}.`,
  RollPending: ([, seq, retryAt]) =>
    big(seq) !== 0n
      ? `The dice are still waiting for randomness (request #${String(seq)}). It is never asked again: its number will be delivered, by the provider, the hall's keeper or any player's app; if it never comes, the game can be called off.`
      : big(retryAt) !== 0n
        ? `The randomness provider refused this roll a moment ago. Anyone can ask again from ${when(retryAt)}.`
        : "The randomness provider refused this roll, and the last hour of the game's call-off window takes no new request: it can only be delivered or, once the window ends, called off.",
  NoRollsLeft: () => "You have used all three rolls — choose a box to score.",
  FirstRollKeepsNone: () => "The first roll of a turn rolls all five dice — release the kept dice.",
  InvalidKeepMask: () => "A re-roll must roll at least one die — release a kept die.",
  InsufficientRollFee: ([, fee], c) =>
    `The randomness fee is now ${c.amount(big(fee))}, more than was sent. Please roll again.`,
  NotRolledYet: () => "Roll the dice before choosing a box.",
  BoxFilled: ([box], c) => `${c.boxName(Number(box))} is already filled.`,
  JokerForbidsBox: ([box], c) =>
    `The Joker rule doesn't allow ${c.boxName(Number(box))} for this five of a kind.`,
  DeadlineNotPassed: ([, deadline]) =>
    `The player still has time: their move deadline is ${when(deadline)}.`,
  NotEntropy: () => "Only the randomness provider can deliver dice.",
  KeepMaskLocked: ([, mask]) =>
    `Asking again keeps the same dice as the first request (${keptList(Number(mask))}). Nothing was sent.`,
  CallOffWindowOver: ([, at]) =>
    `The randomness service is not answering, and this roll can no longer be asked again: the last hour of the game's call-off window takes no new request, so the last one has time to be delivered. The game can be called off from ${when(at)}: everyone still in then gets an equal share of the pot back.`,
  RollFeeAboveCap: ([fee, cap], c) => {
    const coin = (v: bigint) => `${formatEther(v)} ${c.nativeSymbol}`;
    const asked = big(fee) === maxUint256 ? "more than any cap" : coin(big(fee));
    return `The randomness provider asks ${asked} for a roll, above this game's cap of ${coin(big(cap))}. The roll counts as refused and your payment was credited back; anyone can ask for it again.`;
  },
  EntropyCallFailed: () =>
    "The randomness request failed without a refusal we can count (it may have run out of gas). Nothing changed; please roll again (your wallet may need a higher gas limit).",
  NotDefaultProvider: ([provider, defaultProvider]) =>
    `The hall follows Pyth Entropy's default provider only (${String(defaultProvider)}), not ${String(provider)}.`,
  // Money
  NothingToWithdraw: () => "You have nothing to withdraw in this token.",
  NativeTransferFailed: () =>
    "Sending the coins to your address failed. Your credit is kept; try again.",
  TreasuryInsufficient: () => "The treasury holds less than that.",
  // Credit and session keys
  InsufficientCredit: ([, needed, available], c) =>
    `Your credit in the hall holds ${c.amount(big(available))}, but this needs ${c.amount(big(needed))}: ${c.amount(big(needed) - big(available))} short. Nothing was sent.`,
  SessionExpired: ([, at]) =>
    `This browser's session key ended at ${when(at)}. Nothing was sent; your wallet signs the moves from now on.`,
  SessionTooLong: ([, latest]) =>
    `A session key can last at most 7 days (until ${when(latest)}). Nothing was sent.`,
  SessionAllowanceExceeded: ([, fee, left], c) =>
    `The session key may spend ${c.amount(big(left))} more on roll fees, less than this roll's ${c.amount(big(fee))}. Top it up (one confirmation) or roll from your wallet.`,
  KeyFull: () =>
    "This browser's session key already holds its float of gas; it takes nothing more from the hall.",
  PayoutGasTooLow: () =>
    "That payout was sent with too little gas for the receiver to take it. Nothing moved; send it again with the gas your wallet suggests.",
  AmountTooLarge: () =>
    "That amount is larger than the hall can keep in a credit. Nothing was sent.",
  NotSessionKey: () =>
    "Only your live session key can pay your credit out this way. Withdraw it from your wallet instead.",
  InvalidSessionKey: () =>
    "That session key can't be used: it is missing, your own address, or already another player's key. Nothing was sent.",
  SessionAllowanceTooLarge: ([, max], c) =>
    `A session can set aside at most ${c.amount(big(max))} for roll fees. Nothing was sent.`,
  InvalidSessionConsent: () =>
    "The session key's signature of its consent did not match this grant (it was signed for another player, hall or amount). Nothing was sent; please try again.",
  GameNotOver: ([gameId]) =>
    `Game #${String(gameId)} is still open or running: its players' credit is paid out once it is over. Nothing was sent.`,
  NotTheHall: () =>
    "That call reached the hall's inner code directly, not through the hall. Nothing was sent.",
  // Owner settings
  FeeAboveCap: ([, cap]) => `The house fee can't be above ${Number(cap) / 100}%.`,
  InvalidBounds: () => "The lower bound must be above zero and not above the upper bound.",
  InvalidBetLimits: () => "The bet limits are empty: the minimum must not exceed the maximum.",
  InvalidSetting: ([value]) =>
    `That setting (${String(value)}) is out of range: the entropy timeout is at least 30 minutes, the callback gas 60 000 to 2 500 000.`,
  ZeroAddress: () => "An address is missing.",
  // OpenZeppelin
  OwnableUnauthorizedAccount: () => "Only the hall's owner can do this.",
  OwnableInvalidOwner: () => "That owner address is not valid.",
  EnforcedPause: () =>
    "The hall is paused: no new tables or joins for now. Games in play, refunds and withdrawals go on.",
  ExpectedPause: () => "The hall is not paused.",
  ReentrancyGuardReentrantCall: () => "The call tried to re-enter the hall and was refused.",
  SafeERC20FailedOperation: () => "The token transfer failed — check your balance and approval.",
  ERC20InsufficientBalance: ([, balance, needed], c) =>
    `Your token balance (${c.amount(big(balance))}) is less than the ${c.amount(big(needed))} needed.`,
  ERC20InsufficientAllowance: ([, allowance, needed], c) =>
    `The hall may only take ${c.amount(big(allowance))} of your tokens; approve ${c.amount(big(needed))} first.`,
  ERC20InvalidApprover: () => "The token refused the approval.",
  ERC20InvalidSpender: () => "The token refused the approval.",
  ERC20InvalidSender: () => "The token refused the transfer.",
  ERC20InvalidReceiver: () => "The token refused the transfer.",
};

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fullContext(ctx: ErrorContext): Required<ErrorContext> {
  return {
    name: ctx.name ?? shortAddress,
    amount: ctx.amount ?? ((v: bigint) => `${v.toString()} (smallest units)`),
    boxName: ctx.boxName ?? ((box: number) => `Box ${box}`),
    nativeSymbol: ctx.nativeSymbol ?? "ETH",
  };
}

/** The sentence for one custom error; unknown names get a plain fallback. */
export function revertSentence(errorName: string, args: Args = [], ctx: ErrorContext = {}): string {
  const sentence = REVERT_SENTENCES[errorName];
  if (!sentence) return `The hall refused this move (${errorName}).`;
  try {
    return sentence(args, fullContext(ctx));
  } catch {
    return `The hall refused this move (${errorName}).`;
  }
}

/** Decodes raw revert data against every error the hall's calls can raise. */
export function decodeRevert(data: Hex): { errorName: string; args: Args } | null {
  try {
    const decoded = decodeErrorResult({ abi: errorAbi, data });
    return { errorName: decoded.errorName, args: (decoded.args ?? []) as Args };
  } catch {
    return null;
  }
}

function hasCode(error: unknown, code: number): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * The local node's (EDR's) refusal of a transaction its sender can't pay for: "Sender doesn't have
 * enough funds to send tx. The max upfront cost is: <wei> and the sender's balance is: <wei>." It is
 * not a revert, and viem's InsufficientFundsError doesn't know these words: they reach the player
 * raw, or as "The hall refused this move" when a simulation wraps them.
 */
const NODE_FUNDS =
  /sender doesn't have enough funds to send tx\.?(?: the max upfront cost is: (\d+) and the sender's (?:balance is|account only has):? (\d+))?/i;

function errorTexts(error: unknown): string[] {
  const texts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 10; depth++) {
    const { message, details, shortMessage, reason } = e as Record<string, unknown>;
    for (const t of [message, details, shortMessage, reason])
      if (typeof t === "string") texts.push(t);
    e = (e as { cause?: unknown }).cause;
  }
  return texts;
}

/** The node's "not enough funds" refusal in words, with the amounts when it gave them. */
function nodeFundsMessage(error: unknown, nativeSymbol: string): string | null {
  for (const text of errorTexts(error)) {
    const match = NODE_FUNDS.exec(text);
    if (!match) continue;
    const [, cost, balance] = match;
    if (cost === undefined || balance === undefined) {
      return `Your wallet doesn't have enough ${nativeSymbol} to pay for this and its network fee. Nothing was sent.`;
    }
    const coin = (v: string) => `${formatEther(BigInt(v))} ${nativeSymbol}`;
    return `Your wallet has ${coin(balance)}, but this needs up to ${coin(cost)} with its network fee. Nothing was sent.`;
  }
  return null;
}

/** Any error from a read, a simulation, a wallet or a receipt, in a player's words. */
export function describeError(error: unknown, ctx: ErrorContext = {}): PlayerError {
  const c = fullContext(ctx);
  const funds = nodeFundsMessage(error, c.nativeSymbol);
  if (funds) return { kind: "funds", message: funds };
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      const decoded = revert.data?.errorName
        ? { errorName: revert.data.errorName, args: (revert.data.args ?? []) as Args }
        : revert.raw
          ? decodeRevert(revert.raw)
          : null;
      if (decoded && decoded.errorName !== "Error" && decoded.errorName !== "Panic") {
        return {
          kind: "revert",
          errorName: decoded.errorName,
          message: revertSentence(decoded.errorName, decoded.args, ctx),
        };
      }
      return {
        kind: "revert",
        message: revert.reason
          ? `The hall refused this move: ${revert.reason}.`
          : "The hall refused this move.",
      };
    }
    if (error.walk((e) => e instanceof UserRejectedRequestError || hasCode(e, 4001))) {
      return { kind: "rejected", message: "You declined in your wallet. Nothing was sent." };
    }
    if (error.walk((e) => e instanceof InsufficientFundsError)) {
      return {
        kind: "funds",
        message: `Your wallet doesn't have enough ${c.nativeSymbol} to pay for this and its network fee.`,
      };
    }
    if (error.walk((e) => e instanceof ChainMismatchError)) {
      return {
        kind: "other",
        message: "Your wallet is on another network. Switch networks and try again.",
      };
    }
    if (
      error.walk(
        (e) =>
          e instanceof WaitForTransactionReceiptTimeoutError ||
          e instanceof TransactionReceiptNotFoundError,
      )
    ) {
      return {
        kind: "dropped",
        message:
          "The transaction was not confirmed (it may have been dropped or replaced). The table shows what the chain holds; try again if needed.",
      };
    }
    if (error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) {
      return {
        kind: "network",
        message: "Can't reach the network right now. Check your connection and try again.",
      };
    }
    // The node or the wallet answered with an error of its own (not a revert): viem's words for
    // the code ("Missing or invalid parameters") mean nothing to a player; the node's own do a bit.
    const refusal = error.walk((e) => e instanceof RpcError);
    if (refusal instanceof RpcError) {
      const said = refusal.details?.replace(/\s+/g, " ").trim();
      return {
        kind: "refused",
        message: `The network turned this down${said ? ` (it said: “${said}”)` : ""}. Nothing changed; try again.`,
      };
    }
    return { kind: "other", message: error.shortMessage };
  }
  if (hasCode(error, 4001)) {
    return { kind: "rejected", message: "You declined in your wallet. Nothing was sent." };
  }
  if (error instanceof Error && error.name === "ConnectorNotConnectedError") {
    return { kind: "other", message: "Connect a wallet first." };
  }
  return { kind: "other", message: error instanceof Error ? error.message : String(error) };
}

/** A call the contract refused: asking again gives the same answer, so queries don't retry it. */
export function isContractRevert(error: unknown): boolean {
  return (
    error instanceof BaseError && !!error.walk((e) => e instanceof ContractFunctionRevertedError)
  );
}

/** TanStack Query `retry`: network hiccups twice, contract refusals never. */
export function retryUnlessReverted(failureCount: number, error: unknown): boolean {
  return !isContractRevert(error) && failureCount < 2;
}

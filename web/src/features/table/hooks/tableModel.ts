import type { Address } from "viem";
import { boxCount, isRuleSetId, ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions, newSheet, type Sheet } from "@dicehall/core/rules/sheet.ts";
import { formatCountdown } from "@dicehall/core/game/format.ts";
import { moveDeadlineMs, rollRetryAtMs, type GameView, type PlayerView } from "@/data/gameData.ts";
import { describeEntry, entryPlayer, type LogWords } from "@dicehall/core/game/gameLog.ts";
import { key, sameAddress, STATUS_NAMES, type GameState } from "@dicehall/core/game/gameState.ts";
import type { TableModel, TablePlayer } from "@dicehall/core/game/tableModel.ts";
import { URGENT_MS } from "@dicehall/core/game/turnAlert.ts";
import { STALLED_AFTER_SECONDS } from "@dicehall/core/contract/revelations.ts";
import { blockPastDeadline } from "@/chain/chainClock.ts";

/** A view's clocks live with the view (the app-wide turn alert reads them too). */
export { moveDeadlineMs, rollRetryAtMs } from "@/data/gameData.ts";

import { ALL_KEPT, ROLLS_PER_TURN as MAX_ROLLS } from "@dicehall/core/rules/dice.ts";

export { MAX_ROLLS };

/** Everything the chain says about a table, plus the viewer's local choices. */
export interface ChainTableInput {
  state: GameState;
  view: GameView;
  players: Record<string, PlayerView>;
  me: Address | undefined;
  /** The chain's clock (ms): deadlines are block timestamps. */
  nowMs: number;
  /**
   * Whether the chain's clock has been read yet. Until it has, `nowMs` is this computer's clock,
   * which may be minutes off the chain's: no countdown is shown rather than a wrong one.
   */
  clockKnown?: boolean;
  /** My keep choice for the next re-roll. */
  keepMask: number;
  /** A roll or score of mine is being sent and not yet seen on chain. */
  sending: "roll" | "score" | "claim" | null;
  /** The box of the score being sent, if that is what is being sent. */
  scoringBox?: number | null;
  /** e.g. "0.0001 ETH"; "" when free; null while unknown. */
  rollFee: string | null;
  words: LogWords;
  busyText: string | null;
  errorText: string | null;
}

/** The sheet as getPlayer reports it: the contract's view is the authority for scores. */
export function sheetFromView(ruleSetId: RuleSetId, view: PlayerView | undefined): Sheet {
  if (!view || view.filled.length === 0) return newSheet(ruleSetId);
  return {
    ruleSet: ruleSetId,
    boxes: view.filled.map((filled, i) => (filled ? Number(view.boxScores[i]) : null)),
    yahtzeeBonuses: view.yahtzeeBonusCount,
  };
}

/**
 * The accepted request that has waited past the provider's usual answer time (STALLED_AFTER_SECONDS),
 * which any seated player's app may deliver from the provider's public revelation; else null.
 */
export function stalledRequest(view: GameView, nowMs: number): bigint | null {
  if (STATUS_NAMES[view.status] !== "running" || view.entropyAttempts === 0) return null;
  if (view.pendingSequence === 0n) return null;
  const since = Number(view.rollRequestedAt) * 1000;
  return nowMs >= since + STALLED_AFTER_SECONDS * 1000 ? view.pendingSequence : null;
}

/**
 * Whether claimTimeout would settle the match on the games played: nobody drew the order of a
 * match's game 2 or later in time (docs/PROTOCOL.md, Matches).
 */
export function claimSettlesMatch(view: GameView): boolean {
  return !view.orderDrawn && view.entropyAttempts === 0 && view.gameNumber > 1;
}

/** Whether claimTimeout would call the game off (refunds) rather than forfeit the player to move. */
export function claimCallsOff(view: GameView): boolean {
  return (!view.orderDrawn || view.entropyAttempts > 0) && !claimSettlesMatch(view);
}

/** The claim button's words for what claimTimeout would do now. */
export function claimLabel(view: GameView): string {
  if (claimSettlesMatch(view)) return "Claim the match on the games played";
  return claimCallsOff(view) ? "Call the game off" : "Claim the timeout";
}

/**
 * Whether this viewer is offered claimTimeout: "open" once the latest block is past the deadline
 * (the contract's `block.timestamp > deadline`, so the claim's simulation goes through), "next
 * block" while the chain's clock says time is up but no block has shown it yet (a chain that mines
 * every few seconds), else "none". The player to move is not offered their own timeout.
 */
export function claimOffer(input: {
  view: GameView;
  me: Address | undefined;
  myTurn: boolean;
  sending: ChainTableInput["sending"];
  nowMs: number;
  clockKnown: boolean;
  latestBlockSec: bigint | undefined;
}): "none" | "next block" | "open" {
  const { view } = input;
  const deadline = moveDeadlineMs(view);
  if (!input.me || deadline === null || input.sending !== null) return "none";
  if (!(claimCallsOff(view) || claimSettlesMatch(view) || !input.myTurn)) return "none";
  if (input.latestBlockSec !== undefined && claimableInBlock(view, input.latestBlockSec)) {
    return "open";
  }
  return input.clockKnown && input.nowMs > deadline ? "next block" : "none";
}

/**
 * Whether a failed claim's error has had its day: a block that came after the failure is past
 * the deadline, so the claim may be sent again (and the error, often "the player still has time",
 * no longer holds).
 */
export function claimErrorOutdated(
  failedAtBlock: bigint | null,
  latest: { number: bigint; timestamp: bigint } | undefined,
  view: GameView,
): boolean {
  const deadline = moveDeadlineMs(view);
  if (failedAtBlock === null || !latest || deadline === null) return false;
  return latest.number > failedAtBlock && claimableInBlock(view, latest.timestamp);
}

/**
 * Whether claimTimeout goes through in a block stamped `timestampSec`: a move's deadline is the
 * last second it may be made in (`block.timestamp > deadline`); a roll out may be called off from
 * its call-off's very second (`block.timestamp >= callOffAt`).
 */
function claimableInBlock(view: GameView, timestampSec: bigint): boolean {
  const deadline = moveDeadlineMs(view);
  if (deadline === null) return false;
  if (view.entropyAttempts > 0) return timestampSec >= view.callOffAt;
  return blockPastDeadline(timestampSec, deadline / 1000);
}

export function buildTableModel(input: ChainTableInput): TableModel {
  const { state, view, me, nowMs, words } = input;
  const ruleSetId: RuleSetId = isRuleSetId(view.config.ruleSet) ? view.config.ruleSet : 0;
  const status = STATUS_NAMES[view.status];
  const running = status === "running";

  const players: TablePlayer[] = view.players.map((address) => {
    const pv = input.players[key(address)];
    return {
      id: address,
      name: words.name(address),
      address,
      isMe: sameAddress(address, me),
      sheet: sheetFromView(ruleSetId, pv),
      forfeited: pv?.forfeited ?? false,
    };
  });

  // Until the first roll draws the turn order nobody owns the turn: any seated player may roll.
  const drawing = running && !view.orderDrawn;
  const currentSeat = running && !drawing ? view.currentSeat : null;
  const current = currentSeat === null ? null : view.players[currentSeat];
  const currentView = current ? input.players[key(current)] : undefined;
  const mySeat = view.players.findIndex((p) => sameAddress(p, me));
  const myTurn = running && (drawing ? mySeat >= 0 : !!current && sameAddress(current, me));

  // A roll is "out" from its request until its dice arrive; each request is an attempt.
  const out = running && view.entropyAttempts > 0;
  const pending = out && view.pendingSequence !== 0n;
  const refused = out && !pending;
  const retryAt = rollRetryAtMs(view);
  // Only a refused roll is asked again, by anyone (here: a seated player); the dice stay the mover's.
  const late = refused && retryAt !== null && nowMs >= retryAt;
  const canAskAgain = late && mySeat >= 0;
  const stalled = out && stalledRequest(view, nowMs) !== null;
  const rollsUsed = running ? (currentView?.rollsUsed ?? 0) : 0;

  // The dice of this turn are those of its latest DiceRolled. Until the first roll of a turn, the
  // previous turn's last dice stay on the table (greyed), so what was just scored can still be read.
  const turnDice =
    running && state.turn && current && sameAddress(state.turn.player, current) && state.turn.dice
      ? state.turn.dice
      : null;
  const rolling = pending || (refused && !late) || input.sending === "roll";
  const lastDice = running && !turnDice && !rolling && state.lastRoll ? state.lastRoll : null;
  const dice = turnDice
    ? [...turnDice]
    : lastDice
      ? [...lastDice.dice]
      : [null, null, null, null, null];
  const diceTitle = lastDice
    ? sameAddress(lastDice.player, me)
      ? "Your last dice"
      : `${words.name(lastDice.player)}'s last dice`
    : !current
      ? drawing
        ? "The first roll"
        : "Dice"
      : myTurn
        ? "Your dice"
        : `${words.name(current)}'s dice`;

  // The contract lets anyone time the player out once the move deadline has passed: a roll sent
  // then may be lost to that race (and its fee with it), so the table stops offering moves.
  const deadline = input.clockKnown === false ? null : moveDeadlineMs(view);
  const timeUp = deadline !== null && nowMs > deadline;
  const blockedReason =
    (myTurn || (out && mySeat >= 0)) && timeUp
      ? claimSettlesMatch(view)
        ? "Time is up: anyone can now claim the match on the games played."
        : claimCallsOff(view)
          ? out
            ? "The randomness provider has not delivered this roll for the game's whole call-off window. Anyone can now call the game off: everyone still in gets an equal share of the pot back, with no house fee."
            : "Time is up: anyone can now call the game off and share the pot back."
          : "Your time for this move is up: any other player can now time you out."
      : null;

  const sending = input.sending;
  // A roll asked again keeps what its first request kept: the contract refuses another mask.
  const keepMask = out ? view.pendingKeepMask : myTurn && rollsUsed > 0 ? input.keepMask : 0;
  const keepsAll = !out && rollsUsed > 0 && input.keepMask === ALL_KEPT;
  const canRoll =
    !timeUp &&
    (out ? canAskAgain : myTurn && rollsUsed < MAX_ROLLS && !keepsAll) &&
    sending === null;

  // The dice on the table are never scored while a roll is out (its number may be known already).
  const scorable = myTurn && !drawing && !timeUp && rollsUsed > 0 && turnDice !== null && !out;
  const canScore = scorable && sending === null;
  // While my score is out, the previews stay (disabled) and the chosen box stays marked.
  const scoringNow = scorable && sending === "score" && (input.scoringBox ?? null) !== null;
  const options =
    (canScore || scoringNow) && mySeat >= 0 ? boxOptions(players[mySeat].sheet, turnDice) : null;
  const chosen = scoringNow ? options?.find((o) => o.box === input.scoringBox) : undefined;
  const scoring = chosen ? { box: chosen.box, points: chosen.points + chosen.bonus } : null;

  const rollCost =
    input.rollFee === null ? null : input.rollFee === "" ? "no fee" : `fee ${input.rollFee}`;
  const rollLabel = late
    ? "Ask for the dice again"
    : drawing
      ? "Roll for the turn order"
      : rollsUsed === 0
        ? "Roll the dice"
        : `Re-roll (${MAX_ROLLS - rollsUsed} left)`;

  let rollHint: string | null = null;
  if (blockedReason) {
    rollHint = blockedReason;
  } else if (pending) {
    // One accepted request per roll, never replaced: it is delivered, by someone, or the game is called off.
    rollHint = stalled
      ? `Randomness for request #${view.pendingSequence} is late. Its number is public on the provider's revelation service, so any player at the table can deliver it (below); it is never asked again.`
      : `Waiting for randomness (request #${view.pendingSequence})…`;
  } else if (refused && !late) {
    rollHint =
      retryAt === null
        ? // The call-off window's last hour takes no new request (so the last one accepted has time
          // to be delivered): the roll can only be called off once the window ends.
          `The randomness provider refused this roll; the fee was credited back. It can no longer be asked again: the randomness service is not answering, and the game can be called off ${deadline === null || deadline <= nowMs ? "now" : `in ${formatCountdown(deadline - nowMs)}`}, the pot shared back.`
        : "The randomness provider refused this roll; the fee was credited back. Anyone can ask for it again in a moment.";
  } else if (late) {
    const whose =
      drawing || !current || myTurn ? "" : `; the dice will be ${words.name(current)}'s`;
    const who = mySeat >= 0 ? "You can" : "Any player at the table can";
    const callOff =
      deadline === null
        ? ""
        : ` If no dice come within ${formatCountdown(deadline - nowMs)}, the game can be called off and the pot shared back.`;
    rollHint = `The randomness provider refused the roll. ${who} ask for the dice again, keeping the same dice${whose}.${callOff}`;
  } else if (drawing) {
    rollHint = myTurn
      ? "Every seat is taken: someone at the table must press “Roll for the turn order”. Any player may; the first roll draws the turn order, and its dice go to whoever it puts first."
      : "Every seat is taken: waiting for a player at the table to press “Roll for the turn order”.";
  } else if (myTurn && rollsUsed === 0) {
    rollHint = "Roll to start your turn.";
  } else if (myTurn && rollsUsed >= MAX_ROLLS) {
    rollHint = "No rolls left: choose a box on your sheet.";
  } else if (myTurn && keepsAll) {
    rollHint = "You are keeping all five dice: release one to re-roll, or choose a box.";
  } else if (myTurn) {
    rollHint = "Keep dice and re-roll, or choose a box on your sheet.";
  }

  const left =
    deadline === null
      ? ""
      : deadline > nowMs
        ? `${formatCountdown(deadline - nowMs)} left`
        : "time is up";
  // While a roll is out (or being sent) the move clock stands still: the deadline then is the
  // call-off, a day away, and a countdown to it would read as time to move. The heading says the
  // table waits for the dice, and nothing more until the call-off itself has come.
  const clockText =
    out || input.sending === "roll"
      ? out && timeUp
        ? " — the game can now be called off"
        : ""
      : left
        ? ` — ${left}`
        : "";
  let turnText: string;
  if (status === "finished") turnText = view.games > 1 ? "Match over." : "Game over.";
  else if (status === "cancelled")
    turnText = state.calledOff
      ? "This game was called off: the pot was shared among the players still in."
      : "This table was cancelled.";
  else if (drawing) {
    // Once the first roll is out, the heading says what the hint says: the draw waits for its dice.
    const draw = late
      ? "Someone must ask for the dice again"
      : out || input.sending === "roll"
        ? "Drawing the turn order, waiting for randomness"
        : "Someone must press “Roll for the turn order”";
    turnText = `Round 1 of ${boxCount(ruleSetId)}. ${draw}${clockText}.`;
  } else if (!running || !current) turnText = "Waiting for the game to start.";
  else {
    const who = myTurn ? "Your turn" : `${words.name(current)}'s turn`;
    const waiting = late
      ? ": the dice must be asked for again"
      : out || input.sending === "roll"
        ? ": waiting for the dice"
        : "";
    turnText = `Round ${view.round} of ${boxCount(ruleSetId)}. ${who}${waiting}${clockText}.`;
  }

  return {
    ruleSet: ruleSetId,
    players,
    currentSeat,
    round: running ? view.round : status === "finished" ? boxCount(ruleSetId) : 0,
    rounds: boxCount(ruleSetId),
    dice,
    diceTitle,
    diceFromLastTurn: lastDice !== null,
    rollsUsed,
    maxRolls: MAX_ROLLS,
    keepMask,
    rolling,
    myTurn,
    canRoll,
    rollLabel,
    rollCost,
    rollHint,
    blockedReason,
    options,
    scoring,
    scoringSeat: mySeat >= 0 && !players[mySeat].forfeited && running ? mySeat : null,
    turnText,
    urgent: running && deadline !== null && deadline > nowMs && deadline - nowMs <= URGENT_MS,
    log: state.log.map((entry) => ({
      id: entry.id,
      text: describeEntry(entry, words, ruleSetId),
      player: entryPlayer(entry) ?? undefined,
    })),
    busyText: input.busyText,
    errorText: input.errorText,
  };
}

export function boxNameOf(ruleSetId: number): (box: number) => string {
  return (box) =>
    isRuleSetId(ruleSetId) ? (ruleSet(ruleSetId).boxes[box]?.name ?? `Box ${box}`) : `Box ${box}`;
}

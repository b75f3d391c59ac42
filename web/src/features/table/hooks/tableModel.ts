import type { Address } from "viem";
import { boxCount, isRuleSetId, ruleSet, type RuleSetId } from "../../../rules/ruleSets.ts";
import { boxOptions, newSheet, type Sheet } from "../../../rules/sheet.ts";
import { formatCountdown } from "../../../lib/format.ts";
import type { GameView, PlayerView } from "../../../lib/gameData.ts";
import { describeEntry, type LogWords } from "../../../lib/gameLog.ts";
import { key, sameAddress, STATUS_NAMES, type GameState } from "../../../lib/gameState.ts";
import type { TableModel, TablePlayer } from "../../../lib/table/model.ts";

export const MAX_ROLLS = 3;
const ALL_KEPT = 0b11111;

/** Everything the chain says about a table, plus the viewer's local choices. */
export interface ChainTableInput {
  state: GameState;
  view: GameView;
  players: Record<string, PlayerView>;
  me: Address | undefined;
  /** The chain's clock (ms): deadlines are block timestamps. */
  nowMs: number;
  /** My keep choice for the next re-roll. */
  keepMask: number;
  /** A roll or score of mine is being sent and not yet seen on chain. */
  sending: "roll" | "score" | "claim" | null;
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

/** When the current player can be timed out (ms): while a roll is pending, the clock waits for it. */
export function moveDeadlineMs(view: GameView): number | null {
  if (STATUS_NAMES[view.status] !== "running") return null;
  if (view.deadline > 0n) return Number(view.deadline) * 1000;
  if (view.rollRequestedAt > 0n) {
    return (Number(view.rollRequestedAt) + view.entropyTimeout + view.config.moveTimeout) * 1000;
  }
  return null;
}

/** When a pending roll may be replaced by a new one (ms), or null without a pending roll. */
export function rollRetryAtMs(view: GameView): number | null {
  if (view.pendingSequence === 0n) return null;
  return (Number(view.rollRequestedAt) + view.entropyTimeout) * 1000;
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
      isMe: sameAddress(address, me),
      sheet: sheetFromView(ruleSetId, pv),
      forfeited: pv?.forfeited ?? false,
    };
  });

  const currentSeat = running ? view.currentSeat : null;
  const current = currentSeat === null ? null : view.players[currentSeat];
  const currentView = current ? input.players[key(current)] : undefined;
  const mySeat = view.players.findIndex((p) => sameAddress(p, me));
  const myTurn = running && !!current && sameAddress(current, me);

  const pending = running && view.pendingSequence !== 0n;
  const retryAt = rollRetryAtMs(view);
  const late = pending && retryAt !== null && nowMs >= retryAt;
  const rollsUsed = running ? (currentView?.rollsUsed ?? 0) : 0;

  // The dice of this turn are those of its latest DiceRolled. Until the first roll of a turn, the
  // previous turn's last dice stay on the table (greyed), so what was just scored can still be read.
  const turnDice =
    running && state.turn && current && sameAddress(state.turn.player, current) && state.turn.dice
      ? state.turn.dice
      : null;
  const rolling = pending || input.sending === "roll";
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
      ? "Dice"
      : myTurn
        ? "Your dice"
        : `${words.name(current)}'s dice`;

  // The contract lets anyone time the player out once the move deadline has passed: a roll sent
  // then may be lost to that race (and its fee with it), so the table stops offering moves.
  const deadline = moveDeadlineMs(view);
  const timeUp = deadline !== null && nowMs > deadline;
  const blockedReason =
    myTurn && timeUp
      ? "Your time for this move is up: any other player can now time you out."
      : null;

  const sending = input.sending;
  const keepMask = pending ? view.pendingKeepMask : myTurn && rollsUsed > 0 ? input.keepMask : 0;
  const keepsAll = rollsUsed > 0 && input.keepMask === ALL_KEPT;
  const canRoll =
    myTurn &&
    !timeUp &&
    rollsUsed < MAX_ROLLS &&
    (!pending || late) &&
    sending === null &&
    !keepsAll;

  const canScore =
    myTurn &&
    !timeUp &&
    rollsUsed > 0 &&
    turnDice !== null &&
    (!pending || late) &&
    sending === null;
  const options = canScore && mySeat >= 0 ? boxOptions(players[mySeat].sheet, turnDice) : null;

  const fee =
    input.rollFee === null ? "" : input.rollFee === "" ? " · no fee" : ` · fee ${input.rollFee}`;
  const rollLabel = late
    ? `Roll again${fee}`
    : rollsUsed === 0
      ? `Roll the dice${fee}`
      : `Re-roll (${MAX_ROLLS - rollsUsed} left)${fee}`;

  let rollHint: string | null = null;
  if (blockedReason) {
    rollHint = blockedReason;
  } else if (pending && !late) {
    const retry =
      retryAt === null
        ? ""
        : ` A new roll is possible in ${formatCountdown(retryAt - nowMs)} if it does not come.`;
    rollHint = `Waiting for randomness (request #${view.pendingSequence})…${retry}`;
  } else if (late) {
    rollHint = `Randomness for request #${view.pendingSequence} is late. ${myTurn ? "You can roll again" : "The player can roll again"}${myTurn && rollsUsed > 0 ? " or score the dice on the table" : ""}.`;
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
  let turnText: string;
  if (status === "finished") turnText = "Game over.";
  else if (status === "cancelled") turnText = "This table was cancelled.";
  else if (!running || !current) turnText = "Waiting for the game to start.";
  else {
    const who = myTurn ? "Your turn" : `${words.name(current)}'s turn`;
    const randomness = pending ? ", waiting for randomness" : "";
    turnText = `Round ${view.round} of ${boxCount(ruleSetId)}. ${who}${randomness}${left ? ` — ${left}` : ""}.`;
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
    rollHint,
    blockedReason,
    options,
    scoringSeat: mySeat >= 0 && !players[mySeat].forfeited && running ? mySeat : null,
    turnText,
    log: state.log.map((entry) => ({ id: entry.id, text: describeEntry(entry, words, ruleSetId) })),
    busyText: input.busyText,
    errorText: input.errorText,
  };
}

export function boxNameOf(ruleSetId: number): (box: number) => string {
  return (box) =>
    isRuleSetId(ruleSetId) ? (ruleSet(ruleSetId).boxes[box]?.name ?? `Box ${box}`) : `Box ${box}`;
}

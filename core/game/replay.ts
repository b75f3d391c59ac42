import type { Address } from "viem";
import { boxCount } from "../rules/ruleSets.ts";
import { newSheet } from "../rules/sheet.ts";
import {
  applyEvent,
  initialGameState,
  isForfeited,
  key,
  sameAddress,
  type GameState,
  type LogEntry,
} from "./gameState.ts";
import { shortAddress } from "./format.ts";
import { describeEntry, entryPlayer, type LogWords } from "./gameLog.ts";
import { isGameLog, mergeLogs, type HallLog } from "../events/hallEvents.ts";
import type { TableModel } from "./tableModel.ts";
import { foldMatchGame, matchGameLogs } from "./match.ts";

/**
 * A replay is the game reducer (gameState.ts) run one log at a time, with the state kept after
 * every roll, score, forfeit, start and finish. Stepping back is reading an earlier state, so the
 * sheets at any step are exactly what the live table showed then.
 */

const STEP_KINDS = new Set<LogEntry["kind"]>([
  "started",
  "rolled",
  "scored",
  "forfeited",
  "gameEnded",
  "finished",
]);

export interface ReplayStep {
  /** The log entry this step shows (the latest one in `state.log`). */
  entry: LogEntry;
  /** The game right after that entry. */
  state: GameState;
}

export interface Replay {
  gameId: bigint;
  steps: ReplayStep[];
  /** The game after every log (status, result, players), whether or not it started. */
  final: GameState;
}

/**
 * The replay of a game; with `game`, of that game of a match alone (its own steps from its order
 * draw to its end, the table's opening before them), which ends "finished" with that game's result.
 */
export function buildReplay(gameId: bigint, logs: readonly HallLog[], game?: number): Replay {
  const steps: ReplayStep[] = [];
  const start = initialGameState(gameId);
  let state: GameState = game ? { ...start, match: { ...start.match, number: game } } : start;
  const source = game ? matchGameLogs(logs, gameId, game) : logs;
  for (const log of mergeLogs(source)) {
    if (!isGameLog(log) || log.args.gameId !== gameId) continue;
    const before = state.log.length;
    state = applyEvent(state, log);
    if (state.log.length === before) continue;
    const entry = state.log[state.log.length - 1];
    if (STEP_KINDS.has(entry.kind)) steps.push({ entry, state });
  }
  if (game && state.match.length > 1) {
    const final = foldMatchGame(gameId, logs, game);
    const last = steps.at(-1);
    // The game's end shows the game's result, as a finished game's last step does.
    if (last?.entry.kind === "gameEnded") steps[steps.length - 1] = { ...last, state: final };
    return { gameId, steps, final };
  }
  return { gameId, steps, final: state };
}

/** The index of the step that shows a DiceRolled with this sequence number, or -1. */
export function stepOfRoll(replay: Replay, sequenceNumber: bigint): number {
  return replay.steps.findIndex(
    (s) => s.entry.kind === "rolled" && s.entry.roll.sequenceNumber === sequenceNumber,
  );
}

// ------------------------------------------------------------------ player controls

export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8] as const;
/** Time a step stays on screen at 1×. */
export const STEP_MS = 1_200;

export interface ReplayCursor {
  index: number;
  playing: boolean;
  speed: number;
}

export type ReplayControl =
  | { type: "next" }
  | { type: "prev" }
  | { type: "first" }
  | { type: "last" }
  | { type: "seek"; index: number }
  | { type: "play" }
  | { type: "pause" }
  | { type: "toggle" }
  | { type: "speed"; speed: number }
  /** The play timer fired. */
  | { type: "tick" };

const clamp = (index: number, length: number) => Math.max(0, Math.min(length - 1, index));

/** The player's state machine over `length` steps; playing stops at the last step. */
export function controlReplay(
  cursor: ReplayCursor,
  control: ReplayControl,
  length: number,
): ReplayCursor {
  if (length === 0) return { ...cursor, index: 0, playing: false };
  const last = length - 1;
  switch (control.type) {
    case "next":
      return { ...cursor, index: clamp(cursor.index + 1, length), playing: false };
    case "prev":
      return { ...cursor, index: clamp(cursor.index - 1, length), playing: false };
    case "first":
      return { ...cursor, index: 0, playing: false };
    case "last":
      return { ...cursor, index: last, playing: false };
    case "seek":
      return { ...cursor, index: clamp(control.index, length), playing: false };
    case "play":
      // Playing from the end starts over.
      return { ...cursor, index: cursor.index >= last ? 0 : cursor.index, playing: true };
    case "pause":
      return { ...cursor, playing: false };
    case "toggle":
      return controlReplay(cursor, { type: cursor.playing ? "pause" : "play" }, length);
    case "speed":
      return { ...cursor, speed: control.speed > 0 ? control.speed : cursor.speed };
    case "tick": {
      if (!cursor.playing) return cursor;
      const index = clamp(cursor.index + 1, length);
      return { ...cursor, index, playing: index < last };
    }
  }
}

export const stepDelay = (speed: number): number => STEP_MS / (speed > 0 ? speed : 1);

// ------------------------------------------------------------------ the table at a step

export interface ReplayWords extends LogWords {
  /** The viewer, to mark their column; null when not connected. */
  me: Address | null;
}

/** Who acted in a step (the roller, the scorer, the player who timed out). */
function actor(entry: LogEntry): Address | null {
  switch (entry.kind) {
    case "rolled":
    case "scored":
    case "forfeited":
      return entry.player;
    default:
      return null;
  }
}

/** What the shared table shows at step `index`: the sheets then, the dice of that moment. */
export function replayTableModel(
  replay: Replay,
  index: number,
  words: ReplayWords,
): TableModel | null {
  const step = replay.steps[index];
  if (!step) return null;
  const { state, entry } = step;
  if (state.ruleSet === null) return null;
  const ruleSetId = state.ruleSet;
  const who = actor(entry);
  const seat = who ? state.players.findIndex((p) => sameAddress(p, who)) : -1;

  let dice: (number | null)[] = [null, null, null, null, null];
  let rollsUsed = 0;
  let keepMask = 0;
  if (entry.kind === "rolled") {
    dice = entry.roll.dice;
    rollsUsed = entry.roll.rollNumber;
    keepMask = entry.roll.rollNumber > 1 ? entry.roll.keepMask : 0;
  } else if (entry.kind === "scored" && entry.dice) {
    dice = entry.dice;
    const lastRoll = state.log.findLast(
      (e) => e.kind === "rolled" && sameAddress(e.player, entry.player),
    );
    rollsUsed = lastRoll?.kind === "rolled" ? lastRoll.roll.rollNumber : 0;
  }

  const rounds = boxCount(ruleSetId);
  const stepText = describeEntry(entry, words, ruleSetId);
  const round = Math.min(Math.max(entry.round, 1), rounds);
  const log = state.log
    .filter((e) => STEP_KINDS.has(e.kind))
    .map((e) => ({
      id: e.id,
      text: describeEntry(e, words, ruleSetId),
      player: entryPlayer(e) ?? undefined,
    }));

  return {
    ruleSet: ruleSetId,
    players: state.players.map((player) => ({
      id: key(player),
      name: words.name(player),
      address: player,
      isMe: sameAddress(player, words.me),
      sheet: state.sheets[key(player)] ?? newSheet(ruleSetId),
      forfeited: isForfeited(state, player),
    })),
    currentSeat: seat >= 0 ? seat : null,
    round,
    rounds,
    dice,
    // A replay is watched, not played: the dice are named after their player, the viewer too.
    diceTitle: !who
      ? "Dice"
      : sameAddress(who, words.me)
        ? `${shortAddress(who)}'s dice (you)`
        : `${words.name(who)}'s dice`,
    rollsUsed,
    maxRolls: 3,
    keepMask,
    rolling: false,
    myTurn: false,
    canRoll: false,
    rollLabel: "Roll",
    rollHint: null,
    options: null,
    scoringSeat: null,
    turnText: `Replay, step ${index + 1} of ${replay.steps.length}, round ${round} of ${rounds}: ${stepText}`,
    log,
    busyText: null,
    errorText: null,
  };
}

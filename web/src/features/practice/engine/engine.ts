import type { Hex } from "viem";
import type { TurnRecord } from "@dicehall/core/coach/analyse.ts";
import { matchStandings } from "@dicehall/core/game/match.ts";
import { ALL_KEPT, rollDice } from "@dicehall/core/rules/dice.ts";
import { isRuleSetId, ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { Dice } from "@dicehall/core/rules/score.ts";
import {
  applyScore,
  boxOptions,
  isComplete,
  newSheet,
  totals,
  type Sheet,
} from "@dicehall/core/rules/sheet.ts";

/**
 * Practice mode: hot-seat games on one device, decided by the TypeScript rules engine alone. A
 * pure reducer; the randomness comes in with each roll (crypto.getRandomValues in the browser, a
 * seed in tests) and turns into dice with the same formula as on chain (rules/dice.ts), so a
 * practice roll is as fair as a real one and can be checked the same way.
 *
 * Actions the rules do not allow leave the state as it is (the table explains why beforehand).
 */

export const MIN_PLAYERS = 1;
export const MAX_PLAYERS = 4;
export const MIN_GAMES = 1;
export const MAX_GAMES = 10;
export const ROLLS_PER_TURN = 3;
/** Turn-log lines kept per game (the table shows the latest). */
const LOG_LIMIT = 200;
export const PRACTICE_VERSION = 1;

/**
 * Who plays a bot seat: the coach (the exact solver's moves, the strongest) or the casual bot (the
 * quick heuristic of rules/strategy.ts, weaker).
 */
export type BotLevel = "coach" | "casual";
export const BOT_LEVELS: readonly BotLevel[] = ["coach", "casual"];

export interface PracticeSetup {
  ruleSet: RuleSetId;
  /** One name per seat, 1–4 seats. */
  names: string[];
  /** By seat: a bot's level, or null for a person. Absent: every seat is a person. */
  bots?: (BotLevel | null)[];
  /** Games in the session, 1–10. */
  games: number;
}

export interface PracticeGame {
  /** 1-based within the session. */
  number: number;
  /** The seat that opens every round of this game (rotates from game to game). */
  starter: number;
  /** By seat. */
  sheets: Sheet[];
  /** Whose turn; null once the game is over. */
  currentSeat: number | null;
  /** 1-based. */
  round: number;
  dice: number[] | null;
  rollsUsed: number;
  /** Bit i keeps die i on the next roll. */
  keepMask: number;
  /** The random number behind the latest roll, shown like a real roll's. */
  lastRandom: Hex | null;
  /**
   * The dice the previous turn was scored with, left on the table until the next roll. Optional:
   * sessions saved before it existed load without it.
   */
  lastTurn?: { seat: number; dice: number[] } | null;
  /**
   * Every seat's turns as played (dice, keep masks, boxes): what the coach analyses. Optional:
   * sessions saved before it existed load without it (and cannot be analysed).
   */
  turns?: TurnRecord[][];
}

export interface GameOutcome {
  /** By seat. */
  totals: number[];
  /** Seats with the highest total (several on a tie). */
  winners: number[];
}

export interface LogLine {
  id: string;
  text: string;
}

export interface PracticeState {
  version: typeof PRACTICE_VERSION;
  phase: "setup" | "playing" | "sessionOver";
  ruleSet: RuleSetId;
  names: string[];
  /** By seat, as PracticeSetup's. Optional: sessions saved before bots load without it. */
  bots?: (BotLevel | null)[];
  games: number;
  game: PracticeGame | null;
  /** One per finished game of the session, in order. */
  results: GameOutcome[];
  log: LogLine[];
  /** Makes log ids unique across the whole session. */
  nextLogId: number;
}

export type PracticeAction =
  | { type: "start"; setup: PracticeSetup }
  | { type: "rename"; seat: number; name: string }
  | { type: "roll"; random: Hex }
  | { type: "toggleKeep"; die: number }
  /** Hold exactly these dice (bit i keeps die i): a bot's keep, or the hint's. */
  | { type: "keep"; keepMask: number }
  | { type: "score"; box: number }
  | { type: "nextGame" }
  /** The setup form: seats (names), rule set and session length, before starting. */
  | { type: "configure"; setup: Partial<PracticeSetup> }
  /** Back to the setup form, keeping names, rule set and session length. */
  | { type: "newSession" };

export const defaultName = (seat: number): string => `Player ${seat + 1}`;

export function initialPractice(): PracticeState {
  return {
    version: PRACTICE_VERSION,
    phase: "setup",
    ruleSet: 0,
    names: [defaultName(0), defaultName(1)],
    games: 3,
    game: null,
    results: [],
    log: [],
    nextLogId: 1,
  };
}

export function cleanName(name: string, seat: number): string {
  const trimmed = name.replace(/\s+/g, " ").trim().slice(0, 24);
  return trimmed || defaultName(seat);
}

const clampInt = (n: number, min: number, max: number) =>
  Math.max(min, Math.min(max, Number.isFinite(n) ? Math.round(n) : min));

function newGame(ruleSetId: RuleSetId, seats: number, number: number): PracticeGame {
  const starter = (number - 1) % seats;
  return {
    number,
    starter,
    sheets: Array.from({ length: seats }, () => newSheet(ruleSetId)),
    currentSeat: starter,
    round: 1,
    dice: null,
    rollsUsed: 0,
    keepMask: 0,
    lastRandom: null,
    turns: Array.from({ length: seats }, () => []),
  };
}

/** The game's turn records with one seat's list replaced (undefined: a game saved without them). */
function withSeatTurns(
  game: PracticeGame,
  seat: number,
  change: (mine: TurnRecord[]) => TurnRecord[],
): TurnRecord[][] | undefined {
  if (!game.turns) return undefined;
  const turns = game.turns.slice();
  turns[seat] = change(game.turns[seat]);
  return turns;
}

/** The seat's turns with this roll added: a new turn on roll 1, else the same turn one roll longer. */
function recordRoll(game: PracticeGame, dice: number[], keepMask: number) {
  return withSeatTurns(game, game.currentSeat!, (mine) => {
    if (game.rollsUsed === 0) return [...mine, { rolls: [dice], keepMasks: [] }];
    const turn = mine[mine.length - 1];
    const longer = { rolls: [...turn.rolls, dice], keepMasks: [...turn.keepMasks, keepMask] };
    return [...mine.slice(0, -1), longer];
  });
}

function recordBox(game: PracticeGame, seat: number, box: number) {
  return withSeatTurns(game, seat, (mine) => [
    ...mine.slice(0, -1),
    { ...mine[mine.length - 1], box },
  ]);
}

function addLog(state: PracticeState, ...texts: string[]): PracticeState {
  let id = state.nextLogId;
  const lines = texts.map((text) => ({ id: `p${id++}`, text }));
  return { ...state, log: [...state.log, ...lines].slice(-LOG_LIMIT), nextLogId: id };
}

const list = (items: string[]): string =>
  items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

export function outcomeOf(game: PracticeGame): GameOutcome {
  const t = game.sheets.map((s) => totals(s).total);
  const best = Math.max(...t);
  return { totals: t, winners: t.flatMap((total, seat) => (total === best ? [seat] : [])) };
}

function describeOutcome(state: PracticeState, outcome: GameOutcome, number: number): string {
  const names = outcome.winners.map((seat) => state.names[seat]);
  const best = outcome.totals[outcome.winners[0]];
  const head = `Game ${number} of ${state.games} over:`;
  if (state.names.length === 1) return `${head} ${state.names[0]} scored ${best}.`;
  return names.length > 1
    ? `${head} ${list(names)} tie with ${best}.`
    : `${head} ${names[0]} wins with ${best}.`;
}

function turnLine(state: PracticeState, game: PracticeGame): string {
  const rounds = ruleSet(state.ruleSet).boxes.length;
  return `${state.names[game.currentSeat!]}'s turn, round ${game.round} of ${rounds}.`;
}

/** Whether the current player may roll now (and why not, in words). */
export function rollBlocker(game: PracticeGame | null): string | null {
  if (!game || game.currentSeat === null) return "The game is over.";
  if (game.rollsUsed >= ROLLS_PER_TURN) return "No rolls left: choose a box.";
  if (game.rollsUsed > 0 && game.keepMask === ALL_KEPT)
    return "All five dice are kept: release one to roll, or choose a box.";
  return null;
}

/** The seats' bots, one entry per seat (null: a person). */
function botsFor(bots: readonly (BotLevel | null)[] | undefined, seats: number) {
  return Array.from({ length: seats }, (_, i) => {
    const level = bots?.[i];
    return level && BOT_LEVELS.includes(level) ? level : null;
  });
}

/** The level of the bot whose turn it is, or null when a person (or nobody) is to move. */
export function botToMove(state: PracticeState): BotLevel | null {
  const seat = state.game?.currentSeat;
  if (state.phase !== "playing" || seat === null || seat === undefined) return null;
  return state.bots?.[seat] ?? null;
}

function start(state: PracticeState, setup: PracticeSetup): PracticeState {
  const seats = clampInt(setup.names.length, MIN_PLAYERS, MAX_PLAYERS);
  if (!isRuleSetId(setup.ruleSet) || setup.names.length !== seats) return state;
  const names = setup.names.map(cleanName);
  const games = clampInt(setup.games, MIN_GAMES, MAX_GAMES);
  const game = newGame(setup.ruleSet, seats, 1);
  const next: PracticeState = {
    ...state,
    phase: "playing",
    ruleSet: setup.ruleSet,
    names,
    bots: botsFor(setup.bots, seats),
    games,
    game,
    results: [],
    log: [],
  };
  const info = ruleSet(setup.ruleSet);
  return addLog(next, `${info.name}, game 1 of ${games}.`, turnLine(next, game));
}

function roll(state: PracticeState, random: Hex): PracticeState {
  const game = state.game;
  if (state.phase !== "playing" || !game || rollBlocker(game) !== null) return state;
  const first = game.rollsUsed === 0;
  const previous = first ? null : (game.dice as unknown as Dice);
  const keepMask = first ? 0 : game.keepMask;
  const dice = [...rollDice(random, previous, keepMask)];
  const rollsUsed = game.rollsUsed + 1;
  const turns = recordRoll(game, dice, keepMask);
  const next = {
    ...state,
    game: { ...game, dice, rollsUsed, keepMask, lastRandom: random, turns },
  };
  return addLog(
    next,
    `${state.names[game.currentSeat!]} rolled ${dice.join(", ")} (roll ${rollsUsed} of ${ROLLS_PER_TURN}).`,
  );
}

function toggleKeep(state: PracticeState, die: number): PracticeState {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat === null) return state;
  if (!Number.isInteger(die) || die < 0 || die > 4) return state;
  if (game.rollsUsed === 0 || game.rollsUsed >= ROLLS_PER_TURN) return state;
  return { ...state, game: { ...game, keepMask: game.keepMask ^ (1 << die) } };
}

function keep(state: PracticeState, keepMask: number): PracticeState {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat === null) return state;
  if (!Number.isInteger(keepMask) || keepMask < 0 || keepMask > ALL_KEPT) return state;
  if (game.rollsUsed === 0 || game.rollsUsed >= ROLLS_PER_TURN) return state;
  return { ...state, game: { ...game, keepMask } };
}

function score(state: PracticeState, box: number): PracticeState {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat === null || !game.dice) return state;
  const seat = game.currentSeat;
  const option = boxOptions(game.sheets[seat], game.dice).find((o) => o.box === box);
  if (!option?.legal) return state;
  const { sheet, points, bonus } = applyScore(game.sheets[seat], game.dice, box);
  const sheets = game.sheets.slice();
  sheets[seat] = sheet;
  const boxName = ruleSet(state.ruleSet).boxes[box].name;
  const scoredLine = `${state.names[seat]} scored ${points} in ${boxName}${bonus ? ` plus a ${bonus}-point Yahtzee bonus` : ""}.`;

  const seats = sheets.length;
  const nextSeat = (seat + 1) % seats;
  const round = nextSeat === game.starter ? game.round + 1 : game.round;
  const after: PracticeGame = {
    ...game,
    sheets,
    lastTurn: { seat, dice: game.dice },
    turns: recordBox(game, seat, box),
    dice: null,
    rollsUsed: 0,
    keepMask: 0,
    currentSeat: nextSeat,
    round,
  };

  if (!sheets.every(isComplete)) {
    const next = { ...state, game: after };
    return addLog(next, scoredLine, turnLine(next, after));
  }

  const finished: PracticeGame = { ...after, currentSeat: null, round: game.round };
  const outcome = outcomeOf(finished);
  const results = [...state.results, outcome];
  const next: PracticeState = {
    ...state,
    game: finished,
    results,
    phase: results.length >= state.games ? "sessionOver" : "playing",
  };
  const lines = [scoredLine, describeOutcome(state, outcome, game.number)];
  if (next.phase === "sessionOver") lines.push(matchOverLine(state.names, results));
  return addLog(next, ...lines);
}

/**
 * The match's end in one line, scored as the hall scores a match (most games won, then points):
 * "Match over after 3 games: Ann wins the match." A one-game match says only that it is over.
 */
function matchOverLine(names: readonly string[], results: readonly GameOutcome[]): string {
  const head = `Match over after ${results.length} game${results.length === 1 ? "" : "s"}`;
  if (results.length === 1 || names.length === 1) return `${head}.`;
  const winners = matchStandings(names.length, results).leaders.map((seat) => names[seat]);
  return winners.length > 1
    ? `${head}: ${list(winners)} share the match.`
    : `${head}: ${winners[0]} wins the match.`;
}

function nextGame(state: PracticeState): PracticeState {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat !== null) return state;
  const number = state.results.length + 1;
  const fresh = newGame(state.ruleSet, state.names.length, number);
  const next = { ...state, game: fresh, log: [] };
  return addLog(
    next,
    `${ruleSet(state.ruleSet).name}, game ${number} of ${state.games}.`,
    turnLine(next, fresh),
  );
}

function configure(state: PracticeState, setup: Partial<PracticeSetup>): PracticeState {
  if (state.phase !== "setup") return state;
  const names = setup.names
    ? setup.names.slice(0, MAX_PLAYERS).map((n) => n.slice(0, 24))
    : state.names;
  return {
    ...state,
    ruleSet:
      setup.ruleSet !== undefined && isRuleSetId(setup.ruleSet) ? setup.ruleSet : state.ruleSet,
    games: setup.games !== undefined ? clampInt(setup.games, MIN_GAMES, MAX_GAMES) : state.games,
    names: names.length >= MIN_PLAYERS ? names : state.names,
    bots: botsFor(
      setup.bots ?? state.bots,
      names.length >= MIN_PLAYERS ? names.length : state.names.length,
    ),
  };
}

export function practiceReducer(state: PracticeState, action: PracticeAction): PracticeState {
  switch (action.type) {
    case "start":
      return start(state, action.setup);
    case "rename": {
      if (!Number.isInteger(action.seat) || action.seat < 0 || action.seat >= state.names.length)
        return state;
      const names = state.names.slice();
      names[action.seat] =
        state.phase === "setup" ? action.name.slice(0, 24) : cleanName(action.name, action.seat);
      return { ...state, names };
    }
    case "roll":
      return roll(state, action.random);
    case "toggleKeep":
      return toggleKeep(state, action.die);
    case "keep":
      return keep(state, action.keepMask);
    case "score":
      return score(state, action.box);
    case "nextGame":
      return nextGame(state);
    case "configure":
      return configure(state, action.setup);
    case "newSession":
      return { ...state, phase: "setup", game: null, results: [], log: [] };
  }
}

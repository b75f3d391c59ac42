import type { Address, Hex } from "viem";
import { isRuleSetId, type RuleSetId } from "../rules/ruleSets.ts";
import { newSheet, type Sheet } from "../rules/sheet.ts";
import { isGameLog, mergeLogs, type GameLog, type HallLog } from "../events/hallEvents.ts";

/**
 * One game rebuilt from its events alone: a pure fold, so a reload, a replay and a live table
 * all see the same thing. `applyEvent` takes one step (replays step with it); `foldGame` sorts,
 * dedupes and folds a whole list.
 */

export type GameStatusName = "unknown" | "open" | "running" | "finished" | "cancelled";

/** GameView.status on chain, by its enum index. */
export const STATUS_NAMES: readonly GameStatusName[] = [
  "unknown",
  "open",
  "running",
  "finished",
  "cancelled",
];

export interface RollRecord {
  player: Address;
  rollNumber: number;
  dice: number[];
  sequenceNumber: bigint;
  randomNumber: Hex;
  keepMask: number;
  /** The dice before this roll (null on the first roll of a turn): what "verify" needs. */
  previous: number[] | null;
}

export interface PendingRoll {
  player: Address;
  sequenceNumber: bigint;
  keepMask: number;
  blockNumber: bigint;
}

export interface Turn {
  player: Address;
  rollsUsed: number;
  /** The dice of this turn's latest DiceRolled; null before the first roll. */
  dice: number[] | null;
}

interface EntryBase {
  /** `${blockNumber}:${logIndex}`, unique per log. */
  id: string;
  blockNumber: bigint;
  logIndex: number;
  round: number;
  /** The game of the match this entry belongs to (1-based; always 1 for a single game). */
  game: number;
}

export type LogEntry = EntryBase &
  (
    | {
        kind: "created";
        creator: Address;
        token: Address;
        bet: bigint;
        seats: number;
        ruleSet: number;
        isPrivate: boolean;
      }
    | { kind: "invited"; player: Address }
    | { kind: "joined"; player: Address }
    | { kind: "left"; player: Address }
    | { kind: "started"; order: Address[]; joinOrder: Address[] }
    | { kind: "rollRequested"; player: Address; sequenceNumber: bigint; keepMask: number }
    | { kind: "rollRefused"; player: Address; keepMask: number }
    | { kind: "rolled"; player: Address; roll: RollRecord }
    | {
        kind: "scored";
        player: Address;
        box: number;
        points: number;
        bonus: number;
        dice: number[] | null;
      }
    | { kind: "forfeited"; player: Address }
    | { kind: "matchCreated"; games: number }
    | {
        kind: "gameEnded";
        number: number;
        players: Address[];
        totals: bigint[];
        winners: Address[];
      }
    | {
        kind: "finished";
        winners: Address[];
        payoutEach: bigint;
        houseFee: bigint;
        /** The end of a match of several games (its winners the match's). */
        match?: boolean;
      }
    | { kind: "cancelled"; calledOff: boolean }
  );

export interface GameResult {
  players: Address[];
  totals: bigint[];
  winners: Address[];
  payoutEach: bigint;
  houseFee: bigint;
}

/** One finished game of a match, as its end event says. */
export interface MatchGameResult {
  /** 1-based. */
  number: number;
  /** That game's turn order, forfeited players included. */
  players: Address[];
  totals: bigint[];
  /** That game's highest totals among the players still in (several on a tie). */
  winners: Address[];
}

/**
 * A match (issue 33): `length` games at one table for one stake. A single game is a match of
 * length 1, whose one game ends with GameFinished alone.
 */
export interface MatchProgress {
  length: number;
  /** The game being played, or the last one once the match is over (1-based). */
  number: number;
  /** The games finished so far, in order. */
  games: MatchGameResult[];
}

export interface GameState {
  gameId: bigint;
  status: GameStatusName;
  creator: Address | null;
  token: Address | null;
  bet: bigint;
  seats: number;
  ruleSet: RuleSetId | null;
  isPrivate: boolean;
  invitees: Address[];
  /** Join order until the first roll draws the turn order; turn order from then on. */
  players: Address[];
  /** The first roll's number has drawn the turn order (GameStarted). */
  orderDrawn: boolean;
  /**
   * The roll that is out (asked of Entropy, no dice yet): how many requests it took (0: none out),
   * its keep mask (every attempt keeps the same dice), and whether Entropy refused the latest.
   */
  rollOut: { attempts: number; keepMask: number; refused: boolean } | null;
  /** A running game was called off (Entropy failed, or nobody drew the order): pot shared, no fee. */
  calledOff: boolean;
  /** Keyed by lower-case address; filled from GameStarted on. */
  sheets: Record<string, Sheet>;
  forfeited: Address[];
  currentSeat: number | null;
  round: number;
  turn: Turn | null;
  pendingRoll: PendingRoll | null;
  /** The latest DiceRolled of the game. */
  lastRoll: RollRecord | null;
  result: GameResult | null;
  match: MatchProgress;
  log: LogEntry[];
  /** Position of the last applied log; older or equal logs are ignored. */
  applied: { blockNumber: bigint; logIndex: number } | null;
}

export const key = (account: Address): string => account.toLowerCase();
export const sameAddress = (
  a: Address | null | undefined,
  b: Address | null | undefined,
): boolean => !!a && !!b && a.toLowerCase() === b.toLowerCase();

export function initialGameState(gameId: bigint): GameState {
  return {
    gameId,
    status: "unknown",
    creator: null,
    token: null,
    bet: 0n,
    seats: 0,
    ruleSet: null,
    isPrivate: false,
    invitees: [],
    players: [],
    orderDrawn: false,
    rollOut: null,
    calledOff: false,
    sheets: {},
    forfeited: [],
    currentSeat: null,
    round: 0,
    turn: null,
    pendingRoll: null,
    lastRoll: null,
    result: null,
    match: { length: 1, number: 1, games: [] },
    log: [],
    applied: null,
  };
}

export function isForfeited(state: GameState, player: Address): boolean {
  return state.forfeited.some((p) => sameAddress(p, player));
}

export function currentPlayer(state: GameState): Address | null {
  return state.currentSeat === null ? null : (state.players[state.currentSeat] ?? null);
}

/** The next seat after `from` that has not forfeited; `wrapped` when it passed the last seat. */
function nextSeat(state: GameState, from: number): { seat: number; wrapped: boolean } | null {
  const n = state.players.length;
  for (let step = 1; step <= n; step++) {
    const seat = (from + step) % n;
    if (!isForfeited(state, state.players[seat])) return { seat, wrapped: from + step >= n };
  }
  return null;
}

function passTurn(state: GameState): GameState {
  if (state.currentSeat === null) return state;
  const next = nextSeat(state, state.currentSeat);
  if (!next) return { ...state, currentSeat: null, turn: null, pendingRoll: null, rollOut: null };
  return {
    ...state,
    currentSeat: next.seat,
    round: next.wrapped ? state.round + 1 : state.round,
    turn: { player: state.players[next.seat], rollsUsed: 0, dice: null },
    pendingRoll: null,
    rollOut: null,
  };
}

function isAfter(state: GameState, log: HallLog): boolean {
  if (!state.applied) return true;
  const { blockNumber, logIndex } = state.applied;
  return (
    log.blockNumber > blockNumber || (log.blockNumber === blockNumber && log.logIndex > logIndex)
  );
}

type EntryData = LogEntry extends infer E
  ? E extends LogEntry
    ? Omit<E, keyof EntryBase>
    : never
  : never;

function withEntry(state: GameState, log: HallLog, data: EntryData): GameState {
  const entry = {
    id: `${log.blockNumber}:${log.logIndex}`,
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
    round: state.round,
    game: state.match.number,
    ...data,
  } as LogEntry;
  return { ...state, log: [...state.log, entry] };
}

function reduce(state: GameState, log: GameLog): GameState {
  switch (log.eventName) {
    case "GameCreated": {
      const { creator, token, bet, seats, ruleSet, isPrivate } = log.args;
      const next: GameState = {
        ...state,
        status: "open",
        creator,
        token,
        bet,
        seats,
        ruleSet: isRuleSetId(ruleSet) ? ruleSet : null,
        isPrivate,
        players: [creator],
      };
      return withEntry(next, log, {
        kind: "created",
        creator,
        token,
        bet,
        seats,
        ruleSet,
        isPrivate,
      });
    }
    case "MatchCreated": {
      const games = log.args.games;
      return withEntry({ ...state, match: { ...state.match, length: games } }, log, {
        kind: "matchCreated",
        games,
      });
    }
    case "PlayerInvited": {
      const { invitee } = log.args;
      if (state.invitees.some((p) => sameAddress(p, invitee))) return state;
      return withEntry({ ...state, invitees: [...state.invitees, invitee] }, log, {
        kind: "invited",
        player: invitee,
      });
    }
    case "PlayerJoined": {
      const { player } = log.args;
      const players = state.players.some((p) => sameAddress(p, player))
        ? state.players
        : [...state.players, player];
      const joined = withEntry({ ...state, players }, log, { kind: "joined", player });
      // The last seat starts the game; its first roll will draw the order (GameStarted).
      return players.length === state.seats && state.status === "open"
        ? { ...joined, status: "running", round: 1 }
        : joined;
    }
    case "PlayerLeft": {
      const { player } = log.args;
      const players = state.players.filter((p) => !sameAddress(p, player));
      return withEntry({ ...state, players }, log, { kind: "left", player });
    }
    case "GameStarted": {
      const order = [...log.args.order];
      const sheets: Record<string, Sheet> = {};
      if (state.ruleSet !== null) for (const p of order) sheets[key(p)] = newSheet(state.ruleSet);
      const next: GameState = {
        ...state,
        status: "running",
        players: order,
        orderDrawn: true,
        sheets,
        currentSeat: 0,
        round: 1,
        turn: order.length ? { player: order[0], rollsUsed: 0, dice: null } : null,
      };
      // The seats in join order are what the draw shuffled: verify.ts recomputes the draw from them.
      // In a match, every game's draw shuffles the seats in join order, which the first draw kept.
      const firstDraw = state.log.find((e) => e.kind === "started");
      const joinOrder = firstDraw?.kind === "started" ? firstDraw.joinOrder : state.players;
      return withEntry(next, log, { kind: "started", order, joinOrder });
    }
    case "RollRequested": {
      const { player, sequenceNumber, keepMask } = log.args;
      const pendingRoll = { player, sequenceNumber, keepMask, blockNumber: log.blockNumber };
      const rollOut = { attempts: (state.rollOut?.attempts ?? 0) + 1, keepMask, refused: false };
      return withEntry({ ...state, pendingRoll, rollOut }, log, {
        kind: "rollRequested",
        player,
        sequenceNumber,
        keepMask,
      });
    }
    case "RollRefused": {
      const { player, keepMask } = log.args;
      const rollOut = { attempts: (state.rollOut?.attempts ?? 0) + 1, keepMask, refused: true };
      return withEntry({ ...state, pendingRoll: null, rollOut }, log, {
        kind: "rollRefused",
        player,
        keepMask,
      });
    }
    case "DiceRolled": {
      const { player, rollNumber, dice, sequenceNumber, randomNumber } = log.args;
      const sameTurn = state.turn && sameAddress(state.turn.player, player) ? state.turn : null;
      const requested = state.log.findLast(
        (e) => e.kind === "rollRequested" && e.sequenceNumber === sequenceNumber,
      );
      const roll: RollRecord = {
        player,
        rollNumber,
        dice: [...dice],
        sequenceNumber,
        randomNumber,
        keepMask: requested?.kind === "rollRequested" ? requested.keepMask : 0,
        previous: rollNumber > 1 ? (sameTurn?.dice ?? null) : null,
      };
      const pendingRoll =
        state.pendingRoll && state.pendingRoll.sequenceNumber !== sequenceNumber
          ? state.pendingRoll
          : null;
      const next: GameState = {
        ...state,
        pendingRoll,
        rollOut: null,
        lastRoll: roll,
        turn: { player, rollsUsed: rollNumber, dice: [...dice] },
      };
      return withEntry(next, log, { kind: "rolled", player, roll });
    }
    case "Scored": {
      const { player, category, points, bonus } = log.args;
      const sheet = state.sheets[key(player)];
      const sheets = { ...state.sheets };
      if (sheet) {
        const boxes = sheet.boxes.slice();
        boxes[category] = Number(points);
        sheets[key(player)] = {
          ...sheet,
          boxes,
          yahtzeeBonuses: sheet.yahtzeeBonuses + (bonus > 0n ? 1 : 0),
        };
      }
      const dice = state.turn && sameAddress(state.turn.player, player) ? state.turn.dice : null;
      const scored = withEntry({ ...state, sheets }, log, {
        kind: "scored",
        player,
        box: category,
        points: Number(points),
        bonus: Number(bonus),
        dice,
      });
      return passTurn(scored);
    }
    case "PlayerForfeited": {
      const { player } = log.args;
      const wasCurrent = sameAddress(currentPlayer(state), player);
      const next = withEntry({ ...state, forfeited: [...state.forfeited, player] }, log, {
        kind: "forfeited",
        player,
      });
      return wasCurrent ? passTurn(next) : next;
    }
    case "MatchGameFinished": {
      // One game of a match ends; the next (if any) starts in the same transaction, with blank
      // sheets and its order undrawn until its first roll. The fold keeps the ended game's sheets
      // (a replay's last step shows them) until that roll's GameStarted gives fresh ones.
      const { game, players, totals, winners } = log.args;
      const ended: MatchGameResult = {
        number: game,
        players: [...players],
        totals: [...totals],
        winners: [...winners],
      };
      const games = [...state.match.games.filter((g) => g.number !== game), ended];
      const more = game < state.match.length && state.status === "running";
      const entered = withEntry({ ...state, match: { ...state.match, games } }, log, {
        kind: "gameEnded",
        number: game,
        players: ended.players,
        totals: ended.totals,
        winners: ended.winners,
      });
      return {
        ...entered,
        match: { ...entered.match, number: more ? game + 1 : game },
        orderDrawn: false,
        currentSeat: null,
        turn: null,
        pendingRoll: null,
        rollOut: null,
        round: more ? 1 : state.round,
      };
    }
    case "GameFinished": {
      const { players, totals, winners, payoutEach, houseFee } = log.args;
      const result: GameResult = {
        players: [...players],
        totals: [...totals],
        winners: [...winners],
        payoutEach,
        houseFee,
      };
      const next: GameState = {
        ...state,
        status: "finished",
        result,
        currentSeat: null,
        turn: null,
        pendingRoll: null,
        rollOut: null,
      };
      return withEntry(next, log, {
        kind: "finished",
        winners: [...winners],
        payoutEach,
        houseFee,
        ...(state.match.length > 1 && { match: true }),
      });
    }
    case "GameCancelled": {
      const calledOff = state.status === "running";
      return withEntry(
        {
          ...state,
          status: "cancelled",
          calledOff,
          currentSeat: null,
          turn: null,
          pendingRoll: null,
          rollOut: null,
        },
        log,
        { kind: "cancelled", calledOff },
      );
    }
  }
}

/**
 * One step: applies `log` if it belongs to this game and comes after everything applied so far
 * (duplicates and stale logs leave the state unchanged).
 */
export function applyEvent(state: GameState, log: HallLog): GameState {
  if (!isGameLog(log) || log.args.gameId !== state.gameId || !isAfter(state, log)) return state;
  const next = reduce(state, log);
  return { ...next, applied: { blockNumber: log.blockNumber, logIndex: log.logIndex } };
}

/** The whole game from any list of logs: sorted, deduplicated, then folded. */
export function foldGame(gameId: bigint, logs: readonly HallLog[]): GameState {
  return mergeLogs(logs).reduce(applyEvent, initialGameState(gameId));
}

/** Every game found in hall-wide logs, by id. */
export function foldHall(logs: readonly HallLog[]): Map<bigint, GameState> {
  const byGame = new Map<bigint, HallLog[]>();
  for (const log of logs) {
    if (!isGameLog(log)) continue;
    const list = byGame.get(log.args.gameId) ?? [];
    list.push(log);
    byGame.set(log.args.gameId, list);
  }
  const games = new Map<bigint, GameState>();
  for (const [gameId, list] of [...byGame].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    games.set(gameId, mergeLogs(list).reduce(applyEvent, initialGameState(gameId)));
  }
  return games;
}

import type { Address } from "viem";
import { STALLED_AFTER_SECONDS } from "../contract/revelations.ts";
import { ordinal } from "../game/format.ts";
import { isComplete } from "../rules/sheet.ts";
import { isRematchOf } from "../game/rematch.ts";
import { gameOfMatch, isMatch, matchStandings, matchTableOf } from "../game/match.ts";
import { sameAddress, type GameState } from "../game/gameState.ts";
import { myMove, turnAlertText, type TurnAlertTable } from "../game/turnAlert.ts";
import type { PushKind } from "./pushKinds.ts";

/**
 * Which Web Pushes the hall owes its players: pure decisions over a game's fold (the events) and
 * the chain's view of its clock, so the notifier (indexer/src/api/push/) only reads, sends and
 * remembers. Every push has a key that names the moment it is about, never the block that showed
 * it: the same move seen again (a restart that reads the blocks again, a reorg that mines the move
 * again) gives the same key, and the notifier sends each key once.
 *
 * A match's games are each a game of their own (issue 42): the round starts again at 1 in game 2,
 * so every key names the game of the match too, and each game's moves, clocks and end are pushed.
 *
 * Only the players of a game are ever named: a spectator has no seat, so no key of theirs exists.
 */

export interface PushMessage {
  /** The player, lower-case. */
  to: string;
  kind: PushKind;
  /** The moment it is about (see above): sent once per player. */
  key: string;
  title: string;
  body: string;
  /** The app's path the notification opens. */
  url: string;
  /** A newer push with the same tag replaces the older notification. */
  tag: string;
}

const tablePath = (gameId: bigint) => `/games/${gameId}`;

function message(
  to: Address | string,
  kind: PushKind,
  key: string,
  gameId: bigint,
  /** The game of the match it is about (1 for a single game). */
  game: number,
  text: { title: string; body: string },
): PushMessage {
  const who = to.toLowerCase();
  return {
    to: who,
    kind,
    key: `${key}|g${game}|${kind}|${who}`,
    ...text,
    url: tablePath(gameId),
    tag: `game-${gameId}`,
  };
}

/** Seated players who have not forfeited. */
const inPlay = (players: readonly Address[], forfeited: readonly Address[]) =>
  players.filter((p) => !forfeited.some((f) => sameAddress(f, p)));

/** A game's fold as the turn alert reads it, without a clock (the events say nothing of time). */
export function foldTable(state: GameState): TurnAlertTable {
  return {
    gameId: state.gameId,
    running: state.status === "running",
    orderDrawn: state.orderDrawn,
    round: state.round,
    players: state.players,
    current:
      state.orderDrawn && state.currentSeat !== null
        ? (state.players[state.currentSeat] ?? null)
        : null,
    forfeited: state.forfeited,
    askAgain: null,
    deadlineMs: null,
    nowMs: 0,
  };
}

/**
 * What a game's new events owe its players: `after` is the game's fold with them, `finishedOf`
 * the finished games a new lobby may replay (its creator's, for the rematch). A move that came to a
 * player is the turn alert's own decision (core/game/turnAlert.ts: `myMove`), so a push and the
 * app's in-tab alert agree on what is news; a table that just filled asks its players for the first
 * roll, which is the "started" push.
 */
export function eventPushes(
  after: GameState,
  finishedOf: readonly GameState[] = [],
): PushMessage[] {
  const out: PushMessage[] = [];
  const id = after.gameId;
  const game = after.match.number;
  if (after.status === "running") {
    // A game of a match that just ended, before the next one's draw is owed.
    out.push(...matchGameEndPushes(after));
    const table = foldTable(after);
    // The last game of a match has ended and the match's end is on its way (the same transaction).
    const played = after.match.games.some((g) => g.number === game);
    for (const player of played ? [] : inPlay(after.players, after.forfeited)) {
      const move = myMove(table, player);
      if (!move || move.phase === "askAgain") continue;
      // A full sheet has no move left: the game's finish is on its way (the same transaction).
      const sheet = after.sheets[player.toLowerCase()];
      if (move.phase === "move" && sheet && isComplete(sheet)) continue;
      if (move.phase === "draw") {
        out.push(
          message(
            player,
            "started",
            move.key,
            id,
            game,
            game > 1
              ? {
                  title: `${gameOfMatch(game, after.match.length)} started`,
                  body: `Game #${id}: roll first to draw the turn order of game ${game}.`,
                }
              : {
                  title: "Your table started",
                  body: `Game #${id}: every seat is taken. Roll first to draw the turn order.`,
                },
          ),
        );
      } else {
        out.push(
          message(
            player,
            "turn",
            move.key,
            id,
            game,
            withGame(turnAlertText({ ...move, kind: "turn" }, id), after),
          ),
        );
      }
    }
  }
  if (after.status === "finished" && after.result && isMatch(after)) {
    out.push(...matchEndPushes(after));
    return out;
  }
  if (after.status === "finished" && after.result) {
    const { players, totals, winners } = after.result;
    const ranked = players
      .map((p, i) => ({ p, total: totals[i] ?? 0n }))
      .sort((a, b) => (a.total === b.total ? 0 : a.total > b.total ? -1 : 1));
    players.forEach((player, i) => {
      const total = totals[i] ?? 0n;
      const forfeited = after.forfeited.some((f) => sameAddress(f, player));
      const won = winners.some((w) => sameAddress(w, player));
      const place = ranked.findIndex((r) => r.total === total) + 1;
      const result = forfeited
        ? "you were timed out and forfeited"
        : won
          ? winners.length > 1
            ? `you shared the win with ${total} points`
            : `you won with ${total} points`
          : `you came ${ordinal(place)} of ${players.length} with ${total} points`;
      out.push(
        message(player, "finished", `${id}:finished`, id, game, {
          title: won ? "You won" : "Game over",
          body: `Game #${id} is over: ${result}.`,
        }),
      );
    });
  }
  if (after.status === "open" && after.creator) {
    const of = [...finishedOf]
      .filter((g) => isRematchOf(after, g))
      .sort((a, b) => (a.gameId > b.gameId ? -1 : 1))[0];
    if (of) {
      const players = of.result?.players ?? of.players;
      for (const player of players) {
        if (sameAddress(player, after.creator)) continue;
        if (after.players.some((p) => sameAddress(p, player))) continue;
        out.push(
          message(player, "rematch", `${id}:rematch`, id, 1, {
            title: "A rematch for you",
            body: `Game #${id}: a player of game #${of.gameId} opened the same table again. Join it?`,
          }),
        );
      }
    }
  }
  return out;
}

/** "Game 2 of 3 · " before a match's words; a single game's as they are. */
function withGame(
  text: { title: string; body: string },
  state: GameState,
): { title: string; body: string } {
  if (!isMatch(state)) return text;
  return {
    ...text,
    title: `${text.title} · ${gameOfMatch(state.match.number, state.match.length)}`,
  };
}

/** The match's standings as the hall scores it: games won, then points; the forfeited last. */
function standingsOf(state: GameState) {
  const table = matchTableOf(state);
  const { rows, leaders } = matchStandings(table.players.length, table.games, table.forfeited);
  return { table, rows, leaders };
}

const gamesWord = (n: number) => `${n} game${n === 1 ? "" : "s"}`;

/**
 * A game of a match just ended and the next one waits for its draw: each of its players hears the
 * game's result and where the match stands. Owed until the next game's order is drawn.
 */
function matchGameEndPushes(state: GameState): PushMessage[] {
  const ended = state.match.games.at(-1);
  if (!isMatch(state) || !ended || state.orderDrawn || ended.number !== state.match.number - 1) {
    return [];
  }
  const id = state.gameId;
  const { table, rows } = standingsOf(state);
  return ended.players.map((player, i) => {
    const won = ended.winners.some((w) => sameAddress(w, player));
    const me = table.players.findIndex((p) => sameAddress(p, player));
    const wins = rows.find((r) => r.index === me)?.wins ?? 0;
    const best = Math.max(...rows.filter((r) => r.index !== me).map((r) => r.wins), 0);
    return message(player, "finished", `${id}:finished`, id, ended.number, {
      title: `${gameOfMatch(ended.number, state.match.length)} over`,
      body:
        `Game #${id}: ${won ? "you won" : "you lost"} game ${ended.number} with ` +
        `${ended.totals[i] ?? 0n} points; games won in the match: you ${wins}, best of the others ${best}.`,
    });
  });
}

/** The match's end: each player's place as the hall scores the match (games won, then points). */
function matchEndPushes(state: GameState): PushMessage[] {
  const id = state.gameId;
  const { table, rows, leaders } = standingsOf(state);
  const seated = state.result?.players ?? state.players;
  return seated.map((player) => {
    const me = table.players.findIndex((p) => sameAddress(p, player));
    const row = rows.find((r) => r.index === me);
    const won = leaders.includes(me);
    const record = row ? `${gamesWord(row.wins)} won and ${row.points} points` : "";
    const result = row?.forfeited
      ? "you were timed out and forfeited"
      : won
        ? leaders.length > 1
          ? `you shared the match with ${record}`
          : `you won the match with ${record}`
        : `you came ${ordinal(row?.place ?? rows.length)} of ${rows.length} with ${record}`;
    return message(player, "finished", `${id}:finished`, id, 0, {
      title: won ? "You won the match" : "Match over",
      body: `Game #${id}, a match of ${gamesWord(state.match.length)}, is over: ${result}.`,
    });
  });
}

/** The chain's view of a running game, as the clock's pushes need it (DiceHall.getGame). */
export interface ClockView {
  gameId: bigint;
  /** The game's fold: who sits, who forfeited, whose move. */
  state: GameState;
  /** When the move clock runs out (chain ms); null when no clock runs. */
  deadlineMs: number | null;
  /** The game's move timeout (ms): a clock at 20 % left is a fifth of it. */
  moveTimeoutMs: number;
  /** A refused roll may be asked again from here (chain ms); null when none. */
  retryAtMs: number | null;
  entropyAttempts: number;
  /** The accepted request that is out (0n: none) and when it was asked (chain ms). */
  pendingSequence: bigint;
  requestedAtMs: number;
  /** The chain's time now (ms): the head block's, run on by the wall clock since. */
  nowMs: number;
  /**
   * The head block's own time (ms): a timeout can be claimed only in a block past the deadline,
   * so it is pushed once one is (the wall clock may run ahead of the chain). Default `nowMs`.
   */
  blockMs?: number;
}

/** "6 s" under a minute, "about 12 min" above: never "about 1 min" with seconds left. */
export function timeLeftText(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return `about ${Math.round(ms / 60_000)} min`;
}

/** The share of the move clock left when the "clock" push goes. */
export const CLOCK_WARNING_SHARE = 0.2;

/**
 * What the clock owes the players of a running game now: a move at 20 % of its time left (to the
 * player to move), a timeout that can be claimed (to the others still playing), a stalled roll any
 * seated player can deliver or ask again. Each once per moment (the key).
 */
export function clockPushes(view: ClockView): PushMessage[] {
  const { state, gameId: id, nowMs } = view;
  const blockMs = view.blockMs ?? nowMs;
  const game = state.match.number;
  if (state.status !== "running") return [];
  const out: PushMessage[] = [];
  const seated = inPlay(state.players, state.forfeited);
  const table: TurnAlertTable = {
    ...foldTable(state),
    askAgain:
      view.entropyAttempts > 0 && view.retryAtMs !== null && nowMs >= view.retryAtMs
        ? { attempts: view.entropyAttempts }
        : null,
    deadlineMs: view.deadlineMs,
    nowMs,
  };
  const deadline = view.deadlineMs;
  for (const player of seated) {
    const move = myMove(table, player);
    if (!move) continue;
    if (move.phase === "askAgain") {
      out.push(
        message(
          player,
          "stalled",
          move.key,
          id,
          game,
          withGame(turnAlertText({ ...move, kind: "turn" }, id), state),
        ),
      );
    } else if (
      move.phase === "move" &&
      deadline !== null &&
      view.entropyAttempts === 0 &&
      deadline - nowMs <= view.moveTimeoutMs * CLOCK_WARNING_SHARE
    ) {
      out.push(
        message(
          player,
          "clock",
          move.key,
          id,
          game,
          withGame(
            {
              title: "Your move clock is running out",
              body: `Game #${id}: ${timeLeftText(deadline - nowMs)} left to move, or you can be timed out.`,
            },
            state,
          ),
        ),
      );
    }
  }
  if (deadline !== null && blockMs > deadline) {
    // Whose clock ran out: the player to move, or (before the first roll) the whole table's draw.
    const late = table.current;
    const at = `${id}:${state.round}:${late?.toLowerCase() ?? "draw"}:${view.entropyAttempts}`;
    for (const player of seated) {
      if (late && sameAddress(late, player)) continue;
      out.push(
        message(player, "timeout", at, id, game, {
          title: "A timeout you can claim",
          body: late
            ? `Game #${id}: the player to move ran out of time. Claim the timeout to play on.`
            : `Game #${id}: nobody made the first roll in time. Claiming it calls the game off, with every bet back.`,
        }),
      );
    }
  }
  if (
    view.pendingSequence !== 0n &&
    view.entropyAttempts > 0 &&
    nowMs >= view.requestedAtMs + STALLED_AFTER_SECONDS * 1000
  ) {
    for (const player of seated) {
      out.push(
        message(player, "stalled", `${id}:stalled:${view.pendingSequence}`, id, game, {
          title: "A roll is stalled",
          body: `Game #${id}: the dice have not come for request #${view.pendingSequence}. You can deliver them from the table.`,
        }),
      );
    }
  }
  return out;
}

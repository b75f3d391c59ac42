import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { sameAddress, STATUS_NAMES } from "@dicehall/core/game/gameState.ts";
import {
  TURN_PHASE_TITLE,
  turnAlertStep,
  turnAlertText,
  type TurnAlertSeen,
  type TurnAlertTable,
  type TurnPhase,
} from "@dicehall/core/game/turnAlert.ts";
import {
  moveDeadlineMs,
  rollRetryAtMs,
  useGameViews,
  useHallGames,
  type GameView,
} from "@/data/gameData.ts";
import { beep, markTab, showNotification, vibrate } from "./alerts.ts";
import { useChainClockAnchor, useChainNow } from "./useNow.ts";

/** The chain's view of a table, as the alert reads it (core/game/turnAlert.ts). */
export function alertTable(
  gameId: bigint,
  view: GameView,
  forfeited: readonly Address[],
  nowMs: number,
): TurnAlertTable {
  const retryAt = rollRetryAtMs(view);
  return {
    gameId,
    running: STATUS_NAMES[view.status] === "running",
    orderDrawn: view.orderDrawn,
    round: view.round,
    players: view.players,
    current: view.orderDrawn ? (view.players[view.currentSeat] ?? null) : null,
    forfeited,
    askAgain:
      view.entropyAttempts > 0 && retryAt !== null && nowMs >= retryAt
        ? { attempts: view.entropyAttempts }
        : null,
    deadlineMs: moveDeadlineMs(view),
    nowMs,
  };
}

/** The game whose table this path shows ("/games/12"), which raises its own alert. */
export function tableOnScreen(pathname: string): string | null {
  return /^\/games\/(\d+)\/?$/.exec(pathname)?.[1] ?? null;
}

/**
 * "Your turn, wherever you are": on every page, a connected player is called back (the tab's title
 * and icon, a beep, a vibration, a notification when the tab is hidden) when a move comes to them in
 * any of their running games, with a link to the table. The table's own page alerts for its game
 * itself (useTurnAlert); spectators and finished games never alert.
 */
export function TurnAlerts() {
  const { address } = useConnection();
  // Only a connected player has moves; nobody else reads the hall's games for this.
  return address ? <MyTurnAlerts me={address} /> : null;
}

interface MyMove {
  gameId: bigint;
  phase: TurnPhase;
}

function MyTurnAlerts({ me }: { me: Address }) {
  const { games, isPending } = useHallGames();
  const { pathname } = useLocation();
  const open = tableOnScreen(pathname);
  const running = useMemo(
    () =>
      [...games.values()].filter(
        (g) => g.status === "running" && g.players.some((p) => sameAddress(p, me)),
      ),
    [games, me],
  );
  const ids = useMemo(() => running.map((g) => g.gameId), [running]);
  const views = useGameViews(ids);
  const clockKnown = useChainClockAnchor() !== undefined;
  const nowMs = useChainNow(1_000);

  /** Per game, what has been seen; `primed` once the first look at the player's games is taken. */
  const seen = useRef(new Map<string, TurnAlertSeen>());
  const primed = useRef<string | null>(null);
  const [moves, setMoves] = useState<MyMove[]>([]);

  useEffect(() => {
    // Wait for the hall's games, their views and the chain's clock before the first look.
    if (isPending || !clockKnown || (running.length > 0 && !views.data)) return;
    const who = me.toLowerCase();
    // A page's first look (load, reload, another account) is remembered, never announced; a game
    // that starts later, or a move that comes later, is news.
    const first = primed.current !== who;
    if (first) seen.current.clear();
    const next: MyMove[] = [];
    for (const game of running) {
      const id = String(game.gameId);
      const view = views.data?.get(id);
      if (!view) continue;
      const before =
        seen.current.get(id) ?? (first ? undefined : { me: who, key: null, urgentKey: null });
      const step = turnAlertStep(before, alertTable(game.gameId, view, game.forfeited, nowMs), me);
      seen.current.set(id, step.seen);
      if (step.mine) next.push({ gameId: game.gameId, phase: step.mine });
      // The open table raises its own cue (and its own tab title) for its game.
      if (step.cue && id !== open) {
        const urgent = step.cue.kind === "urgent";
        const words = turnAlertText(step.cue, game.gameId);
        beep(urgent);
        vibrate(urgent);
        showNotification(
          `Dicehall: ${words.title}`,
          words.body,
          `${step.cue.key}:${step.cue.kind}`,
        );
      }
    }
    primed.current = who;
    setMoves((prev) => (sameMoves(prev, next) ? prev : next));
  }, [isPending, running, views.data, clockKnown, nowMs, me, open]);

  const elsewhere = moves.filter((m) => String(m.gameId) !== open);
  // On a table of one's own, that table owns the tab's title and icon.
  const ownsTab = open === null || !running.some((g) => String(g.gameId) === open);
  const title = !ownsTab || elsewhere.length === 0 ? null : TURN_PHASE_TITLE[elsewhere[0].phase];
  useEffect(() => (title ? markTab(title) : undefined), [title]);

  // A move of mine waiting at the open table comes first: the others keep to the tab until it is made.
  const busyHere = moves.length > elsewhere.length;
  if (elsewhere.length === 0 || busyHere) return null;
  return (
    <aside className="notice notice--turn" aria-label="Your move" role="status">
      {elsewhere.map((m) => (
        <p key={String(m.gameId)}>
          {TURN_PHASE_TITLE[m.phase]} in game #{String(m.gameId)}.{" "}
          <Link to={`/games/${m.gameId}`}>Go to the table</Link>
        </p>
      ))}
    </aside>
  );
}

const sameMoves = (a: readonly MyMove[], b: readonly MyMove[]) =>
  a.length === b.length && a.every((m, i) => m.gameId === b[i].gameId && m.phase === b[i].phase);

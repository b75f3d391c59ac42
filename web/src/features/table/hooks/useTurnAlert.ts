import { useEffect, useRef, useState } from "react";
import type { Address } from "viem";
import {
  TURN_PHASE_TITLE,
  turnAlertStep,
  turnAlertText,
  type TurnAlertCue,
  type TurnAlertSeen,
  type TurnPhase,
} from "@dicehall/core/game/turnAlert.ts";
import type { GameView } from "@/data/gameData.ts";
import { beep, markTab, showNotification, vibrate } from "@/ui/alerts.ts";
import { alertTable } from "@/ui/TurnAlerts.tsx";
import { useAnnounce } from "@/ui/announce.tsx";

/**
 * Calls the connected player back when a move comes to them (turnAlert.ts decides when): the tab's
 * title and icon while the move waits, and at the moment it comes a beep, a vibration, and a
 * notification if the tab is hidden and the player allowed them. Repeated once, louder, in the
 * move's last 30 seconds.
 */
export function useTurnAlert(
  gameId: bigint,
  view: GameView | undefined,
  forfeited: readonly Address[],
  me: Address | undefined,
  /** The chain's time; null until the chain's clock is read (a page's first look waits for it). */
  nowMs: number | null,
): TurnPhase | null {
  const announce = useAnnounce();
  const seen = useRef<TurnAlertSeen | undefined>(undefined);
  const [mine, setMine] = useState<TurnPhase | null>(null);
  const [cue, setCue] = useState<TurnAlertCue | null>(null);

  useEffect(() => {
    if (!view || nowMs === null) return;
    const step = turnAlertStep(seen.current, alertTable(gameId, view, forfeited, nowMs), me);
    seen.current = step.seen;
    setMine(step.mine);
    if (step.cue) setCue(step.cue);
  }, [gameId, view, forfeited, me, nowMs]);

  useEffect(() => {
    if (!cue) return;
    const urgent = cue.kind === "urgent";
    const words = turnAlertText(cue, gameId);
    beep(urgent);
    vibrate(urgent);
    showNotification(`Dicehall: ${words.title}`, words.body, `${cue.key}:${cue.kind}`);
    // The table already says whose turn it is when the turn passes; the last stretch is news.
    if (urgent) announce(`${words.title}: ${words.body}`);
  }, [cue, gameId, announce]);

  useEffect(() => (mine ? markTab(TURN_PHASE_TITLE[mine]) : undefined), [mine]);
  return mine;
}

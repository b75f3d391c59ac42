import { useEffect, useRef } from "react";
import { chooseTurnAction, type TurnAction } from "@dicehall/core/rules/strategy.ts";
import { coachAction } from "@/data/coach.ts";
import {
  botToMove,
  type BotLevel,
  type PracticeAction,
  type PracticeState,
} from "../engine/engine.ts";

/** A bot's pause between moves, so the table can be followed. */
export const BOT_STEP_MS = 600;

/** A bot's next move: the coach's from its worker, the casual bot's from the heuristic. */
async function botAction(level: BotLevel, state: PracticeState): Promise<TurnAction> {
  const game = state.game!;
  const sheet = game.sheets[game.currentSeat!];
  const dice = game.dice ?? [1, 1, 1, 1, 1];
  if (level === "coach") {
    // Without a worker (or with one that fails) the coach bot plays the heuristic's move.
    const move = await coachAction(sheet, dice, game.rollsUsed).catch(() => null);
    if (move) return move;
  }
  return chooseTurnAction(sheet, dice, game.rollsUsed);
}

/**
 * Plays the bots' turns: one move per step (roll, keep and roll again, score), each dispatched
 * like a player's. `roll` is the table's own roll (randomness and the dice's tumble).
 */
export function useBotTurns(
  state: PracticeState,
  dispatch: (action: PracticeAction) => void,
  roll: () => void,
  rolling: boolean,
  stepMs = BOT_STEP_MS,
): void {
  const level = botToMove(state);
  const game = state.game;
  const position = game ? `${game.number}:${game.currentSeat}:${game.round}:${game.rollsUsed}` : "";
  const latest = useRef({ state, dispatch, roll });
  latest.current = { state, dispatch, roll };
  const moved = useRef<string | null>(null);

  useEffect(() => {
    if (!level || rolling || moved.current === position) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const move = await botAction(level, latest.current.state);
      if (cancelled) return;
      moved.current = position;
      const { dispatch: send, roll: rollNow } = latest.current;
      if (move.action === "score") send({ type: "score", box: move.box });
      else {
        send({ type: "keep", keepMask: move.keepMask });
        rollNow();
      }
    }, stepMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [level, position, rolling, stepMs]);
}

import type { GameRecord } from "@dicehall/core/coach/analyse.ts";
import type { PracticeState } from "./engine.ts";

/**
 * The practice game on the table as the coach reviews it: each seat's turns as played. Null when
 * the game was saved before practice kept its moves, or has none yet.
 */
export function practiceRecord(state: PracticeState): GameRecord | null {
  const game = state.game;
  if (!game?.turns || game.turns.every((mine) => mine.length === 0)) return null;
  return {
    ruleSet: state.ruleSet,
    players: game.turns.map((turns, seat) => ({ player: state.names[seat], turns })),
  };
}

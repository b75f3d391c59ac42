import { ruleSet } from "../../rules/ruleSets.ts";
import { boxOptions } from "../../rules/sheet.ts";
import { chooseTurnAction } from "../../rules/strategy.ts";
import type { PracticeState } from "./engine.ts";

/**
 * What the strategy bot (rules/strategy.ts) would do now, in words: a practice hint. Null when
 * there is nothing to decide (game over, setup).
 */
export function practiceHint(state: PracticeState): string | null {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat === null) return null;
  const sheet = game.sheets[game.currentSeat];
  if (game.rollsUsed === 0 || !game.dice) return "Hint: roll all five dice.";
  const action = chooseTurnAction(sheet, game.dice, game.rollsUsed);
  if (action.action === "score") {
    const option = boxOptions(sheet, game.dice).find((o) => o.box === action.box)!;
    const bonus = option.bonus ? ` plus the ${option.bonus} bonus` : "";
    return `Hint: score ${option.points}${bonus} in ${ruleSet(state.ruleSet).boxes[action.box].name}.`;
  }
  const kept = [0, 1, 2, 3, 4].filter((i) => (action.keepMask >> i) & 1);
  if (kept.length === 0) return "Hint: re-roll all five dice.";
  const faces = kept.map((i) => game.dice![i]).join(", ");
  const positions = kept.map((i) => i + 1).join(", ");
  return `Hint: keep ${faces} (${kept.length === 1 ? "die" : "dice"} ${positions}) and roll again.`;
}

/** The keep mask the hint suggests, to apply it with one click; null unless it says "roll". */
export function hintKeepMask(state: PracticeState): number | null {
  const game = state.game;
  if (
    state.phase !== "playing" ||
    !game ||
    game.currentSeat === null ||
    !game.dice ||
    game.rollsUsed === 0
  )
    return null;
  const action = chooseTurnAction(game.sheets[game.currentSeat], game.dice, game.rollsUsed);
  return action.action === "roll" ? action.keepMask : null;
}

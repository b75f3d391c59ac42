import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions } from "@dicehall/core/rules/sheet.ts";
import { adviseTurn, chooseTurnAction, type Ending } from "@dicehall/core/rules/strategy.ts";
import type { PracticeState } from "./engine.ts";

/** Endings less likely than this are left out of a hint's reason. */
const MENTION_FROM = 0.05;

const percent = (p: number): string => `${Math.round(p * 100)}%`;

function listed(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** Why a keep is worth it: the boxes the turn is likely to end in if the player plays on well. */
function aimReason(ruleSetId: number, endings: readonly Ending[]): string {
  const named = endings
    .filter((e) => e.probability >= MENTION_FROM)
    .slice(0, 3)
    .map((e) => `${ruleSet(ruleSetId).boxes[e.box].name} (${percent(e.probability)})`);
  return named.length === 0 ? "" : ` Why: it most likely ends in ${listed(named)}.`;
}

/**
 * What the strategy bot (rules/strategy.ts) would do now, in words, with its reason: a practice
 * hint. Null when there is nothing to decide (game over, setup).
 */
export function practiceHint(state: PracticeState): string | null {
  const game = state.game;
  if (state.phase !== "playing" || !game || game.currentSeat === null) return null;
  const sheet = game.sheets[game.currentSeat];
  if (game.rollsUsed === 0 || !game.dice) return "Hint: roll all five dice.";
  const advice = adviseTurn(sheet, game.dice, game.rollsUsed);
  if (advice.action === "score") {
    const option = boxOptions(sheet, game.dice).find((o) => o.box === advice.box)!;
    const bonus = option.bonus ? ` plus the ${option.bonus} bonus` : "";
    const why =
      advice.rollAgainLoss === null
        ? "no rolls are left, and this box gives up least against what it usually scores."
        : "no re-roll does better on average.";
    return `Hint: score ${option.points}${bonus} in ${ruleSet(state.ruleSet).boxes[advice.box].name}. Why: ${why}`;
  }
  const kept = [0, 1, 2, 3, 4].filter((i) => (advice.keepMask >> i) & 1);
  const why = aimReason(state.ruleSet, advice.endings);
  if (kept.length === 0) return `Hint: re-roll all five dice.${why}`;
  const faces = kept.map((i) => game.dice![i]).join(", ");
  const positions = kept.map((i) => i + 1).join(", ");
  return `Hint: keep ${faces} (${kept.length === 1 ? "die" : "dice"} ${positions}) and roll again.${why}`;
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

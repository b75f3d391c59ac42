import { shownLoss, type Choice } from "@dicehall/core/coach/analyse.ts";
import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";

/** The coach's numbers and choices in words, for the hint and the analysis. */

/** An expected score, to one decimal: 231.4. */
export const expectedWords = (points: number): string => points.toFixed(1);

/** Points given up against the best: "best" (a tie, core's TIE_EPSILON) or "−1.3". */
export const lossWords = (loss: number): string => {
  const shown = shownLoss(loss);
  return shown === 0 ? "best" : `−${shown.toFixed(1)}`;
};

/** Kept faces as a player says them: "keep 6, 6, 6", "re-roll all five". */
export function keepWords(kept: readonly number[]): string {
  return kept.length === 0 ? "re-roll all five" : `keep ${kept.join(", ")}`;
}

export function boxWords(ruleSetId: RuleSetId, box: number, points: number): string {
  return `${points} in ${ruleSet(ruleSetId).boxes[box].name}`;
}

/** A decision's choice in words: "keep 6, 6", "score now", "25 in Full House". */
export function choiceWords(ruleSetId: RuleSetId, choice: Choice): string {
  switch (choice.kind) {
    case "keep":
      return keepWords(choice.kept);
    case "stop":
      return "score now";
    case "box":
      return boxWords(ruleSetId, choice.box, choice.points);
  }
}

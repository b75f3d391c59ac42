import type { BoxOption } from "@dicehall/core/rules/sheet.ts";

/**
 * A box can be filled only once, and a click on the wrong row of a long sheet is easy: a choice
 * that scores nothing, or far less than the best box open now, asks for a second press. "Far less"
 * is under a third of the best and at least 10 points short of it, so the usual choices (three 3s
 * in Threes for 9 where a Full House would make 25) go through at once.
 */
export const FAR_BELOW_POINTS = 10;

const worth = (o: BoxOption) => o.points + o.bonus;

/** Why this choice wants a second press, in words; null when one press is enough. */
export function scoreGuard(
  box: number,
  options: readonly BoxOption[] | null,
  boxName: (box: number) => string,
): string | null {
  const legal = (options ?? []).filter((o) => o.legal);
  const chosen = legal.find((o) => o.box === box);
  if (!chosen) return null;
  const best = legal.reduce<BoxOption | null>(
    (top, o) => (top === null || worth(o) > worth(top) ? o : top),
    null,
  )!;
  const points = worth(chosen);
  const bestLine =
    best.box !== chosen.box && worth(best) > points
      ? ` Your best box now is ${boxName(best.box)} for ${worth(best)}.`
      : "";
  if (points === 0) {
    return `${boxName(box)} scores 0 with these dice.${bestLine} Press again to score 0 in ${boxName(box)}.`;
  }
  if (points * 3 < worth(best) && worth(best) - points >= FAR_BELOW_POINTS) {
    return `${boxName(box)} scores only ${points}.${bestLine} Press again to score ${points} in ${boxName(box)}.`;
  }
  return null;
}

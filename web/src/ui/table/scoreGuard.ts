import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { BoxOption } from "@dicehall/core/rules/sheet.ts";

/**
 * A box can be filled only once, and a click on the wrong row of a long sheet is easy. A second
 * press is asked only for a clear slip, never for a dump (a low score put where it costs least,
 * such as three 1s in Ones while Chance would take 13):
 * - a box that scores 0 while a box with points is open;
 * - a box far below what its own section offers with these dice: under a third of the best box of
 *   the same section (upper or lower) and at least 10 points short of it, such as 2 in Twos when
 *   Sixes would take 24, or 5 in Three of a Kind when five 1s make a Yahtzee.
 */
export const FAR_BELOW_POINTS = 10;

const worth = (o: BoxOption) => o.points + o.bonus;

const bestOf = (options: readonly BoxOption[]): BoxOption | null =>
  options.reduce<BoxOption | null>(
    (top, o) => (top === null || worth(o) > worth(top) ? o : top),
    null,
  );

/** Why this choice wants a second press, in words; null when one press is enough. */
export function scoreGuard(
  box: number,
  options: readonly BoxOption[] | null,
  boxName: (box: number) => string,
  ruleSetId: RuleSetId,
): string | null {
  const legal = (options ?? []).filter((o) => o.legal);
  const chosen = legal.find((o) => o.box === box);
  if (!chosen) return null;
  const points = worth(chosen);
  const again = `Press again to score ${points} in ${boxName(box)}.`;
  const bestLine = (best: BoxOption | null) =>
    best && best.box !== chosen.box && worth(best) > points
      ? ` Your best box now is ${boxName(best.box)} for ${worth(best)}.`
      : "";

  if (points === 0) {
    const best = bestOf(legal);
    if (!best || worth(best) === 0) return null; // nothing scores: a 0 somewhere is the move
    return `${boxName(box)} scores 0 with these dice.${bestLine(best)} ${again}`;
  }
  const boxes = ruleSet(ruleSetId).boxes;
  const section = boxes[box]?.section;
  const sameSection = bestOf(legal.filter((o) => boxes[o.box]?.section === section));
  if (
    sameSection &&
    points * 3 < worth(sameSection) &&
    worth(sameSection) - points >= FAR_BELOW_POINTS
  ) {
    return `${boxName(box)} scores only ${points}.${bestLine(sameSection)} ${again}`;
  }
  return null;
}

import { RulesError } from "./errors.ts";
import { ruleSet, type RuleSetId, type RuleSetInfo } from "./ruleSets.ts";
import { checkBox, checkDice, fiveOfAKindFace, scoreBox, type Dice } from "./score.ts";

export interface Sheet {
  ruleSet: RuleSetId;
  /** One entry per box in score-sheet order; null while the box is open. */
  boxes: (number | null)[];
  /** How many +100 Yahtzee bonuses this sheet has earned (classic only). */
  yahtzeeBonuses: number;
}

export interface BoxOption {
  box: number;
  points: number;
  /** The Yahtzee bonus that scoring here earns: 0 or 100. */
  bonus: number;
  legal: boolean;
  /** Why the box is not allowed, in player words; only when `legal` is false. */
  reason?: string;
}

export interface SheetTotals {
  upper: number;
  upperBonus: number;
  lower: number;
  yahtzeeBonus: number;
  total: number;
}

export const YAHTZEE_BONUS = 100;
// The Joker rule exists only in classic Yahtzee, so its box indices are classic ones.
const YAHTZEE_BOX = 11;
const YAHTZEE_POINTS = 50;
/** A Joker fills these boxes with their full prize even though five of a kind does not qualify. */
const JOKER_PRIZES: Readonly<Record<number, number>> = { 8: 25, 9: 30, 10: 40 };

export function newSheet(ruleSetId: RuleSetId): Sheet {
  return {
    ruleSet: ruleSetId,
    boxes: ruleSet(ruleSetId).boxes.map(() => null),
    yahtzeeBonuses: 0,
  };
}

export function isComplete(sheet: Sheet): boolean {
  return sheet.boxes.every((points) => points !== null);
}

export function openBoxes(sheet: Sheet): number[] {
  return sheet.boxes.flatMap((points, box) => (points === null ? [box] : []));
}

const isOpen = (sheet: Sheet, box: number): boolean => sheet.boxes[box] === null;

type Verdict = (box: number) => { legal: true } | { legal: false; reason: string };
const ANY_BOX: Verdict = () => ({ legal: true });

/** Why each box is or is not allowed when the forced Joker rule applies to five `face`s. */
function jokerVerdict(info: RuleSetInfo, sheet: Sheet, face: number): Verdict {
  const faceBox = face - 1;
  const faceName = info.boxes[faceBox].name;
  if (isOpen(sheet, faceBox)) {
    return (box) =>
      box === faceBox
        ? { legal: true }
        : {
            legal: false,
            reason: `Joker rule: five ${face}s must go in ${faceName} while it is open.`,
          };
  }
  const lowerOpen = info.boxes.some((b) => b.section === "lower" && isOpen(sheet, b.index));
  if (lowerOpen) {
    return (box) =>
      info.boxes[box].section === "lower"
        ? { legal: true }
        : {
            legal: false,
            reason: `Joker rule: with ${faceName} filled, five ${face}s must go in an open lower box.`,
          };
  }
  return ANY_BOX;
}

/**
 * Every open box with what `dice` would score there and whether the rules allow it.
 * Filled boxes are not listed.
 */
export function boxOptions(sheet: Sheet, dice: readonly number[]): BoxOption[] {
  const info = ruleSet(sheet.ruleSet);
  const roll = checkDice(dice);
  const face = fiveOfAKindFace(roll);
  const yahtzeeScore = info.joker || info.yahtzeeBonus ? sheet.boxes[YAHTZEE_BOX] : null;
  const joker = info.joker && face !== null && yahtzeeScore !== null;
  const bonus =
    info.yahtzeeBonus && face !== null && yahtzeeScore === YAHTZEE_POINTS ? YAHTZEE_BONUS : 0;
  const verdict = joker ? jokerVerdict(info, sheet, face) : ANY_BOX;

  return openBoxes(sheet).map((box): BoxOption => {
    const allowed = verdict(box);
    const raw = scoreBox(sheet.ruleSet, box, roll);
    if (!allowed.legal) return { box, points: raw, bonus: 0, legal: false, reason: allowed.reason };
    return { box, points: joker ? (JOKER_PRIZES[box] ?? raw) : raw, bonus, legal: true };
  });
}

export function legalBoxes(sheet: Sheet, dice: readonly number[]): number[] {
  return boxOptions(sheet, dice)
    .filter((option) => option.legal)
    .map((option) => option.box);
}

/**
 * Fills `box` with `dice`; returns a new sheet, leaving the given one untouched.
 * @throws RulesError InvalidDie, BoxOutOfRange, SheetFull, BoxFilled or IllegalBox
 */
export function applyScore(
  sheet: Sheet,
  dice: readonly number[],
  box: number,
): { sheet: Sheet; points: number; bonus: number } {
  const info = ruleSet(sheet.ruleSet);
  const roll: Dice = checkDice(dice);
  checkBox(sheet.ruleSet, box);
  if (isComplete(sheet)) throw new RulesError("SheetFull");
  if (!isOpen(sheet, box)) {
    throw new RulesError("BoxFilled", `${info.boxes[box].name} is already filled.`);
  }
  const option = boxOptions(sheet, roll).find((o) => o.box === box)!;
  if (!option.legal) throw new RulesError("IllegalBox", option.reason);

  const boxes = sheet.boxes.slice();
  boxes[box] = option.points;
  return {
    sheet: {
      ruleSet: sheet.ruleSet,
      boxes,
      yahtzeeBonuses: sheet.yahtzeeBonuses + (option.bonus > 0 ? 1 : 0),
    },
    points: option.points,
    bonus: option.bonus,
  };
}

/** The upper bonus counts as soon as the upper total reaches it, as on chain. */
export function totals(sheet: Sheet): SheetTotals {
  const info = ruleSet(sheet.ruleSet);
  let upper = 0;
  let lower = 0;
  for (const b of info.boxes) {
    if (b.section === "upper") upper += sheet.boxes[b.index] ?? 0;
    else lower += sheet.boxes[b.index] ?? 0;
  }
  const upperBonus =
    info.upperBonus !== null && upper >= info.upperBonus.threshold ? info.upperBonus.points : 0;
  const yahtzeeBonus = sheet.yahtzeeBonuses * YAHTZEE_BONUS;
  return {
    upper,
    upperBonus,
    lower,
    yahtzeeBonus,
    total: upper + upperBonus + lower + yahtzeeBonus,
  };
}

import { RulesError } from "./errors.ts";
import { ruleSet, type RuleSetId } from "./ruleSets.ts";

export type Dice = readonly [number, number, number, number, number];

/** Scores depend only on how many dice show each face, never on their positions. */
interface Hand {
  /** counts[face] for face 1..6; counts[0] is unused. */
  readonly counts: readonly number[];
  readonly sum: number;
}

type BoxScorer = (hand: Hand) => number;

export function isDie(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 6;
}

/** @throws RulesError("InvalidDie") unless exactly five dice, each a whole number 1..6 */
export function checkDice(dice: readonly number[]): Dice {
  if (!Array.isArray(dice) || dice.length !== 5) {
    throw new RulesError("InvalidDie", `A roll is five dice, not ${dice?.length ?? 0}.`);
  }
  const bad = dice.find((die) => !isDie(die));
  if (bad !== undefined) throw new RulesError("InvalidDie", `A die shows 1 to 6, not ${bad}.`);
  return dice as unknown as Dice;
}

function handOf(dice: Dice): Hand {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const die of dice) counts[die]++;
  return { counts, sum: dice[0] + dice[1] + dice[2] + dice[3] + dice[4] };
}

/** The face shown by all five dice, or null. */
export function fiveOfAKindFace(dice: Dice): number | null {
  return dice.every((die) => die === dice[0]) ? dice[0] : null;
}

const hasKind = (hand: Hand, n: number): boolean => hand.counts.some((count) => count >= n);
// With five dice "three of one face and two of another" is exactly counts {3, 2}.
const isFullHouse = (hand: Hand): boolean => hand.counts.includes(3) && hand.counts.includes(2);
const hasRun = (hand: Hand, from: number, length: number): boolean =>
  hand.counts.slice(from, from + length).every((count) => count > 0);
/** Faces showing at least `n` times, highest first. */
const facesWithAtLeast = (hand: Hand, n: number): number[] =>
  [6, 5, 4, 3, 2, 1].filter((face) => hand.counts[face] >= n);

const upper =
  (face: number): BoxScorer =>
  (hand) =>
    hand.counts[face] * face;
const UPPER: readonly BoxScorer[] = [1, 2, 3, 4, 5, 6].map(upper);

const chance: BoxScorer = (hand) => hand.sum;
const sumIfKind =
  (n: number): BoxScorer =>
  (hand) =>
    hasKind(hand, n) ? hand.sum : 0;
const prizeIf =
  (points: number, test: (hand: Hand) => boolean): BoxScorer =>
  (hand) =>
    test(hand) ? points : 0;
const fiveOfAKind = prizeIf(50, (hand) => hasKind(hand, 5));
const classicSmallStraight = prizeIf(
  30,
  (hand) => hasRun(hand, 1, 4) || hasRun(hand, 2, 4) || hasRun(hand, 3, 4),
);
const classicLargeStraight = prizeIf(40, (hand) => hasRun(hand, 1, 5) || hasRun(hand, 2, 5));
const lowRun = (hand: Hand): boolean => hasRun(hand, 1, 5);
const highRun = (hand: Hand): boolean => hasRun(hand, 2, 5);
/** Yatzy's n of a kind scores only the matching dice; five dice allow one such face. */
const matchingDice =
  (n: number): BoxScorer =>
  (hand) =>
    (facesWithAtLeast(hand, n)[0] ?? 0) * n;
const twoPairs = (hand: Hand): number => {
  const faces = facesWithAtLeast(hand, 2);
  return faces.length >= 2 ? 2 * (faces[0] + faces[1]) : 0;
};

const CLASSIC: readonly BoxScorer[] = [
  ...UPPER,
  sumIfKind(3),
  sumIfKind(4),
  prizeIf(25, isFullHouse),
  classicSmallStraight,
  classicLargeStraight,
  fiveOfAKind,
  chance,
];

const SCORERS: Record<RuleSetId, readonly BoxScorer[]> = {
  0: CLASSIC,
  1: [
    ...UPPER,
    matchingDice(2),
    twoPairs,
    matchingDice(3),
    matchingDice(4),
    prizeIf(15, lowRun),
    prizeIf(20, highRun),
    (hand) => (isFullHouse(hand) ? hand.sum : 0),
    chance,
    fiveOfAKind,
  ],
  2: [
    ...UPPER,
    prizeIf(20, (hand) => hasKind(hand, 3)),
    prizeIf(30, (hand) => hasKind(hand, 4)),
    prizeIf(25, isFullHouse),
    prizeIf(30, highRun),
    prizeIf(40, lowRun),
    fiveOfAKind,
    chance,
  ],
  3: [
    ...CLASSIC.slice(0, 8),
    (hand) => (isFullHouse(hand) ? Math.max(25, hand.sum) : 0),
    ...CLASSIC.slice(9),
    sumIfKind(2),
    (hand) => (facesWithAtLeast(hand, 2).length >= 2 ? hand.sum : 0),
    (hand) => 36 - hand.sum,
  ],
};

/** @throws RulesError("BoxOutOfRange") */
export function checkBox(ruleSetId: number, box: number): void {
  const count = ruleSet(ruleSetId).boxes.length;
  if (!Number.isInteger(box) || box < 0 || box >= count) {
    throw new RulesError(
      "BoxOutOfRange",
      `This score sheet has boxes 0 to ${count - 1}, not ${box}.`,
    );
  }
}

/**
 * The raw score of `dice` in `box`, without any Joker context: exactly what the contract's
 * `scoreDice(ruleSet, category, dice)` returns.
 */
export function scoreBox(ruleSetId: number, box: number, dice: readonly number[]): number {
  checkBox(ruleSetId, box);
  const hand = handOf(checkDice(dice));
  return SCORERS[ruleSetId as RuleSetId][box](hand);
}

import { RulesError } from "./errors.ts";

export type RuleSetId = 0 | 1 | 2 | 3;
export type RuleSetKey = "yahtzee" | "yatzy" | "yazty" | "extended";
export type BoxSection = "upper" | "lower";

export interface BoxInfo {
  /** Index in score-sheet order; the contract's `category`. */
  readonly index: number;
  readonly key: string;
  /** The rule set's own name for the box. */
  readonly name: string;
  /** How it scores, in one short sentence. */
  readonly rule: string;
  /** The same in a few words, for the score sheet's margin ("3 alike: all dice"). */
  readonly short: string;
  readonly section: BoxSection;
}

export interface RuleSetInfo {
  readonly id: RuleSetId;
  readonly key: RuleSetKey;
  readonly name: "Yahtzee" | "Yatzy" | "Yazty" | "Extended";
  readonly tagline: string;
  readonly boxes: readonly BoxInfo[];
  readonly upperBonus: { readonly threshold: number; readonly points: number } | null;
  /** +100 for each further five of a kind once the Yahtzee box holds 50. */
  readonly yahtzeeBonus: boolean;
  /** The forced Joker rule for five of a kind once the Yahtzee box is filled. */
  readonly joker: boolean;
}

type BoxSpec = readonly [key: string, name: string, rule: string, short: string];

const FACE_WORDS = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes"] as const;

function upperSpecs(name: (face: number) => string): BoxSpec[] {
  return FACE_WORDS.map((word, i): BoxSpec => [
    word.toLowerCase(),
    name(i + 1),
    `Sum of the dice showing ${i + 1}.`,
    `sum of ${i + 1}s`,
  ]);
}

const faceWord = (face: number): string => FACE_WORDS[face - 1];

const CLASSIC_LOWER: readonly BoxSpec[] = [
  [
    "threeOfAKind",
    "Three of a Kind",
    "Sum of all dice, if at least three show the same face.",
    "3 alike: all dice",
  ],
  [
    "fourOfAKind",
    "Four of a Kind",
    "Sum of all dice, if at least four show the same face.",
    "4 alike: all dice",
  ],
  ["fullHouse", "Full House", "25 for three of one face and two of another.", "3 + 2 alike: 25"],
  [
    "smallStraight",
    "Small Straight",
    "30 for four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6).",
    "4 in a row: 30",
  ],
  [
    "largeStraight",
    "Large Straight",
    "40 for five faces in a row (1-2-3-4-5 or 2-3-4-5-6).",
    "5 in a row: 40",
  ],
  ["yahtzee", "Yahtzee", "50 for five of a kind.", "5 alike: 50"],
  ["chance", "Chance", "Sum of all dice.", "all dice"],
];

function boxes(specs: readonly BoxSpec[]): BoxInfo[] {
  return specs.map(([key, name, rule, short], index) => ({
    index,
    key,
    name,
    rule,
    short,
    section: index < 6 ? "upper" : "lower",
  }));
}

export const RULE_SETS: readonly RuleSetInfo[] = [
  {
    id: 0,
    key: "yahtzee",
    name: "Yahtzee",
    tagline: "The classic: 13 boxes, a 35-point upper bonus, 100 per extra Yahtzee, Joker rule.",
    boxes: boxes([...upperSpecs(faceWord), ...CLASSIC_LOWER]),
    upperBonus: { threshold: 63, points: 35 },
    yahtzeeBonus: true,
    joker: true,
  },
  {
    id: 1,
    key: "yatzy",
    name: "Yatzy",
    tagline: "The Scandinavian sheet: 15 boxes, pairs, exact straights and a 50-point upper bonus.",
    boxes: boxes([
      ...upperSpecs(faceWord),
      ["onePair", "One Pair", "Sum of the two dice of the highest pair.", "highest pair"],
      ["twoPairs", "Two Pairs", "Sum of two pairs of different faces.", "two pairs"],
      [
        "threeOfAKind",
        "Three of a Kind",
        "Sum of three dice showing the same face.",
        "3 alike: those 3",
      ],
      [
        "fourOfAKind",
        "Four of a Kind",
        "Sum of four dice showing the same face.",
        "4 alike: those 4",
      ],
      ["smallStraight", "Small Straight", "15 for exactly 1-2-3-4-5.", "1-2-3-4-5: 15"],
      ["largeStraight", "Large Straight", "20 for exactly 2-3-4-5-6.", "2-3-4-5-6: 20"],
      [
        "fullHouse",
        "Full House",
        "Sum of all dice, for three of one face and two of another.",
        "3 + 2 alike: all dice",
      ],
      ["chance", "Chance", "Sum of all dice.", "all dice"],
      ["yatzy", "Yatzy", "50 for five of a kind.", "5 alike: 50"],
    ]),
    upperBonus: { threshold: 63, points: 50 },
    yahtzeeBonus: false,
    joker: false,
  },
  {
    id: 2,
    key: "yazty",
    name: "Yazty",
    tagline: "13 boxes with fixed prizes for kinds and sequences, and no bonuses.",
    boxes: boxes([
      ...upperSpecs((face) => `Play of ${face}`),
      [
        "threeOfAKind",
        "Three of a Kind",
        "20 if at least three dice show the same face.",
        "3 alike: 20",
      ],
      [
        "fourOfAKind",
        "Four of a Kind",
        "30 if at least four dice show the same face.",
        "4 alike: 30",
      ],
      [
        "fullHouse",
        "Full House",
        "25 for three of one face and two of another.",
        "3 + 2 alike: 25",
      ],
      ["highSequence", "High Sequence", "30 for exactly 2-3-4-5-6.", "2-3-4-5-6: 30"],
      ["lowSequence", "Low Sequence", "40 for exactly 1-2-3-4-5.", "1-2-3-4-5: 40"],
      ["yatzi", "Yatzi", "50 for five of a kind.", "5 alike: 50"],
      ["random", "Random", "Sum of all dice.", "all dice"],
    ]),
    upperBonus: null,
    yahtzeeBonus: false,
    joker: false,
  },
  {
    id: 3,
    key: "extended",
    name: "Extended",
    tagline:
      "16 boxes: the classic sheet plus Pair, Double Pair and Misère, with a richer Full House.",
    boxes: boxes([
      ...upperSpecs(faceWord),
      ...CLASSIC_LOWER.slice(0, 2),
      [
        "fullHouse",
        "Full House",
        "Sum of all dice, at least 25, for three of one face and two of another.",
        "3 + 2 alike: all, min 25",
      ],
      ...CLASSIC_LOWER.slice(3),
      ["pair", "Pair", "Sum of all dice, if at least two show the same face.", "2 alike: all dice"],
      [
        "doublePair",
        "Double Pair",
        "Sum of all dice, if two different faces each show twice.",
        "2 + 2 alike: all dice",
      ],
      ["misere", "Misère", "36 minus the sum of all dice.", "36 − all dice"],
    ]),
    upperBonus: { threshold: 63, points: 35 },
    yahtzeeBonus: false,
    joker: false,
  },
];

export function isRuleSetId(id: number): id is RuleSetId {
  return Number.isInteger(id) && id >= 0 && id < RULE_SETS.length;
}

/** @throws RulesError("UnknownRuleSet") for anything but 0..3 */
export function ruleSet(id: number): RuleSetInfo {
  if (!isRuleSetId(id))
    throw new RulesError("UnknownRuleSet", `There is no rule set number ${id}.`);
  return RULE_SETS[id];
}

export function boxCount(id: number): number {
  return ruleSet(id).boxes.length;
}

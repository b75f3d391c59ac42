/**
 * Writes test/vectors/rules-vectors.json, the rule vectors that the Solidity and the TypeScript
 * tests both read. Hand-written cases carry expected values worked out by hand from docs/RULES.md and
 * this script stops if the engine disagrees with any of them; generated cases (seeded, so the
 * file is the same on every run) take the engine's values.
 *
 *   npx tsx scripts/gen-vectors.ts
 *
 * Solidity decodes each JSON object with its keys in alphabetical order, so every case is built
 * with its keys already in that order, and every number is a uint256.
 */
import { writeFileSync } from "node:fs";
import { RulesError } from "@dicehall/core/rules/errors.ts";
import { boxCount, RULE_SETS, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { scoreBox } from "@dicehall/core/rules/score.ts";
import {
  applyScore,
  boxOptions,
  isComplete,
  newSheet,
  totals,
  type Sheet,
} from "@dicehall/core/rules/sheet.ts";
import { chooseBox, chooseTurnAction } from "@dicehall/core/rules/strategy.ts";

const OUT = new URL("../test/vectors/rules-vectors.json", import.meta.url);

interface BoxCase {
  box: number;
  dice: number[];
  ruleSet: number;
  score: number;
}
interface SheetCase {
  bonuses: number[];
  boxes: number[];
  dice: number[];
  points: number[];
  ruleSet: number;
  total: number;
  upperBonus: number;
  yahtzeeBonus: number;
}
interface JokerCase {
  dice: number[];
  filledBoxes: number[];
  filledScores: number[];
  legalBoxes: number[];
  legalPoints: number[];
  ruleSet: number;
}
interface ErrorCase {
  box: number;
  dice: number[];
  error: string;
  ruleSet: number;
}

let mismatches = 0;
function agree(what: string, engine: unknown, byHand: unknown): void {
  if (JSON.stringify(engine) !== JSON.stringify(byHand)) {
    mismatches++;
    console.error(
      `MISMATCH ${what}: engine ${JSON.stringify(engine)}, by hand ${JSON.stringify(byHand)}`,
    );
  }
}

/** "33352" -> [3, 3, 3, 5, 2]: hand-written dice read like the rules' examples. */
const d = (digits: string): number[] => [...digits].map(Number);

// mulberry32: tiny, seedable, and the same on every platform.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0xd1ce);
const randomInt = (n: number): number => Math.floor(random() * n);
const randomDie = (): number => 1 + randomInt(6);
const randomDice = (): number[] => Array.from({ length: 5 }, randomDie);
const fiveOf = (face: number): number[] => [face, face, face, face, face];
/** Dice shaped to hit the interesting boxes more often than uniform rolls would. */
function shapedDice(): number[] {
  const face = randomDie();
  const other = 1 + ((face + randomInt(5)) % 6);
  const shuffled = (dice: number[]): number[] => {
    for (let i = dice.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [dice[i], dice[j]] = [dice[j], dice[i]];
    }
    return dice;
  };
  switch (randomInt(6)) {
    case 0:
      return shuffled([face, face, face, other, other]);
    case 1:
      return shuffled([face, face, face, face, randomDie()]);
    case 2:
      return shuffled([face, face, other, other, randomDie()]);
    case 3: {
      const low = 1 + randomInt(3);
      return shuffled([low, low + 1, low + 2, 1 + randomInt(2) + low + 1, randomDie()]);
    }
    case 4:
      return shuffled(random() < 0.5 ? [1, 2, 3, 4, 5] : [2, 3, 4, 5, 6]);
    default:
      return randomDice();
  }
}

// ---------------------------------------------------------------------------------------------
// boxCases

const boxCases: BoxCase[] = [];
const seenBoxCases = new Map<string, number>();
function addBoxCase(ruleSet: number, box: number, dice: number[], score: number): void {
  const id = `${ruleSet}/${box}/${dice.join("")}`;
  const earlier = seenBoxCases.get(id);
  if (earlier !== undefined) {
    agree(`boxCase ${id} written twice`, score, earlier);
    return;
  }
  seenBoxCases.set(id, score);
  boxCases.push({ box, dice, ruleSet, score });
}
function handBoxCase(ruleSet: number, box: number, digits: string, score: number): void {
  agree(`scoreBox(${ruleSet}, ${box}, ${digits})`, scoreBox(ruleSet, box, d(digits)), score);
  addBoxCase(ruleSet, box, d(digits), score);
}

// docs/RULES.md "Public examples", with exactly those numbers.
const PUBLIC_EXAMPLES: [ruleSet: number, box: number, dice: string, score: number][] = [
  [0, 6, "33352", 16],
  [0, 8, "11155", 25],
  [0, 9, "12346", 30],
  [0, 10, "23456", 40],
  [1, 6, "34356", 6],
  [1, 7, "33545", 16],
  [1, 10, "12345", 15],
  [2, 0, "11145", 3],
  [2, 12, "14456", 20],
  [3, 14, "13355", 17],
  [3, 8, "66655", 28],
  [3, 8, "11122", 25],
  [3, 15, "66666", 6],
];
for (const [ruleSet, box, dice, score] of PUBLIC_EXAMPLES) handBoxCase(ruleSet, box, dice, score);

// Whole rows: one roll in every box of every rule set, worked out by hand.
const ROWS: [dice: string, byRuleSet: [number[], number[], number[], number[]]][] = [
  // five of a kind in every box
  [
    "11111",
    [
      [5, 0, 0, 0, 0, 0, 5, 5, 0, 0, 0, 50, 5],
      [5, 0, 0, 0, 0, 0, 2, 0, 3, 4, 0, 0, 0, 5, 50],
      [5, 0, 0, 0, 0, 0, 20, 30, 0, 0, 0, 50, 5],
      [5, 0, 0, 0, 0, 0, 5, 5, 0, 0, 0, 50, 5, 5, 0, 31],
    ],
  ],
  [
    "44444",
    [
      [0, 0, 0, 20, 0, 0, 20, 20, 0, 0, 0, 50, 20],
      [0, 0, 0, 20, 0, 0, 8, 0, 12, 16, 0, 0, 0, 20, 50],
      [0, 0, 0, 20, 0, 0, 20, 30, 0, 0, 0, 50, 20],
      [0, 0, 0, 20, 0, 0, 20, 20, 0, 0, 0, 50, 20, 20, 0, 16],
    ],
  ],
  [
    "66666",
    [
      [0, 0, 0, 0, 0, 30, 30, 30, 0, 0, 0, 50, 30],
      [0, 0, 0, 0, 0, 30, 12, 0, 18, 24, 0, 0, 0, 30, 50],
      [0, 0, 0, 0, 0, 30, 20, 30, 0, 0, 0, 50, 30],
      [0, 0, 0, 0, 0, 30, 30, 30, 0, 0, 0, 50, 30, 30, 0, 6],
    ],
  ],
  // full house; Two Pairs / Double Pair from a full house
  [
    "33355",
    [
      [0, 0, 9, 0, 10, 0, 19, 0, 25, 0, 0, 0, 19],
      [0, 0, 9, 0, 10, 0, 10, 16, 9, 0, 0, 0, 19, 19, 0],
      [0, 0, 9, 0, 10, 0, 20, 0, 25, 0, 0, 0, 19],
      [0, 0, 9, 0, 10, 0, 19, 0, 25, 0, 0, 0, 19, 19, 19, 17],
    ],
  ],
  [
    "22211",
    [
      [2, 6, 0, 0, 0, 0, 8, 0, 25, 0, 0, 0, 8],
      [2, 6, 0, 0, 0, 0, 4, 6, 6, 0, 0, 0, 8, 8, 0],
      [2, 6, 0, 0, 0, 0, 20, 0, 25, 0, 0, 0, 8],
      [2, 6, 0, 0, 0, 0, 8, 0, 25, 0, 0, 0, 8, 8, 8, 28],
    ],
  ],
  // the low and the high straight
  [
    "12345",
    [
      [1, 2, 3, 4, 5, 0, 0, 0, 0, 30, 40, 0, 15],
      [1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 15, 0, 0, 15, 0],
      [1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 40, 0, 15],
      [1, 2, 3, 4, 5, 0, 0, 0, 0, 30, 40, 0, 15, 0, 0, 21],
    ],
  ],
  [
    "23456",
    [
      [0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 40, 0, 20],
      [0, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 20, 0, 20, 0],
      [0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 0, 0, 20],
      [0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 40, 0, 20, 0, 0, 16],
    ],
  ],
  // straights with a pair inside
  [
    "12334",
    [
      [1, 2, 6, 4, 0, 0, 0, 0, 0, 30, 0, 0, 13],
      [1, 2, 6, 4, 0, 0, 6, 0, 0, 0, 0, 0, 0, 13, 0],
      [1, 2, 6, 4, 0, 0, 0, 0, 0, 0, 0, 0, 13],
      [1, 2, 6, 4, 0, 0, 0, 0, 0, 30, 0, 0, 13, 13, 0, 23],
    ],
  ],
  [
    "34566",
    [
      [0, 0, 3, 4, 5, 12, 0, 0, 0, 30, 0, 0, 24],
      [0, 0, 3, 4, 5, 12, 12, 0, 0, 0, 0, 0, 0, 24, 0],
      [0, 0, 3, 4, 5, 12, 0, 0, 0, 0, 0, 0, 24],
      [0, 0, 3, 4, 5, 12, 0, 0, 0, 30, 0, 0, 24, 24, 0, 12],
    ],
  ],
  // four of a kind
  [
    "66661",
    [
      [1, 0, 0, 0, 0, 24, 25, 25, 0, 0, 0, 0, 25],
      [1, 0, 0, 0, 0, 24, 12, 0, 18, 24, 0, 0, 0, 25, 0],
      [1, 0, 0, 0, 0, 24, 20, 30, 0, 0, 0, 0, 25],
      [1, 0, 0, 0, 0, 24, 25, 25, 0, 0, 0, 0, 25, 25, 0, 11],
    ],
  ],
  // two pairs
  [
    "66551",
    [
      [1, 0, 0, 0, 10, 12, 0, 0, 0, 0, 0, 0, 23],
      [1, 0, 0, 0, 10, 12, 12, 22, 0, 0, 0, 0, 0, 23, 0],
      [1, 0, 0, 0, 10, 12, 0, 0, 0, 0, 0, 0, 23],
      [1, 0, 0, 0, 10, 12, 0, 0, 0, 0, 0, 0, 23, 23, 23, 13],
    ],
  ],
  // nothing at all: a gap in the straight, no pair
  [
    "12456",
    [
      [1, 2, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 18],
      [1, 2, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 18, 0],
      [1, 2, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 18],
      [1, 2, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 18, 0, 0, 18],
    ],
  ],
];
for (const [dice, byRuleSet] of ROWS) {
  byRuleSet.forEach((row, ruleSet) => {
    agree(
      `row ${dice} has one score per box of rule set ${ruleSet}`,
      row.length,
      boxCount(ruleSet),
    );
    row.forEach((score, box) => handBoxCase(ruleSet, box, dice, score));
  });
}

// Single edges, each named by what it pins down.
const EDGES: [ruleSet: number, box: number, dice: string, score: number][] = [
  [0, 9, "23445", 30], // classic small straight with a pair inside
  [0, 9, "13456", 30], // 3-4-5-6 with a stray 1
  [0, 9, "12356", 0], // no four in a row
  [0, 10, "12346", 0], // four in a row is not large
  [0, 8, "55555", 0], // five of a kind is no Full House outside the Joker
  [0, 7, "66655", 0],
  [0, 6, "66655", 28],
  [0, 7, "11112", 6],
  [0, 12, "11112", 6],
  [0, 6, "12345", 0],
  [1, 10, "12334", 0], // Yatzy small straight is exactly 1-2-3-4-5
  [1, 10, "23456", 0],
  [1, 11, "12345", 0],
  [1, 11, "23456", 20],
  [1, 6, "11234", 2], // One Pair: the highest pair only
  [1, 6, "22255", 10],
  [1, 6, "12346", 0],
  [1, 7, "66665", 0], // four of a kind is one face: no Two Pairs
  [1, 7, "44442", 0],
  [1, 7, "22666", 16],
  [1, 8, "22255", 6], // Yatzy n of a kind: only the matching dice
  [1, 8, "33331", 9],
  [1, 8, "12345", 0],
  [1, 9, "33331", 12],
  [1, 9, "33355", 0],
  [1, 12, "22255", 16], // Yatzy Full House scores the sum
  [1, 12, "11223", 0],
  [2, 6, "22234", 20],
  [2, 6, "12345", 0],
  [2, 7, "11112", 30],
  [2, 7, "11122", 0],
  [2, 8, "11122", 25],
  [2, 9, "34566", 0],
  [2, 10, "12346", 0],
  [2, 10, "12345", 40], // the low sequence scores more, as the game's rules give it
  [2, 9, "23456", 30],
  [3, 8, "55566", 27], // Extended Full House: max(25, sum)
  [3, 8, "44455", 25],
  [3, 8, "22211", 25],
  [3, 13, "12346", 0], // Pair needs a pair
  [3, 13, "11234", 11],
  [3, 14, "22222", 0], // Double Pair needs two different faces
  [3, 14, "44442", 0],
  [3, 14, "66551", 23],
  [3, 15, "11111", 31], // Misère
  [3, 15, "12345", 21],
  [3, 15, "66665", 7],
  [3, 15, "34356", 15],
  [3, 6, "33352", 16],
];
for (const [ruleSet, box, dice, score] of EDGES) handBoxCase(ruleSet, box, dice, score);

// Generated: every box of every rule set with shaped and uniform rolls.
for (const info of RULE_SETS) {
  for (const box of info.boxes) {
    for (let i = 0; i < 3; i++) {
      const dice = i === 0 ? randomDice() : shapedDice();
      addBoxCase(info.id, box.index, dice, scoreBox(info.id, box.index, dice));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// sheetCases

type Move = [dice: number[], box: number, points: number, bonus: number];

function toSheetCase(ruleSet: RuleSetId, moves: Move[]): SheetCase {
  let sheet = newSheet(ruleSet);
  for (const [dice, box] of moves) sheet = applyScore(sheet, dice, box).sheet;
  if (!isComplete(sheet)) throw new Error(`sheet case for rule set ${ruleSet} is not complete`);
  const t = totals(sheet);
  return {
    bonuses: moves.map((m) => m[3]),
    boxes: moves.map((m) => m[1]),
    dice: moves.flatMap((m) => m[0]),
    points: moves.map((m) => m[2]),
    ruleSet,
    total: t.total,
    upperBonus: t.upperBonus,
    yahtzeeBonus: t.yahtzeeBonus,
  };
}

interface HandSheet {
  name: string;
  ruleSet: RuleSetId;
  moves: [dice: string, box: number, points: number, bonus: number][];
  upperBonus: number;
  yahtzeeBonus: number;
  total: number;
}

const UPPER_63: HandSheet["moves"] = [
  ["11123", 0, 3, 0],
  ["22213", 1, 6, 0],
  ["33312", 2, 9, 0],
  ["44412", 3, 12, 0],
  ["55512", 4, 15, 0],
  ["66612", 5, 18, 0],
];
// One die short of par in Ones: 62.
const UPPER_62: HandSheet["moves"] = [["11234", 0, 2, 0], ...UPPER_63.slice(1)];
const CLASSIC_LOWER: HandSheet["moves"] = [
  ["22234", 6, 13, 0],
  ["33331", 7, 13, 0],
  ["22333", 8, 25, 0],
  ["12346", 9, 30, 0],
  ["23456", 10, 40, 0],
  ["12346", 11, 0, 0],
  ["66554", 12, 26, 0],
];
const YATZY_LOWER: HandSheet["moves"] = [
  ["66551", 6, 12, 0],
  ["33355", 7, 16, 0],
  ["44442", 8, 12, 0],
  ["22222", 14, 50, 0],
  ["55555", 9, 20, 0], // no Joker in Yatzy: a second Yatzy is just four of a kind
  ["12334", 10, 0, 0],
  ["23456", 11, 20, 0],
  ["22266", 12, 18, 0],
  ["65436", 13, 24, 0],
];

const HAND_SHEETS: HandSheet[] = [
  {
    name: "classic, upper exactly 63",
    ruleSet: 0,
    moves: [...CLASSIC_LOWER.slice(0, 3), ...UPPER_63, ...CLASSIC_LOWER.slice(3)],
    upperBonus: 35,
    yahtzeeBonus: 0,
    total: 245,
  },
  {
    name: "classic, upper exactly 62",
    ruleSet: 0,
    moves: [...UPPER_62, ...CLASSIC_LOWER],
    upperBonus: 0,
    yahtzeeBonus: 0,
    total: 209,
  },
  {
    name: "classic, three Yahtzee bonuses: forced upper twice, then a Joker Large Straight",
    ruleSet: 0,
    moves: [
      ["55555", 11, 50, 0],
      ["55555", 4, 25, 100],
      ["22222", 1, 10, 100],
      ["55555", 10, 40, 100],
      ["11123", 0, 3, 0],
      ["33345", 2, 9, 0],
      ["44466", 3, 12, 0],
      ["66661", 5, 24, 0],
      ["66655", 6, 28, 0],
      ["22223", 7, 11, 0],
      ["33444", 8, 25, 0],
      ["13456", 9, 30, 0],
      ["66554", 12, 26, 0],
    ],
    upperBonus: 35,
    yahtzeeBonus: 300,
    total: 628,
  },
  {
    name: "classic, Yahtzee box 0: Jokers still forced, no bonus",
    ruleSet: 0,
    moves: [
      ["12346", 11, 0, 0],
      ["44444", 3, 20, 0],
      ["44444", 8, 25, 0],
      ["33333", 2, 15, 0],
      ["66666", 5, 30, 0],
      ["66666", 9, 30, 0],
      ["11235", 0, 2, 0],
      ["22256", 1, 6, 0],
      ["55552", 4, 20, 0],
      ["11111", 10, 40, 0],
      ["22222", 7, 10, 0],
      ["55522", 6, 19, 0],
      ["66666", 12, 30, 0],
    ],
    upperBonus: 35,
    yahtzeeBonus: 0,
    total: 282,
  },
  {
    name: "classic, every lower box filled: the Joker puts 0 in an open upper box, bonus still paid",
    ruleSet: 0,
    moves: [
      ["33333", 11, 50, 0],
      ["22245", 6, 15, 0],
      ["11116", 7, 10, 0],
      ["22555", 8, 25, 0],
      ["23455", 9, 30, 0],
      ["12345", 10, 40, 0],
      ["11223", 12, 9, 0],
      ["33312", 2, 9, 0],
      ["33333", 0, 0, 100],
      ["22446", 1, 4, 0],
      ["44441", 3, 16, 0],
      ["55566", 4, 15, 0],
      ["66662", 5, 24, 0],
    ],
    upperBonus: 35,
    yahtzeeBonus: 100,
    total: 382,
  },
  {
    name: "Yatzy, upper exactly 63 earns 50",
    ruleSet: 1,
    moves: [...UPPER_63, ...YATZY_LOWER],
    upperBonus: 50,
    yahtzeeBonus: 0,
    total: 285,
  },
  {
    name: "Yatzy, upper exactly 62",
    ruleSet: 1,
    moves: [...YATZY_LOWER, ...UPPER_62],
    upperBonus: 0,
    yahtzeeBonus: 0,
    total: 234,
  },
  {
    name: "Yazty, every box qualifies; no upper bonus at 70",
    ruleSet: 2,
    moves: [
      ["11145", 0, 3, 0],
      ["22221", 1, 8, 0],
      ["33366", 2, 9, 0],
      ["44411", 3, 12, 0],
      ["55553", 4, 20, 0],
      ["66622", 5, 18, 0],
      ["22234", 6, 20, 0],
      ["11112", 7, 30, 0],
      ["33555", 8, 25, 0],
      ["23456", 9, 30, 0],
      ["12345", 10, 40, 0],
      ["66666", 11, 50, 0],
      ["14456", 12, 20, 0],
    ],
    upperBonus: 0,
    yahtzeeBonus: 0,
    total: 285,
  },
  {
    name: "Yazty, five of a kind after the Yatzi box: no Joker, no bonus",
    ruleSet: 2,
    moves: [
      ["22222", 11, 50, 0],
      ["22222", 9, 0, 0],
      ["33333", 8, 0, 0],
      ["44444", 6, 20, 0],
      ["44444", 0, 0, 0],
      ["12334", 10, 0, 0],
      ["12345", 7, 0, 0],
      ["66666", 12, 30, 0],
      ["22113", 1, 4, 0],
      ["31111", 2, 3, 0],
      ["44441", 3, 16, 0],
      ["55111", 4, 10, 0],
      ["66666", 5, 30, 0],
    ],
    upperBonus: 0,
    yahtzeeBonus: 0,
    total: 163,
  },
  {
    name: "Extended, upper exactly 63",
    ruleSet: 3,
    moves: [
      ...UPPER_63,
      ["33352", 6, 16, 0],
      ["66665", 7, 29, 0],
      ["66655", 8, 28, 0],
      ["12334", 9, 30, 0],
      ["12345", 10, 40, 0],
      ["11111", 11, 50, 0],
      ["55443", 12, 21, 0],
      ["66123", 13, 18, 0],
      ["33355", 14, 19, 0],
      ["11223", 15, 27, 0],
    ],
    upperBonus: 35,
    yahtzeeBonus: 0,
    total: 376,
  },
  {
    name: "Extended, upper exactly 62; five of a kind after the Yahtzee box: no Joker, no bonus",
    ruleSet: 3,
    moves: [
      ["44444", 11, 50, 0],
      ["44444", 8, 0, 0],
      ["22222", 14, 0, 0],
      ["66666", 15, 6, 0],
      ["55555", 13, 25, 0],
      ["11111", 6, 5, 0],
      ["22223", 7, 11, 0],
      ["66666", 9, 0, 0],
      ["23456", 10, 40, 0],
      ["12346", 12, 16, 0],
      ...UPPER_62,
    ],
    upperBonus: 0,
    yahtzeeBonus: 0,
    total: 215,
  },
];

const sheetCases: SheetCase[] = [];
for (const hand of HAND_SHEETS) {
  const moves: Move[] = hand.moves.map(([dice, box, points, bonus]) => [
    d(dice),
    box,
    points,
    bonus,
  ]);
  let sheet = newSheet(hand.ruleSet);
  for (const [dice, box, points, bonus] of moves) {
    const move = applyScore(sheet, dice, box);
    agree(
      `${hand.name}: ${dice.join("")} in box ${box}`,
      [move.points, move.bonus],
      [points, bonus],
    );
    sheet = move.sheet;
  }
  const t = totals(sheet);
  agree(
    `${hand.name}: totals`,
    [t.upperBonus, t.yahtzeeBonus, t.total],
    [hand.upperBonus, hand.yahtzeeBonus, hand.total],
  );
  sheetCases.push(toSheetCase(hand.ruleSet, moves));
}

/** Five of a kind is rare in play; forcing it now and then exercises the Joker and the bonus. */
const FORCED_FIVE_OF_A_KIND = 0.15;

/** A whole game played by the strategy bot on seeded dice. */
function botSheet(ruleSet: RuleSetId): Move[] {
  let sheet: Sheet = newSheet(ruleSet);
  const moves: Move[] = [];
  while (!isComplete(sheet)) {
    let dice = randomDice();
    let box: number | null = null;
    for (let rollsUsed = 1; box === null;) {
      const action = chooseTurnAction(sheet, dice, rollsUsed);
      if (action.action === "score") box = action.box;
      else {
        dice = dice.map((die, i) => ((action.keepMask >> i) & 1 ? die : randomDie()));
        rollsUsed++;
      }
    }
    if (random() < FORCED_FIVE_OF_A_KIND) {
      dice = fiveOf(randomDie());
      box = chooseBox(sheet, dice);
    }
    const move = applyScore(sheet, dice, box);
    moves.push([dice, box, move.points, move.bonus]);
    sheet = move.sheet;
  }
  return moves;
}

/** A whole game of shaped rolls put in random legal boxes: odd sheets a bot would not make. */
function randomLegalSheet(ruleSet: RuleSetId): Move[] {
  let sheet: Sheet = newSheet(ruleSet);
  const moves: Move[] = [];
  while (!isComplete(sheet)) {
    const dice = random() < FORCED_FIVE_OF_A_KIND * 2 ? fiveOf(randomDie()) : shapedDice();
    const legal = boxOptions(sheet, dice).filter((o) => o.legal);
    const box = legal[randomInt(legal.length)].box;
    const move = applyScore(sheet, dice, box);
    moves.push([dice, box, move.points, move.bonus]);
    sheet = move.sheet;
  }
  return moves;
}

for (const info of RULE_SETS) {
  for (let i = 0; i < 8; i++) sheetCases.push(toSheetCase(info.id, botSheet(info.id)));
  for (let i = 0; i < 4; i++) sheetCases.push(toSheetCase(info.id, randomLegalSheet(info.id)));
}

// ---------------------------------------------------------------------------------------------
// jokerCases

function sheetWith(ruleSet: RuleSetId, filledBoxes: number[], filledScores: number[]): Sheet {
  const sheet = newSheet(ruleSet);
  filledBoxes.forEach((box, i) => (sheet.boxes[box] = filledScores[i]));
  return sheet;
}

function jokerCaseFromEngine(
  ruleSet: RuleSetId,
  dice: number[],
  filledBoxes: number[],
  filledScores: number[],
): JokerCase {
  const legal = boxOptions(sheetWith(ruleSet, filledBoxes, filledScores), dice).filter(
    (o) => o.legal,
  );
  return {
    dice,
    filledBoxes,
    filledScores,
    legalBoxes: legal.map((o) => o.box),
    legalPoints: legal.map((o) => o.points),
    ruleSet,
  };
}

const HAND_JOKERS: [
  name: string,
  ruleSet: RuleSetId,
  dice: string,
  filled: [box: number, score: number][],
  legal: [box: number, points: number][],
][] = [
  ["forced upper: Sixes open", 0, "66666", [[11, 50]], [[5, 30]]],
  ["forced upper after a Yahtzee box of 0", 0, "55555", [[11, 0]], [[4, 25]]],
  [
    "forced upper though others are open",
    0,
    "22222",
    [
      [11, 50],
      [0, 3],
      [6, 20],
    ],
    [[1, 10]],
  ],
  [
    "face box filled: any open lower box, Full House and straights at full value",
    0,
    "66666",
    [
      [11, 0],
      [5, 18],
    ],
    [
      [6, 30],
      [7, 30],
      [8, 25],
      [9, 30],
      [10, 40],
      [12, 30],
    ],
  ],
  [
    "face box filled, some lower boxes filled",
    0,
    "22222",
    [
      [11, 50],
      [1, 4],
      [6, 12],
      [8, 25],
    ],
    [
      [7, 10],
      [9, 30],
      [10, 40],
      [12, 10],
    ],
  ],
  [
    "only Full House open below",
    0,
    "11111",
    [
      [11, 50],
      [0, 2],
      [6, 9],
      [7, 0],
      [9, 30],
      [10, 40],
      [12, 21],
    ],
    [[8, 25]],
  ],
  [
    "only Large Straight open below",
    0,
    "66666",
    [
      [5, 24],
      [6, 17],
      [7, 0],
      [8, 25],
      [9, 30],
      [11, 50],
      [12, 22],
    ],
    [[10, 40]],
  ],
  [
    "only Small Straight open below",
    0,
    "44444",
    [
      [3, 16],
      [6, 17],
      [7, 0],
      [8, 25],
      [10, 0],
      [11, 0],
      [12, 22],
    ],
    [[9, 30]],
  ],
  [
    "every lower box filled: 0 in any open upper box",
    0,
    "33333",
    [
      [11, 50],
      [2, 9],
      [6, 15],
      [7, 14],
      [8, 25],
      [9, 30],
      [10, 40],
      [12, 20],
    ],
    [
      [0, 0],
      [1, 0],
      [3, 0],
      [4, 0],
      [5, 0],
    ],
  ],
  [
    "every lower box filled after a Yahtzee box of 0",
    0,
    "11111",
    [
      [11, 0],
      [0, 3],
      [6, 15],
      [7, 14],
      [8, 25],
      [9, 30],
      [10, 40],
      [12, 20],
    ],
    [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 0],
    ],
  ],
  [
    "Yahtzee box open: no Joker, every box at its raw score",
    0,
    "44444",
    [[3, 12]],
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [4, 0],
      [5, 0],
      [6, 20],
      [7, 20],
      [8, 0],
      [9, 0],
      [10, 0],
      [11, 50],
      [12, 20],
    ],
  ],
  [
    "Yatzy has no Joker",
    1,
    "55555",
    [
      [14, 50],
      [4, 15],
    ],
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
      [5, 0],
      [6, 10],
      [7, 0],
      [8, 15],
      [9, 20],
      [10, 0],
      [11, 0],
      [12, 0],
      [13, 25],
    ],
  ],
  [
    "Yazty has no Joker",
    2,
    "33333",
    [[11, 50]],
    [
      [0, 0],
      [1, 0],
      [2, 15],
      [3, 0],
      [4, 0],
      [5, 0],
      [6, 20],
      [7, 30],
      [8, 0],
      [9, 0],
      [10, 0],
      [12, 15],
    ],
  ],
  [
    "Extended has no Joker",
    3,
    "66666",
    [[11, 50]],
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 30],
      [6, 30],
      [7, 30],
      [8, 0],
      [9, 0],
      [10, 0],
      [12, 30],
      [13, 30],
      [14, 0],
      [15, 6],
    ],
  ],
];

const jokerCases: JokerCase[] = [];
for (const [name, ruleSet, dice, filled, legal] of HAND_JOKERS) {
  const engine = jokerCaseFromEngine(
    ruleSet,
    d(dice),
    filled.map((f) => f[0]),
    filled.map((f) => f[1]),
  );
  agree(
    `joker case "${name}"`,
    [engine.legalBoxes, engine.legalPoints],
    [legal.map((l) => l[0]), legal.map((l) => l[1])],
  );
  jokerCases.push(engine);
}

/** Random classic sheets with the Yahtzee box filled, leaning toward the Joker's three cases. */
for (let i = 0; i < 16; i++) {
  const face = randomDie();
  const lower = RULE_SETS[0].boxes.filter((b) => b.section === "lower").map((b) => b.index);
  const filled = new Set<number>([11]);
  if (i % 4 !== 0) filled.add(face - 1);
  if (i % 4 === 2) for (const box of lower) filled.add(box);
  for (let box = 0; box < 13; box++) if (random() < 0.35) filled.add(box);
  if (filled.size === 13) filled.delete(i % 4 === 2 ? face % 6 : 12);
  const filledBoxes = [...filled].sort((a, b) => a - b);
  const filledScores = filledBoxes.map((box) =>
    box === 11 ? (random() < 0.5 ? 50 : 0) : scoreBox(0, box, shapedDice()),
  );
  jokerCases.push(jokerCaseFromEngine(0, fiveOf(face), filledBoxes, filledScores));
}

// ---------------------------------------------------------------------------------------------
// errorCases: what scoreDice(ruleSet, category, dice) rejects. Every value fits a uint8.

const errorCases: ErrorCase[] = [
  { box: 13, dice: d("12345"), error: "BoxOutOfRange", ruleSet: 0 },
  { box: 15, dice: d("12345"), error: "BoxOutOfRange", ruleSet: 1 },
  { box: 13, dice: d("12345"), error: "BoxOutOfRange", ruleSet: 2 },
  { box: 16, dice: d("12345"), error: "BoxOutOfRange", ruleSet: 3 },
  { box: 255, dice: d("66666"), error: "BoxOutOfRange", ruleSet: 3 },
  { box: 0, dice: [0, 2, 3, 4, 5], error: "InvalidDie", ruleSet: 0 },
  { box: 12, dice: [1, 2, 3, 4, 7], error: "InvalidDie", ruleSet: 1 },
  { box: 5, dice: [6, 6, 6, 6, 255], error: "InvalidDie", ruleSet: 2 },
  { box: 14, dice: [1, 1, 0, 1, 1], error: "InvalidDie", ruleSet: 3 },
  { box: 0, dice: d("11111"), error: "UnknownRuleSet", ruleSet: 4 },
  { box: 0, dice: d("11111"), error: "UnknownRuleSet", ruleSet: 255 },
];
for (const c of errorCases) {
  let code = "no error";
  try {
    scoreBox(c.ruleSet, c.box, c.dice);
  } catch (error) {
    code = error instanceof RulesError ? error.code : String(error);
  }
  agree(`scoreBox(${c.ruleSet}, ${c.box}, ${c.dice.join(",")}) throws`, code, c.error);
}

// ---------------------------------------------------------------------------------------------

if (mismatches > 0) {
  console.error(
    `${mismatches} hand-written expectation(s) disagree with the engine; nothing written.`,
  );
  process.exit(1);
}

const sections = { boxCases, sheetCases, jokerCases, errorCases };
for (const [name, cases] of Object.entries(sections)) {
  for (const c of cases as object[]) {
    const keys = Object.keys(c);
    if (keys.join() !== [...keys].sort().join()) throw new Error(`${name}: keys out of order`);
  }
}

/** One case a line, spaced like the rest of the repo's JSON. */
const line = (c: object): string =>
  JSON.stringify(c)
    .replace(/":/g, '": ')
    .replace(/,(?=["\d])/g, ", ")
    .replace(/^\{/, "{ ")
    .replace(/\}$/, " }");
const body = Object.entries(sections)
  .map(([name, cases]) => `  "${name}": [\n${cases.map((c) => `    ${line(c)}`).join(",\n")}\n  ]`)
  .join(",\n");
writeFileSync(OUT, `{\n${body}\n}\n`);
console.log(
  `wrote ${OUT.pathname}: ${boxCases.length} boxCases, ${sheetCases.length} sheetCases, ` +
    `${jokerCases.length} jokerCases, ${errorCases.length} errorCases`,
);

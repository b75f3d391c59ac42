/**
 * The dice combinatorics of a turn, computed once: every multiset of 0..5 dice ("keeps"), the 252
 * five-dice multisets ("hands") among them, how each keep grows by one die, and the exact odds of
 * rolling each hand. Scores depend only on face counts, so everything here works on multisets.
 *
 * Keeps are numbered by size, then by face counts: sizes 0..5 hold 1, 6, 21, 56, 126 and 252
 * keeps, starting at 0, 1, 7, 28, 84 and 210. Keep 210 + h is hand h.
 */

export const FACES = 6;
export const DICE = 5;
export const KEEP_COUNT = 462;
export const HAND_COUNT = 252;
/** Keep index of hand 0; hands are keeps HAND_BASE..KEEP_COUNT-1. */
export const HAND_BASE = 210;
/** Keeps of fewer than five dice: the ones a roll grows. */
export const GROWABLE = HAND_BASE;

/** Face counts, packed base 6 (a count is at most 5): packing is additive. */
const FACE_WEIGHT = [1, 6, 36, 216, 1296, 7776] as const;
const KEY_SPACE = 6 * 7776;

function multisets(size: number): number[][] {
  const out: number[][] = [];
  const walk = (face: number, left: number, counts: number[]): void => {
    if (face === FACES - 1) return void out.push([...counts, left]);
    for (let c = left; c >= 0; c--) walk(face + 1, left - c, [...counts, c]);
  };
  walk(0, size, []);
  return out;
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** counts[keep * 6 + face-1]: how many dice of each face a keep holds. */
export const KEEP_COUNTS = new Uint8Array(KEEP_COUNT * FACES);
export const KEEP_SIZE = new Uint8Array(KEEP_COUNT);
const KEY_TO_KEEP = new Int16Array(KEY_SPACE).fill(-1);
{
  let k = 0;
  for (let size = 0; size <= DICE; size++) {
    for (const counts of multisets(size)) {
      let key = 0;
      counts.forEach((c, f) => {
        KEEP_COUNTS[k * FACES + f] = c;
        key += c * FACE_WEIGHT[f];
      });
      KEEP_SIZE[k] = size;
      KEY_TO_KEEP[key] = k;
      k++;
    }
  }
  if (k !== KEEP_COUNT) throw new Error(`keep count ${k}`);
}

function keyOfKeep(k: number): number {
  let key = 0;
  for (let f = 0; f < FACES; f++) key += KEEP_COUNTS[k * FACES + f] * FACE_WEIGHT[f];
  return key;
}

/** CHILD[k * 6 + f]: the keep k plus one die showing face f+1 (k of fewer than five dice). */
export const CHILD = new Uint16Array(GROWABLE * FACES);
for (let k = 0; k < GROWABLE; k++) {
  const key = keyOfKeep(k);
  for (let f = 0; f < FACES; f++) CHILD[k * FACES + f] = KEY_TO_KEEP[key + FACE_WEIGHT[f]];
}

/**
 * The keeps one die smaller than k (one per face k holds): PARENT[PARENT_START[k]..
 * PARENT_START[k+1]). Every sub-multiset of k is reached by repeatedly stepping to a parent.
 */
export const PARENT_START = new Uint16Array(KEEP_COUNT + 1);
export const PARENT: Uint16Array = (() => {
  const list: number[] = [];
  for (let k = 0; k < KEEP_COUNT; k++) {
    PARENT_START[k] = list.length;
    const key = keyOfKeep(k);
    for (let f = 0; f < FACES; f++) {
      if (KEEP_COUNTS[k * FACES + f] > 0) list.push(KEY_TO_KEEP[key - FACE_WEIGHT[f]]);
    }
  }
  PARENT_START[KEEP_COUNT] = list.length;
  return Uint16Array.from(list);
})();

/** HAND_PROB[h]: the chance that five dice roll hand h. */
export const HAND_PROB = new Float64Array(HAND_COUNT);
/** HAND_DICE[h]: the hand's dice in ascending order, as the engine's scoreBox takes them. */
export const HAND_DICE: readonly (readonly number[])[] = Array.from(
  { length: HAND_COUNT },
  (_, h) => {
    const k = HAND_BASE + h;
    const dice: number[] = [];
    let denom = 1;
    for (let f = 0; f < FACES; f++) {
      const c = KEEP_COUNTS[k * FACES + f];
      denom *= factorial(c);
      for (let i = 0; i < c; i++) dice.push(f + 1);
    }
    HAND_PROB[h] = factorial(DICE) / denom / 6 ** DICE;
    return dice;
  },
);
/** FIVE_OF_A_KIND_FACE[h]: the face of a five-of-a-kind hand, else 0. */
export const FIVE_OF_A_KIND_FACE = new Uint8Array(HAND_COUNT);
for (let h = 0; h < HAND_COUNT; h++) {
  const d = HAND_DICE[h];
  if (d[0] === d[4]) FIVE_OF_A_KIND_FACE[h] = d[0];
}

/** The keep index of any multiset of up to five dice (faces 1..6), in any order. */
export function keepOf(dice: readonly number[]): number {
  if (dice.length > DICE) throw new RangeError(`At most five dice, not ${dice.length}.`);
  let key = 0;
  for (const d of dice) {
    if (!Number.isInteger(d) || d < 1 || d > 6)
      throw new RangeError(`A die shows 1 to 6, not ${d}.`);
    key += FACE_WEIGHT[d - 1];
  }
  return KEY_TO_KEEP[key];
}

export function handOf(dice: readonly number[]): number {
  if (dice.length !== DICE) throw new RangeError(`A hand is five dice, not ${dice.length}.`);
  return keepOf(dice) - HAND_BASE;
}

/** The dice of keep k, ascending. */
export function keepDice(k: number): number[] {
  const dice: number[] = [];
  for (let f = 0; f < FACES; f++) {
    for (let i = 0; i < KEEP_COUNTS[k * FACES + f]; i++) dice.push(f + 1);
  }
  return dice;
}

/** The dice positions kept by `keepMask` (bit i keeps die i) as a keep index. */
export function keepOfMask(dice: readonly number[], keepMask: number): number {
  return keepOf(dice.filter((_, i) => (keepMask >> i) & 1));
}

/**
 * Every distinct keep of a five-dice roll (sub-multisets, keeping all five included), each with
 * the lowest keep mask that keeps it: the first dice of each face, in position order.
 */
export function keepsOfRoll(dice: readonly number[]): { keep: number; keepMask: number }[] {
  const seen = new Map<number, number>();
  for (let mask = 0; mask < 1 << DICE; mask++) {
    const k = keepOfMask(dice, mask);
    if (!seen.has(k)) seen.set(k, canonicalMask(dice, keepDice(k)));
  }
  return [...seen].map(([keep, keepMask]) => ({ keep, keepMask }));
}

/** The mask keeping the multiset `kept`, taking the first dice of each face. */
export function canonicalMask(dice: readonly number[], kept: readonly number[]): number {
  const left = [0, 0, 0, 0, 0, 0, 0];
  for (const d of kept) left[d]++;
  let mask = 0;
  dice.forEach((d, i) => {
    if (left[d] > 0) {
      left[d]--;
      mask |= 1 << i;
    }
  });
  return mask;
}

/**
 * The keeps of each hand that re-roll at least one die (its proper sub-multisets):
 * SUB_KEEPS[SUB_KEEP_START[h]..SUB_KEEP_START[h+1]).
 */
export const SUB_KEEP_START = new Uint16Array(HAND_COUNT + 1);
export const SUB_KEEPS: Uint16Array = (() => {
  const list: number[] = [];
  for (let h = 0; h < HAND_COUNT; h++) {
    SUB_KEEP_START[h] = list.length;
    for (const { keep } of keepsOfRoll(HAND_DICE[h])) if (keep !== HAND_BASE + h) list.push(keep);
  }
  SUB_KEEP_START[HAND_COUNT] = list.length;
  return Uint16Array.from(list);
})();

import { keccak256, toHex, type Hex } from "viem";
import { drawTurnOrder } from "@dicehall/core/rules/turnOrder.ts";

/**
 * Finding a random number that yields chosen dice, so a test can script a roll through
 * MockEntropy.mockReveal. Dice follow docs/RULES.md: die i = 1 + keccak256(abi.encode(r, i)) % 6.
 *
 * Candidates are r = TAG || counter. Each candidate's faces are worked out only when a search
 * needs them and remembered, so the many searches of one test file share the hashing.
 */

/** A wanted face per die position; null where any face will do (a kept die). */
export type DicePattern = readonly (number | null)[];

// A high tag keeps scripted numbers far from anything a contract could mistake for "unset".
const TAG = 0xd1ce0000n << 224n;
const CHUNK = 8192;

// faces[c * 5 + i] is die i of candidate c, 0 until computed.
let faces = new Uint8Array(CHUNK * 5);
let candidates = 0;

function ensureCapacity(count: number): void {
  if (count * 5 <= faces.length) return;
  const grown = new Uint8Array(Math.max(faces.length * 2, count * 5));
  grown.set(faces);
  faces = grown;
}

/** The random number with index `counter` among the candidates. */
export function candidateRandom(counter: number): Hex {
  return toHex(TAG | BigInt(counter), { size: 32 });
}

const encoded = new Uint8Array(64);

function face(counter: number, position: number): number {
  const at = counter * 5 + position;
  const known = faces[at];
  if (known !== 0) return known;
  const r = TAG | BigInt(counter);
  // abi.encode(bytes32 r, uint256 position): r, then the position in the last byte of a word.
  for (let b = 0; b < 32; b++) encoded[b] = Number((r >> BigInt(8 * (31 - b))) & 0xffn);
  encoded.fill(0, 32, 63);
  encoded[63] = position;
  const hash = keccak256(encoded, "bytes");
  // 2^256 mod 6 = 4, so the residue is folded from 32-bit limbs: 2^32 mod 6 = 4 and 4*4 mod 6 = 4.
  let residue = 0;
  for (let b = 0; b < 32; b += 4) {
    const limb = ((hash[b] << 24) | (hash[b + 1] << 16) | (hash[b + 2] << 8) | hash[b + 3]) >>> 0;
    residue = (4 * residue + (limb % 6)) % 6;
  }
  const value = 1 + residue;
  faces[at] = value;
  return value;
}

/**
 * A random number whose re-rolled dice show `pattern` (null positions are not looked at) and that
 * `accept` takes (e.g. one that draws a wanted turn order on a game's first roll).
 */
export function randomFor(pattern: DicePattern, accept?: (r: Hex) => boolean): Hex {
  if (pattern.length !== 5) throw new RangeError("a pattern has five positions");
  for (const want of pattern) {
    if (want !== null && !(Number.isInteger(want) && want >= 1 && want <= 6)) {
      throw new RangeError(`a die shows 1..6, not ${want}`);
    }
  }
  for (let counter = 0; ; counter++) {
    if (counter >= candidates) {
      candidates += CHUNK;
      ensureCapacity(candidates);
    }
    let matches = true;
    for (let i = 0; i < 5 && matches; i++) {
      const want = pattern[i];
      if (want !== null && face(counter, i) !== want) matches = false;
    }
    if (matches && (!accept || accept(candidateRandom(counter)))) return candidateRandom(counter);
  }
}

/** A random number for a roll that keeps the dice in `keepMask` and shows `dice` afterwards. */
export function randomForRoll(
  keepMask: number,
  dice: readonly number[],
  accept?: (r: Hex) => boolean,
): Hex {
  return randomFor(
    dice.map((value, i) => (((keepMask >> i) & 1) === 1 ? null : value)),
    accept,
  );
}

/** Whether `r`, as a game's first roll, keeps the turn order as the seats were joined. */
export function keepsJoinOrder(seats: number): (r: Hex) => boolean {
  return (r) => drawTurnOrder(r, seats).every((joinIndex, position) => joinIndex === position);
}

/** The first of the seeded numbers from `n` on that keeps the join order, and the next index. */
export function seededJoinOrderRandom(seed: string, n: number, seats: number): [Hex, number] {
  const keeps = keepsJoinOrder(seats);
  for (; ; n++) if (keeps(seededRandom(seed, n))) return [seededRandom(seed, n), n + 1];
}

/** A fixed, unscripted-looking random number for a seed: for games whose dice need not be chosen. */
export function seededRandom(seed: string, n: number): Hex {
  return keccak256(toHex(`${seed}:${n}`));
}

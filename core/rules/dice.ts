import { encodeAbiParameters, keccak256 } from "viem";
import type { Hex } from "viem";
import { RulesError } from "./errors.ts";
import { checkDice, type Dice } from "./score.ts";

export const DICE_COUNT = 5;
/** Keeping all five dice is not a re-roll, so this mask is never allowed. */
export const ALL_KEPT = (1 << DICE_COUNT) - 1;
/** Rolls a player may make in one turn (the contract's MAX_ROLLS). */
export const ROLLS_PER_TURN = 3;

export interface DieDerivation {
  position: number;
  kept: boolean;
  /** keccak256(abi.encode(random, position)); null for a kept die, which nothing re-derives. */
  hash: Hex | null;
  value: number;
}

/** keccak256(abi.encode(bytes32 random, uint256 position)), as docs/RULES.md "Dice from randomness". */
export function dieHash(random: Hex, position: number): Hex {
  if (!Number.isInteger(position) || position < 0 || position >= DICE_COUNT) {
    throw new RangeError(`Die position must be 0..${DICE_COUNT - 1}, not ${position}.`);
  }
  return keccak256(
    encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [random, BigInt(position)]),
  );
}

const valueOf = (hash: Hex): number => 1 + Number(BigInt(hash) % 6n);

export function dieFromRandom(random: Hex, position: number): number {
  return valueOf(dieHash(random, position));
}

export function isKept(keepMask: number, position: number): boolean {
  return ((keepMask >> position) & 1) === 1;
}

/**
 * @throws RulesError("InvalidKeepMask") unless the first roll keeps nothing and a re-roll
 * re-rolls at least one die
 */
export function checkKeepMask(previous: Dice | null, keepMask: number): void {
  if (previous === null) {
    if (keepMask !== 0) {
      throw new RulesError("InvalidKeepMask", "The first roll of a turn rolls all five dice.");
    }
    return;
  }
  if (!Number.isInteger(keepMask) || keepMask < 0 || keepMask > ALL_KEPT) {
    throw new RulesError(
      "InvalidKeepMask",
      `A keep mask is 0 to ${ALL_KEPT - 1}, not ${keepMask}.`,
    );
  }
  if (keepMask === ALL_KEPT) {
    throw new RulesError("InvalidKeepMask", "A re-roll must roll at least one die.");
  }
}

/** Each die of a roll with how it came about, for the "verify this roll" view. */
export function derivation(random: Hex, previous: Dice | null, keepMask: number): DieDerivation[] {
  checkKeepMask(previous, keepMask);
  const kept = previous === null ? null : checkDice(previous);
  return Array.from({ length: DICE_COUNT }, (_, position): DieDerivation => {
    if (kept !== null && isKept(keepMask, position)) {
      return { position, kept: true, hash: null, value: kept[position] };
    }
    const hash = dieHash(random, position);
    return { position, kept: false, hash, value: valueOf(hash) };
  });
}

/** The dice after a roll that revealed `random`; `previous` is null on the first roll of a turn. */
export function rollDice(random: Hex, previous: Dice | null, keepMask: number): Dice {
  return derivation(random, previous, keepMask).map((die) => die.value) as unknown as Dice;
}

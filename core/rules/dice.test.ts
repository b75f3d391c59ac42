// @vitest-environment node
import { concat, hexToBigInt, keccak256, pad, toBytes, toHex, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { derivation, dieFromRandom, dieHash, rollDice } from "./dice.ts";
import type { Dice } from "./score.ts";

const ZERO: Hex = pad("0x00", { size: 32 });
const ONES: Hex = `0x${"ff".repeat(32)}`;
const NAMED: Hex = keccak256(toBytes("dicehall"));

/** abi.encode(bytes32, uint256) is the two words side by side: hash them without the ABI coder. */
const byHand = (random: Hex, position: number): Hex =>
  keccak256(concat([random, pad(toHex(position), { size: 32 })]));

const rulesError = (code: string) => expect.objectContaining({ name: "RulesError", code });

describe("dice from randomness", () => {
  it("hashes abi.encode(r, i) like the plain 64-byte concatenation", () => {
    for (const random of [ZERO, ONES, NAMED]) {
      for (let i = 0; i < 5; i++) {
        expect(dieHash(random, i)).toBe(byHand(random, i));
        expect(dieFromRandom(random, i)).toBe(Number(hexToBigInt(byHand(random, i)) % 6n) + 1);
      }
    }
  });

  // Worked out once with keccak256(r ‖ uint256(i)); the Solidity tests can pin the same values.
  it.each([
    [ZERO, [2, 4, 6, 4, 1]],
    [NAMED, [3, 4, 1, 3, 6]],
    [ONES, [1, 4, 4, 5, 5]],
  ] as [Hex, number[]][])("rolls %s as %j", (random, dice) => {
    expect(rollDice(random, null, 0)).toEqual(dice);
  });

  it("rolls only the dice that the keep mask does not keep", () => {
    const previous: Dice = [6, 6, 6, 6, 6];
    // Keep dice 0 and 3 (0b01001); the others come from the random number at their own positions.
    expect(rollDice(ZERO, previous, 0b01001)).toEqual([6, 4, 6, 6, 1]);
    expect(rollDice(NAMED, previous, 0b11110)).toEqual([3, 6, 6, 6, 6]);
  });

  it("shows each die's hash for the verify view, and none for kept dice", () => {
    const steps = derivation(NAMED, [1, 2, 3, 4, 5], 0b00101);
    expect(steps.map((s) => [s.position, s.kept, s.value])).toEqual([
      [0, true, 1],
      [1, false, 4],
      [2, true, 3],
      [3, false, 3],
      [4, false, 6],
    ]);
    expect(steps[0].hash).toBeNull();
    expect(steps[1].hash).toBe(byHand(NAMED, 1));
  });

  it("spreads the faces evenly", () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let n = 0; n < 1200; n++) counts[dieFromRandom(keccak256(toHex(n)), n % 5) - 1]++;
    for (const count of counts) expect(count).toBeGreaterThan(140);
  });

  it("keeps nothing on the first roll", () => {
    expect(() => rollDice(ZERO, null, 1)).toThrow(rulesError("InvalidKeepMask"));
  });

  it.each([31, 32, -1, 2.5, 255])("refuses keep mask %s on a re-roll", (mask) => {
    expect(() => rollDice(ZERO, [1, 2, 3, 4, 5], mask)).toThrow(rulesError("InvalidKeepMask"));
  });

  it("refuses re-rolling from dice that are not dice", () => {
    expect(() => rollDice(ZERO, [1, 2, 3, 4, 0] as unknown as Dice, 1)).toThrow(
      rulesError("InvalidDie"),
    );
  });

  it("refuses a die position outside 0..4", () => {
    expect(() => dieFromRandom(ZERO, 5)).toThrow(RangeError);
  });
});

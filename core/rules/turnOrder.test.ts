import { describe, expect, it } from "vitest";
import { keccak256, toHex } from "viem";
import { drawTurnOrder } from "./turnOrder.ts";

describe("drawTurnOrder", () => {
  it("is a permutation of the join indices for every seat count", () => {
    for (let seats = 2; seats <= 4; seats++) {
      for (let n = 0; n < 50; n++) {
        const order = drawTurnOrder(keccak256(toHex(`r${n}`)), seats);
        expect([...order].sort()).toEqual([...Array(seats).keys()]);
      }
    }
  });

  it("reaches every order of four seats, about equally often", () => {
    const counts = new Map<string, number>();
    for (let n = 0; n < 2400; n++) {
      const key = drawTurnOrder(keccak256(toHex(`s${n}`)), 4).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    for (const c of counts.values()) expect(c).toBeGreaterThan(50); // 100 expected each
  });

  it("refuses a seat count the hall does not play", () => {
    expect(() => drawTurnOrder(keccak256("0x01"), 1)).toThrow(RangeError);
    expect(() => drawTurnOrder(keccak256("0x01"), 5)).toThrow(RangeError);
  });
});

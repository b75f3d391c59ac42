import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { parseGameId } from "./gameId.ts";

describe("parseGameId", () => {
  it("reads a game number", () => {
    expect(parseGameId("1")).toBe(1n);
    expect(parseGameId("0042")).toBe(42n);
    expect(parseGameId(maxUint256.toString())).toBe(maxUint256);
    expect(parseGameId(" #7 ")).toBe(7n);
  });

  it("refuses what no game can be: past uint256, zero, not digits, empty", () => {
    expect(parseGameId("9".repeat(80))).toBeNull();
    expect(parseGameId((maxUint256 + 1n).toString())).toBeNull();
    expect(parseGameId("0")).toBeNull();
    expect(parseGameId("12a")).toBeNull();
    expect(parseGameId("-3")).toBeNull();
    expect(parseGameId("")).toBeNull();
    expect(parseGameId(undefined)).toBeNull();
  });
});

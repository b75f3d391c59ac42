import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatCountdown,
  formatDuration,
  formatTokenAmount,
  ordinal,
  parseAmount,
  shortAddress,
  speakCountdown,
} from "./format.ts";

describe("amounts", () => {
  it("formats token amounts with separators and at most four decimals", () => {
    expect(formatAmount(10n ** 15n, 18)).toBe("0.001");
    expect(formatAmount(1_234_567_890_000n, 6)).toBe("1,234,567.89");
    expect(formatAmount(12_345_678n, 6, 2)).toBe("12.34");
    expect(formatAmount(0n, 18)).toBe("0");
    expect(formatAmount(10n ** 18n * 10_000n, 18)).toBe("10,000");
    expect(formatAmount(1_950_000_000_000_000n, 18)).toBe("0.00195");
    expect(formatAmount(1_234_567n, 6)).toBe("1.2345");
  });

  it("groups the whole part in threes, however long", () => {
    expect(formatAmount(999n * 10n ** 18n, 18)).toBe("999");
    expect(formatAmount(1_000n * 10n ** 18n, 18)).toBe("1,000");
    expect(formatAmount(-123_456n * 10n ** 18n, 18)).toBe("-123,456");
    // Past a double's precision: every digit kept.
    expect(formatAmount(12_345_678_901_234_567_890_123n, 0)).toBe("12,345,678,901,234,567,890,123");
  });

  it("never shows a non-zero amount as zero", () => {
    expect(formatAmount(1n, 18)).toBe("<0.0001");
    expect(formatAmount(1n, 6, 2)).toBe("<0.01");
  });

  it("names the token", () => {
    expect(formatTokenAmount(25_000_000n, { symbol: "TUSD", decimals: 6 })).toBe("25 TUSD");
    expect(formatTokenAmount(5n, undefined)).toBe("5 units");
  });

  it("parses what players type, refusing junk and too many decimals", () => {
    expect(parseAmount("0.01", 18)).toBe(10n ** 16n);
    expect(parseAmount(" 1,000.5 ", 6)).toBe(1_000_500_000n);
    expect(parseAmount("1.", 6)).toBe(1_000_000n);
    expect(parseAmount("", 6)).toBeNull();
    expect(parseAmount(".", 6)).toBeNull();
    expect(parseAmount("-1", 6)).toBeNull();
    expect(parseAmount("1e5", 6)).toBeNull();
    expect(parseAmount("0.0000001", 6)).toBeNull();
  });
});

describe("time", () => {
  it("counts down compactly", () => {
    expect(formatCountdown(42_000)).toBe("0:42");
    expect(formatCountdown(245_000)).toBe("4:05");
    expect(formatCountdown(3_720_000)).toBe("1 h 02 min");
    expect(formatCountdown(3 * 86_400_000 + 4 * 3_600_000)).toBe("3 d 4 h");
    expect(formatCountdown(-5_000)).toBe("0:00");
    expect(formatCountdown(100)).toBe("0:01");
  });

  it("speaks countdowns", () => {
    expect(speakCountdown(245_000)).toBe("4 minutes 5 seconds");
    expect(speakCountdown(3_600_000)).toBe("1 hour");
    expect(speakCountdown(0)).toBe("0 seconds");
  });

  it("names durations", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(300)).toBe("5 min");
    expect(formatDuration(5400)).toBe("1 h 30 min");
    expect(formatDuration(7 * 86_400)).toBe("7 days");
    expect(formatDuration(86_400)).toBe("1 day");
  });
});

describe("addresses and words", () => {
  it("shortens addresses with checksum case", () => {
    expect(shortAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")).toBe("0x7099…79C8");
    expect(shortAddress("alice.eth")).toBe("alice.eth");
  });

  it("makes ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "101st",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { betShortfall } from "./payment.ts";

const ETH = { symbol: "ETH", decimals: 18 };

describe("betShortfall", () => {
  it("says what the wallet holds and what the table asks when it is short", () => {
    expect(betShortfall(10n ** 16n, 5n * 10n ** 16n, ETH)).toBe(
      "You have 0.01 ETH; this table's bet is 0.05 ETH.",
    );
  });

  it("says nothing when the wallet covers the bet or its balance is not known yet", () => {
    expect(betShortfall(5n * 10n ** 16n, 5n * 10n ** 16n, ETH)).toBeNull();
    expect(betShortfall(undefined, 5n * 10n ** 16n, ETH)).toBeNull();
  });
});

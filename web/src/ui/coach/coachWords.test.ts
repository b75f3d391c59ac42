import { describe, expect, it } from "vitest";
import { lossWords } from "./coachWords.ts";

describe("lossWords", () => {
  it("says best for a tie (under the rounding), never “−0.0”, and a tenth of a point above it", () => {
    expect([0, 1e-12, 0.03, 0.049].map(lossWords)).toEqual(["best", "best", "best", "best"]);
    expect([0.051, 0.14, 1.26, 17.2].map(lossWords)).toEqual(["−0.1", "−0.1", "−1.3", "−17.2"]);
  });
});

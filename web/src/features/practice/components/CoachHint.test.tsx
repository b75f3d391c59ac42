// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CoachAdvice } from "@/data/coach.ts";
import { CoachHint } from "./CoachHint.tsx";

afterEach(cleanup);

const keep = (keepMask: number, kept: number[], expected: number, loss: number) => ({
  keepMask,
  kept,
  stop: false,
  expected,
  loss,
});

describe("CoachHint", () => {
  it("marks every option within the tie epsilon as best, and names the kept faces in one order", () => {
    // Dice 4 3 5 1 6: keeping 3, 4, 5 (dice 1 to 3) and a keep 0.02 behind it are both best.
    const advice: CoachAdvice = {
      keeps: [
        keep(0b00111, [3, 4, 5], 201.3, 0),
        keep(0b10111, [3, 4, 5, 6], 201.28, 0.02),
        keep(0b00011, [3, 4], 199.0, 2.3),
      ],
      boxes: [{ box: 12, points: 19, yahtzeeBonus: 0, upperBonus: 0, expected: 190, loss: 0 }],
    };
    render(
      <CoachHint
        ruleSetId={0}
        dice={[4, 3, 5, 1, 6]}
        advice={advice}
        status="success"
        fallback=""
      />,
    );
    expect(screen.getByTestId("hint-text").textContent).toMatch(
      /^Hint: keep 3, 4, 5 \(dice 1, 2, 3\)/,
    );
    const rows = within(screen.getByTestId("coach-options")).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.className)).toEqual(["is-best", "is-best", ""]);
    expect(rows.map((r) => within(r).getAllByRole("cell")[2].textContent)).toEqual([
      "best",
      "best",
      "−2.3",
    ]);
    expect(within(rows[0]).getAllByRole("cell")[0].textContent).toBe("keep 3, 4, 5, roll again");
  });
});

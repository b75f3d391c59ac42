// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MatchStandings, matchVerdict } from "./MatchStandings.tsx";

afterEach(cleanup);

const games = [
  { totals: [250, 200], winners: [0] },
  { totals: [180, 240], winners: [1] },
];

describe("MatchStandings", () => {
  it("ranks by games won, then points, and says who leads", () => {
    render(
      <MatchStandings names={["You", "Bob"]} labels={["You", "Bob"]} games={games} length={3} />,
    );
    const rows = within(screen.getByTestId("match-standings")).getAllByRole("row").slice(1);
    // 1 – 1 in games; Bob has 440 points to your 430.
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["Bob", "You"]);
    expect(rows[0].textContent).toContain("1st");
    expect(screen.getByTestId("match-verdict").textContent).toBe("Bob leads after 2 of 3.");
    expect(screen.getByText("After 2 of 3 games")).toBeTruthy();
    expect(screen.getByText("Game 2: You 180, Bob 240")).toBeTruthy();
  });

  it("says who won the match, and a split when games and points are level", () => {
    expect(matchVerdict(["You", "Bob"], [...games, { totals: [300, 100], winners: [0] }], 3)).toBe(
      "You win the match.",
    );
    expect(
      matchVerdict(
        ["Ann", "Bob"],
        [
          { totals: [250, 200], winners: [0] },
          { totals: [200, 250], winners: [1] },
        ],
        2,
      ),
    ).toBe("Ann and Bob share the match: level on games and points.");
    // A single game has no match to speak of.
    expect(matchVerdict(["Ann", "Bob"], [games[0]], 1)).toBeNull();
  });

  it("stands a forfeited player last, out of the running", () => {
    render(
      <MatchStandings
        names={["Ann", "Bob"]}
        labels={["Ann", "Bob"]}
        games={[{ totals: [300, 100], winners: [0] }]}
        length={3}
        forfeited={[0]}
      />,
    );
    const rows = within(screen.getByTestId("match-standings")).getAllByRole("row").slice(1);
    expect(rows[1].textContent).toMatch(/^outAnn/);
    expect(screen.getByTestId("match-verdict").textContent).toBe("Bob leads after 1 of 3.");
  });
});

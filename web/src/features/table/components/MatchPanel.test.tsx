import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL } from "@dicehall/core/test/testLogs.ts";
import { gameViewOf } from "@/test/gameViews.ts";
import { matchLineOfView } from "./MatchPanel.tsx";

const name = (a: string) => (a === ALICE ? "Ann" : a === BOB ? "Bob" : "Cat");

describe("matchLineOfView", () => {
  it("says the game and the score from my side", () => {
    const view = gameViewOf({ games: 5, gameNumber: 2, players: [ALICE, BOB], wins: [0, 1] });
    expect(matchLineOfView(view, name, BOB, 1)).toBe("Game 2 of 5 · you 1 – 0 Ann");
    expect(matchLineOfView(view, name, undefined, 1)).toBe("Game 2 of 5 · Ann 0 – 1 Bob");
  });

  it("lists three players and says how many games were played once over", () => {
    const view = gameViewOf({
      status: 3,
      games: 3,
      gameNumber: 3,
      players: [ALICE, BOB, CAROL],
      wins: [2, 1, 0],
    });
    expect(matchLineOfView(view, name, CAROL, 3)).toBe(
      "3 of 3 games played · you 0 · Ann 2 · Bob 1",
    );
  });

  it("has nothing to say for a single game", () => {
    expect(matchLineOfView(gameViewOf(), name, ALICE, 0)).toBeNull();
  });
});

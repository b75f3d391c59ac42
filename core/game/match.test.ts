import { describe, expect, it } from "vitest";
import { gameOfMatch, gameWinners, matchStandings, scoreLine } from "./match.ts";

describe("matchStandings", () => {
  it("goes to the most games won, even against more points", () => {
    const { rows, leaders } = matchStandings(2, [
      { totals: [200, 150], winners: [0] },
      { totals: [180, 300], winners: [1] },
      { totals: [190, 185], winners: [0] },
    ]);
    expect(leaders).toEqual([0]);
    expect(rows.map((r) => [r.index, r.wins, r.points, r.place])).toEqual([
      [0, 2, 570, 1],
      [1, 1, 635, 2],
    ]);
  });

  it("counts a tied game as a win for each of its winners", () => {
    const { rows } = matchStandings(3, [
      { totals: [200, 200, 100], winners: [0, 1] },
      { totals: [100, 150, 250], winners: [2] },
    ]);
    expect(rows.map((r) => [r.index, r.wins])).toEqual([
      [1, 1],
      [2, 1],
      [0, 1],
    ]);
  });

  it("breaks a tie on games by total points", () => {
    const { leaders, rows } = matchStandings(2, [
      { totals: [250, 200], winners: [0] },
      { totals: [180, 240], winners: [1] },
    ]);
    expect(leaders).toEqual([1]);
    expect(rows[0]).toMatchObject({ index: 1, wins: 1, points: 440, place: 1 });
    expect(rows[1]).toMatchObject({ index: 0, wins: 1, points: 430, place: 2 });
  });

  it("splits when games and points are level", () => {
    const { leaders, rows } = matchStandings(3, [
      { totals: [250, 200, 100], winners: [0] },
      { totals: [200, 250, 100], winners: [1] },
    ]);
    expect(leaders).toEqual([0, 1]);
    expect(rows.map((r) => r.place)).toEqual([1, 1, 3]);
  });

  it("never lets a forfeited player win, and stands them last", () => {
    const { leaders, rows } = matchStandings(
      3,
      [
        { totals: [300, 100, 200], winners: [0] },
        { totals: [0, 200, 150], winners: [1] },
      ],
      [0],
    );
    expect(leaders).toEqual([1]);
    expect(rows.map((r) => [r.index, r.forfeited, r.place])).toEqual([
      [1, false, 1],
      [2, false, 2],
      [0, true, 3],
    ]);
  });

  it("has no leaders before a game ends", () => {
    const { leaders, rows } = matchStandings(2, []);
    expect(leaders).toEqual([]);
    expect(rows.every((r) => r.wins === 0 && r.best === null && r.place === 1)).toBe(true);
  });
});

describe("match words", () => {
  it("says the game of the match only for a match", () => {
    expect(gameOfMatch(2, 5)).toBe("Game 2 of 5");
    expect(gameOfMatch(1, 1)).toBe("");
  });

  it("reads the score as a tennis line for two, a list for more", () => {
    expect(
      scoreLine([
        { name: "you", wins: 1 },
        { name: "Bob", wins: 0 },
      ]),
    ).toBe("you 1 – 0 Bob");
    expect(
      scoreLine([
        { name: "you", wins: 2 },
        { name: "Bob", wins: 1 },
        { name: "Carol", wins: 0 },
      ]),
    ).toBe("you 2 · Bob 1 · Carol 0");
  });

  it("finds a game's winners among the eligible players", () => {
    expect(gameWinners([200, 250, 250])).toEqual([1, 2]);
    expect(gameWinners([200, 250, 100], [true, false, true])).toEqual([0]);
  });
});

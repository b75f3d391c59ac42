import { describe, expect, it } from "vitest";
import type { LeaderboardLog } from "../leaderboard/leaderboard.ts";
import { ALICE, BOB, CAROL, NATIVE, log } from "../test/testLogs.ts";
import { addSums, analysisRows, playerResults, ratingRows, sumsColumns } from "./gameRows.ts";

// A three-seat game for 1 000 wei a seat, 2.5 % to the house: Alice rolls a Yahtzee and wins,
// Bob finishes second, Carol walks away. Each figure below is worked by hand.
const finishedAt = 86_400n * 20_000n + 3_600n;
const logs = [
  log(
    "GameCreated",
    {
      gameId: 9n,
      creator: ALICE,
      token: NATIVE,
      bet: 1000n,
      seats: 3,
      ruleSet: 0,
      isPrivate: false,
    },
    10,
  ),
  log("Scored", { gameId: 9n, player: ALICE, category: 11, points: 50n, bonus: 0n }, 20),
  log("PlayerForfeited", { gameId: 9n, player: CAROL }, 30),
  log(
    "GameFinished",
    {
      gameId: 9n,
      token: NATIVE,
      ruleSet: 0,
      players: [ALICE, BOB, CAROL],
      totals: [260n, 190n, 40n],
      winners: [ALICE],
      payoutEach: 2925n,
      houseFee: 75n,
    },
    40,
  ),
] as LeaderboardLog[];
const game = { gameId: 9n, ruleSet: 0, token: NATIVE, finishedBlock: 40n, finishedAt, logs };

describe("a finished game's rows", () => {
  const results = playerResults(game);
  const of = (player: string) => results.find((r) => r.row.player === player.toLowerCase())!;

  it("has one player_game row a player, lower-case, with the game's result for each", () => {
    expect(results).toHaveLength(3);
    expect(of(ALICE).row).toEqual({
      id: `9:${ALICE.toLowerCase()}`,
      player: ALICE.toLowerCase(),
      gameId: 9n,
      ruleSet: 0,
      token: NATIVE,
      finishedBlock: 40n,
      finishedAt,
      won: 1,
      forfeited: 0,
      total: 260,
      // A single game's sheets are its total and one sheet (a match's carry all its games').
      points: null,
      completed: null,
      yahtzees: 1,
      staked: 1000n,
      net: 1925n,
    });
    expect(of(BOB).row).toMatchObject({ won: 0, forfeited: 0, total: 190, net: -1000n });
    // A forfeited sheet is not a completed one: no total counts.
    expect(of(CAROL).row).toMatchObject({ won: 0, forfeited: 1, total: null, net: -1000n });
  });

  it("keys the running sums by player and token, rule set, and UTC day", () => {
    const p = BOB.toLowerCase();
    expect(of(BOB).keys).toEqual({
      tokenTotal: `${p}:${NATIVE}`,
      ruleSetTotal: `${p}:0:${NATIVE}`,
      day: `${p}:0:${NATIVE}:20000`,
      dayNumber: 20000,
    });
  });

  it("adds up game by game as the fold over both games would", () => {
    const first = of(ALICE).sums;
    const second = { ...of(BOB).sums, lastBlock: 90n };
    const row = addSums(sumsColumns(ALICE.toLowerCase() as `0x${string}`, first), second);
    expect(row).toEqual({
      games: 2,
      wins: 1,
      forfeits: 0,
      best: 260,
      points: 450n,
      completed: 2,
      yahtzees: 1,
      staked: 2000n,
      net: 925n,
      lastBlock: 90n,
    });
  });

  it("gives a rating row and its history row the ids the tables key them by", () => {
    const after = { mu: 27.1, sigma: 7.9, ordinal: 3.4, games: 1 };
    const { rating, change } = ratingRows(game, ALICE, after);
    expect(rating).toEqual({
      id: `${ALICE.toLowerCase()}:0`,
      player: ALICE.toLowerCase(),
      ruleSet: 0,
      ...after,
      lastBlock: 40n,
    });
    expect(change).toMatchObject({ id: `9:${ALICE.toLowerCase()}`, gameId: 9n, finishedAt });
  });

  it("keys the analysis by game and finishing hash, a row a seat; none when not analysed", () => {
    const accuracy = { decisions: 30, bestMoves: 21, pointsLost: 12.5, score: 260, mistake: null };
    const rows = analysisRows(
      { gameId: 9n, finishedHash: "0xab", ruleSet: 0 },
      [
        { player: ALICE, ...accuracy },
        { player: BOB, ...accuracy },
      ],
      null,
      1234,
    );
    expect(rows.game).toEqual({
      game_id: "9",
      finished_hash: "0xab",
      rule_set: 0,
      analysed_at: 1234,
      error: null,
      folded: false,
    });
    expect(rows.players.map((p) => [p.seat, p.player])).toEqual([
      [0, ALICE.toLowerCase()],
      [1, BOB.toLowerCase()],
    ]);
    const failed = analysisRows({ gameId: 9n, finishedHash: "0xab", ruleSet: 0 }, null, "no", 1);
    expect(failed.players).toEqual([]);
    expect(failed.game.error).toBe("no");
  });
});

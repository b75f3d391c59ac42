import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { finishedGames, mySeat } from "./history.ts";
import type { LeaderboardLog } from "./leaderboard.ts";
import { PLAYERS, scriptedGame } from "../test/replay.testkit.ts";

const [ANN, BEN, CAT] = PLAYERS;
const logsOf = (...games: ReturnType<typeof scriptedGame>[]) =>
  games
    .flatMap((g) => g.logs)
    .filter((l): l is LeaderboardLog =>
      ["GameCreated", "Scored", "PlayerForfeited", "GameFinished"].includes(l.eventName),
    );

describe("finishedGames", () => {
  const a = scriptedGame(1n, 0, [ANN, BEN]);
  const b = scriptedGame(2n, 2, [ANN, BEN, CAT], { forfeitAfterRound: 2, startBlock: 10_000n });
  const c = scriptedGame(3n, 1, [BEN, CAT], { startBlock: 20_000n });
  const games = finishedGames(logsOf(a, b, c));

  it("lists every finished game, newest first, with its bet and forfeits", () => {
    expect(games.map((g) => g.gameId)).toEqual([3n, 2n, 1n]);
    expect(games[1]).toMatchObject({ ruleSet: 2, bet: 1000n, forfeited: [CAT] });
  });

  it("gives my seat, result and net winnings in the games I played", () => {
    expect(mySeat(games[0], ANN)).toBeNull();
    const mine = mySeat(games[2], ANN)!;
    const won = a.finalTotals[0] > a.finalTotals[1];
    const tie = a.finalTotals[0] === a.finalTotals[1];
    expect(mine.seat).toBe(0);
    expect(mine.total).toBe(BigInt(a.finalTotals[0]));
    expect(mine.result).toBe(tie ? "tied" : won ? "won" : "lost");
    expect(mine.net).toBe(tie ? 0n : won ? 1000n : -1000n);
    expect(mySeat(games[1], CAT)).toMatchObject({ result: "forfeited", net: -1000n });
  });

  it("matches me whatever the case of my address", () => {
    expect(mySeat(games[2], ANN.toLowerCase() as Address)?.seat).toBe(0);
  });
});

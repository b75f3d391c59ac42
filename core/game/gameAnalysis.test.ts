import { beforeAll, describe, expect, it } from "vitest";
import { shownLoss } from "../coach/analyse.ts";
import { buildTable, type SolverTable } from "../coach/solver.ts";
import { PLAYERS, scriptedGame } from "../test/replay.testkit.ts";
import { analyseGameLogs } from "./gameAnalysis.ts";

/** A whole game from its logs to each player's accuracy (rule set 2: a fast table). */
describe("analyseGameLogs", () => {
  let table: SolverTable;
  beforeAll(() => {
    table = buildTable(2);
  });

  it("sums each player's decisions into points lost, best moves and the biggest mistake", () => {
    const game = scriptedGame(7n, 2, PLAYERS.slice(0, 3), { forfeitAfterRound: 4 });
    const analysed = analyseGameLogs(7n, game.logs, () => table)!;
    expect(analysed.ruleSet).toBe(2);
    expect(analysed.players.map((p) => p.player)).toEqual(PLAYERS.slice(0, 3));
    analysed.players.forEach((p, i) => {
      const review = analysed.review.players[i];
      expect(p.decisions).toBe(review.decisions.length);
      expect(p.bestMoves).toBe(review.decisions.filter((d) => d.isBest).length);
      // Points lost is the sum of the losses as the page shows them, so the summary adds up.
      expect(p.pointsLost).toBeCloseTo(
        review.decisions.reduce((s, d) => s + shownLoss(d.loss), 0),
        9,
      );
      const worst = Math.max(0, ...review.decisions.filter((d) => !d.isBest).map((d) => d.loss));
      expect(p.mistake?.loss ?? 0).toBe(worst);
      if (p.mistake) expect(p.mistake.played).not.toEqual(p.mistake.best);
    });
    expect(analysed.players.slice(0, 2).map((p) => p.score)).toEqual(game.finalTotals.slice(0, 2));
    // The forfeit cut the third player's game after four turns.
    expect(analysed.players[2].decisions).toBeLessThan(analysed.players[0].decisions);
  });

  it("analyses only a finished game", () => {
    const game = scriptedGame(8n, 2, PLAYERS.slice(0, 2));
    expect(analyseGameLogs(8n, game.logs.slice(0, -3), () => table)).toBe(null);
    expect(analyseGameLogs(8n, [], () => table)).toBe(null);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { chooseTurnAction } from "../rules/strategy.ts";
import { coachTurnAction } from "./advise.ts";
import { analyseGame, isTie, shownLoss, TIE_EPSILON } from "./analyse.ts";
import { recordGame, seededRandom } from "./simulate.ts";
import { buildTable, type SolverTable } from "./solver.ts";

/** Game analysis on rule set 2 (its table builds in well under a second). */
describe("coach: analysing a game from its moves", () => {
  let table: SolverTable;
  beforeAll(() => {
    table = buildTable(2);
  });

  it("reviews every player: a summary, the decisions and the expected-score series", () => {
    const random = seededRandom(11);
    const coach = recordGame(2, (s, d, r) => coachTurnAction(table, s, d, r), random);
    const bot = recordGame(2, (s, d, r) => chooseTurnAction(s, d, r), random);
    const review = analyseGame(table, {
      ruleSet: 2,
      players: [
        { player: "0xcoach", turns: coach.turns },
        { player: "0xbot", turns: bot.turns },
      ],
    });
    expect(review.startValue).toBe(table.startValue);
    expect(review.players.map((p) => p.player)).toEqual(["0xcoach", "0xbot"]);
    expect(review.players[0].totalLoss).toBeCloseTo(0, 9);
    const h = review.players[1];
    // One keep decision after every roll but the third, one box decision a turn.
    const keeps = bot.turns.reduce((n, t) => n + Math.min(t.rolls.length, 2), 0);
    expect(h.decisions.filter((d) => d.kind === "keep")).toHaveLength(keeps);
    expect(h.decisions.filter((d) => d.kind === "box")).toHaveLength(13);
    // The series drops by each decision's loss; between decisions the dice move it.
    h.decisions.forEach((d, i) => {
      expect(h.series[i + 1].expected).toBeCloseTo(d.bestExpected - d.loss, 9);
    });
  });

  it("counts a move within TIE_EPSILON of the best as best, and sums the losses as shown", () => {
    expect(TIE_EPSILON).toBe(0.05);
    // A loss under the rounding is a tie (it would show "0.0"); above it, a tenth of a point.
    expect([0, 1e-12, 0.01, 0.049].map(isTie)).toEqual([true, true, true, true]);
    expect([0.051, 0.3, 17.2].map(isTie)).toEqual([false, false, false]);
    expect([0.02, 0.049, 0.051, 0.14, 0.15000001, 1.26, 17.249].map(shownLoss)).toEqual([
      0, 0, 0.1, 0.1, 0.2, 1.3, 17.2,
    ]);

    for (const seed of [3, 11, 29]) {
      const random = seededRandom(seed);
      const bot = recordGame(2, (s, d, r) => chooseTurnAction(s, d, r), random);
      const [h] = analyseGame(table, {
        ruleSet: 2,
        players: [{ player: "bot", turns: bot.turns }],
      }).players;
      // The summary is the decisions' losses as shown (to one decimal) added up, to the tenth.
      const shown = h.decisions.map((d) => shownLoss(d.loss).toFixed(1));
      const added = shown.reduce((tenths, s) => tenths + Math.round(Number(s) * 10), 0);
      expect(h.totalLoss.toFixed(1)).toBe((added / 10).toFixed(1));
      // Ties count as best, in the share and for the biggest mistake.
      for (const d of h.decisions) expect(d.isBest).toBe(d.loss < TIE_EPSILON);
      expect(h.bestMoves).toBe(h.decisions.filter((d) => d.loss < TIE_EPSILON).length);
      if (h.biggestMistake) expect(h.biggestMistake.loss).toBeGreaterThanOrEqual(TIE_EPSILON);
    }
  });

  it("reviews a game cut short, and stops at moves the rules forbid", () => {
    const partial = analyseGame(table, {
      ruleSet: 2,
      players: [
        {
          player: "a",
          turns: [
            {
              rolls: [
                [6, 6, 1, 2, 3],
                [6, 6, 6, 4, 5],
              ],
              keepMasks: [0b00011],
              box: 5,
            },
            // Timed out after the first roll of the second turn: its keep is not reviewed.
            { rolls: [[1, 1, 1, 1, 2]], keepMasks: [] },
          ],
        },
      ],
    });
    const p = partial.players[0];
    expect(p.finished).toBe(false);
    expect(p.score).toBe(18);
    expect(p.decisions.map((d) => d.kind)).toEqual(["keep", "keep", "box"]);
    expect(p.decisions[0].played).toEqual({ kind: "keep", keepMask: 0b00011, kept: [6, 6] });
    expect(p.decisions[1].played).toEqual({ kind: "stop" });
    const bad = (turns: Parameters<typeof analyseGame>[1]["players"][number]["turns"]) => () =>
      analyseGame(table, { ruleSet: 2, players: [{ player: "x", turns }] });
    expect(
      bad([
        {
          rolls: [
            [6, 6, 1, 2, 3],
            [5, 6, 6, 4, 5],
          ],
          keepMasks: [0b00011],
          box: 5,
        },
      ]),
    ).toThrow("was kept but changed");
    expect(bad([{ rolls: [[6, 6, 1, 2, 3]], keepMasks: [1], box: 5 }])).toThrow("keep masks");
    expect(() => analyseGame(table, { ruleSet: 0, players: [] })).toThrow("rule set");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { chooseTurnAction } from "../rules/strategy.ts";
import { coachTurnAction } from "./advise.ts";
import { analyseGame } from "./analyse.ts";
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

import { beforeAll, describe, expect, it } from "vitest";
import { analyseGame } from "../coach/analyse.ts";
import { buildTable, type SolverTable } from "../coach/solver.ts";
import { PLAYERS, scriptedGame } from "../test/replay.testkit.ts";
import { coachRecordOf } from "./coachRecord.ts";
import { foldGame } from "./gameState.ts";

/** Whole games as the contract logs them, turned into the coach's record (rule set 2: a fast table). */
describe("coachRecordOf", () => {
  let table: SolverTable;
  beforeAll(() => {
    table = buildTable(2);
  });

  it("rebuilds every turn of a finished game: dice, keep masks and boxes, in turn order", () => {
    const game = scriptedGame(7n, 2, PLAYERS.slice(0, 2));
    const record = coachRecordOf(foldGame(7n, game.logs))!;
    expect(record.ruleSet).toBe(2);
    expect(record.players.map((p) => p.player)).toEqual(PLAYERS.slice(0, 2));
    for (const p of record.players) {
      expect(p.turns).toHaveLength(13);
      for (const t of p.turns) {
        expect(t.rolls.length).toBeGreaterThanOrEqual(1);
        expect(t.keepMasks).toHaveLength(t.rolls.length - 1);
        expect(t.box).toBeTypeOf("number");
      }
    }
    // The coach replays the record to the very sheets the contract totalled.
    const review = analyseGame(table, record);
    expect(review.players.map((p) => p.score)).toEqual(game.finalTotals);
    expect(review.players.every((p) => p.finished)).toBe(true);
  });

  it("names the players as asked", () => {
    const game = scriptedGame(8n, 2, PLAYERS.slice(0, 2));
    const record = coachRecordOf(foldGame(8n, game.logs), (p) => `name of ${p.slice(0, 6)}`)!;
    expect(record.players.map((p) => p.player)).toEqual(["name of 0x7099", "name of 0x3C44"]);
  });

  it("keeps a forfeited player's turns up to the forfeit", () => {
    const game = scriptedGame(9n, 2, PLAYERS.slice(0, 3), { forfeitAfterRound: 4 });
    const record = coachRecordOf(foldGame(9n, game.logs))!;
    expect(record.players.map((p) => p.turns.length)).toEqual([13, 13, 4]);
    const review = analyseGame(table, record);
    expect(review.players[2].finished).toBe(false);
    expect(review.players[0].score).toBe(game.finalTotals[0]);
  });

  it("ends a game in play with the turn being played, without its box", () => {
    const game = scriptedGame(10n, 2, PLAYERS.slice(0, 2));
    // Cut just after the third player-turn's first roll.
    const rolled = game.logs.filter((l) => l.eventName === "DiceRolled");
    const cutAt = game.logs.indexOf(
      rolled.find((l) => l.args.rollNumber === 1 && rolled.indexOf(l) > 3)!,
    );
    const record = coachRecordOf(foldGame(10n, game.logs.slice(0, cutAt + 1)))!;
    const last = record.players.flatMap((p) => p.turns).filter((t) => t.box === undefined);
    expect(last).toHaveLength(1);
    expect(last[0].rolls).toHaveLength(1);
    expect(() => analyseGame(table, record)).not.toThrow();
  });

  it("is null before the turn order is drawn", () => {
    const game = scriptedGame(11n, 2, PLAYERS.slice(0, 2));
    const before = game.logs.filter((l) => l.eventName !== "GameStarted").slice(0, 2);
    expect(coachRecordOf(foldGame(11n, before))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { keccak256, toHex } from "viem";
import { analyseGame } from "@dicehall/core/coach/analyse.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { chooseTurnAction } from "@dicehall/core/rules/strategy.ts";
import { totals } from "@dicehall/core/rules/sheet.ts";
import {
  botToMove,
  initialPractice,
  practiceReducer,
  type PracticeAction,
  type PracticeState,
} from "./engine.ts";
import { practiceTableModel } from "./model.ts";
import { practiceRecord } from "./record.ts";
import { isPracticeState } from "./storage.ts";

const act = (state: PracticeState, ...actions: PracticeAction[]) =>
  actions.reduce(practiceReducer, state);

let n = 0;
const random = () => keccak256(toHex(`coach:${n++}`));

/** Plays the game on the table to its end with the heuristic's moves for every seat. */
function playGame(state: PracticeState): PracticeState {
  for (let steps = 0; steps < 10_000; steps++) {
    const game = state.game!;
    if (game.currentSeat === null) return state;
    const move = chooseTurnAction(
      game.sheets[game.currentSeat],
      game.dice ?? [1, 1, 1, 1, 1],
      game.rollsUsed,
    );
    state =
      move.action === "score"
        ? act(state, { type: "score", box: move.box })
        : act(state, { type: "keep", keepMask: move.keepMask }, { type: "roll", random: random() });
  }
  throw new Error("the game did not end");
}

describe("practice and the coach", () => {
  it("records every seat's turns, which the coach replays to the same totals", () => {
    const start = act(initialPractice(), {
      type: "start",
      setup: { ruleSet: 2, names: ["Ann", "Bot"], bots: [null, "casual"], games: 1 },
    });
    expect(practiceRecord(start)).toBeNull();
    const over = playGame(start);
    const record = practiceRecord(over)!;
    expect(record.players.map((p) => p.player)).toEqual(["Ann", "Bot"]);
    expect(record.players.every((p) => p.turns.length === 13)).toBe(true);
    const review = analyseGame(buildTable(2), record);
    expect(review.players.map((p) => p.score)).toEqual(
      over.game!.sheets.map((s) => totals(s).total),
    );
    // The reviewed moves are the heuristic's: some of them are not the coach's.
    expect(review.players[0].totalLoss).toBeGreaterThan(0);
    expect(isPracticeState(JSON.parse(JSON.stringify(over)))).toBe(true);
  });

  it("knows whose turn is a bot's, and the table lets nobody move for it", () => {
    let state = act(initialPractice(), {
      type: "start",
      setup: { ruleSet: 0, names: ["Ann", "Coach"], bots: [null, "coach"], games: 1 },
    });
    expect(state.bots).toEqual([null, "coach"]);
    expect(botToMove(state)).toBeNull();
    state = act(state, { type: "roll", random: random() });
    state = act(state, { type: "score", box: 12 });
    expect(botToMove(state)).toBe("coach");
    const model = practiceTableModel(state)!;
    expect(model).toMatchObject({ myTurn: false, canRoll: false, options: null });
    expect(model.rollHint).toBe("Coach (coach bot) is playing.");
    expect(model.players.map((p) => p.name)).toEqual(["Ann", "Coach (coach bot)"]);
  });

  it("sets a keep mask only between rolls", () => {
    let state = act(initialPractice(), {
      type: "start",
      setup: { ruleSet: 0, names: ["Ann"], games: 1 },
    });
    expect(act(state, { type: "keep", keepMask: 3 })).toBe(state);
    state = act(state, { type: "roll", random: random() });
    expect(act(state, { type: "keep", keepMask: 0b10101 }).game!.keepMask).toBe(0b10101);
    expect(act(state, { type: "keep", keepMask: 32 })).toBe(state);
  });

  it("sets bots in the setup, one per seat, and loads sessions saved without them", () => {
    let state = act(initialPractice(), {
      type: "configure",
      setup: { names: ["A", "B", "C"], bots: [null, "casual"] },
    });
    expect(state.bots).toEqual([null, "casual", null]);
    state = act(state, { type: "configure", setup: { names: ["A"] } });
    expect(state.bots).toEqual([null]);
    const old: Record<string, unknown> = { ...initialPractice() };
    delete old.bots;
    expect(isPracticeState(old)).toBe(true);
    expect(isPracticeState({ ...initialPractice(), bots: ["grandmaster", null] })).toBe(false);
  });
});

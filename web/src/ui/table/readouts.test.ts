import { describe, expect, it } from "vitest";
import { newSheet } from "@dicehall/core/rules/sheet.ts";
import type { TableModel, TablePlayer } from "@dicehall/core/game/tableModel.ts";
import { readDice, readScores } from "./readouts.ts";

function player(name: string, boxes: number[], forfeited = false): TablePlayer {
  const sheet = newSheet(0);
  boxes.forEach((points, box) => (sheet.boxes[box] = points));
  return { id: name, name, isMe: false, sheet, forfeited };
}

function table(players: TablePlayer[], over: Partial<TableModel> = {}): TableModel {
  return {
    ruleSet: 0,
    players,
    currentSeat: 0,
    round: 2,
    rounds: 13,
    dice: [null, null, null, null, null],
    rollsUsed: 0,
    maxRolls: 3,
    keepMask: 0,
    rolling: false,
    myTurn: false,
    canRoll: false,
    rollLabel: "Roll",
    rollHint: null,
    options: null,
    scoringSeat: null,
    turnText: "",
    log: [],
    busyText: null,
    errorText: null,
    ...over,
  };
}

describe("readScores", () => {
  it("says 'after round N' only when everyone still in has filled N boxes", () => {
    const boundary = table([player("Ann", [3]), player("Ben", [2])]);
    expect(readScores(boundary)).toBe("Totals after round 1 of 13: Ann 3; Ben 2.");
  });

  it("does not announce a round as over in the middle of it", () => {
    const mid = table([player("Ann", [3, 6]), player("Ben", [2])], { currentSeat: 1 });
    expect(readScores(mid)).toBe("Totals so far, in round 2 of 13: Ann 9; Ben 2.");
    const start = table([player("Ann", []), player("Ben", [])], { round: 1 });
    expect(readScores(start)).toMatch(/^Totals so far, in round 1 of 13: /);
  });

  it("leaves a forfeited sheet out of the count", () => {
    const model = table([player("Ann", [3, 6]), player("Ben", [2], true)], { round: 3 });
    expect(readScores(model)).toBe("Totals after round 2 of 13: Ann 9; Ben 2, forfeited.");
  });

  it("gives the final totals once every sheet is full", () => {
    const full = Array.from({ length: 13 }, () => 1);
    const model = table([player("Ann", full), player("Ben", full)], {
      currentSeat: null,
      round: 13,
    });
    expect(readScores(model)).toBe("Final totals: Ann 13; Ben 13.");
  });
});

describe("readDice", () => {
  it("reads the last turn's dice as such, not as this turn's", () => {
    const model = table([player("Ann", [])], {
      dice: [1, 2, 3, 4, 6],
      diceFromLastTurn: true,
      diceTitle: "Ben's last dice",
    });
    expect(readDice(model)).toBe("No dice rolled yet this turn. Ben's last dice: 1, 2, 3, 4, 6.");
  });
});

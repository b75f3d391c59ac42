import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { totals } from "../rules/sheet.ts";
import { foldGame, key } from "./gameState.ts";
import {
  buildReplay,
  controlReplay,
  replayTableModel,
  stepDelay,
  stepOfRoll,
  type ReplayCursor,
} from "./replay.ts";
import { PLAYERS, scriptedGame } from "../test/replay.testkit.ts";
import { shortAddress } from "./format.ts";
import { verifyRoll } from "./verify.ts";

const words = {
  name: (a: Address) => (a === PLAYERS[0] ? "Alice" : a === PLAYERS[1] ? "Bob" : "Carol"),
  amount: (v: bigint) => `${v} wei`,
  me: PLAYERS[0],
};

describe("buildReplay", () => {
  const game = scriptedGame(7n, 0);
  const replay = buildReplay(7n, game.logs);

  it("has a step for the start, every roll, every score and the finish", () => {
    const kinds = replay.steps.map((s) => s.entry.kind);
    const count = (name: string) => game.logs.filter((l) => l.eventName === name).length;
    expect(kinds[0]).toBe("started");
    expect(kinds.at(-1)).toBe("finished");
    expect(kinds.filter((k) => k === "rolled")).toHaveLength(count("DiceRolled"));
    expect(kinds.filter((k) => k === "scored")).toHaveLength(count("Scored"));
    expect(replay.final.status).toBe("finished");
  });

  it("shows the sheets as they were after each score", () => {
    const scoredSteps = replay.steps.filter((s) => s.entry.kind === "scored");
    scoredSteps.forEach((step, n) => {
      for (const [id, sheet] of Object.entries(game.sheetsAfterScore[n])) {
        expect(step.state.sheets[id].boxes).toEqual(sheet.boxes);
        expect(step.state.sheets[id].yahtzeeBonuses).toBe(sheet.yahtzeeBonuses);
      }
    });
  });

  it("gives the same sheets going forward and back", () => {
    let cursor: ReplayCursor = { index: 0, playing: false, speed: 1 };
    const length = replay.steps.length;
    const seen: string[] = [];
    for (let i = 0; i < length - 1; i++) {
      cursor = controlReplay(cursor, { type: "next" }, length);
      seen.push(JSON.stringify(replay.steps[cursor.index].state.sheets));
    }
    expect(cursor.index).toBe(length - 1);
    for (let i = length - 2; i >= 0; i--) {
      cursor = controlReplay(cursor, { type: "prev" }, length);
      expect(cursor.index).toBe(i);
      if (i > 0) expect(JSON.stringify(replay.steps[i].state.sheets)).toBe(seen[i - 1]);
    }
    // The start has empty sheets.
    expect(
      Object.values(replay.steps[0].state.sheets).every((s) => s.boxes.every((b) => b === null)),
    ).toBe(true);
  });

  it("ends with the totals the game finished with, the same as folding every log at once", () => {
    const last = replay.steps.at(-1)!.state;
    const folded = foldGame(7n, game.logs);
    PLAYERS.slice(0, 2).forEach((p, i) => {
      expect(totals(last.sheets[key(p)]).total).toBe(game.finalTotals[i]);
      expect(last.sheets[key(p)]).toEqual(folded.sheets[key(p)]);
    });
  });

  it("does not depend on the order the logs arrive in", () => {
    const shuffled = [...game.logs].reverse();
    expect(buildReplay(7n, shuffled).steps.map((s) => s.entry.id)).toEqual(
      replay.steps.map((s) => s.entry.id),
    );
  });

  it("ignores other games' logs", () => {
    // Distinct blocks, as on chain: logs are identified by block and index.
    const other = scriptedGame(8n, 1, PLAYERS.slice(0, 2), { startBlock: 100_000n });
    expect(buildReplay(7n, [...game.logs, ...other.logs]).steps).toHaveLength(replay.steps.length);
  });

  it("keeps each roll's keep mask and dice before, so every roll verifies", () => {
    const rolls = replay.steps.flatMap((s) => (s.entry.kind === "rolled" ? [s.entry.roll] : []));
    expect(rolls.some((r) => r.rollNumber > 1 && r.keepMask !== 0)).toBe(true);
    for (const roll of rolls) expect(verifyRoll(roll).matches).toBe(true);
    expect(stepOfRoll(replay, rolls[3].sequenceNumber)).toBeGreaterThan(0);
    expect(stepOfRoll(replay, 999_999n)).toBe(-1);
  });

  it("includes a forfeit as a step", () => {
    const forfeit = buildReplay(9n, scriptedGame(9n, 2, PLAYERS, { forfeitAfterRound: 3 }).logs);
    expect(forfeit.steps.some((s) => s.entry.kind === "forfeited")).toBe(true);
    expect(forfeit.final.forfeited).toEqual([PLAYERS[2]]);
  });

  it("has no steps for a lobby that never started", () => {
    const lobbyOnly = scriptedGame(10n, 0).logs.slice(0, 2);
    expect(buildReplay(10n, lobbyOnly).steps).toEqual([]);
  });
});

describe("replayTableModel", () => {
  const game = scriptedGame(7n, 3);
  const replay = buildReplay(7n, game.logs);

  it("shows the roller's dice and keep mask at a roll, with nobody able to act", () => {
    const index = replay.steps.findIndex(
      (s) => s.entry.kind === "rolled" && s.entry.roll.rollNumber === 2,
    );
    const step = replay.steps[index];
    const model = replayTableModel(replay, index, words)!;
    if (step.entry.kind !== "rolled") throw new Error("expected a roll");
    expect(model.dice).toEqual(step.entry.roll.dice);
    expect(model.rollsUsed).toBe(2);
    expect(model.keepMask).toBe(step.entry.roll.keepMask);
    expect(model.players[model.currentSeat!].id).toBe(key(step.entry.player));
    expect(model).toMatchObject({
      myTurn: false,
      canRoll: false,
      options: null,
      scoringSeat: null,
      ruleSet: 3,
    });
    expect(model.turnText).toMatch(
      new RegExp(`^Replay, step ${index + 1} of ${replay.steps.length}, round 1 of 16: `),
    );
    expect(model.players[0]).toMatchObject({ name: "Alice", isMe: true });
  });

  it("names the player over the dice, the viewer included (never a bare “Your dice”)", () => {
    const rollOf = (seat: number) =>
      replay.steps.findIndex((s) => s.entry.kind === "rolled" && s.entry.player === PLAYERS[seat]);
    const mine = replayTableModel(replay, rollOf(0), words)!;
    expect(mine.diceTitle).toBe(`${shortAddress(PLAYERS[0])}'s dice (you)`);
    expect(replayTableModel(replay, rollOf(1), words)!.diceTitle).toBe("Bob's dice");
  });

  it("shows the scored dice and the sheets after the score", () => {
    const index = replay.steps.findIndex((s) => s.entry.kind === "scored");
    const model = replayTableModel(replay, index, words)!;
    expect(model.dice.every((d) => d !== null)).toBe(true);
    expect(model.players[0].sheet.boxes.filter((b) => b !== null)).toHaveLength(1);
    expect(model.log.at(-1)!.text).toMatch(/^Alice scored \d+ in /);
  });

  it("is null past the end", () => {
    expect(replayTableModel(replay, replay.steps.length, words)).toBeNull();
  });
});

describe("controlReplay", () => {
  const start: ReplayCursor = { index: 0, playing: false, speed: 1 };

  it("plays to the end and stops there", () => {
    let cursor = controlReplay(start, { type: "play" }, 3);
    expect(cursor.playing).toBe(true);
    cursor = controlReplay(cursor, { type: "tick" }, 3);
    expect(cursor).toMatchObject({ index: 1, playing: true });
    cursor = controlReplay(cursor, { type: "tick" }, 3);
    expect(cursor).toMatchObject({ index: 2, playing: false });
    cursor = controlReplay(cursor, { type: "tick" }, 3);
    expect(cursor.index).toBe(2);
  });

  it("starts over when play is pressed at the end", () => {
    expect(controlReplay({ ...start, index: 4 }, { type: "play" }, 5)).toMatchObject({
      index: 0,
      playing: true,
    });
  });

  it("pauses on any manual step and clamps to the steps there are", () => {
    const playing = { ...start, index: 2, playing: true };
    expect(controlReplay(playing, { type: "next" }, 5)).toMatchObject({ index: 3, playing: false });
    expect(controlReplay(playing, { type: "prev" }, 5)).toMatchObject({ index: 1, playing: false });
    expect(controlReplay(playing, { type: "seek", index: 99 }, 5).index).toBe(4);
    expect(controlReplay(playing, { type: "first" }, 5).index).toBe(0);
    expect(controlReplay(playing, { type: "last" }, 5).index).toBe(4);
    expect(controlReplay(start, { type: "prev" }, 5).index).toBe(0);
    expect(controlReplay(playing, { type: "toggle" }, 5).playing).toBe(false);
  });

  it("changes speed and keeps the step", () => {
    const fast = controlReplay({ ...start, index: 2 }, { type: "speed", speed: 4 }, 5);
    expect(fast).toMatchObject({ index: 2, speed: 4 });
    expect(stepDelay(4)).toBe(stepDelay(1) / 4);
    expect(controlReplay(fast, { type: "speed", speed: 0 }, 5).speed).toBe(4);
  });

  it("has nothing to play without steps", () => {
    expect(controlReplay(start, { type: "play" }, 0)).toMatchObject({ index: 0, playing: false });
  });
});

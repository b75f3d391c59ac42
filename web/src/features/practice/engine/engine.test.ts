import { describe, expect, it } from "vitest";
import { keccak256, pad, toHex, type Hex } from "viem";
import { RULE_SETS, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import {
  applyScore,
  boxOptions,
  legalBoxes,
  newSheet,
  totals,
  type Sheet,
} from "@dicehall/core/rules/sheet.ts";
import { verifyRoll } from "@dicehall/core/game/verify.ts";
import {
  initialPractice,
  practiceReducer,
  rollBlocker,
  type PracticeAction,
  type PracticeState,
} from "./engine.ts";
import { practiceTableModel } from "./model.ts";
import { practiceRandom } from "./random.ts";
import { standings } from "./standings.ts";
import { isPracticeState, loadPractice, PRACTICE_STORAGE_KEY, savePractice } from "./storage.ts";

const ZERO: Hex = pad("0x00", { size: 32 });

/** A deterministic stream of numbers in [0, 1) and 32-byte randoms. */
function seeded(seed: string) {
  let n = 0;
  const hex = () => keccak256(toHex(`${seed}:${n++}`));
  return { hex, float: () => Number(BigInt(hex()) % 1_000_000n) / 1_000_000 };
}

const act = (state: PracticeState, ...actions: PracticeAction[]) =>
  actions.reduce(practiceReducer, state);

function started(ruleSet: RuleSetId, names: string[], games: number): PracticeState {
  return act(initialPractice(), { type: "start", setup: { ruleSet, names, games } });
}

/**
 * Plays a whole session with random legal moves, keeping its own sheets with the rules engine
 * alongside, and checks each finished game against them.
 */
function playSession(ruleSet: RuleSetId, seats: number, games: number, seed: string) {
  const rand = seeded(seed);
  let state = started(
    ruleSet,
    Array.from({ length: seats }, (_, i) => `P${i}`),
    games,
  );
  let mine: Sheet[] = Array.from({ length: seats }, () => newSheet(ruleSet));
  const expectedTotals: number[][] = [];
  let steps = 0;
  while (state.phase !== "sessionOver") {
    if (++steps > 100_000) throw new Error("session did not end");
    const game = state.game!;
    if (game.currentSeat === null) {
      state = practiceReducer(state, { type: "nextGame" });
      mine = Array.from({ length: seats }, () => newSheet(ruleSet));
      continue;
    }
    const seat = game.currentSeat;
    if (game.rollsUsed === 0 || (game.rollsUsed < 3 && rand.float() < 0.5)) {
      if (game.rollsUsed > 0) {
        for (let die = 0; die < 5; die++)
          if (rand.float() < 0.4) state = practiceReducer(state, { type: "toggleKeep", die });
        if (rollBlocker(state.game) !== null)
          state = practiceReducer(state, { type: "toggleKeep", die: 0 });
      }
      state = practiceReducer(state, { type: "roll", random: rand.hex() });
      continue;
    }
    const legal = legalBoxes(game.sheets[seat], game.dice!);
    const box = legal[Math.floor(rand.float() * legal.length)];
    mine[seat] = applyScore(mine[seat], game.dice!, box).sheet;
    state = practiceReducer(state, { type: "score", box });
    const after = state.game!;
    expect(after.sheets[seat]).toEqual(mine[seat]);
    if (after.currentSeat === null) expectedTotals.push(mine.map((s) => totals(s).total));
  }
  return { state, expectedTotals };
}

describe("practice sessions played by random legal moves", () => {
  for (const info of RULE_SETS) {
    it(`${info.name}: every game's totals are the engine's`, () => {
      const seats = 1 + (info.id % 4) + (info.id === 0 ? 1 : 0);
      const { state, expectedTotals } = playSession(info.id, seats, 3, `session-${info.key}`);
      expect(state.results).toHaveLength(3);
      expect(state.results.map((r) => r.totals)).toEqual(expectedTotals);
      for (const r of state.results) {
        const best = Math.max(...r.totals);
        expect(r.winners).toEqual(r.totals.flatMap((t, i) => (t === best ? [i] : [])));
      }
      // The match goes to the most games won, then to the most points (the hall's scoring).
      const table = standings(state.names, state.results);
      const first = table.filter((r) => r.place === 1).map((r) => r.name);
      expect(state.log.at(-1)!.text).toBe(
        first.length === 1
          ? `Match over after 3 games: ${first[0]} wins the match.`
          : `Match over after 3 games: ${first.slice(0, -1).join(", ")} and ${first.at(-1)} share the match.`,
      );
      // Every sheet of the last game is full.
      expect(state.game!.sheets.every((s) => s.boxes.every((b) => b !== null))).toBe(true);
    });
  }

  it("plays a ten-game, four-player session to the end", () => {
    const { state } = playSession(0, 4, 10, "long");
    expect(state.phase).toBe("sessionOver");
    expect(state.results).toHaveLength(10);
    const table = standings(state.names, state.results);
    expect(table.reduce((s, r) => s + r.wins, 0)).toBeGreaterThanOrEqual(10);
    expect(table.reduce((s, r) => s + r.points, 0)).toBe(
      state.results.reduce((s, r) => s + r.totals.reduce((a, b) => a + b, 0), 0),
    );
  });
});

describe("practiceReducer", () => {
  it("rolls five dice with the chain's formula from the given random number", () => {
    const state = act(started(0, ["Ann", "Ben"], 1), { type: "roll", random: ZERO });
    expect(state.game!.dice).toEqual([2, 4, 6, 4, 1]);
    expect(state.game!.rollsUsed).toBe(1);
    expect(
      verifyRoll({
        rollNumber: 1,
        dice: state.game!.dice!,
        randomNumber: ZERO,
        keepMask: 0,
        previous: null,
      }).matches,
    ).toBe(true);
    expect(state.log.at(-1)!.text).toBe("Ann rolled 2, 4, 6, 4, 1 (roll 1 of 3).");
  });

  it("keeps the kept dice on a re-roll", () => {
    const rand = seeded("keep");
    let state = act(
      started(0, ["Ann"], 1),
      { type: "roll", random: ZERO },
      { type: "toggleKeep", die: 2 },
      { type: "toggleKeep", die: 0 },
    );
    expect(state.game!.keepMask).toBe(0b101);
    state = practiceReducer(state, { type: "roll", random: rand.hex() });
    expect(state.game!.dice![0]).toBe(2);
    expect(state.game!.dice![2]).toBe(6);
  });

  it("refuses a fourth roll, a roll keeping all five, and keep toggles before the first roll", () => {
    let state = started(0, ["Ann"], 1);
    expect(practiceReducer(state, { type: "toggleKeep", die: 1 })).toBe(state);
    const rand = seeded("limits");
    state = act(state, { type: "roll", random: rand.hex() });
    const allKept = act(
      state,
      ...[0, 1, 2, 3, 4].map((die) => ({ type: "toggleKeep", die }) as const),
    );
    expect(practiceReducer(allKept, { type: "roll", random: rand.hex() })).toBe(allKept);
    state = act(state, { type: "roll", random: rand.hex() }, { type: "roll", random: rand.hex() });
    expect(state.game!.rollsUsed).toBe(3);
    expect(practiceReducer(state, { type: "roll", random: rand.hex() })).toBe(state);
    expect(practiceReducer(state, { type: "toggleKeep", die: 0 })).toBe(state);
  });

  it("refuses a box the Joker rule forbids, a filled box and a score before rolling", () => {
    let state = started(0, ["Ann"], 1);
    expect(practiceReducer(state, { type: "score", box: 12 })).toBe(state);
    // Force five sixes with the Yahtzee box already filled and Sixes open.
    const game = state.game!;
    const sheet = {
      ...game.sheets[0],
      boxes: game.sheets[0].boxes.map((b, i) => (i === 11 ? 50 : b)),
    };
    state = { ...state, game: { ...game, sheets: [sheet], dice: [6, 6, 6, 6, 6], rollsUsed: 1 } };
    expect(boxOptions(sheet, [6, 6, 6, 6, 6]).find((o) => o.box === 12)!.legal).toBe(false);
    expect(practiceReducer(state, { type: "score", box: 12 })).toBe(state);
    expect(practiceReducer(state, { type: "score", box: 11 })).toBe(state);
    const scored = practiceReducer(state, { type: "score", box: 5 });
    expect(scored.game!.sheets[0].boxes[5]).toBe(30);
    expect(scored.game!.sheets[0].yahtzeeBonuses).toBe(1);
    expect(scored.log.at(-2)!.text).toBe("Ann scored 30 in Sixes plus a 100-point Yahtzee bonus.");
  });

  it("passes the turn in seat order and counts rounds from the game's starter", () => {
    const rand = seeded("turns");
    let state = started(2, ["Ann", "Ben", "Cat"], 2);
    const scoreFirstLegal = (s: PracticeState) => {
      const g = s.game!;
      return practiceReducer(s, {
        type: "score",
        box: legalBoxes(g.sheets[g.currentSeat!], g.dice!)[0],
      });
    };
    const seatsSeen: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      seatsSeen.push(state.game!.currentSeat!);
      state = scoreFirstLegal(act(state, { type: "roll", random: rand.hex() }));
    }
    expect(seatsSeen).toEqual([0, 1, 2, 0]);
    expect(state.game!.round).toBe(2);
    expect(state.log.at(-1)!.text).toBe("Ben's turn, round 2 of 13.");
  });

  it("rotates the starting seat from game to game and keeps the standings", () => {
    const { state } = playSession(1, 3, 3, "rotate");
    expect(state.results).toHaveLength(3);
    // Replay only the start of game 2 to see who opens it.
    const s1 = playSession(1, 3, 2, "rotate-2");
    expect(s1.state.game!.starter).toBe(1);
    expect(state.game!.starter).toBe(2);
  });

  it("renames players at any time, never to an empty name once playing", () => {
    let state = started(0, ["Ann", "Ben"], 1);
    state = practiceReducer(state, { type: "rename", seat: 1, name: "  Benedict   Cumber  " });
    expect(state.names[1]).toBe("Benedict Cumber");
    state = practiceReducer(state, { type: "rename", seat: 0, name: "   " });
    expect(state.names[0]).toBe("Player 1");
    expect(practiceReducer(state, { type: "rename", seat: 5, name: "X" })).toBe(state);
  });

  it("configures the session only in setup and clamps games and seats", () => {
    let state = initialPractice();
    state = practiceReducer(state, {
      type: "configure",
      setup: { games: 40, ruleSet: 3, names: ["a", "b", "c", "d", "e"] },
    });
    expect(state).toMatchObject({ games: 10, ruleSet: 3, names: ["a", "b", "c", "d"] });
    state = practiceReducer(state, { type: "configure", setup: { games: 0 } });
    expect(state.games).toBe(1);
    const playing = started(0, ["x"], 2);
    expect(practiceReducer(playing, { type: "configure", setup: { games: 5 } })).toBe(playing);
  });

  it("refuses to start with no players or more than four", () => {
    const state = initialPractice();
    expect(
      practiceReducer(state, { type: "start", setup: { ruleSet: 0, names: [], games: 1 } }),
    ).toBe(state);
    expect(
      practiceReducer(state, {
        type: "start",
        setup: { ruleSet: 0, names: ["a", "b", "c", "d", "e"], games: 1 },
      }),
    ).toBe(state);
  });

  it("goes back to the setup with the same players for a new session", () => {
    const { state } = playSession(3, 2, 1, "again");
    const setup = practiceReducer(state, { type: "newSession" });
    expect(setup).toMatchObject({
      phase: "setup",
      game: null,
      results: [],
      names: ["P0", "P1"],
      ruleSet: 3,
    });
  });
});

describe("standings", () => {
  it("counts ties as wins for each, ranks by wins then points, and shares places", () => {
    const table = standings(
      ["Ann", "Ben", "Cat"],
      [
        { totals: [200, 200, 150], winners: [0, 1] },
        { totals: [180, 220, 150], winners: [1] },
        { totals: [250, 100, 250], winners: [0, 2] },
      ],
    );
    expect(table.map((r) => [r.name, r.wins, r.points, r.place])).toEqual([
      ["Ann", 2, 630, 1],
      ["Ben", 2, 520, 2],
      ["Cat", 1, 550, 3],
    ]);
    expect(table[0]).toMatchObject({ best: 250, average: 210 });
    const level = standings(["A", "B"], [{ totals: [100, 100], winners: [0, 1] }]);
    expect(level.map((r) => r.place)).toEqual([1, 1]);
    expect(standings(["A"], [])[0]).toMatchObject({ wins: 0, best: null, average: null, place: 1 });
  });
});

describe("practiceTableModel", () => {
  it("gives the current seat the dice, options once rolled, and no roll past the third", () => {
    const rand = seeded("model");
    let state = started(1, ["Ann", "Ben"], 1);
    let model = practiceTableModel(state)!;
    expect(model).toMatchObject({
      myTurn: true,
      canRoll: true,
      options: null,
      scoringSeat: 0,
      rollLabel: "Roll",
      ruleSet: 1,
    });
    expect(model.players.map((p) => p.isMe)).toEqual([true, false]);
    expect(model.turnText).toBe("Ann's turn: round 1 of 15, no rolls yet. Game 1 of 1.");
    // Hot seat: every seat is "you", so the dice carry the name of the player holding them.
    expect(model.diceTitle).toBe("Ann's dice");
    state = act(state, { type: "roll", random: rand.hex() });
    model = practiceTableModel(state)!;
    expect(model.options).toHaveLength(15);
    expect(model.rollLabel).toBe("Roll again (2 left)");
    state = act(state, { type: "roll", random: rand.hex() }, { type: "roll", random: rand.hex() });
    model = practiceTableModel(state)!;
    expect(model).toMatchObject({ canRoll: false, rollHint: "No rolls left: choose a box." });
    expect(practiceTableModel(state, true)).toMatchObject({
      canRoll: false,
      options: null,
      rolling: true,
    });
  });

  it("leaves the last turn's dice on the table, greyed and named, until the next roll", () => {
    const rand = seeded("last-dice");
    let state = act(started(0, ["Ann", "Ben"], 1), { type: "roll", random: rand.hex() });
    const annDice = state.game!.dice!;
    state = act(state, { type: "score", box: 12 }); // Chance takes anything
    const model = practiceTableModel(state)!;
    expect(model.dice).toEqual(annDice);
    expect(model).toMatchObject({
      diceFromLastTurn: true,
      diceTitle: "Ann's last dice",
      rollsUsed: 0,
      options: null,
    });
    expect(practiceTableModel(state, true)).toMatchObject({
      diceFromLastTurn: false,
      diceTitle: "Ben's dice",
    });
    state = act(state, { type: "roll", random: rand.hex() });
    expect(practiceTableModel(state)).toMatchObject({
      diceFromLastTurn: false,
      diceTitle: "Ben's dice",
    });
  });

  it("is null in the setup", () => {
    expect(practiceTableModel(initialPractice())).toBeNull();
  });
});

describe("practice storage", () => {
  class MemoryStorage {
    data = new Map<string, string>();
    getItem = (k: string) => this.data.get(k) ?? null;
    setItem = (k: string, v: string) => void this.data.set(k, v);
  }

  it("round-trips a session in the middle of a turn", () => {
    const storage = new MemoryStorage();
    const rand = seeded("store");
    const state = act(
      started(3, ["Ann", "Ben"], 4),
      { type: "roll", random: rand.hex() },
      { type: "toggleKeep", die: 1 },
    );
    savePractice(storage, state);
    expect(loadPractice(storage)).toEqual(state);
    const { state: over } = playSession(0, 2, 2, "store-over");
    savePractice(storage, over);
    expect(loadPractice(storage)).toEqual(over);
  });

  it("starts fresh from anything malformed", () => {
    const storage = new MemoryStorage();
    expect(loadPractice(storage)).toBeNull();
    storage.setItem(PRACTICE_STORAGE_KEY, "{not json");
    expect(loadPractice(storage)).toBeNull();
    const state = started(0, ["Ann"], 1);
    const broken = [
      { ...state, version: 0 },
      { ...state, ruleSet: 7 },
      { ...state, names: [] },
      { ...state, game: { ...state.game!, sheets: [newSheet(1)] } },
      { ...state, game: { ...state.game!, rollsUsed: 2, dice: [1, 2, 3] } },
      { ...state, game: { ...state.game!, currentSeat: 3 } },
      { ...state, game: { ...state.game!, lastTurn: { seat: 4, dice: [1, 2, 3, 4, 5] } } },
      { ...state, game: { ...state.game!, lastTurn: { seat: 0, dice: [1, 2] } } },
    ];
    for (const b of broken) expect(isPracticeState(JSON.parse(JSON.stringify(b)))).toBe(false);
    expect(isPracticeState(JSON.parse(JSON.stringify(state)))).toBe(true);
  });

  it("survives a storage that throws", () => {
    const throwing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("full");
      },
    };
    expect(loadPractice(throwing)).toBeNull();
    expect(() => savePractice(throwing, initialPractice())).not.toThrow();
  });
});

describe("practiceRandom", () => {
  it("is 32 bytes from the given crypto source", () => {
    const random = practiceRandom({
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => a,
    });
    expect(random).toBe(ZERO);
    expect(practiceRandom()).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

import { keccak256, toHex, type Address } from "viem";
import { describe, expect, it } from "vitest";
import type { HallLogOf } from "../events/hallEvents.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import { totals } from "../rules/sheet.ts";
import { playBotGame, type BotGameSpec } from "./botGame.ts";
import { coachRecordOf } from "./coachRecord.ts";
import { foldGame, key } from "./gameState.ts";
import {
  foldMatchGame,
  matchGameAbsence,
  matchGameKey,
  matchGameLogs,
  matchGameStatus,
  matchLine,
  matchTableOf,
  parseMatchGameKey,
} from "./match.ts";
import { buildReplay } from "./replay.ts";

const A: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const C: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const spec = (over: Partial<BotGameSpec> = {}): BotGameSpec => ({
  gameId: 9n,
  ruleSet: 0,
  players: [A, B],
  choose: (_seat, sheet, dice, rollsUsed) =>
    chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
  reveal: (seq) => keccak256(toHex(`match:${seq}`)),
  games: 3,
  ...over,
});

const ends = (logs: ReturnType<typeof playBotGame>["logs"]) =>
  logs.filter((l) => l.eventName === "MatchGameFinished") as HallLogOf<"MatchGameFinished">[];

describe("a match's fold", () => {
  it("follows a 3-game match: its length, each game's result, the match's end", () => {
    const match = playBotGame(spec());
    const state = foldGame(9n, match.logs);
    expect(state.status).toBe("finished");
    expect(state.match.length).toBe(3);
    expect(state.match.games.map((g) => g.number)).toEqual([1, 2, 3]);
    const gameEnds = ends(match.logs);
    expect(state.match.games.map((g) => g.totals)).toEqual(gameEnds.map((e) => [...e.args.totals]));
    // GameFinished's totals are the points over every game.
    const table = matchTableOf(state);
    expect(table.players).toEqual([A, B]);
    expect(table.games.map((g) => g.totals.reduce((a, b) => a + b, 0))).toEqual(
      gameEnds.map((e) => Number(e.args.totals.reduce((a, b) => a + b, 0n))),
    );
    const points = table.players.map((_, i) => table.games.reduce((s, g) => s + g.totals[i], 0));
    expect(state.result?.totals.map(Number)).toEqual(
      state.result!.players.map((p) => points[table.players.indexOf(p)]),
    );
    // Every entry knows its game; each game's entries start with its order draw.
    const started = state.log.filter((e) => e.kind === "started");
    expect(started.map((e) => e.game)).toEqual([1, 2, 3]);
    // Every draw shuffles the seats in join order.
    expect(started.map((e) => (e.kind === "started" ? e.joinOrder : []))).toEqual([
      [A, B],
      [A, B],
      [A, B],
    ]);
  });

  it("gives fresh sheets to each game at its order draw", () => {
    const match = playBotGame(spec());
    const secondDraw = match.logs.filter((l) => l.eventName === "GameStarted")[1];
    const upTo = match.logs.filter((l) => l.blockNumber <= secondDraw.blockNumber);
    const between = foldGame(
      9n,
      upTo.filter((l) => l !== secondDraw),
    );
    // Between games: game 2 is next, its order not drawn, no turn.
    expect(between.match.number).toBe(2);
    expect(between.orderDrawn).toBe(false);
    expect(between.turn).toBeNull();
    const drawn = foldGame(9n, upTo);
    expect(drawn.orderDrawn).toBe(true);
    expect(drawn.round).toBe(1);
    expect(drawn.sheets[key(A)].boxes.every((b) => b === null)).toBe(true);
  });

  it("reads each game of the match as a game of its own: replay, coach record, result", () => {
    const match = playBotGame(spec());
    const gameEnds = ends(match.logs);
    for (const n of [1, 2, 3]) {
      const game = foldMatchGame(9n, match.logs, n);
      expect(game.status).toBe("finished");
      expect(game.result?.totals).toEqual([...gameEnds[n - 1].args.totals]);
      expect(game.result?.winners).toEqual([...gameEnds[n - 1].args.winners]);
      // The sheets are that game's, full.
      expect(game.players.map((p) => totals(game.sheets[key(p)]).total)).toEqual(
        gameEnds[n - 1].args.totals.map(Number),
      );
      const record = coachRecordOf(game);
      expect(record?.players.every((p) => p.turns.length === 13)).toBe(true);
      const replay = buildReplay(9n, match.logs, n);
      expect(replay.steps[0].entry.kind).toBe("started");
      expect(replay.steps.at(-1)?.entry.kind).toBe("gameEnded");
      expect(replay.steps.filter((s) => s.entry.kind === "scored")).toHaveLength(26);
      expect(replay.final.status).toBe("finished");
    }
    // The table's opening belongs to every game; another game's moves to none.
    const second = matchGameLogs(match.logs, 9n, 2);
    expect(second[0].eventName).toBe("GameCreated");
    expect(second.filter((l) => l.eventName === "GameStarted")).toHaveLength(1);
  });

  it("says where the match stands from my side", () => {
    const match = playBotGame(spec());
    const gameEnds = ends(match.logs);
    const upToGame1 = match.logs.filter((l) => l.blockNumber <= gameEnds[0].blockNumber);
    const state = foldGame(9n, upToGame1);
    const aWon = gameEnds[0].args.winners.includes(A) ? 1 : 0;
    const bWon = gameEnds[0].args.winners.includes(B) ? 1 : 0;
    expect(matchLine(state, (a) => (a === A ? "Ann" : "Bob"), B)).toBe(
      `Game 2 of 3 · you ${bWon} – ${aWon} Ann`,
    );
    expect(matchLine(foldGame(9n, playBotGame(spec({ games: 1 })).logs), () => "x")).toBeNull();
  });

  it("ends a match settled on the games played (a later game's order never drawn): 2 of 3 games", () => {
    const match = playBotGame(spec());
    const gameEnds = ends(match.logs);
    const upToGame2 = match.logs.filter((l) => l.blockNumber <= gameEnds[1].blockNumber);
    const real = match.logs.find(
      (l) => l.eventName === "GameFinished",
    ) as HallLogOf<"GameFinished">;
    // claimTimeout past game 3's draw deadline: GameFinished alone, players in join order.
    const settled: HallLogOf<"GameFinished"> = {
      ...real,
      blockNumber: gameEnds[1].blockNumber + 1n,
      logIndex: 0,
      args: { ...real.args, players: [A, B], winners: [A] },
    };
    const state = foldGame(9n, [...upToGame2, settled]);
    expect(state.status).toBe("finished");
    expect(state.match.games.map((g) => g.number)).toEqual([1, 2]);
    expect(state.result?.winners).toEqual([A]);
    expect(foldMatchGame(9n, [...upToGame2, settled], 2).status).toBe("finished");
  });

  it("keeps a forfeit for the whole match: the player sits out later games and cannot win", () => {
    const match = playBotGame(spec({ players: [A, B, C], forfeit: { seat: 0, afterRound: 2 } }));
    const state = foldGame(9n, match.logs);
    expect(state.forfeited).toEqual([A]);
    expect(state.result?.winners).not.toContain(A);
    const third = foldMatchGame(9n, match.logs, 3);
    expect(third.forfeited).toEqual([A]);
    const i = third.result!.players.indexOf(A);
    expect(third.result!.totals[i]).toBe(0n);
  });

  it("names each game of a match by match and number", () => {
    expect(matchGameKey(12n, 3, 5)).toBe("12.3");
    expect(matchGameKey(12n, 1, 1)).toBe("12");
    expect(parseMatchGameKey("12.3")).toEqual({ gameId: 12n, game: 3 });
    expect(parseMatchGameKey("12")).toEqual({ gameId: 12n, game: null });
    expect(parseMatchGameKey("12.11")).toBeNull();
  });
});

describe("a match's log in words", () => {
  it("says the match's length, each game's end, and the match's end", async () => {
    const { describeEntry } = await import("./gameLog.ts");
    const match = playBotGame(spec());
    const state = foldGame(9n, match.logs);
    const words = {
      name: (a: Address) => (a === A ? "You" : "Bob"),
      amount: (v: bigint) => `${v} wei`,
    };
    const lines = state.log.map((e) => describeEntry(e, words, 0));
    expect(lines).toContain(
      "A match of 3 games at this table for one stake: the most games won takes the pot, then the most points.",
    );
    const ended = state.log.filter((e) => e.kind === "gameEnded");
    expect(ended.map((e) => e.game)).toEqual([1, 2, 3]);
    for (const e of ended) {
      expect(describeEntry(e, words, 0)).toMatch(
        /^Game [123] over: (You win with \d+|Bob wins with \d+|You and Bob tie with \d+, a win for each)\.$/,
      );
    }
    expect(lines.at(-1)).toMatch(
      /^Match over: (You win|Bob wins|You and Bob share the pot), \d+ wei/,
    );
  });
});

describe("a game a page names", () => {
  it("knows a match's games: played, to come, never played, and none past its length", () => {
    const match = playBotGame(spec());
    const whole = foldGame(9n, match.logs);
    expect([1, 2, 3].map((g) => matchGameStatus(whole, g))).toEqual(["played", "played", "played"]);
    for (const game of [4, 9, 0]) {
      expect(matchGameStatus(whole, game)).toBe("beyond");
    }
    expect(matchGameAbsence(whole, 4, "beyond")).toBe(
      "Match #9 has 3 games: there is no game 4 (of 3).",
    );
    expect(matchGameAbsence(whole, 9, matchGameStatus(whole, 9))).toBe(
      "Match #9 has 3 games: there is no game 9 (of 3).",
    );

    // While game 2 is played, game 3 can still come; game 2 has its replay.
    const secondEnd = ends(match.logs)[1];
    const midMatch = foldGame(
      9n,
      match.logs.filter((l) => l.blockNumber < secondEnd.blockNumber),
    );
    expect(midMatch.status).toBe("running");
    expect(matchGameStatus(midMatch, 2)).toBe("played");
    expect(matchGameStatus(midMatch, 3)).toBe("to come");
    expect(matchGameAbsence(midMatch, 3, "to come")).toBe(
      "Game 3 of match #9 has not started yet.",
    );
    expect(matchGameStatus(midMatch, 4)).toBe("beyond");
  });

  it("says a single game has no game 2, and a match that ended early never played the rest", () => {
    const single = foldGame(9n, playBotGame(spec({ games: 1 })).logs);
    expect(matchGameStatus(single, 2)).toBe("beyond");
    expect(matchGameAbsence(single, 2, "beyond")).toBe(
      "Game #9 is a single game: there is no game 2.",
    );
    // A match over after two of its three games (settled on the games played): game 3 never was.
    const match = playBotGame(spec());
    const early = foldGame(9n, match.logs);
    const settled = { ...early, match: { ...early.match, games: early.match.games.slice(0, 2) } };
    expect(matchGameStatus(settled, 3, 0)).toBe("never played");
    expect(matchGameAbsence(settled, 3, "never played")).toBe(
      "Game 3 of match #9 was never played: the match ended after 2 games.",
    );
  });
});

import { keccak256, toHex, type Address } from "viem";
import { describe, expect, it } from "vitest";
import type { HallLog } from "../events/hallEvents.ts";
import { playBotGame } from "../game/botGame.ts";
import { foldGame } from "../game/gameState.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import { clockPushes, eventPushes, type ClockView } from "./pushes.ts";

const A: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const C: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const lower = (a: Address) => a.toLowerCase();

const game = (players: Address[], forfeit?: { seat: number; afterRound: number }) =>
  playBotGame({
    gameId: 3n,
    ruleSet: 0,
    players,
    forfeit,
    choose: (_seat, sheet, dice, rollsUsed) =>
      chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
    reveal: (seq) => keccak256(toHex(`pushes ${seq}`)),
  }).logs;

/** Every push the game's logs owe, folding them one at a time, each key once. */
function pushesOf(logs: HallLog[]) {
  const seen = new Set<string>();
  const out: { to: string; kind: string }[] = [];
  for (let i = 1; i <= logs.length; i++) {
    for (const push of eventPushes(foldGame(3n, logs.slice(0, i)))) {
      if (seen.has(push.key)) continue;
      seen.add(push.key);
      out.push({ to: push.to, kind: push.kind });
    }
  }
  return out;
}

describe("the pushes a game's events owe", () => {
  it("names the seated players only, each turn once, and the result to each", () => {
    const pushes = pushesOf(game([A, B, C]));
    expect(new Set(pushes.map((p) => p.to))).toEqual(new Set([A, B, C].map(lower)));
    for (const p of [A, B, C]) {
      const mine = pushes.filter((x) => x.to === lower(p));
      expect(mine.filter((x) => x.kind === "turn")).toHaveLength(13);
      expect(mine.filter((x) => x.kind === "finished")).toHaveLength(1);
    }
  });

  it("owes a forfeited player no more turns, and tells them they forfeited", () => {
    const logs = game([A, B, C], { seat: 1, afterRound: 4 });
    const pushes = pushesOf(logs);
    // Four turns played, and the fifth, which came and ran out.
    expect(pushes.filter((p) => p.to === lower(B) && p.kind === "turn")).toHaveLength(5);
    const state = foldGame(3n, logs);
    const finished = eventPushes(state).find((p) => p.to === lower(B) && p.kind === "finished");
    expect(finished?.body).toMatch(/timed out and forfeited/);
  });

  it("offers a rematch to the finished game's other players, not to its opener", () => {
    const finished = foldGame(3n, game([A, B, C]));
    const lobby = foldGame(9n, [
      {
        eventName: "GameCreated",
        args: {
          gameId: 9n,
          creator: B,
          token: finished.token!,
          bet: finished.bet,
          seats: 3,
          ruleSet: 0,
          isPrivate: false,
        },
        blockNumber: 500n,
        logIndex: 0,
      } as HallLog,
    ]);
    const offered = eventPushes(lobby, [finished]).filter((p) => p.kind === "rematch");
    expect(offered.map((p) => p.to).sort()).toEqual([A, C].map(lower).sort());
    expect(offered[0].url).toBe("/games/9");
    // Another table (a different bet) is no rematch.
    expect(eventPushes({ ...lobby, bet: lobby.bet + 1n }, [finished])).toEqual([]);
  });
});

describe("the pushes a game's clock owes", () => {
  const started = (() => {
    const logs = game([A, B]);
    // Up to the first roll request of B's first turn: B to move, in round 1.
    const cut = logs.findIndex((l, i) => i > 3 && l.eventName === "Scored") + 1;
    return foldGame(3n, logs.slice(0, cut));
  })();
  const view = (over: Partial<ClockView>): ClockView => ({
    gameId: 3n,
    state: started,
    deadlineMs: 10_000_000,
    moveTimeoutMs: 1_000_000,
    retryAtMs: null,
    entropyAttempts: 0,
    pendingSequence: 0n,
    requestedAtMs: 0,
    nowMs: 0,
    ...over,
  });

  it("warns the player to move from 20 % of the clock left, and nobody before", () => {
    expect(clockPushes(view({ nowMs: 10_000_000 - 200_001 }))).toEqual([]);
    const warned = clockPushes(view({ nowMs: 10_000_000 - 200_000 }));
    expect(warned.map((p) => [p.to, p.kind])).toEqual([[lower(B), "clock"]]);
  });

  it("tells the others, not the late player, that the timeout can be claimed", () => {
    const late = clockPushes(view({ nowMs: 10_000_001 }));
    expect(late.map((p) => [p.to, p.kind])).toEqual([[lower(A), "timeout"]]);
  });

  it('says seconds under a minute, never "about 1 min" with seconds left', () => {
    const body = (left: number) =>
      clockPushes(view({ nowMs: 10_000_000 - left })).find((p) => p.kind === "clock")?.body;
    expect(body(6_000)).toBe("Game #3: 6 s left to move, or you can be timed out.");
    expect(body(59_400)).toBe("Game #3: 60 s left to move, or you can be timed out.");
    expect(body(180_000)).toBe("Game #3: about 3 min left to move, or you can be timed out.");
  });

  it("owes the timeout only once a block's own time is past the deadline", () => {
    // The wall clock is past it; the chain's head block is not yet.
    expect(clockPushes(view({ nowMs: 10_001_300, blockMs: 10_000_000 }))).toEqual([]);
    const late = clockPushes(view({ nowMs: 10_001_300, blockMs: 10_001_000 }));
    expect(late.map((p) => [p.to, p.kind])).toEqual([[lower(A), "timeout"]]);
  });

  it("tells every seated player of a stalled roll after 30 s, once per request", () => {
    const stalled = (nowMs: number) =>
      clockPushes(view({ entropyAttempts: 1, pendingSequence: 7n, requestedAtMs: 1_000, nowMs }));
    expect(stalled(30_999)).toEqual([]);
    const pushes = stalled(31_000).filter((p) => p.kind === "stalled");
    expect(pushes.map((p) => p.to).sort()).toEqual([A, B].map(lower).sort());
    expect(new Set(stalled(60_000).map((p) => p.key))).toEqual(new Set(pushes.map((p) => p.key)));
  });
});

describe("the pushes of a match", () => {
  const match = playBotGame({
    gameId: 4n,
    ruleSet: 0,
    players: [A, B],
    games: 3,
    choose: (_seat, sheet, dice, rollsUsed) =>
      chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
    reveal: (seq) => keccak256(toHex(`pushes match ${seq}`)),
  }).logs;

  it("owes each game's turns under keys of their own: game 2's round 1 is not game 1's", () => {
    const seen = new Set<string>();
    const turns = new Map<string, number>();
    for (let i = 1; i <= match.length; i++) {
      for (const push of eventPushes(foldGame(4n, match.slice(0, i)))) {
        if (seen.has(push.key)) continue;
        seen.add(push.key);
        const k = `${push.to}:${push.kind}`;
        turns.set(k, (turns.get(k) ?? 0) + 1);
      }
    }
    for (const p of [A, B]) {
      expect(turns.get(`${lower(p)}:turn`)).toBe(39);
      expect(turns.get(`${lower(p)}:started`)).toBe(3);
      expect(turns.get(`${lower(p)}:finished`)).toBe(3);
    }
  });

  it("owes the clock, timeout and stalled pushes of game 2 under keys game 1's did not use", () => {
    // The first Scored of each game: its second player to move, in round 1.
    const cutAt = (game: number) => {
      let seen = 0;
      const started = match.findIndex((l) => l.eventName === "GameStarted" && ++seen === game);
      return match.findIndex((l, i) => i > started && l.eventName === "Scored") + 1;
    };
    const keys = (game: number) => {
      const state = foldGame(4n, match.slice(0, cutAt(game)));
      expect(state.match.number).toBe(game);
      expect(state.round).toBe(1);
      const at = (over: Partial<ClockView>) =>
        clockPushes({
          gameId: 4n,
          state,
          deadlineMs: 10_000_000,
          moveTimeoutMs: 1_000_000,
          retryAtMs: null,
          entropyAttempts: 0,
          pendingSequence: 0n,
          requestedAtMs: 0,
          nowMs: 9_900_000,
          ...over,
        });
      return [
        ...at({}),
        ...at({ nowMs: 10_000_001 }),
        ...at({ entropyAttempts: 1, retryAtMs: 0, nowMs: 1_000 }),
      ].map((p) => `${p.kind} ${p.key}`);
    };
    const [one, two] = [keys(1), keys(2)];
    expect(one.map((k) => k.split(" ")[0]).sort()).toEqual([
      "clock",
      "stalled",
      "stalled",
      "timeout",
    ]);
    expect(two.map((k) => k.split(" ")[0]).sort()).toEqual([
      "clock",
      "stalled",
      "stalled",
      "timeout",
    ]);
    expect(two.filter((k) => one.includes(k))).toEqual([]);
  });

  it("ranks the match's end by games won, then points, as the hall scores it", () => {
    // A wins games 1 and 2 by a point; B wins game 3 by 200: B has more points, A the match.
    const folded = foldGame(4n, match);
    const games = [
      { number: 1, players: [A, B], totals: [200n, 199n], winners: [A] },
      { number: 2, players: [B, A], totals: [199n, 200n], winners: [A] },
      { number: 3, players: [A, B], totals: [100n, 300n], winners: [B] },
    ];
    const state = {
      ...folded,
      match: { ...folded.match, games },
      forfeited: [],
      result: { ...folded.result!, players: [A, B], totals: [500n, 698n], winners: [A] },
    };
    const end = eventPushes(state).filter((p) => p.kind === "finished");
    const of = (p: Address) => end.find((x) => x.to === lower(p))!;
    expect(of(A).title).toBe("You won the match");
    expect(of(A).body).toBe(
      "Game #4, a match of 3 games, is over: you won the match with 2 games won and 500 points.",
    );
    expect(of(B).title).toBe("Match over");
    expect(of(B).body).toBe(
      "Game #4, a match of 3 games, is over: you came 2nd of 2 with 1 game won and 698 points.",
    );
  });
});

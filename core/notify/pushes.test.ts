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

  it("tells every seated player of a stalled roll after 30 s, once per request", () => {
    const stalled = (nowMs: number) =>
      clockPushes(view({ entropyAttempts: 1, pendingSequence: 7n, requestedAtMs: 1_000, nowMs }));
    expect(stalled(30_999)).toEqual([]);
    const pushes = stalled(31_000).filter((p) => p.kind === "stalled");
    expect(pushes.map((p) => p.to).sort()).toEqual([A, B].map(lower).sort());
    expect(new Set(stalled(60_000).map((p) => p.key))).toEqual(new Set(pushes.map((p) => p.key)));
  });
});

import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { turnAlertStep, type TurnAlertSeen, type TurnAlertTable } from "./turnAlert.ts";

const ANN: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const EVE: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const T0 = 1_700_000_000_000;

function table(over: Partial<TurnAlertTable> = {}): TurnAlertTable {
  return {
    gameId: 7n,
    running: true,
    orderDrawn: true,
    round: 2,
    players: [ANN, BOB],
    current: BOB,
    forfeited: [],
    askAgain: null,
    deadlineMs: T0 + 300_000,
    nowMs: T0,
    ...over,
  };
}

/** Runs the steps in order as one page would, returning the cues raised. */
function run(me: Address | undefined, tables: TurnAlertTable[], seen?: TurnAlertSeen) {
  const cues: string[] = [];
  let state = seen;
  for (const t of tables) {
    const step = turnAlertStep(state, t, me);
    state = step.seen;
    if (step.cue) cues.push(`${step.cue.kind}:${step.cue.phase}`);
  }
  return { cues, seen: state };
}

describe("turnAlertStep", () => {
  it("fires once when the turn passes to me, however often the table is read", () => {
    const { cues } = run(ANN, [
      table(),
      table(),
      table({ current: ANN, round: 3, deadlineMs: T0 + 600_000 }),
      table({ current: ANN, round: 3, deadlineMs: T0 + 600_000, nowMs: T0 + 1_000 }),
      table({ current: ANN, round: 3, deadlineMs: T0 + 600_000, nowMs: T0 + 2_000 }),
    ]);
    expect(cues).toEqual(["turn:move"]);
  });

  it("fires again on my next turn, not while the others play", () => {
    const { cues } = run(ANN, [
      table(),
      table({ current: ANN, round: 3 }),
      table({ current: BOB, round: 3 }),
      table({ current: ANN, round: 4 }),
    ]);
    expect(cues).toEqual(["turn:move", "turn:move"]);
  });

  it("does not fire on a page's first look (a reload), even on my turn", () => {
    expect(run(ANN, [table({ current: ANN }), table({ current: ANN })]).cues).toEqual([]);
    // A reload is a fresh page: no seen-state, so again nothing.
    const before = run(ANN, [table(), table({ current: ANN })]);
    expect(before.cues).toEqual(["turn:move"]);
    expect(run(ANN, [table({ current: ANN })]).cues).toEqual([]);
  });

  it("never fires for a spectator or with no wallet", () => {
    const tables = [table(), table({ current: ANN, round: 3 }), table({ orderDrawn: false })];
    expect(run(EVE, tables).cues).toEqual([]);
    expect(run(undefined, tables).cues).toEqual([]);
  });

  it("fires for the order draw, which any seated player may make", () => {
    const lobby = table({ running: false, orderDrawn: false, current: null });
    const drawing = table({ orderDrawn: false, current: null, round: 1 });
    expect(run(ANN, [lobby, drawing, drawing]).cues).toEqual(["turn:draw"]);
    expect(run(BOB, [lobby, drawing]).cues).toEqual(["turn:draw"]);
  });

  it("fires for a roll that may be asked again, once per attempt, for every seated player", () => {
    const out = (attempts: number | null) =>
      table({ current: BOB, askAgain: attempts === null ? null : { attempts } });
    expect(run(ANN, [out(null), out(1), out(1), out(null), out(2)]).cues).toEqual([
      "turn:askAgain",
      "turn:askAgain",
    ]);
  });

  it("repeats once in the move's last 30 seconds", () => {
    const mine = (nowMs: number) => table({ current: ANN, round: 3, nowMs });
    const deadline = T0 + 300_000;
    const { cues } = run(ANN, [
      table(),
      mine(T0),
      mine(deadline - 31_000),
      mine(deadline - 30_000),
      mine(deadline - 20_000),
      mine(deadline - 1_000),
    ]);
    expect(cues).toEqual(["turn:move", "urgent:move"]);
  });

  it("does not repeat on a reload in the last 30 seconds, nor after time is up", () => {
    const deadline = T0 + 300_000;
    const late = table({ current: ANN, nowMs: deadline - 10_000 });
    expect(run(ANN, [late, late]).cues).toEqual([]);
    expect(run(ANN, [table(), table({ current: ANN, nowMs: deadline + 1 })]).cues).toEqual([]);
  });

  it("a turn that starts inside its last 30 seconds fires once, not twice", () => {
    const deadline = T0 + 300_000;
    const { cues } = run(ANN, [
      table(),
      table({ current: ANN, nowMs: deadline - 10_000 }),
      table({ current: ANN, nowMs: deadline - 9_000 }),
    ]);
    expect(cues).toEqual(["turn:move"]);
  });

  it("starts over without a sound when another account connects", () => {
    const { seen } = run(ANN, [table()]);
    expect(run(BOB, [table()], seen).cues).toEqual([]);
  });

  it("says nothing for a forfeited seat or a finished game", () => {
    expect(run(ANN, [table(), table({ current: ANN, forfeited: [ANN] })]).cues).toEqual([]);
    expect(run(ANN, [table(), table({ current: ANN, running: false })]).cues).toEqual([]);
  });
});

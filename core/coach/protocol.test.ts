import { IDBFactory } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { newSheet } from "../rules/sheet.ts";
import { createCoach, type CoachReply, type CoachRequest } from "./protocol.ts";
import { serialiseTable } from "./serialise.ts";
import { buildTable } from "./solver.ts";
import { loadStoredTable } from "./store.ts";

/** The worker's messages, driven in Node (rule set 2: its table builds in well under a second). */
function coach(indexedDB?: IDBFactory) {
  const replies: CoachReply[] = [];
  const handle = createCoach((reply) => replies.push(reply), { indexedDB });
  const ask = async (request: CoachRequest) => {
    await handle(request);
    return replies.filter((r) => r.id === request.id);
  };
  return { ask, replies };
}

describe("coach worker protocol", () => {
  it("builds a table with progress, then answers hints, actions and analyses", async () => {
    const { ask } = coach();
    const built = await ask({ id: 1, type: "build", ruleSet: 2 });
    expect(built.filter((r) => r.type === "progress").length).toBeGreaterThan(10);
    expect(built.at(-1)).toMatchObject({ type: "ready", ruleSet: 2, source: "built" });
    const sheet = newSheet(2);
    const [position] = await ask({ id: 2, type: "position", sheet });
    expect(position).toMatchObject({ type: "result" });
    expect((position as { result: number }).result.toFixed(4)).toBe("215.2221");
    const [keep] = await ask({
      id: 3,
      type: "adviseKeep",
      sheet,
      dice: [1, 2, 3, 4, 6],
      rollsUsed: 1,
    });
    expect((keep as { result: { kept: number[] }[] }).result[0].kept).toEqual([1, 2, 3, 4]);
    const [box] = await ask({ id: 4, type: "adviseBox", sheet, dice: [1, 2, 3, 4, 5] });
    expect((box as { result: { box: number }[] }).result[0].box).toBe(10);
    const [action] = await ask({
      id: 5,
      type: "action",
      sheet,
      dice: [1, 2, 3, 4, 5],
      rollsUsed: 1,
    });
    expect((action as { result: unknown }).result).toEqual({ action: "score", box: 10 });
    const [review] = await ask({
      id: 6,
      type: "analyse",
      game: {
        ruleSet: 2,
        players: [{ player: "a", turns: [{ rolls: [[1, 2, 3, 4, 5]], keepMasks: [], box: 0 }] }],
      },
    });
    const player = (review as { result: { players: { decisions: { loss: number }[] }[] } }).result
      .players[0];
    expect(player.decisions).toHaveLength(2);
    expect(player.decisions[1].loss).toBeGreaterThan(10);
  });

  it("says so when asked before a table is there, or given bytes that are not a table", async () => {
    const { ask } = coach();
    const [reply] = await ask({ id: 1, type: "position", sheet: newSheet(0) });
    expect(reply).toMatchObject({ type: "error", message: expect.stringContaining("no table") });
    const [bad] = await ask({ id: 2, type: "load", bytes: new Uint8Array(20) });
    expect(bad).toMatchObject({ type: "error", message: "Not a coach table." });
  });

  it("keeps a built table in IndexedDB and opens it from there the next time", async () => {
    const idb = new IDBFactory();
    const first = coach(idb);
    const opened = await first.ask({ id: 1, type: "open", ruleSet: 2 });
    expect(opened.at(-1)).toMatchObject({ type: "ready", source: "built" });
    expect(await loadStoredTable(idb, 2)).not.toBeNull();
    const second = coach(idb);
    const again = await second.ask({ id: 1, type: "open", ruleSet: 2 });
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ type: "ready", source: "stored" });
    expect((again[0] as { startValue: number }).startValue).toBeCloseTo(215.2221, 4);
  });

  it("loads shipped bytes and gives them back", async () => {
    const { ask } = coach();
    const bytes = serialiseTable(buildTable(2), 8);
    const [ready] = await ask({ id: 1, type: "load", bytes });
    expect(ready).toMatchObject({ type: "ready", ruleSet: 2, source: "loaded" });
    const [out] = await ask({ id: 2, type: "serialise", ruleSet: 2, width: 8 });
    expect(new Uint8Array((out as { bytes: ArrayBuffer }).bytes)).toEqual(bytes);
  });
});

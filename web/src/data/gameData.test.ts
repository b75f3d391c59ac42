import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { noteWatchedBlock, type Hall } from "@/chain/hall.ts";
import { HALL } from "@dicehall/core/test/testLogs.ts";
import { SNAPSHOT_INTERVAL_MS, snapshotInterval, type GameSnapshot } from "./gameData.ts";

const SCOPE = { chainId: 31337, hall: HALL };
const hall = { chainId: 31337, scope: SCOPE } as Hall;
const snapshot = (syncedTo: bigint) => ({ syncedTo, logs: [] }) as unknown as GameSnapshot;

describe("snapshotInterval", () => {
  it("re-reads at the watcher's pace while the table is behind a block with a game event", () => {
    const queryClient = new QueryClient();
    expect(snapshotInterval(queryClient, hall, snapshot(8n))).toBe(SNAPSHOT_INTERVAL_MS);
    // The watcher saw a move in block 9; a node behind it answered the table's read up to 8.
    noteWatchedBlock(queryClient, SCOPE, 9n);
    expect(snapshotInterval(queryClient, hall, snapshot(8n))).toBe(250);
    expect(snapshotInterval(queryClient, hall, snapshot(9n))).toBe(SNAPSHOT_INTERVAL_MS);
    expect(snapshotInterval(queryClient, null, snapshot(8n))).toBe(SNAPSHOT_INTERVAL_MS);
  });
});

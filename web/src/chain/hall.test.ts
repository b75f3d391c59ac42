import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { noteWatchedBlock, type WatchedBlock } from "./hall.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { HALL } from "@dicehall/core/test/testLogs.ts";

const SCOPE = { chainId: 31337, hall: HALL };

describe("noteWatchedBlock", () => {
  it("keeps the latest block with game events and when it was seen; an older one changes nothing", () => {
    const client = new QueryClient();
    const read = () => client.getQueryData<WatchedBlock>(queryKeys.watchedBlock(SCOPE));
    expect(read()).toBeUndefined();
    noteWatchedBlock(client, SCOPE, 12n, 1_000);
    expect(read()).toEqual({ block: 12n, seenAt: 1_000 });
    noteWatchedBlock(client, SCOPE, 11n, 2_000);
    noteWatchedBlock(client, SCOPE, 12n, 3_000);
    expect(read()).toEqual({ block: 12n, seenAt: 1_000 });
    noteWatchedBlock(client, SCOPE, 15n, 4_000);
    expect(read()).toEqual({ block: 15n, seenAt: 4_000 });
    // Another hall's blocks are its own.
    expect(
      client.getQueryData(queryKeys.watchedBlock({ chainId: 1, hall: SCOPE.hall })),
    ).toBeUndefined();
  });
});

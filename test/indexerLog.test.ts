import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { quietIdleChain } from "../scripts/lib/indexer.ts";

// The dev stack shows the indexer's warnings; on an idle local chain Ponder repeats one every 30 s.

describe("the indexer's lines in the dev stack's log", () => {
  it("say “No new block received” once, and every other line as it comes", () => {
    const shown = quietIdleChain();
    const idle =
      "12:00:30 PM WARN  realtime   No new block received within expected time chain=hardhat";
    const lines = [idle, "12:00:45 PM WARN  indexing   something else", idle, idle];
    const out = lines.map(shown).filter((l) => l !== null);
    assert.equal(out.length, 2);
    assert.match(out[0]!, /^12:00:30 PM WARN {2}realtime {3}No new block received.*said once/);
    assert.equal(out[1], "12:00:45 PM WARN  indexing   something else");
  });
});

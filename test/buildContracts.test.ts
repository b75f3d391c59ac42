import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { TRANSIENT_STORAGE_NOTE, buildContracts } from "../scripts/lib/buildContracts.ts";

// `npm run dev`'s first build (issue 32): it used to say only "building contracts" for about 80 s,
// and the compiler's transient-storage warnings looked alarming.

describe("npm run dev's contract build", () => {
  it("says how long a first build takes, that it is still going, and what the warnings are", async () => {
    const lines: string[] = [];
    let clock = 0;
    await buildContracts({
      build: async () => {
        for (let i = 0; i < 3; i++) {
          await new Promise((resolve) => setTimeout(resolve, 30));
          clock += 15_000;
        }
      },
      built: false,
      say: (line) => lines.push(line),
      intervalMs: 25,
      now: () => clock,
    });
    assert.match(lines[0], /^building contracts for the first time: about a minute and a half/);
    assert.equal(lines[1], TRANSIENT_STORAGE_NOTE);
    assert.match(lines[1], /OpenZeppelin's TransientSlot, the hall's reentrancy guard/);
    const still = lines.filter((l) => /^still compiling \(\d+ s\)…$/.test(l));
    assert.ok(still.length >= 2, `no "still compiling" lines: ${lines.join(" | ")}`);
    assert.equal(lines.at(-1), "contracts built in 45 s");
  });

  it("says a build with nothing to do takes seconds, and stops its clock when the build fails", async () => {
    const lines: string[] = [];
    await assert.rejects(
      buildContracts({
        build: () => Promise.reject(new Error("solc failed")),
        built: true,
        say: (line) => lines.push(line),
        intervalMs: 5,
      }),
      /solc failed/,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.match(lines[0], /^building contracts: seconds when nothing changed/);
    assert.equal(lines.filter((l) => l.startsWith("still compiling")).length, 0);
  });
});

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

// The rule of the house (.dependency-cruiser.cjs, run by `npm run lint`): each case plants one
// file in the room it names, with one import, and runs the same check on it. Only the forbidden
// arrows fail, each by its own rule.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

interface Check {
  failed: boolean;
  output: string;
}

async function plantAndCheck(path: string, source: string): Promise<Check> {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  try {
    return await new Promise<Check>((resolve) => {
      execFile(
        process.execPath,
        [depcruise, "--config", ".dependency-cruiser.cjs", "--output-type", "err", path],
        { cwd: root },
        (error, stdout, stderr) =>
          resolve({ failed: error !== null, output: stdout + stderr + (error?.message ?? "") }),
      );
    });
  } finally {
    rmSync(file, { force: true });
  }
}

const planted = (room: string) => `${room}/planted-${process.pid}.ts`;

describe("the layout's import rule", { timeout: 120_000 }, () => {
  const forbidden: [string, string, string, string][] = [
    [
      "core imports the app",
      planted("core/game"),
      `export { useHall } from "../../web/src/chain/hall.ts";\n`,
      "core-imports-nothing-of-ours",
    ],
    [
      "core imports React",
      planted("core/game"),
      `export { useState } from "react";\n`,
      "core-has-no-screen-or-connection",
    ],
    [
      "a shared room imports a feature",
      planted("web/src/ui"),
      `export { PlayPanel } from "@/features/table/components/PlayPanel.tsx";\n`,
      "shared-rooms-never-import-features",
    ],
    [
      "a feature imports another feature",
      planted("web/src/features/home/components"),
      `export { RulesPage } from "@/features/rules/components/RulesPage.tsx";\n`,
      "no-imports-across-features",
    ],
    [
      "the indexer imports the app",
      planted("indexer/src"),
      `export { formatAmount } from "../../web/src/chain/tokens.ts";\n`,
      "indexer-and-scripts-use-only-core",
    ],
    [
      "a script other than the index's seeder imports the indexer",
      planted("scripts/lib"),
      `export { foldFinalAnalyses } from "../../indexer/src/api/analysis/analyser.ts";\n`,
      "scripts-reach-the-indexer-only-to-seed-it",
    ],
    [
      "a script imports core by a relative path",
      planted("scripts"),
      `export { foldLeaderboard } from "../core/leaderboard/leaderboard.ts";\n`,
      "core-by-its-name",
    ],
    [
      "a protocol test imports the app",
      planted("test"),
      `export { gasLimitFor } from "../web/src/chain/tx.ts";\n`,
      "nothing-outside-web-imports-web",
    ],
    [
      "a module reaches itself through its imports",
      planted("web/src/chain"),
      `export type { Hall } from "./planted-${process.pid}.ts";\nexport const loop = 1;\n`,
      "no-circular",
    ],
  ];

  for (const [what, path, source, rule] of forbidden) {
    it(`fails when ${what}`, async () => {
      const check = await plantAndCheck(path, source);
      assert.ok(check.failed, `the check passed:\n${check.output}`);
      assert.match(check.output, new RegExp(`error ${rule}:`));
    });
  }

  it("passes the allowed arrows: a feature on the shared rooms and core, the indexer on core", async () => {
    const feature = await plantAndCheck(
      planted("web/src/features/home/components"),
      `export { useHall } from "@/chain/hall.ts";\n` +
        `export { foldLeaderboard } from "@dicehall/core/leaderboard/leaderboard.ts";\n`,
    );
    assert.ok(!feature.failed, feature.output);
    const indexer = await plantAndCheck(
      planted("indexer/src"),
      `export { foldLeaderboard } from "@dicehall/core/leaderboard/leaderboard.ts";\n`,
    );
    assert.ok(!indexer.failed, indexer.output);
  });
});

// Scenario 7: screenshots of the lobby list, the table mid-game, the end screen, History, the
// coach's analysis of a game and the leaderboard,
// saved under e2e-artifacts/screenshots/ (git-ignored) for people to look at.
import assert from "node:assert/strict";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

import { fixtures, type Fixtures } from "../lib/fixtures.ts";
import { SCREENSHOTS_DIR, e2e, type Suite } from "../lib/harness.ts";
import { RESULT_HEADLINE, openAs, waitForRoll } from "../lib/ui.ts";

const SHOTS: {
  file: string;
  path: (f: Fixtures) => string;
  ready: (p: Page, f: Fixtures) => Promise<void>;
}[] = [
  {
    file: "lobby-list.png",
    path: () => "/games",
    ready: async (p, f) => {
      await p.getByRole("list", { name: "Open tables" }).getByText(`#${f.lobby}`).waitFor();
      await p.getByRole("list", { name: "My games" }).waitFor();
    },
  },
  {
    file: "table-mid-game.png",
    path: (f) => `/games/${f.midGame}`,
    ready: async (p) => {
      await waitForRoll(p, 1);
    },
  },
  {
    file: "end-screen.png",
    path: (f) => `/games/${f.finished}`,
    ready: async (p) => {
      await p.getByRole("heading", { level: 2, name: RESULT_HEADLINE }).waitFor();
      await p.getByRole("table", { name: "Score sheets" }).waitFor();
    },
  },
  {
    file: "history.png",
    path: () => "/history",
    ready: async (p) => {
      await p
        .getByRole("region", { name: "Your finished games" })
        .locator("tbody tr")
        .first()
        .waitFor();
    },
  },
  {
    file: "analysis-of-a-game.png",
    path: (f) => `/games/${f.finished}/analysis`,
    ready: async (p) => {
      await p.getByTestId("coach-chart").waitFor({ timeout: 60_000 });
    },
  },
  {
    file: "leaderboard.png",
    path: () => "/leaderboard",
    ready: async (p) => {
      await p.getByText(/^\d+ players?/).waitFor();
    },
  },
];

export function screenshotScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "screenshots: lobby list, table mid-game, end screen, history, analysis, leaderboard",
    { timeout: 150_000 },
    async (session) => {
      const f = await fixtures(session.stack);
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });
      const tracked = await openAs(session, "viewer (account 0)", f.viewerIndex, "/");
      for (const shot of SHOTS) {
        await session.goto(tracked, shot.path(f));
        await shot.ready(tracked.page, f);
        const file = join(SCREENSHOTS_DIR, shot.file);
        const started = Date.now();
        await tracked.page.screenshot({ path: file, fullPage: true, animations: "disabled" });
        const stat = statSync(file);
        assert.ok(
          stat.size > 10_000 && stat.mtimeMs >= started - 1_000,
          `${shot.file} was written`,
        );
      }
    },
  );
}

// Scenario 7: screenshots of the lobby list, the table mid-game, the end screen, History, the
// coach's analysis of a game and the leaderboard,
// saved under e2e-artifacts/screenshots/ (git-ignored) for people to look at. The README's two
// pictures of a live table (docs/img/, committed) are taken here too, on every run, so the front
// door shows the app as it is today rather than as it was when someone last remembered.
import assert from "node:assert/strict";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

import { ROOT } from "../../../scripts/lib/deployments.ts";
import { fixtures, type Fixtures } from "../lib/fixtures.ts";
import {
  SCREENSHOTS_DIR,
  TrackedPage,
  e2e,
  waitForAppOnNavigation,
  type Session,
  type Suite,
} from "../lib/harness.ts";
import { PAGE_TIMEOUT_MS } from "../lib/timing.ts";
import { RESULT_HEADLINE, connectDevAccount, openAs, waitForRoll } from "../lib/ui.ts";

/** Where the README's pictures live (committed: a git diff shows when the table's look changed). */
export const DOCS_IMG_DIR = join(ROOT, "docs", "img");
/** The README links these; a page heavier than this would make the repository's front door slow. */
const MAX_DOCS_IMAGE_BYTES = 300_000;

/**
 * The README's devices: a laptop screen, and a phone as its owner holds it (touch, a coarse
 * pointer). The phone is drawn at 1.5× rather than the 2–3× of a real one: sharp enough to read
 * on a README, and the PNG stays under the size bound.
 */
const DEVICES = [
  {
    file: "table-desktop.png",
    label: "README desktop 1280x800",
    context: { viewport: { width: 1280, height: 800 } },
  },
  {
    file: "table-phone.png",
    label: "README phone 390x844",
    context: {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1.5,
    },
  },
] as const;

/** A page in a context of the device's own, as Session.newPage makes one (nothing leaves the host). */
async function devicePage(
  session: Session,
  device: (typeof DEVICES)[number],
): Promise<TrackedPage> {
  const context = await session.suite.browser.newContext({
    ...device.context,
    locale: "en-GB",
    timezoneId: "UTC",
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
  const page = await context.newPage();
  waitForAppOnNavigation(page);
  const tracked = new TrackedPage(device.label, context, page);
  await context.route(
    (url) =>
      !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
      url.protocol.startsWith("http"),
    async (route) => {
      tracked.blocked.push(route.request().url());
      await route.abort("blockedbyclient");
    },
  );
  // Registered with the session, so it is saved on failure and closed after the test.
  session.pages.push(tracked);
  return tracked;
}

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

  e2e(
    suite,
    "screenshots: the README's live table on a desktop and on a phone (docs/img/)",
    { timeout: 120_000 },
    async (session) => {
      const f = await fixtures(session.stack);
      mkdirSync(DOCS_IMG_DIR, { recursive: true });
      for (const device of DEVICES) {
        const tracked = await devicePage(session, device);
        const page = tracked.page;
        await session.goto(tracked, "/");
        await connectDevAccount(page, f.viewerIndex, f.viewer);
        await session.goto(tracked, `/games/${f.midGame}`);
        // The viewer's turn with the dice of one roll on the table: the table as a player sees it.
        await waitForRoll(page, 1);
        await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
        const file = join(DOCS_IMG_DIR, device.file);
        const started = Date.now();
        // The first screen only: what a visitor sees without scrolling.
        await page.screenshot({ path: file, animations: "disabled" });
        const stat = statSync(file);
        assert.ok(
          stat.size > 10_000 && stat.mtimeMs >= started - 1_000,
          `docs/img/${device.file} was written`,
        );
        assert.ok(
          stat.size <= MAX_DOCS_IMAGE_BYTES,
          `docs/img/${device.file} is ${stat.size} bytes, over ${MAX_DOCS_IMAGE_BYTES}`,
        );
      }
    },
  );
}

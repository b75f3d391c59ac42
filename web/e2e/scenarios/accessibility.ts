// Scenario 6: axe-core on every page (and the game table mid-game, with its key help open too).
// A serious or critical violation fails the page's test with the list; every finding, whatever its
// impact, is written to e2e-artifacts/axe/<page>.json.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

import { BLOCKING_IMPACTS, describeViolations, runAxe } from "../lib/axe.ts";
import { eventually } from "../lib/chain.ts";
import { fixtures, type Fixtures } from "../lib/fixtures.ts";
import { ARTIFACTS_DIR, e2e, slug, type Session, type Suite } from "../lib/harness.ts";
import {
  RESULT_HEADLINE,
  legalBoxes,
  openAs,
  rollButton,
  settledDice,
  waitForRoll,
} from "../lib/ui.ts";

export const AXE_DIR = join(ARTIFACTS_DIR, "axe");

interface Audit {
  name: string;
  /** Where to go; `f` holds the games made for the audit. */
  path: (f: Fixtures) => string;
  /** Connect as the fixtures' viewer first (default true). */
  connected?: boolean;
  /** Waits for the state worth auditing (and puts the page in it). */
  ready: (page: Page, f: Fixtures) => Promise<void>;
}

const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole("heading", { level: 1, name }).waitFor();

/** No "Reading …" / "Loading…" placeholder left on the page. */
async function settled(page: Page): Promise<void> {
  await eventually("the page to finish loading", async () =>
    (await page.getByText(/^(Reading |Loading…|Asking the local node)/).count()) === 0
      ? true
      : undefined,
  );
}

const RULE_SETS = ["yahtzee", "yatzy", "yazty", "extended"];

const AUDITS: Audit[] = [
  { name: "home", path: () => "/", ready: (p) => h1(p, "Dicehall") },
  {
    name: "home, connect dialog",
    path: () => "/",
    connected: false,
    ready: async (p) => {
      await h1(p, "Dicehall");
      await p.getByRole("button", { name: "Connect wallet" }).click();
      await p
        .getByRole("dialog", { name: "Connect a wallet" })
        .getByRole("list", { name: "Local node accounts" })
        .waitFor();
    },
  },
  {
    name: "lobby list",
    path: () => "/games",
    ready: async (p, f) => {
      await h1(p, "Tables");
      await p.getByRole("list", { name: "Open tables" }).getByText(`#${f.lobby}`).waitFor();
      await p.getByRole("list", { name: "My games" }).waitFor();
    },
  },
  {
    name: "create a table",
    path: () => "/games/new",
    ready: async (p) => {
      await h1(p, "Open a table");
      await p.getByRole("button", { name: "Open the table" }).waitFor();
    },
  },
  {
    name: "an open lobby",
    path: (f) => `/games/${f.lobby}`,
    ready: async (p) => {
      await p.getByRole("heading", { name: "Waiting for players" }).waitFor();
      await p.getByRole("button", { name: /^Join for / }).waitFor();
    },
  },
  {
    name: "game table mid-game",
    path: (f) => `/games/${f.midGame}`,
    ready: async (p) => {
      await waitForRoll(p, 1);
    },
  },
  {
    name: "game table mid-game, key help open",
    path: (f) => `/games/${f.midGame}`,
    ready: async (p) => {
      await waitForRoll(p, 1);
      await p.keyboard.press("?");
      await p.getByRole("dialog", { name: "Keys at the table" }).waitFor();
    },
  },
  {
    name: "game table, end screen",
    path: (f) => `/games/${f.finished}`,
    ready: async (p) => {
      await p.getByRole("heading", { level: 2, name: RESULT_HEADLINE }).waitFor();
    },
  },
  {
    name: "leaderboard",
    path: () => "/leaderboard",
    ready: async (p) => {
      await h1(p, "Leaderboard");
      await p.getByText(/^\d+ players?/).waitFor();
      // Read from the indexer the stack runs, not from a scan of the chain.
      await p.getByText(/from the hall's game index/).waitFor();
    },
  },
  {
    name: "history",
    path: () => "/history",
    ready: async (p, f) => {
      await h1(p, "History");
      await p
        .getByRole("link", { name: `Replay of game ${f.finished}` })
        .first()
        .waitFor();
    },
  },
  {
    name: "replay",
    path: (f) => `/games/${f.finished}/replay`,
    ready: async (p, f) => {
      await h1(p, new RegExp(`^Replay of game #${f.finished}`));
      await p.getByRole("table", { name: "Score sheets" }).waitFor();
    },
  },
  {
    name: "rules, all rule sets",
    path: () => "/rules",
    ready: (p) => p.getByRole("heading", { level: 1 }).waitFor(),
  },
  ...RULE_SETS.map((key): Audit => ({
    name: `rules, ${key}`,
    path: () => `/rules/${key}`,
    ready: (p) => p.getByRole("heading", { level: 1 }).waitFor(),
  })),
  {
    name: "practice, setup",
    path: () => "/practice",
    connected: false,
    ready: async (p) => {
      await h1(p, "Practice");
      await p.getByRole("button", { name: "Start practising" }).waitFor();
    },
  },
  {
    name: "practice, mid-game",
    path: () => "/practice",
    connected: false,
    ready: async (p) => {
      await h1(p, "Practice");
      await p.getByRole("radio", { name: "2 players" }).check();
      await p.getByRole("button", { name: "Start practising" }).click();
      await rollButton(p).click();
      await eventually("practice dice", async () =>
        (await legalBoxes(p).count()) > 0 ? settledDice(p) : undefined,
      );
    },
  },
];

async function audit(session: Session, page: Page, name: string): Promise<void> {
  await settled(page);
  const { violations, incomplete } = await runAxe(page);
  mkdirSync(AXE_DIR, { recursive: true });
  writeFileSync(
    join(AXE_DIR, `${slug(name)}.json`),
    JSON.stringify({ page: name, url: page.url(), violations, incomplete }, null, 2) + "\n",
  );
  const blocking = violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
  const other = violations.filter((v) => !BLOCKING_IMPACTS.has(v.impact ?? ""));
  if (other.length > 0) {
    session.suite.log(
      `axe, ${name}: not blocking: ${other.map((v) => `${v.impact} ${v.id}`).join(", ")}`,
    );
  }
  assert.equal(
    blocking.length,
    0,
    `axe found serious or critical problems on "${name}" (${page.url()}):\n    ${describeViolations(blocking)}`,
  );
}

export function accessibilityScenarios(suite: () => Suite): void {
  for (const item of AUDITS) {
    e2e(suite, `axe: ${item.name}`, { timeout: 150_000 }, async (session) => {
      const f = await fixtures(session.stack);
      const tracked =
        item.connected === false
          ? await session.newPage(item.name)
          : await openAs(session, item.name, f.viewerIndex, "/");
      await session.goto(tracked, item.path(f));
      await item.ready(tracked.page, f);
      await audit(session, tracked.page, item.name);
    });
  }
}

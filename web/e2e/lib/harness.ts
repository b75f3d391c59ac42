// The browser side of the suite: one Chromium for the whole run, one context per player (its own
// sessionStorage, so its own dev account), console capture on every page, and a wrapper around each
// test that saves a screenshot and the console of every open page when the test fails, and fails a
// test whose pages logged an error.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

import { ROOT } from "../../../scripts/lib/deployments.ts";
import { describeRefusals } from "../../../scripts/lib/nodeRefusals.ts";
import { startE2EStack, type E2EStack } from "./stack.ts";
import { ARTIFACT_TIMEOUT_MS, PAGE_TIMEOUT_MS, STACK_START_TIMEOUT_MS, scaled } from "./timing.ts";

export const ARTIFACTS_DIR = join(ROOT, "e2e-artifacts");
export const SCREENSHOTS_DIR = join(ARTIFACTS_DIR, "screenshots");
export const FAILURES_DIR = join(ARTIFACTS_DIR, "failures");

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM}: install it (Debian: apt-get install -y chromium) ` +
        "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

/** Everything the scenarios share: the running system and the browser. */
export interface Suite {
  stack: E2EStack;
  browser: Browser;
  log: (line: string) => void;
}

interface ConsoleLine {
  at: number;
  type: string;
  text: string;
  location: string;
}

/** A page under watch: its console, its uncaught errors, and requests the app made off this host. */
/** Waits for the app's code to have taken over the page (App.tsx sets the mark once mounted). */
export async function appRunning(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.app === "running", null, {
    timeout: 30_000,
  });
}

/**
 * A page arrives drawn (the build's prerender) before its code runs: a form filled or a button
 * pressed before then would be lost. Every navigation a test makes on this page (goto, reload)
 * waits for the app to run (App marks <html data-app="running">), as a player waits for a page to
 * answer.
 */
export function waitForAppOnNavigation(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    await appRunning(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page["reload"]>) => {
    const response = await reload(...args);
    await appRunning(page);
    return response;
  };
}

export class TrackedPage {
  readonly console: ConsoleLine[] = [];
  readonly pageErrors: string[] = [];
  readonly blocked: string[] = [];
  /** Console errors a scenario causes on purpose (e.g. a service it makes refuse a request). */
  readonly expectedErrors: RegExp[] = [];
  constructor(
    readonly label: string,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on("console", (msg) => {
      const { url, lineNumber } = msg.location();
      this.console.push({
        at: Date.now(),
        type: msg.type(),
        text: msg.text(),
        location: url ? `${url}:${lineNumber}` : "",
      });
    });
    page.on("pageerror", (err) => this.pageErrors.push(err.stack ?? err.message));
  }

  /** Console errors and uncaught exceptions, minus the allow-listed network noise. */
  errors(): string[] {
    const consoleErrors = this.console
      .filter((line) => line.type === "error" && !isBenign(line, this.blocked))
      .filter((line) => !this.expectedErrors.some((e) => e.test(`${line.text} ${line.location}`)))
      .map((line) => `console.error: ${line.text}${line.location ? ` (${line.location})` : ""}`);
    return [...consoleErrors, ...this.pageErrors.map((e) => `uncaught: ${e}`)];
  }

  consoleText(): string {
    const lines = this.console.map(
      (l) =>
        `${new Date(l.at).toISOString()} [${l.type}] ${l.text}${l.location ? `  @ ${l.location}` : ""}`,
    );
    const errors = this.pageErrors.map((e) => `[pageerror] ${e}`);
    const blocked = this.blocked.map((u) => `[blocked request] ${u}`);
    return [...lines, ...errors, ...blocked].join("\n") + "\n";
  }
}

/**
 * The only console errors tolerated: the browser's own "Failed to load resource" line for a
 * request to another host that the suite blocked on purpose (the test machine has no internet, and
 * the app must not depend on it). Every other console error fails the test.
 */
function isBenign(line: ConsoleLine, blocked: string[]): boolean {
  if (!/^Failed to load resource: net::ERR_(FAILED|ABORTED|BLOCKED_BY_CLIENT)/.test(line.text)) {
    return false;
  }
  return blocked.some((url) => line.location.startsWith(url) || line.text.includes(url));
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** One test's pages: opened through it, closed (and saved on failure) by the `e2e` wrapper. */
export class Session {
  readonly pages: TrackedPage[] = [];
  constructor(
    readonly suite: Suite,
    readonly testName: string,
  ) {}

  get stack(): E2EStack {
    return this.suite.stack;
  }

  /** A fresh browser context (a new "tab" with its own session storage) and its page. */
  async newPage(
    label: string,
    options: { reducedMotion?: "reduce" | "no-preference" } = {},
  ): Promise<TrackedPage> {
    const context = await this.suite.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: "en-GB",
      timezoneId: "UTC",
      reducedMotion: options.reducedMotion ?? "no-preference",
    });
    // Every Playwright action and wait, unless it says otherwise, is bounded by this.
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
    const page = await context.newPage();
    const tracked = new TrackedPage(label, context, page);
    // Nothing leaves this machine: requests to other hosts are refused and listed.
    await context.route(
      (url) => !LOCAL_HOSTS.has(url.hostname) && url.protocol.startsWith("http"),
      async (route) => {
        tracked.blocked.push(route.request().url());
        await route.abort("blockedbyclient");
      },
    );
    waitForAppOnNavigation(page);
    this.pages.push(tracked);
    return tracked;
  }

  async goto(tracked: TrackedPage, path: string): Promise<void> {
    await tracked.page.goto(new URL(path, this.stack.webUrl).toString());
  }

  /**
   * The error (with the URL of every page), and per page its console, URL, screenshot and
   * accessibility tree, in e2e-artifacts/failures/<test>/. Written before the pages close, so the
   * screenshot shows the state the test failed in; each piece is saved on its own, so a page that
   * hangs still leaves its console and URL.
   */
  async saveFailure(error: unknown): Promise<string> {
    const dir = join(FAILURES_DIR, slug(this.testName));
    mkdirSync(dir, { recursive: true });
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const urls = this.pages.map(
      (p) => `  ${p.label}: ${p.page.isClosed() ? "(closed)" : p.page.url()}`,
    );
    writeFileSync(
      join(dir, "error.txt"),
      `${this.testName}\nfailed at ${new Date().toISOString()}\n\n${stack}\n\npages:\n${urls.join("\n")}\n`,
    );
    for (const tracked of this.pages) {
      const base = join(dir, slug(tracked.label));
      writeFileSync(`${base}.console.log`, tracked.consoleText());
      writeFileSync(`${base}.url.txt`, tracked.page.url() + "\n");
      if (tracked.page.isClosed()) continue;
      try {
        await tracked.page.screenshot({
          path: `${base}.png`,
          fullPage: true,
          timeout: ARTIFACT_TIMEOUT_MS,
        });
      } catch (err) {
        writeFileSync(`${base}.screenshot-failed.txt`, String(err) + "\n");
      }
      try {
        const tree = await tracked.page
          .locator("body")
          .ariaSnapshot({ timeout: ARTIFACT_TIMEOUT_MS });
        writeFileSync(`${base}.aria.yml`, tree + "\n");
      } catch (err) {
        writeFileSync(`${base}.aria-failed.txt`, String(err) + "\n");
      }
    }
    return dir;
  }

  assertNoConsoleErrors(): void {
    const problems = this.pages.flatMap((p) => p.errors().map((e) => `[${p.label}] ${e}`));
    if (problems.length > 0) {
      throw new Error(`The page logged errors:\n  ${problems.join("\n  ")}`);
    }
  }

  blockedRequests(): string[] {
    return this.pages.flatMap((p) => p.blocked.map((u) => `[${p.label}] ${u}`));
  }

  async close(): Promise<void> {
    for (const tracked of this.pages.splice(0)) {
      await tracked.context.close().catch(() => {});
    }
  }
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 80) || "test"
  );
}

export interface Timing {
  name: string;
  ms: number;
  ok: boolean;
}
export const timings: Timing[] = [];

/**
 * A test with a browser session. On failure the screenshot, URL and console of each of its pages go
 * to e2e-artifacts/failures/<test name>/ before the error is rethrown; a page that logged an error
 * fails the test even when everything else passed. `timeout` is the test's budget on a loaded
 * 2-CPU machine, scaled by E2E_TIMEOUT_SCALE.
 */
/** How many of the node's refusals (the latest) a failed test's error lists. */
const MAX_REFUSALS_SHOWN = 12;

export function e2e(
  suite: () => Suite,
  name: string,
  options: { timeout: number },
  body: (session: Session) => Promise<void>,
): void {
  const timeout = scaled(options.timeout);
  // The runner's own timeout fires later than ours, so a test that hangs still leaves its artifacts.
  it(name, { timeout: timeout + 2 * ARTIFACT_TIMEOUT_MS + 30_000 }, async (t) => {
    const started = Date.now();
    rmSync(join(FAILURES_DIR, slug(name)), { recursive: true, force: true });
    const session = new Session(suite(), name);
    let ok = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `"${name}" did not finish within ${timeout / 1000} s (E2E_TIMEOUT_SCALE scales this)`,
            ),
          ),
        timeout,
      );
    });
    try {
      await Promise.race([body(session), timedOut]);
      session.assertNoConsoleErrors();
      ok = true;
    } catch (err) {
      // What the node refused during the test goes into the error itself: a CI log shows the
      // error, and a transaction that never landed is explained there.
      const refused = describeRefusals(
        session.stack.chain.nodeRefusals.since(started).slice(-MAX_REFUSALS_SHOWN),
        started,
      );
      if (refused.length > 0 && err instanceof Error) {
        err.message += `\n  The node refused, during this test (latest ${MAX_REFUSALS_SHOWN} at most):\n    ${refused.join("\n    ")}`;
      }
      const dir = await session.saveFailure(err).catch(() => "(could not save)");
      t.diagnostic(`failure artifacts: ${dir}`);
      throw err;
    } finally {
      clearTimeout(timer);
      const blocked = session.blockedRequests();
      if (blocked.length > 0)
        t.diagnostic(`requests to other hosts, blocked: ${blocked.join(", ")}`);
      await session.close();
      const ms = Date.now() - started;
      timings.push({ name, ms, ok });
      t.diagnostic(`took ${(ms / 1000).toFixed(1)} s`);
    }
  });
}

// ------------------------------------------------------------------ the suite's start and log

/**
 * The suite's log: every line is kept (a failure writes them out), and printed as it comes when
 * E2E_VERBOSE=1.
 */
export function suiteLog(verbose = process.env.E2E_VERBOSE === "1") {
  const started = Date.now();
  const lines: string[] = [];
  const log = (line: string) => {
    const stamped = `[e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`;
    lines.push(stamped);
    if (verbose) console.log(stamped);
  };
  return { log, lines, started };
}

/** How long the `before` hook may take: the stack's start, then Chromium's. */
export const SUITE_START_TIMEOUT_MS = STACK_START_TIMEOUT_MS + scaled(60_000);

/**
 * The system and the browser, for the suite's `before` hook. Old failure artifacts are cleared
 * first. If the start fails, its error (which says which step failed, and after how long) and the
 * log so far are written to e2e-artifacts/failures/suite-start/ before it is rethrown.
 */
export async function startSuite(log: (line: string) => void, logLines: string[]): Promise<Suite> {
  rmSync(FAILURES_DIR, { recursive: true, force: true });
  let stack: E2EStack | undefined;
  try {
    stack = await startE2EStack(log);
    log(`stack up: web ${stack.webUrl} (${stack.webMode}), chain ${stack.rpcUrl}`);
    let browser: Browser;
    try {
      browser = await launchBrowser();
    } catch (err) {
      throw new Error(`The system started, but Chromium did not: ${(err as Error).message}`, {
        cause: err,
      });
    }
    return { stack, browser, log };
  } catch (err) {
    await stack?.stop();
    const dir = join(FAILURES_DIR, "suite-start");
    mkdirSync(dir, { recursive: true });
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    writeFileSync(join(dir, "error.txt"), text + "\n");
    writeFileSync(join(dir, "log.txt"), logLines.join("\n") + "\n");
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${message}\n(error and log: ${dir})`, { cause: err });
  }
}

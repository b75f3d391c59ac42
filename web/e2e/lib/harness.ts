// The browser side of the suite: one Chromium for the whole run, one context per player (its own
// sessionStorage, so its own dev account), console capture on every page, and a wrapper around each
// test that saves a screenshot and the console of every open page when the test fails, and fails a
// test whose pages logged an error.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

import { ROOT } from "../../../scripts/lib/deployments.ts";
import type { E2EStack } from "./stack.ts";

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
export class TrackedPage {
  readonly console: ConsoleLine[] = [];
  readonly pageErrors: string[] = [];
  readonly blocked: string[] = [];
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
    context.setDefaultTimeout(20_000);
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
    this.pages.push(tracked);
    return tracked;
  }

  async goto(tracked: TrackedPage, path: string): Promise<void> {
    await tracked.page.goto(new URL(path, this.stack.webUrl).toString());
  }

  async saveFailure(error: unknown): Promise<string> {
    const dir = join(FAILURES_DIR, slug(this.testName));
    mkdirSync(dir, { recursive: true });
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeFileSync(join(dir, "error.txt"), stack + "\n");
    for (const tracked of this.pages) {
      const base = join(dir, slug(tracked.label));
      writeFileSync(`${base}.console.log`, tracked.consoleText());
      try {
        writeFileSync(`${base}.url.txt`, tracked.page.url() + "\n");
        await tracked.page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 10_000 });
      } catch (err) {
        writeFileSync(`${base}.screenshot-failed.txt`, String(err) + "\n");
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
 * fails the test even when everything else passed.
 */
export function e2e(
  suite: () => Suite,
  name: string,
  options: { timeout: number },
  body: (session: Session) => Promise<void>,
): void {
  // The runner's own timeout fires later than ours, so a test that hangs still leaves its artifacts.
  it(name, { timeout: options.timeout + 30_000 }, async (t) => {
    const started = Date.now();
    rmSync(join(FAILURES_DIR, slug(name)), { recursive: true, force: true });
    const session = new Session(suite(), name);
    let ok = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`"${name}" did not finish within ${options.timeout / 1000} s`)),
        options.timeout,
      );
    });
    try {
      await Promise.race([body(session), timedOut]);
      session.assertNoConsoleErrors();
      ok = true;
    } catch (err) {
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

// What a player does and sees, in the words the page uses: roles, labels and visible text.
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import type { Address } from "viem";

import { eventually, shortAddress, turnKey } from "./chain.ts";
import type { Session, TrackedPage } from "./harness.ts";
import type { E2EStack } from "./stack.ts";
import { MOVE_TIMEOUT_MS, PAGE_TIMEOUT_MS } from "./timing.ts";

export { MOVE_TIMEOUT_MS, PAGE_TIMEOUT_MS };

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Opens `path` in a new tab connected as dev account #index through the account picker. */
export async function openAs(
  session: Session,
  label: string,
  index: number,
  path = "/games",
): Promise<TrackedPage> {
  const tracked = await session.newPage(label);
  await session.goto(tracked, path);
  await connectDevAccount(tracked.page, index, session.stack.accounts[index]);
  return tracked;
}

/**
 * Connects through the header's account picker. Each step waits for what the page shows next (the
 * button, the node's account list, the dialog closing, the header naming the account); a step that
 * never comes fails with what the header and the dialog show instead.
 */
export async function connectDevAccount(page: Page, index: number, address: Address) {
  const header = page.getByRole("banner");
  const dialog = page.getByRole("dialog", { name: "Connect a wallet" });
  const step = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (err) {
      const seen = async (locator: Locator) =>
        (await locator.count()) > 0
          ? JSON.stringify(((await locator.first().innerText({ timeout: 2_000 })) ?? "").trim())
          : "(not there)";
      throw new Error(
        `connecting as dev account #${index} (${shortAddress(address)}): ${what} did not happen\n` +
          `  header shows: ${await seen(header).catch(() => "?")}\n` +
          `  dialog shows: ${await seen(dialog).catch(() => "?")}\n` +
          `  ${(err as Error).message}`,
        { cause: err },
      );
    }
  };
  // "Connect wallet" (enabled) once the app has loaded and is not busy reconnecting.
  await step("the Connect wallet button", () =>
    page.getByRole("button", { name: "Connect wallet" }).click(),
  );
  // The list is there once the node has answered eth_accounts.
  await step(`account #${index} in the local node's list`, () =>
    dialog
      .getByRole("list", { name: "Local node accounts" })
      .getByRole("button", { name: new RegExp(`^#${index}\\b`) })
      .click(),
  );
  // The connection is made (the dialog closes on success, and stays with an alert on failure),
  // then the header shows who this tab is.
  await step("the dialog closing", () => dialog.waitFor({ state: "detached" }));
  await step("the header naming the account", () =>
    header.getByRole("button", { name: new RegExp(escapeRegExp(shortAddress(address))) }).waitFor(),
  );
}

// ------------------------------------------------------------------ the game table

export function diceGroup(page: Page): Locator {
  return page.getByRole("group", { name: /^Dice/ });
}

export function rollButton(page: Page): Locator {
  return page.getByRole("button", { name: /^(Roll|Re-roll)\b/ });
}

/** My open boxes that I may fill now, as buttons ("Chance: score 23"). */
export function legalBoxes(page: Page): Locator {
  return page
    .getByRole("table", { name: "Score sheets" })
    .getByRole("button", { name: /^[^:]+: score \d+/ });
}

export async function diceLabels(page: Page): Promise<string[]> {
  const dice = diceGroup(page).getByRole("button");
  const count = await dice.count();
  const labels: string[] = [];
  for (let i = 0; i < count; i++) labels.push((await dice.nth(i).getAttribute("aria-label")) ?? "");
  return labels;
}

/** The five values on the table, once every die has settled; undefined while any is unknown. */
export async function settledDice(page: Page): Promise<number[] | undefined> {
  const labels = await diceLabels(page);
  if (labels.length !== 5) return undefined;
  const values = labels.map((l) => /^Die \d: ([1-6])/.exec(l)?.[1]);
  if (values.some((v) => v === undefined)) return undefined;
  return values.map(Number);
}

/**
 * A snapshot of the page's text, or null when it is not there now. Snapshots never wait: the
 * callers poll them (`eventually`) until the page shows what they wait for.
 */
async function textNow(locator: Locator): Promise<string | null> {
  return (await locator.count()) > 0 ? locator.first().textContent() : null;
}

/** "Roll 2 of 3", the screen-reader text of the tray; undefined when it is not shown now. */
export async function rollCount(page: Page): Promise<number | undefined> {
  const text = await textNow(
    page.getByRole("region", { name: /dice$/i }).getByText(/^Roll \d of \d$/),
  ).catch(() => null);
  const match = text ? /^Roll (\d) of/.exec(text) : null;
  return match ? Number(match[1]) : undefined;
}

/** The table's error line (a move the chain or the wallet refused, in words); null when none. */
export async function tableError(page: Page): Promise<string | null> {
  return textNow(page.getByRole("region", { name: /dice$/i }).getByRole("alert")).catch(() => null);
}

/**
 * Waits for the move just made on `page` to pass the turn on chain (`before` is the turnKey taken
 * before it). A move the table reports as failed ends the wait at once, with the table's words,
 * instead of running out the clock.
 */
export async function moveLands(
  stack: E2EStack,
  gameId: bigint,
  before: string,
  page: Page,
  what: string,
): Promise<void> {
  const outcome = await eventually(
    what,
    async () => {
      if ((await turnKey(stack, gameId)) !== before) return "landed";
      const error = await tableError(page);
      return error ? `the table says "${error}"` : undefined;
    },
    MOVE_TIMEOUT_MS,
  );
  if (outcome !== "landed") throw new Error(`${what} did not happen: ${outcome}`);
}

/** Waits until this page may roll (its turn, nothing pending, nothing being sent). */
export async function waitForRollEnabled(page: Page, timeout = MOVE_TIMEOUT_MS): Promise<void> {
  await eventually(
    "the roll button to be enabled",
    async () =>
      (await rollButton(page)
        .isEnabled({ timeout: 1_000 })
        .catch(() => false))
        ? true
        : undefined,
    timeout,
    100,
  );
}

/** Waits for the dice of roll number `n` of this turn to be on the table, settled. */
export async function waitForRoll(
  page: Page,
  n: number,
  timeout = MOVE_TIMEOUT_MS,
): Promise<number[]> {
  return eventually(
    `roll ${n} of the turn to be on the table`,
    async () => {
      if ((await rollCount(page)) !== n) return undefined;
      if ((await legalBoxes(page).count()) === 0) return undefined;
      return settledDice(page);
    },
    timeout,
    100,
  );
}

/** The table's "press again" line, shown when a clear slip (a box worth 0, …) was pressed. */
export function scoreConfirm(page: Page): Locator {
  return page.getByTestId("score-confirm");
}

/**
 * Fills `box` with the mouse. A clear slip (a box worth 0 while one with points is open, or far
 * below the best of its section) asks for a second press (the button says so with data-confirm):
 * then the first press must show why, and the second scores.
 */
export async function chooseBox(page: Page, box: Locator): Promise<void> {
  const asks = (await box.getAttribute("data-confirm")) === "ask";
  await box.click();
  if (!asks) return;
  await scoreConfirm(page).waitFor();
  await box.click();
}

/** A whole turn with the mouse: roll once, then fill the first box the page allows. */
export async function mouseTurn(page: Page): Promise<void> {
  await waitForRollEnabled(page);
  await rollButton(page).click();
  await waitForRoll(page, 1);
  await chooseBox(page, legalBoxes(page).first());
}

/** The label of the element that has the focus, or "". */
export async function focusedLabel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute("aria-label") ?? el?.textContent ?? "";
  });
}

/**
 * Arrow keys to the first box the page allows, then Enter. Returns the label of the box chosen.
 * The arrows only move over my open boxes; a box the Joker rule forbids is skipped by moving on.
 */
export async function keyboardScore(page: Page): Promise<string> {
  await page.keyboard.press("ArrowDown");
  for (let step = 0; step < 20; step++) {
    const label = await focusedLabel(page);
    if (/^[^:]+: score \d+/.test(label)) {
      const asks = await page.evaluate(
        () => document.activeElement?.getAttribute("data-confirm") === "ask",
      );
      await page.keyboard.press("Enter");
      // A box worth 0 (or far below the best) asks for a second press: Enter again.
      if (asks) {
        await scoreConfirm(page).waitFor();
        await page.keyboard.press("Enter");
      }
      return label;
    }
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(
    `the arrow keys never reached a box that can be scored (last: ${await focusedLabel(page)})`,
  );
}

/** The sentence over the table that says whose turn it is (what T reads); live or practice. */
export function turnLine(page: Page): Locator {
  return page
    .getByRole("paragraph")
    .filter({
      hasText:
        /^(Round \d+ of \d+\.|Game over\.|Waiting for the game to start\.|.+'s turn: round \d+ of \d+|Match over\.|Game \d+ of \d+ over\.)/,
    })
    .first();
}

/** The end screen's headline: "You win!", "0x12…abcd wins.", "… share the win." */
export const RESULT_HEADLINE = /^(You win!|You share the win!|.+ wins\.|.+ share the win\.)$/;

/** Name, total and note of each standings row on the end screen, top to bottom. */
export async function standings(page: Page) {
  const results = page.getByRole("region", { name: RESULT_HEADLINE });
  const rows = results.getByRole("list").first().getByRole("listitem");
  await rows.first().waitFor();
  const out: { place: string; name: string; total: number; note: string }[] = [];
  for (const row of await rows.all()) {
    const parts = await row.locator(":scope > span").allTextContents();
    assert.equal(
      parts.length,
      4,
      `a standings row has place, name, total and note: ${parts.join(" | ")}`,
    );
    // The total reads "52 points" (the unit is for screen readers only).
    out.push({ place: parts[0], name: parts[1], total: parseInt(parts[2], 10), note: parts[3] });
  }
  const heading = await results
    .getByRole("heading", { level: 2, name: RESULT_HEADLINE })
    .textContent();
  return { heading: heading ?? "", rows: out };
}

/** The sheet grid as text: the header row, then one row per box or sum (name, then a cell per player). */
export async function sheetText(page: Page): Promise<string[][]> {
  const grid = page.getByRole("table", { name: "Score sheets" });
  await grid.waitFor();
  return grid.evaluate((table: HTMLTableElement) =>
    Array.from(table.rows).map((row) =>
      Array.from(row.cells).map((cell) => (cell.textContent ?? "").replace(/\s+/g, " ").trim()),
    ),
  );
}

/** Totals per player column from the sheet's "Total" row, keyed by the column's player name. */
export async function sheetTotals(page: Page): Promise<Map<string, number>> {
  const rows = await sheetText(page);
  const header = rows[0];
  const total = rows.find((r) => r[0] === "Total");
  assert.ok(total, "the sheet has a Total row");
  const out = new Map<string, number>();
  for (let i = 1; i < header.length; i++) {
    // The header cell holds the name and maybe a tag ("to play", "forfeited").
    const name = header[i].replace(/\s*(to play|forfeited)$/, "");
    out.set(name, Number(total[i]));
  }
  return out;
}

/** The name the page gives an account: "You" for the viewer, else the short address. */
export function nameFor(account: Address, viewer: Address | null): string {
  return viewer !== null && account.toLowerCase() === viewer.toLowerCase()
    ? "You"
    : shortAddress(account);
}

/**
 * The table once it has stopped changing: two snapshots in a row (`intervalMs` apart) agree. A
 * snapshot taken mid-render (the log a line behind the dice, say) is never the state to compare a
 * reload with.
 */
export async function steadyTableState(page: Page, what: string, intervalMs = 250) {
  let previous: string | undefined;
  return eventually(
    `${what}: the table to stop changing`,
    async () => {
      const state = await tableState(page);
      const key = JSON.stringify(state);
      const steady = key === previous;
      previous = key;
      return steady ? state : undefined;
    },
    PAGE_TIMEOUT_MS,
    intervalMs,
  );
}

/**
 * Everything a reload must rebuild, read from the page: the dice (value, kept, rolling), the roll
 * count, whose turn (without the ticking clock), the hint under the dice, the roll button, the
 * sheets and the turn log.
 */
export async function tableState(page: Page) {
  const turn = ((await textNow(turnLine(page))) ?? "").replace(/ — .*$/, "").trim();
  const tray = page.getByRole("region", { name: /dice$/i });
  // The hint may count down ("A new roll is possible in 0:38"): the ticking digits are masked.
  const hint =
    (
      await textNow(
        tray.getByText(
          /^(Waiting for randomness|Randomness for|Roll to start|No rolls left|You are keeping|Keep dice)/,
        ),
      )
    )?.replace(/\b\d+:\d\d\b/g, "m:ss") ?? null;
  const roll = rollButton(page);
  const rollButtonState = (await roll.count())
    ? `${await roll.textContent()} (${(await roll.isEnabled()) ? "enabled" : "disabled"})`
    : "none";
  const log = await page
    .getByRole("region", { name: "Turn log" })
    .getByRole("listitem")
    .allTextContents();
  return {
    dice: await diceLabels(page),
    pressed: await diceGroup(page)
      .getByRole("button")
      .evaluateAll((els) => els.map((e) => e.getAttribute("aria-pressed"))),
    rollCount: await rollCount(page),
    turn,
    hint,
    rollButton: rollButtonState,
    sheet: await sheetText(page),
    log,
  };
}

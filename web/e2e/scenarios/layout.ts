// Scenario 8: the table's layout. On a 1280×800 laptop screen the dice and the whole score sheet are
// in view without scrolling, the 16-box Extended sheet with its Total row too; on a 390×844 touch
// phone the signed-in header is compact (one row of nav), at least 9 sheet rows show above the dice
// panel, which stays at the bottom while the sheet scrolls, every tap target is at least 44 px, no
// keyboard hint is shown, and every navigation item is in sight, "Notify me" included. History and
// the coach's analysis fit the phone too: no page scrolls sideways, every game's result and links
// are in sight, the biggest mistake is not clipped. Screenshots of the table, the end screen,
// History and the analysis at both sizes go to e2e-artifacts/screenshots/.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

import type { Address } from "viem";

import {
  STATUS,
  currentPlayer,
  gameView,
  playTurnOnChain,
  rollOnChain,
  startGame,
} from "../lib/chain.ts";
import { fixtures } from "../lib/fixtures.ts";
import {
  SCREENSHOTS_DIR,
  TrackedPage,
  e2e,
  waitForAppOnNavigation,
  type Session,
  type Suite,
} from "../lib/harness.ts";
import {
  RESULT_HEADLINE,
  connectDevAccount,
  diceGroup,
  legalBoxes,
  rollButton,
  waitForRoll,
} from "../lib/ui.ts";
import { PAGE_TIMEOUT_MS } from "../lib/timing.ts";

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** WCAG 2.5.5 (and Apple's and Google's guidelines): a finger needs 44 × 44 CSS px. */
const TAP = 44;

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, `${what} is on the page`);
  return box;
}

/** The element lies wholly inside the viewport as the page is scrolled now. */
async function assertInView(page: Page, locator: Locator, what: string): Promise<Box> {
  const box = await boxOf(locator, what);
  const { width, height } = page.viewportSize()!;
  const where = `${what} at x ${box.x.toFixed(0)}..${(box.x + box.width).toFixed(0)}, y ${box.y.toFixed(0)}..${(box.y + box.height).toFixed(0)}`;
  assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `${where}: inside ${width} px wide`);
  assert.ok(box.y >= 0 && box.y + box.height <= height + 0.5, `${where}: inside ${height} px high`);
  return box;
}

async function assertTapTarget(locator: Locator, what: string): Promise<void> {
  const box = await boxOf(locator, what);
  assert.ok(
    box.width >= TAP - 0.5 && box.height >= TAP - 0.5,
    `${what} is ${box.width.toFixed(1)} × ${box.height.toFixed(1)} px, under ${TAP} × ${TAP}`,
  );
}

/** The page is no wider than its window: nothing to scroll sideways to. */
async function assertNoSideways(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window`);
}

/** The element lies wholly between the window's left and right edges. */
async function assertWithinWidth(locator: Locator, what: string): Promise<void> {
  const box = await boxOf(locator, what);
  const width = locator.page().viewportSize()!.width;
  assert.ok(
    box.x >= 0 && box.x + box.width <= width + 0.5,
    `${what} at x ${box.x.toFixed(0)}..${(box.x + box.width).toFixed(0)}: inside ${width} px`,
  );
}

/** History's games, one row (a card on a phone) each, in the player's own list. */
const historyCards = (page: Page) =>
  page.getByRole("region", { name: "Your finished games" }).locator("tbody tr");

const scrollTo = (page: Page, y: number) =>
  page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);

/** A phone: small viewport, touch and a coarse pointer (what `hover: none` media queries see). */
async function phonePage(session: Session, label: string): Promise<TrackedPage> {
  const context = await session.suite.browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    locale: "en-GB",
    timezoneId: "UTC",
  });
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
  const page = await context.newPage();
  waitForAppOnNavigation(page);
  const tracked = new TrackedPage(label, context, page);
  // As Session.newPage: nothing leaves this machine.
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

/**
 * A running Extended (16-box) game between `viewer` and `rival`, at the viewer's turn with one roll
 * on the table: the longest sheet the hall has.
 */
async function extendedMidGame(session: Session, viewer: Address, rival: Address): Promise<bigint> {
  const { stack } = session;
  const gameId = await startGame(stack, viewer, rival, { ruleSet: 3 });
  for (let turn = 0; turn < 2; turn++) await playTurnOnChain(stack, gameId);
  if ((await currentPlayer(stack, gameId)) !== viewer) await playTurnOnChain(stack, gameId);
  await rollOnChain(stack, gameId);
  const view = await gameView(stack, gameId);
  if (view.status !== STATUS.Running || view.players[view.currentSeat] !== viewer) {
    throw new Error(`the Extended game ${gameId} is not at the viewer's turn`);
  }
  return gameId;
}

/** How many rows of the sheet's body lie wholly between the page's top and `bottom` (px). */
async function sheetRowsInView(page: Page, bottom: number): Promise<number> {
  return page
    .getByRole("table", { name: "Score sheets" })
    .evaluate((table: HTMLTableElement, limit: number) => {
      const body = table.tBodies[0];
      return Array.from(body.rows).filter((row) => {
        const r = row.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= limit + 0.5;
      }).length;
    }, bottom);
}

export function layoutScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "layout: the dice and the whole sheet fit a 1280×800 screen; a 390×844 phone keeps the dice in view",
    { timeout: 180_000 },
    async (session) => {
      const f = await fixtures(session.stack);
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });
      const table = `/games/${f.midGame}`;
      const sheetOf = (page: Page) => page.getByRole("table", { name: "Score sheets" });

      // --- a laptop: everything needed for a turn without scrolling.
      const laptop = await session.newPage("laptop 1280x800");
      await laptop.page.setViewportSize(LAPTOP);
      await session.goto(laptop, "/");
      await connectDevAccount(laptop.page, f.viewerIndex, f.viewer);
      await session.goto(laptop, table);
      await waitForRoll(laptop.page, 1);
      await scrollTo(laptop.page, 0);
      const lp = laptop.page;
      const sheet = await assertInView(lp, sheetOf(lp), "the whole score sheet");
      await assertInView(lp, diceGroup(lp), "the dice");
      await assertInView(lp, rollButton(lp), "the roll button");
      await assertInView(lp, sheetOf(lp).getByRole("row", { name: /^Total\b/ }), "the Total row");
      assert.equal(
        await lp.evaluate(() => document.documentElement.scrollWidth),
        LAPTOP.width,
        "no sideways scrolling on the laptop",
      );
      await lp.screenshot({ path: join(SCREENSHOTS_DIR, "table-1280x800.png") });
      session.suite.log(
        `layout: laptop sheet y ${sheet.y.toFixed(0)}..${(sheet.y + sheet.height).toFixed(0)} of 800`,
      );

      // The Extended rules' 16 boxes, with their Total row, fit the same screen.
      const extended = await extendedMidGame(session, f.viewer, session.stack.accounts[13]);
      await session.goto(laptop, `/games/${extended}`);
      await waitForRoll(lp, 1);
      await scrollTo(lp, 0);
      const extSheet = await assertInView(lp, sheetOf(lp), "the whole Extended sheet");
      await assertInView(
        lp,
        sheetOf(lp).getByRole("row", { name: /^Total\b/ }),
        "the Extended sheet's Total row",
      );
      await assertInView(lp, diceGroup(lp), "the dice beside the Extended sheet");
      session.suite.log(
        `layout: laptop Extended sheet y ${extSheet.y.toFixed(0)}..${(extSheet.y + extSheet.height).toFixed(0)} of 800`,
      );
      await lp.screenshot({ path: join(SCREENSHOTS_DIR, "table-extended-1280x800.png") });

      // The end screen at the same size.
      await session.goto(laptop, `/games/${f.finished}`);
      await lp.getByRole("heading", { level: 2, name: RESULT_HEADLINE }).waitFor();
      await sheetOf(lp).waitFor();
      await lp.screenshot({ path: join(SCREENSHOTS_DIR, "end-screen-1280x800.png") });

      // History and the coach's analysis at the same size.
      await session.goto(laptop, "/history");
      await historyCards(lp).first().waitFor();
      await assertNoSideways(lp, "History on the laptop");
      await lp.screenshot({ path: join(SCREENSHOTS_DIR, "history-1280x800.png") });
      await session.goto(laptop, `/games/${f.finished}/analysis`);
      await lp.getByTestId("coach-chart").waitFor({ timeout: 60_000 });
      await assertNoSideways(lp, "the analysis on the laptop");
      await lp.screenshot({ path: join(SCREENSHOTS_DIR, "analysis-1280x800.png") });

      // The practice set-up: every seat's name field the same height and on the same line, the
      // first (which has no "played by" choice) included.
      await session.goto(laptop, "/practice");
      const names = await Promise.all(
        [1, 2].map((seat) => boxOf(lp.getByLabel(`Player ${seat} name`), `Player ${seat} name`)),
      );
      assert.ok(
        Math.abs(names[0].height - names[1].height) < 1 && Math.abs(names[0].y - names[1].y) < 1,
        `the name fields are ${names.map((b) => `${b.height.toFixed(0)} px high at y ${b.y.toFixed(0)}`).join(" and ")}`,
      );

      // --- a phone.
      const phone = await phonePage(session, "phone 390x844");
      const pp = phone.page;
      // A player who has not yet answered the browser about notifications: "Notify me" shows.
      await phone.context.addInitScript({
        content: `window.Notification && Object.defineProperty(Notification, "permission", { configurable: true, get: () => "default" });`,
      });
      await session.goto(phone, "/");
      await connectDevAccount(pp, f.viewerIndex, f.viewer);
      await session.goto(phone, table);
      await waitForRoll(pp, 1);
      await scrollTo(pp, 0);
      assert.ok(
        await pp.evaluate(() => matchMedia("(hover: none) and (pointer: coarse)").matches),
        "the phone page is a touch screen to the app's media queries",
      );
      assert.ok(
        (await pp.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width,
        "no sideways scrolling on the phone",
      );

      // The signed-in header is compact: the balances wait behind the address, the nav is one row.
      const header = await boxOf(pp.getByRole("banner"), "the header");
      session.suite.log(`layout: phone header ${header.height.toFixed(0)} px high`);
      assert.ok(header.height <= 110, `the phone's header is ${header.height.toFixed(0)} px high`);
      // Two rows: the die, "Notify me" and the wallet on the first, the nav on the second.
      const notify = pp.getByRole("banner").getByRole("button", { name: "Notify me" });
      const brand = await boxOf(pp.getByRole("link", { name: "Dicehall home" }), "the brand");
      const walletBox = await boxOf(
        pp.getByRole("banner").getByRole("button", { name: /…/ }),
        "the wallet button",
      );
      await assertInView(pp, notify, "the Notify me button");
      const middle = (b: Box) => b.y + b.height / 2;
      assert.ok(
        Math.abs(middle(brand) - middle(walletBox)) < 8 &&
          Math.abs(middle(await boxOf(notify, "Notify me")) - middle(walletBox)) < 8,
        "the brand, Notify me and the wallet share the header's first row",
      );
      const navBoxes = await Promise.all(
        (await pp.getByRole("navigation", { name: "Main" }).getByRole("link").all()).map((l) =>
          boxOf(l, "a nav item"),
        ),
      );
      assert.ok(
        navBoxes.every((b) => Math.abs(b.y - navBoxes[0].y) < 1),
        "the nav items sit in one row",
      );

      // The roll button keeps one line, its fee however long (a tiny fee reads "<0.000001 ETH").
      const roll = await boxOf(rollButton(pp), "the roll button");
      session.suite.log(
        `layout: phone roll button "${await rollButton(pp).textContent()}" ${roll.height.toFixed(0)} px high`,
      );
      assert.ok(
        roll.height < 56,
        `the roll button is ${roll.height.toFixed(0)} px high: two lines`,
      );
      // With the dice panel at the bottom, at least 9 rows of the sheet are in sight.
      const trayTop = (await boxOf(pp.getByRole("region", { name: /dice$/i }), "the dice panel")).y;
      const rowsInView = await sheetRowsInView(pp, trayTop);
      session.suite.log(`layout: phone shows ${rowsInView} sheet rows above the dice panel`);
      assert.ok(rowsInView >= 9, `${rowsInView} sheet rows in sight above the dice panel, not 9`);

      // Every nav item in sight at the top of the page, and big enough to tap.
      const nav = pp.getByRole("navigation", { name: "Main" }).getByRole("link");
      assert.equal(await nav.count(), 5, "five nav items");
      for (const link of await nav.all()) {
        const name = (await link.textContent()) ?? "";
        await assertInView(pp, link, `nav item "${name}"`);
        await assertTapTarget(link, `nav item "${name}"`);
      }
      await assertTapTarget(
        pp.getByRole("banner").getByRole("button", { name: /…/ }),
        "the wallet button",
      );

      // No keyboard hints on a touch screen.
      assert.equal(
        await pp.getByRole("button", { name: /^Keys/ }).isVisible(),
        false,
        "no Keys button",
      );
      assert.equal(await pp.getByText(/press 1/).isVisible(), false, "no 'press 1-5' tip");
      for (const kbd of await pp.locator("kbd").all()) {
        assert.equal(
          await kbd.isVisible(),
          false,
          `a key hint is shown: ${await kbd.textContent()}`,
        );
      }

      // Tap targets of a turn: the dice, the roll button, the boxes I may fill.
      const dice = diceGroup(pp).getByRole("button");
      assert.equal(await dice.count(), 5);
      for (let i = 0; i < 5; i++) await assertTapTarget(dice.nth(i), `die ${i + 1}`);
      await assertTapTarget(rollButton(pp), "the roll button");
      const boxes = legalBoxes(pp);
      const boxCount = await boxes.count();
      assert.ok(boxCount > 0, "some boxes can be filled");
      for (let i = 0; i < boxCount; i++) await assertTapTarget(boxes.nth(i), `box button ${i + 1}`);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "table-390x844.png") });

      // Scoring: wherever the sheet is scrolled, the dice stay in the bottom panel, in view, and
      // the box about to be tapped is not under it.
      const tray = pp.getByRole("region", { name: /dice$/i });
      const bottom = await pp.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (const y of [0, Math.round(bottom / 3), Math.round((2 * bottom) / 3), bottom]) {
        await scrollTo(pp, y);
        await assertInView(pp, diceGroup(pp), `the dice with the page scrolled to ${y}`);
      }
      // A box in the middle of the sheet, scrolled to the middle of the screen as a thumb would.
      const target = boxes.nth(Math.floor(boxCount / 2));
      await target.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
      const targetBox = await assertInView(pp, target, "the box about to be filled");
      const trayBox = await assertInView(pp, tray, "the dice panel while scoring");
      assert.ok(
        targetBox.y + targetBox.height <= trayBox.y + 0.5,
        "the box to tap is above the dice panel, not under it",
      );
      assert.ok(
        Math.abs(trayBox.y + trayBox.height - PHONE.height) <= 1,
        `the dice panel sits at the bottom of the screen (ends at ${trayBox.y + trayBox.height})`,
      );
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "table-390x844-scoring.png") });

      // The end screen on the phone.
      await session.goto(phone, `/games/${f.finished}`);
      await pp.getByRole("heading", { level: 2, name: RESULT_HEADLINE }).waitFor();
      await sheetOf(pp).waitFor();
      await scrollTo(pp, 0);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "end-screen-390x844.png") });

      // History on the phone: a card per game, its result and its links in sight.
      await session.goto(phone, "/history");
      const card = historyCards(pp).first();
      await card.waitFor();
      await assertNoSideways(pp, "History on the phone");
      const cardBox = await boxOf(card, "a game of the history");
      assert.ok(
        cardBox.x >= 0 && cardBox.x + cardBox.width <= PHONE.width + 0.5,
        "a game's card fits",
      );
      const mine = card.locator(".history-mine");
      assert.match((await mine.textContent()) ?? "", /^(Won|Lost|Shared the win|Timed out)/);
      await assertWithinWidth(mine, "my result (Won or Lost)");
      for (const name of [/^Replay of game/, /^The coach's analysis of game/, /^Table of game/]) {
        const link = card.getByRole("link", { name });
        await assertWithinWidth(link, `the link "${name.source}"`);
        await assertTapTarget(link, `the link "${name.source}"`);
      }
      await scrollTo(pp, 0);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "history-390x844.png") });

      // The coach's analysis on the phone: the summary's biggest mistake has room, not a sliver.
      await session.goto(phone, `/games/${f.finished}/analysis`);
      await pp.getByTestId("coach-chart").waitFor({ timeout: 60_000 });
      await assertNoSideways(pp, "the analysis on the phone");
      const mistakes = pp.getByTestId("coach-summary").locator("td[data-label='Biggest mistake']");
      assert.ok((await mistakes.count()) > 0, "the summary names a biggest mistake");
      for (const cell of await mistakes.all()) {
        await assertWithinWidth(cell, "the biggest mistake");
        const { width, clipped } = await cell.evaluate((el) => ({
          width: el.getBoundingClientRect().width,
          clipped: el.scrollWidth > el.clientWidth + 1,
        }));
        assert.ok(width >= PHONE.width / 2, `the biggest mistake is ${width.toFixed(0)} px wide`);
        assert.equal(clipped, false, "the biggest mistake is not clipped");
      }
      await scrollTo(pp, 0);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "analysis-390x844.png") });
    },
  );
}

/** Desktop widths the leaderboard must fit (issue 32: 1 280, 1 440 and 1 920 px). */
const DESKTOPS = [1280, 1440, 1920];

/**
 * The table inside its box, as the page lays it out now: how wide each is, and the first header
 * that is cut off (wider than its cell, or beyond the box's right edge).
 */
async function tableFit(wrap: Locator) {
  return wrap.evaluate((el: HTMLElement) => {
    const box = el.getBoundingClientRect();
    const table = el.querySelector("table")!;
    const cut = [...table.querySelectorAll("thead th")].find((th) => {
      const r = th.getBoundingClientRect();
      return r.right > box.right + 0.5 || th.scrollWidth > th.clientWidth + 1;
    });
    return {
      table: Math.round(table.scrollWidth),
      box: Math.round(el.clientWidth),
      scrolls: el.scrollWidth > el.clientWidth + 1,
      cut: cut?.textContent ?? null,
    };
  });
}

/** The rendered size in px of an SVG chart's axis labels (font size × the SVG's scale). */
async function chartLabelPx(chart: Locator): Promise<number> {
  return chart.evaluate((svg: SVGSVGElement) => {
    const label = svg.querySelector(".coach-chart__label")!;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return parseFloat(getComputedStyle(label).fontSize) * scale;
  });
}

export function pageLayoutScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "layout: the leaderboard fits 1280–1920 px and says it scrolls on a phone; the rules, a replay and a player's page fit a 390 px phone",
    { timeout: 240_000 },
    async (session) => {
      const f = await fixtures(session.stack);
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });

      // --- the leaderboard on desktops: every column in its box, nothing cut off.
      const desk = await session.newPage("desktop");
      const dp = desk.page;
      await session.goto(desk, "/");
      await connectDevAccount(dp, f.viewerIndex, f.viewer);
      for (const width of DESKTOPS) {
        await dp.setViewportSize({ width, height: 900 });
        await session.goto(desk, "/leaderboard");
        // The board is in, with the index's skill columns: the widest it gets.
        await dp.getByTestId("leaderboard-loading").waitFor({ state: "detached" });
        await dp.getByRole("columnheader", { name: /Points lost per game/ }).waitFor();
        const wrap = dp.locator(".leaderboard__wrap");
        const fit = await tableFit(wrap);
        session.suite.log(`layout: leaderboard at ${width} px: table ${fit.table} in ${fit.box}`);
        assert.ok(
          fit.table <= fit.box && !fit.scrolls,
          `at ${width} px the leaderboard is ${fit.table} px wide in a ${fit.box} px box`,
        );
        assert.equal(fit.cut, null, `at ${width} px the header "${fit.cut}" is cut off`);
        await assertNoSideways(dp, `the leaderboard at ${width} px`);
        assert.equal(await dp.getByTestId("leaderboard-scrolls").count(), 0, "no scroll hint");
        await dp.screenshot({ path: join(SCREENSHOTS_DIR, `leaderboard-${width}.png`) });
      }

      // --- a phone.
      const phone = await phonePage(session, "phone 390x844");
      const pp = phone.page;
      await session.goto(phone, "/");
      await connectDevAccount(pp, f.viewerIndex, f.viewer);

      // The leaderboard: the page does not scroll sideways; its table fits, or says it scrolls.
      await session.goto(phone, "/leaderboard");
      await pp.getByTestId("leaderboard-loading").waitFor({ state: "detached" });
      await pp.getByRole("columnheader", { name: /Points lost per game/ }).waitFor();
      await assertNoSideways(pp, "the leaderboard on the phone");
      const phoneFit = await tableFit(pp.locator(".leaderboard__wrap"));
      session.suite.log(
        `layout: leaderboard at 390 px: table ${phoneFit.table} in ${phoneFit.box}`,
      );
      if (phoneFit.scrolls) {
        const hint = pp.getByTestId("leaderboard-scrolls");
        await assertInView(pp, hint, "the hint that the table scrolls sideways");
        assert.match((await hint.textContent()) ?? "", /scroll the table sideways/);
        // It can be scrolled from the keyboard too.
        assert.equal(
          await pp.getByRole("region", { name: /Leaderboard \(scrolls sideways\)/ }).count(),
          1,
        );
      }
      await scrollTo(pp, 0);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "leaderboard-390x844.png") });

      // The rules: no sideways scrolling, every table's column in sight, the rule text readable.
      await session.goto(phone, "/rules");
      await pp.getByRole("heading", { level: 1 }).waitFor();
      await assertNoSideways(pp, "the rules' index on the phone");
      for (const key of ["yahtzee", "yatzy", "extended"]) {
        await session.goto(phone, `/rules/${key}`);
        await pp.getByTestId("rules-box-1").waitFor();
        await assertNoSideways(pp, `the rules of ${key} on the phone`);
        for (const table of await pp.locator("main table").all()) {
          const caption =
            (await table
              .locator("caption")
              .textContent()
              .catch(() => "")) ?? "";
          await assertWithinWidth(table, `the rules table "${caption}"`);
        }
        // The lower section's examples are in sight, and a box's rule runs in lines of several
        // words, not one word a line.
        for (const row of await pp.locator("[data-testid^='rules-box-']").all()) {
          await assertWithinWidth(row.locator("td").last(), "a box's examples");
        }
        const rule = pp.getByTestId("rules-box-1").locator("td").first();
        const { width: ruleWidth } = await boxOf(rule, "the first box's rule");
        assert.ok(ruleWidth >= PHONE.width / 2, `the rule text is ${ruleWidth.toFixed(0)} px wide`);
        await scrollTo(pp, 0);
        await pp.screenshot({ path: join(SCREENSHOTS_DIR, `rules-${key}-390x844.png`) });
      }

      // A replay, seen by a visitor (both players' columns named by address), at its last step
      // (every box filled): both players' column headers whole; no sideways scrolling.
      const visitor = await phonePage(session, "phone visitor 390x844");
      const vp = visitor.page;
      await session.goto(visitor, `/games/${f.finished}/replay`);
      const sheet = vp.getByRole("table", { name: "Score sheets" });
      await sheet.waitFor();
      await vp.getByRole("button", { name: /^Last/ }).click();
      await assertNoSideways(vp, "the replay on the phone");
      const heads = sheet.locator("thead th");
      assert.ok((await heads.count()) >= 3, "a box column and two players' columns");
      for (const th of await heads.all()) {
        const name = ((await th.textContent()) ?? "").trim();
        await assertWithinWidth(th, `the column header "${name}"`);
        const clipped = await th.evaluate((el) =>
          [el, ...el.querySelectorAll("*")].some(
            (e) =>
              // Text kept for screen readers (1 px, clipped on purpose) is not cut off.
              e.clientWidth > 1 &&
              e.scrollWidth > e.clientWidth + 1 &&
              getComputedStyle(e).overflow !== "visible",
          ),
        );
        assert.equal(clipped, false, `the column header "${name}" is clipped`);
        for (const part of await th.locator(".address__name").all()) {
          await assertWithinWidth(part, `the name in the column header "${name}"`);
        }
      }
      await scrollTo(vp, 0);
      await vp.screenshot({ path: join(SCREENSHOTS_DIR, "replay-390x844.png") });

      // The coach's chart: its axis labels are as big as the page's small print, not a sliver.
      await session.goto(phone, `/games/${f.finished}/analysis`);
      const coachChart = pp.getByTestId("coach-chart");
      await coachChart.waitFor({ timeout: 60_000 });
      const coachLabels = await chartLabelPx(coachChart);
      session.suite.log(`layout: the analysis chart's labels are ${coachLabels.toFixed(1)} px`);
      assert.ok(coachLabels >= 10, `the analysis chart's labels are ${coachLabels.toFixed(1)} px`);

      // A player's page: the breadcrumb first, the avatar beside the name; charts readable.
      await session.goto(phone, `/players/${f.viewer}`);
      const heading = pp.getByRole("heading", { level: 1 });
      await heading.waitFor();
      await assertNoSideways(pp, "a player's page on the phone");
      const crumb = await boxOf(pp.locator(".breadcrumbs").first(), "the breadcrumb");
      const avatar = await boxOf(pp.locator(".player__head .identicon").first(), "the avatar");
      const name = await boxOf(heading, "the player's name");
      assert.ok(
        crumb.y + crumb.height <= avatar.y + 0.5,
        `the breadcrumb (y ${crumb.y.toFixed(0)}) is above the avatar (y ${avatar.y.toFixed(0)})`,
      );
      assert.ok(
        avatar.x + avatar.width <= name.x + 0.5 && avatar.y < name.y + name.height,
        "the avatar sits beside the name",
      );
      const charts = pp.locator(".player-chart svg");
      if ((await charts.count()) > 0) {
        await charts.first().waitFor();
        const px = await chartLabelPx(charts.first());
        session.suite.log(`layout: the player page's chart labels are ${px.toFixed(1)} px`);
        assert.ok(px >= 10, `the player page's chart labels are ${px.toFixed(1)} px`);
      }
      await scrollTo(pp, 0);
      await pp.screenshot({ path: join(SCREENSHOTS_DIR, "player-390x844.png") });
    },
  );

  e2e(
    suite,
    "layout: every link and button of the rules pages, the header's logo, a table's rules link and the footer's are 24 × 24 px or more; the rules pages neither scroll sideways nor clip at 1280 and 1440 px",
    { timeout: 180_000 },
    async (session) => {
      const f = await fixtures(session.stack);
      const desk = await session.newPage("desktop targets");
      const dp = desk.page;
      await session.goto(desk, "/");
      await connectDevAccount(dp, f.viewerIndex, f.viewer);

      /** Every visible link and button under `scope` smaller than 24 × 24 CSS px. */
      const smallTargets = (page: Page, scope: string) =>
        page.evaluate((selector) => {
          const small: string[] = [];
          for (const el of document.querySelectorAll(`${selector} :is(a, button, summary)`)) {
            const box = el.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) continue;
            if (box.width < 23.5 || box.height < 23.5) {
              const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
              small.push(`"${name.slice(0, 40)}" ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
            }
          }
          return small;
        }, scope);
      /** Elements of the page's main part whose content is cut off sideways, by how much. */
      const clipped = (page: Page) =>
        page.evaluate(() =>
          [...document.querySelectorAll("main *")]
            .filter((el) => getComputedStyle(el).overflowX !== "visible")
            .map((el) => ({ el, by: el.scrollWidth - el.clientWidth }))
            .filter(({ by }) => by > 1)
            .map(({ el, by }) => `${el.tagName.toLowerCase()}.${el.className} by ${by} px`),
        );

      for (const width of [1280, 1440]) {
        await dp.setViewportSize({ width, height: 900 });
        for (const path of ["/rules", "/rules/yahtzee", "/rules/yatzy", "/rules/extended"]) {
          await session.goto(desk, path);
          await dp.getByRole("heading", { level: 1 }).waitFor();
          if (path !== "/rules") await dp.getByTestId("rules-box-1").waitFor();
          const where = `${path} at ${width} px`;
          await assertNoSideways(dp, where);
          assert.deepEqual(await clipped(dp), [], `${where}: nothing is cut off`);
          for (const scope of ["header", "main", "footer"]) {
            assert.deepEqual(await smallTargets(dp, scope), [], `${where}: the ${scope}'s targets`);
          }
        }
      }
      // A table's title links to its rules.
      await session.goto(desk, `/games/${f.finished}`);
      const rulesLink = dp.getByRole("heading", { level: 1 }).getByRole("link");
      await rulesLink.waitFor();
      const link = await boxOf(rulesLink, "the table's rules link");
      assert.ok(
        link.width >= 24 && link.height >= 24,
        `the rules link is ${link.width}×${link.height}`,
      );

      // A phone's header shows the die alone: still a 24 × 24 px target.
      const phone = await phonePage(session, "phone targets");
      await session.goto(phone, "/rules/yahtzee");
      const logo = await boxOf(
        phone.page.getByRole("banner").getByRole("link", { name: "Dicehall home" }),
        "the header's logo",
      );
      assert.ok(logo.width >= 24 && logo.height >= 24, `the logo is ${logo.width}×${logo.height}`);
      assert.deepEqual(await smallTargets(phone.page, "footer"), [], "the footer's targets");
      assert.deepEqual(
        await smallTargets(phone.page, ".breadcrumbs"),
        [],
        "the breadcrumb's targets",
      );
    },
  );
}

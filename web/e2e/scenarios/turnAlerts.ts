// Scenario 10: "your turn, wherever you are" (dev accounts 5, 6 and 7, in games of their own). A player whose tab is hidden sees the tab's title and
// icon change and gets a notification (permission granted through the browser context) when the
// turn comes to them, on the table's page and on any other (a tab on the tables list alerts too and
// links to the table); a spectator of the same game gets nothing, and a reload says nothing new. The
// sound switch in the header is remembered. And the countdowns after a reload on an idle chain
// count from the chain's real time: two tabs agree, and neither shows a clock minutes late.
import assert from "node:assert/strict";
import type { Address } from "viem";

import {
  currentPlayer,
  eventually,
  gameFinished,
  gameView,
  hallTable,
  openLobby,
  playToEnd,
  playTurnOnChain,
  startGame,
} from "../lib/chain.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { e2e, type Session, type Suite, type TrackedPage } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  RESULT_HEADLINE,
  connectDevAccount,
  nameFor,
  openAs,
  turnLine,
} from "../lib/ui.ts";

/**
 * Runs in the page before the app: the page reports itself hidden (as a background tab does) while
 * `window.__hidden` is true, and every notification and vibration the app makes is recorded. A
 * string, not a function: the test runner's transform would add helpers the page does not have.
 */
const watchAlerts = (hidden: boolean) => `(() => {
  const w = window;
  w.__hidden = ${hidden};
  w.__notes = [];
  w.__buzz = 0;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => w.__hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (w.__hidden ? "hidden" : "visible"),
  });
  const Real = window.Notification;
  function Recorded(title, options) {
    w.__notes.push({ title, body: options && options.body });
    this.onclick = null;
    this.close = () => {};
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = () => Real.requestPermission();
  Object.defineProperty(window, "Notification", { configurable: true, value: Recorded });
  Object.defineProperty(navigator, "vibrate", {
    configurable: true,
    value: () => {
      w.__buzz += 1;
      return true;
    },
  });
})();`;

/** A tab connected as dev account `index`, hidden or not, with notifications allowed. */
async function alertTab(
  session: Session,
  label: string,
  index: number,
  path: string,
  hidden: boolean,
  /** What the page shows once loaded; a table's score sheets by default. */
  ready: (t: TrackedPage) => Promise<void> = (t) =>
    t.page.getByRole("table", { name: "Score sheets" }).waitFor(),
): Promise<TrackedPage> {
  const tracked = await session.newPage(label);
  await tracked.context.grantPermissions(["notifications"], {
    origin: new URL(session.stack.webUrl).origin,
  });
  await tracked.context.addInitScript({ content: watchAlerts(hidden) });
  await session.goto(tracked, "/");
  await connectDevAccount(tracked.page, index, session.stack.accounts[index]);
  await session.goto(tracked, path);
  await ready(tracked);
  return tracked;
}

const alerts = (t: TrackedPage) =>
  t.page.evaluate(() => {
    const w = window as unknown as { __notes: { title: string; body?: string }[]; __buzz: number };
    return { notes: w.__notes, buzz: w.__buzz, title: document.title };
  });

const favicon = (t: TrackedPage) =>
  t.page.evaluate(() => document.querySelector("link[rel~='icon']")?.getAttribute("href") ?? "");

/** The minutes:seconds left in the sentence over the table ("… — 1:58 left."), in seconds. */
async function secondsLeft(t: TrackedPage): Promise<number | undefined> {
  const text =
    (await turnLine(t.page)
      .textContent({ timeout: 1_000 })
      .catch(() => null)) ?? "";
  const m = / — (\d+):(\d\d) left/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

export function turnAlertScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "turn alerts: a hidden tab's title, icon and a notification when the turn comes; nothing for a spectator or on reload",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [p6, p7] = [stack.accounts[6], stack.accounts[7]];
      const gameId = await startGame(stack, p6, p7);
      // startGame leaves the second player in the drawn order to move: the other one waits.
      const mover = (await currentPlayer(stack, gameId)) as Address;
      const waiter = mover === p6 ? p7 : p6;
      const waiterIndex = waiter === p6 ? 6 : 7;
      const path = `/games/${gameId}`;

      const w = await alertTab(session, `waiter (account ${waiterIndex})`, waiterIndex, path, true);
      const s = await alertTab(session, "spectator (account 5)", 5, path, true);
      // The same player on another page: the tables list, hidden too.
      const list = await alertTab(
        session,
        `waiter on the tables list (account ${waiterIndex})`,
        waiterIndex,
        "/games",
        true,
        (t) => t.page.getByRole("list", { name: "My games" }).waitFor(),
      );
      for (const t of [w, s]) {
        await eventually("the page to show whose turn it is", async () =>
          ((await turnLine(t.page).textContent({ timeout: 1_000 })) ?? "").includes(
            `${nameFor(mover, null)}'s turn`,
          )
            ? true
            : undefined,
        );
      }
      const baseTitle = (await alerts(w)).title;
      assert.doesNotMatch(baseTitle, /your turn/i, "no alert while the other player moves");
      const baseIcon = await favicon(w);

      // The sound switch: on by default, off when pressed, and still off after a reload.
      const sound = w.page.getByRole("banner").getByRole("button", { name: "Turn sound" });
      assert.equal(await sound.getAttribute("aria-pressed"), "true", "sound on by default");
      await sound.click();
      assert.equal(await sound.getAttribute("aria-pressed"), "false");
      await sound.click();
      assert.equal(await sound.getAttribute("aria-pressed"), "true");
      // Permission is already granted here: the only "Notify me" is the push settings' button.
      assert.equal(
        await w.page.getByRole("button", { name: "Notify me" }).getAttribute("title"),
        "Notifications from the hall, even with the tab closed",
      );

      // --- The mover plays; the turn passes to the waiter, whose tab is hidden.
      await playTurnOnChain(stack, gameId);
      const seen = await eventually(
        "the hidden tab to raise the alert",
        async () => {
          const a = await alerts(w);
          return a.notes.length > 0 && /your turn/i.test(a.title) ? a : undefined;
        },
        MOVE_TIMEOUT_MS,
      );
      assert.match(seen.title, /^\(!\) Your turn · /, "the tab's title says so");
      assert.deepEqual(
        seen.notes.map((n) => n.title),
        ["Dicehall: Your turn"],
        "one notification",
      );
      assert.match(seen.notes[0].body ?? "", new RegExp(`Game #${gameId}`));
      assert.ok(seen.buzz >= 1, "a vibration where the device has one");
      const icon = await favicon(w);
      assert.notEqual(icon, baseIcon, "the favicon changes");
      assert.match(icon, /^data:image\/svg\+xml,/);

      // The waiter's tab on the tables list alerts too, once, and links to the table.
      const away = await eventually(
        "the tables list's tab to raise the alert",
        async () => {
          const a = await alerts(list);
          return a.notes.length > 0 && /your turn/i.test(a.title) ? a : undefined;
        },
        MOVE_TIMEOUT_MS,
      );
      assert.match(away.title, /^\(!\) Your turn · /, "the other page's title says so");
      assert.deepEqual(
        away.notes.map((n) => n.body),
        [`Game #${gameId}: it's your move.`],
        "one notification from the other page",
      );
      assert.match(await favicon(list), /^data:image\/svg\+xml,/, "its favicon changes");
      // The strip links every table where it is this player's move: this one among them (an
      // earlier scenario may have left another table of this account waiting for it).
      const strip = list.page.getByRole("status", { name: "Your move" });
      const links = await strip
        .getByRole("link", { name: "Go to the table" })
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      assert.ok(links.includes(path), `the strip links ${path}: ${links.join(", ")}`);

      // The spectator's tab stays quiet.
      const watched = await alerts(s);
      assert.deepEqual(watched.notes, [], "no notification for a spectator");
      assert.doesNotMatch(watched.title, /your turn/i);

      // --- A reload on the waiter's turn: the title still says so, but nothing is raised again.
      await w.page.reload();
      await w.page.getByRole("table", { name: "Score sheets" }).waitFor();
      await eventually("the reloaded tab's title", async () =>
        /^\(!\) Your turn/.test((await alerts(w)).title) ? true : undefined,
      );
      await w.page.waitForTimeout(3_000);
      assert.deepEqual((await alerts(w)).notes, [], "no notification after a reload");
      assert.equal(
        await w.page.getByRole("banner").getByRole("button", { name: "Turn sound" }).count(),
        1,
      );
    },
  );

  e2e(
    suite,
    "turn alerts: the move's last 30 seconds turn the countdown urgent and repeat the alert once",
    { timeout: 180_000 },
    async (session) => {
      const { stack } = session;
      const [p6, p7] = [stack.accounts[6], stack.accounts[7]];
      const gameId = await startGame(stack, p6, p7, { moveTimeout: 300 });
      const mover = (await currentPlayer(stack, gameId)) as Address;
      const waiter = mover === p6 ? p7 : p6;
      const w = await alertTab(session, "waiter", waiter === p6 ? 6 : 7, `/games/${gameId}`, false);
      await eventually("the page to show whose turn it is", async () =>
        ((await turnLine(w.page).textContent({ timeout: 1_000 })) ?? "").includes(
          `${nameFor(mover, null)}'s turn`,
        )
          ? true
          : undefined,
      );
      await playTurnOnChain(stack, gameId);
      await eventually(
        "the turn's alert",
        async () => ((await alerts(w)).buzz === 1 ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      const line = w.page.locator(".table__turn");
      assert.equal(await line.getAttribute("data-urgent"), null, "not urgent with minutes left");

      // The chain's clock moves to 28 seconds before the deadline.
      const { deadline } = await gameView(stack, gameId);
      const now = Number((await stack.publicClient.getBlock()).timestamp);
      await stack.increaseTime(Number(deadline) - now - 28);
      await eventually(
        "the countdown to turn urgent",
        async () => ((await line.getAttribute("data-urgent")) === "true" ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      assert.match((await line.textContent()) ?? "", /Hurry: under 30 seconds left\.$/);
      await eventually("the alert to repeat", async () =>
        (await alerts(w)).buzz === 2 ? true : undefined,
      );
      await w.page
        .getByTestId("live-region")
        .getByText(/Under 30 seconds left/)
        .waitFor({ state: "attached" });
      // Once, not every second.
      await w.page.waitForTimeout(3_000);
      const after = await alerts(w);
      assert.equal(after.buzz, 2, "the alert repeats once");
      assert.deepEqual(after.notes, [], "a tab in view gets no notification");
    },
  );

  e2e(
    suite,
    "turn alerts: after a reload on an idle chain, two tabs count the same time left from the chain's real time",
    { timeout: 180_000 },
    async (session) => {
      const { stack } = session;
      const [p6, p7] = [stack.accounts[6], stack.accounts[7]];
      const gameId = await startGame(stack, p6, p7, { moveTimeout: 600 });
      const { deadline } = await gameView(stack, gameId);
      // Four minutes pass on the chain with nothing mined: the latest block grows old, as on an
      // idle local node that someone comes back to.
      const rpc = stack.publicClient.request as unknown as (args: {
        method: string;
        params: unknown[];
      }) => Promise<unknown>;
      await rpc({ method: "evm_increaseTime", params: [240] });
      const chainNow = async () => {
        const pending = (await rpc({
          method: "eth_getBlockByNumber",
          params: ["pending", false],
        })) as { timestamp: string };
        return Number(BigInt(pending.timestamp));
      };

      const path = `/games/${gameId}`;
      const a = await alertTab(session, "tab A (account 6)", 6, path, false);
      await a.page.reload();
      const b = await alertTab(session, "tab B (account 7)", 7, path, false);
      await b.page.reload();
      const [left, shownA, shownB] = await eventually(
        "both tabs to show the time left",
        async () => {
          const [x, y] = await Promise.all([secondsLeft(a), secondsLeft(b)]);
          if (x === undefined || y === undefined) return undefined;
          return [Number(deadline) - (await chainNow()), x, y] as const;
        },
      );
      session.suite.log(
        `idle chain: ${left} s left on chain; tab A ${shownA} s, tab B ${shownB} s`,
      );
      assert.ok(left <= 600 - 240, `the chain's clock moved on (${left} s left)`);
      assert.ok(
        Math.abs(shownA - left) <= 3,
        `tab A shows ${shownA} s left, the chain ${left} s (not the ${600} s of a stale block)`,
      );
      // The local chain makes a block every 2 s (as on Base), so a tab that read the clock just
      // before a block and one that read it just after may differ by that block's 2 s, no more.
      assert.ok(Math.abs(shownA - shownB) <= 2, `the tabs agree: ${shownA} s and ${shownB} s`);
    },
  );

  e2e(
    suite,
    "turn alerts: every player's end screen offers the rematch; the invited loser sees it there and in a notice, and their credit is not called winnings",
    { timeout: 300_000 },
    async (session) => {
      const { stack } = session;
      const [p6, p7] = [stack.accounts[6], stack.accounts[7]];
      const finished = await startGame(stack, p6, p7);
      await playToEnd(stack, finished);
      const result = await gameFinished(stack, finished);
      const winner = result?.winners?.[0];
      assert.ok(winner, "the game finished with a winner");
      const loser = winner === p6 ? p7 : p6;
      const index = (a: Address) => (a === p6 ? 6 : 7);

      // Before the rematch, each player's end screen offers one.
      const l = await openAs(session, "loser", index(loser), `/games/${finished}`);
      await l.page.getByRole("heading", { level: 2, name: RESULT_HEADLINE }).waitFor();
      await l.page.getByRole("link", { name: "Rematch" }).waitFor();

      // The loser holds a credit from another game: a lobby of theirs, cancelled and refunded.
      const old = await openLobby(stack, loser);
      const t = hallTable(stack);
      const hash = await t.wallet(loser).writeContract({
        address: stack.diceHall,
        abi: diceHallAbi,
        functionName: "cancelGame",
        args: [old],
        account: loser,
        chain: t.publicClient.chain,
      });
      await t.publicClient.waitForTransactionReceipt({ hash });

      // The winner opens the rematch: same table, the loser invited.
      const rematch = await openLobby(stack, winner, { invitees: [loser] });
      const offer = l.page.getByTestId("rematch-offer");
      await offer.waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.match(
        (await offer.textContent()) ?? "",
        new RegExp(`wants a rematch: game #${rematch}, same table\\.$`),
      );
      assert.equal(
        await l.page.getByRole("link", { name: "Join the rematch" }).getAttribute("href"),
        `/games/${rematch}`,
      );
      // Their credit is the refund of another game: named as their credit, not as winnings.
      await l.page.getByRole("heading", { name: "Your credit in the hall" }).waitFor();
      assert.equal(await l.page.getByRole("heading", { name: "Your winnings" }).count(), 0);

      // Anywhere else in the app, a notice calls them to it.
      await session.goto(l, "/leaderboard");
      const notice = l.page.getByRole("status", { name: "Rematch" });
      await notice.waitFor();
      assert.match(
        (await notice.textContent()) ?? "",
        new RegExp(`wants a rematch of game #${finished}\\.`),
      );
      assert.equal(
        await notice.getByRole("link", { name: `Join game #${rematch}` }).getAttribute("href"),
        `/games/${rematch}`,
      );

      // The winner's end screen says the rematch they opened is waiting.
      const w = await openAs(session, "winner", index(winner), `/games/${finished}`);
      const opened = w.page.getByTestId("rematch-offer");
      await opened.waitFor();
      assert.match(
        (await opened.textContent()) ?? "",
        new RegExp(`^You opened the rematch, game #${rematch}`),
      );
      await w.page.getByRole("heading", { name: "Your winnings" }).waitFor();
    },
  );
}

// Scenario 9: the coach (issue 19). In practice the hint is exact: the coach's best keep, with the
// expected final score of each option, the same the solver gives in Node for the dice on the
// table. A finished on-chain game is analysed from its events alone: a per-player summary whose
// scores are the contract's, and the chart of expected final score through the game.
import assert from "node:assert/strict";
import { join } from "node:path";

import { adviseKeep } from "@dicehall/core/coach/advise.ts";
import { TIE_EPSILON } from "@dicehall/core/coach/analyse.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { boxOptions, newSheet } from "@dicehall/core/rules/sheet.ts";
import { getGame, getSeat, score } from "../../../scripts/lib/table.ts";
import {
  STATUS,
  eventually,
  gameView,
  hallTable,
  playerView,
  rollOnChain,
  startGame,
} from "../lib/chain.ts";
import { BLOCKING_IMPACTS, describeViolations, runAxe } from "../lib/axe.ts";
import { e2e, SCREENSHOTS_DIR, type Suite } from "../lib/harness.ts";
import { diceGroup, settledDice, waitForRoll, waitForRollEnabled } from "../lib/ui.ts";

/** Yazty (rule set 2): its table builds in a tenth of a second, in Node and in the worker. */
const YAZTY = 2;

export function coachScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "the coach: a practice hint names the best keep with each option's expected final score",
    { timeout: 120_000 },
    async (session) => {
      const tracked = await session.newPage("practice coach", { reducedMotion: "reduce" });
      const { page } = tracked;
      await session.goto(tracked, "/practice");
      await page.getByRole("heading", { level: 1, name: "Practice" }).waitFor();
      await page.getByRole("radio", { name: "Solo" }).check();
      await page.getByRole("radio", { name: "Yazty" }).check();
      await page.getByRole("button", { name: "Start practising" }).click();

      await waitForRollEnabled(page);
      await page.keyboard.press("r");
      await waitForRoll(page, 1);
      const dice = (await settledDice(page))!;
      await page.keyboard.press("h");
      const options = page.getByTestId("coach-options");
      await options.waitFor();

      // The same position in Node: the solver's options, best first.
      const advice = adviseKeep(buildTable(YAZTY), newSheet(YAZTY), dice, 1);
      const text = (await page.getByTestId("hint-text").textContent()) ?? "";
      assert.ok(
        text.includes(`Expected final score ${advice[0].expected.toFixed(1)}.`),
        `the hint "${text}" gives the best option's expected score for ${dice.join("-")}`,
      );
      const rows = options.getByRole("row");
      const shown = Math.min(5, advice.length);
      assert.equal(await rows.count(), shown + 1, "a header and the best options");
      for (let i = 0; i < shown; i++) {
        const cells = await rows
          .nth(i + 1)
          .getByRole("cell")
          .allTextContents();
        assert.equal(cells[1], advice[i].expected.toFixed(1), `option ${i + 1}: ${cells[0]}`);
        // The best, and any option within the tie epsilon of it, says "best".
        if (i === 0 || advice[i].loss < TIE_EPSILON) assert.equal(cells[2], "best");
        else assert.match(cells[2], /^−\d+\.\d$/);
      }
      if (!advice[0].stop) {
        // "Keep those" holds what the coach keeps.
        await page.getByRole("button", { name: "Keep those" }).click();
        await eventually("the coach's keep to be held", async () =>
          (await diceGroup(page).getByRole("button", { pressed: true }).count()) ===
          advice[0].kept.length
            ? true
            : undefined,
        );
      }
      assert.match(
        (await page.getByTestId("coach-objective").first().textContent()) ?? "",
        /highest expected score of your own sheet/,
      );
    },
  );

  e2e(
    suite,
    "the coach: a finished on-chain game of Yazty, analysed from its events (summary and chart)",
    { timeout: 420_000 },
    async (session) => {
      const { stack } = session;
      const [a, b] = [stack.accounts[15], stack.accounts[16]];
      const gameId = await startGame(stack, a, b, { ruleSet: YAZTY });
      // While it is played, with a bet on it: no hint at the table, no analysis yet.
      const live = await session.newPage("live table");
      await session.goto(live, `/games/${gameId}`);
      await live.page.getByRole("table", { name: "Score sheets" }).waitFor();
      assert.equal(await live.page.getByRole("button", { name: /^Hint/ }).count(), 0);
      assert.equal(await live.page.getByTestId("coach-options").count(), 0);
      await session.goto(live, `/games/${gameId}/analysis`);
      await live.page.getByText(/This game is still being played/).waitFor();
      assert.equal(await live.page.getByTestId("coach-summary").count(), 0);

      // Every turn: a roll, on odd turns a re-roll keeping the first two dice, then the first
      // legal box: keep decisions and box decisions both get reviewed.
      const t = hallTable(stack);
      for (let turn = 0; turn < 200; turn++) {
        if ((await gameView(stack, gameId)).status !== STATUS.Running) break;
        const player = await rollOnChain(stack, gameId);
        if (turn % 2 === 1) await rollOnChain(stack, gameId, 0b00011);
        const seat = await getSeat(t, gameId, YAZTY, player);
        const box = boxOptions(seat.sheet, seat.dice).find((o) => o.legal)!.box;
        await score(t, player, gameId, box);
      }
      const view = await getGame(t, gameId);
      assert.equal(view.status, STATUS.Finished);
      const totals = new Map<string, bigint>();
      for (const p of [a, b])
        totals.set(p.toLowerCase(), (await playerView(stack, gameId, p)).total);

      const tracked = await session.newPage("analysis");
      const { page } = tracked;
      // From the replay, the way a player finds it.
      await session.goto(tracked, `/games/${gameId}/replay`);
      await page.getByRole("link", { name: "The coach's analysis" }).click();
      await page.waitForURL(new RegExp(`/games/${gameId}/analysis$`));
      await page.getByRole("heading", { level: 1, name: `Analysis of game #${gameId}` }).waitFor();

      const summary = page.getByTestId("coach-summary");
      await summary.waitFor();
      const rows = summary.getByRole("row");
      assert.equal(await rows.count(), 3, "a header and one row per player");
      for (let i = 1; i <= 2; i++) {
        const name = (await rows.nth(i).getByRole("rowheader").textContent()) ?? "";
        const cells = await rows.nth(i).getByRole("cell").allTextContents();
        const player = [a, b].find((p) => name.includes(p.slice(2, 6)));
        assert.ok(player, `the row "${name}" names a player`);
        assert.equal(BigInt(cells[0]), totals.get(player.toLowerCase()), `${name}: the score`);
        assert.match(cells[1], /^\d+\.\d$/, `${name}: expected points lost`);
        // First legal box every turn is not the coach's play: something was given up.
        assert.ok(Number(cells[1]) > 0, `${name} gave up points`);
        assert.match(cells[2], /^\d+% \(\d+ of \d+\)$/, `${name}: share of best moves`);
        assert.match(cells[3], /^turn \d+, roll \d/, `${name}: the biggest mistake`);
      }
      const chart = page.getByTestId("coach-chart");
      await chart.waitFor();
      await page.screenshot({ path: join(SCREENSHOTS_DIR, "analysis.png"), fullPage: true });
      assert.equal(await chart.locator("polyline").count(), 2, "one line per player");
      assert.match(
        (await page.getByTestId("coach-objective").textContent()) ?? "",
        /not the play that maximises your chance of beating them/,
      );
      // The chart's numbers are a table too; the decisions open from the keyboard.
      await page.getByText("The chart's numbers").click();
      await page.getByRole("table", { name: "Expected final score after each turn" }).waitFor();
      const decisions = page
        .locator("summary")
        .filter({ hasText: /every decision/ })
        .first();
      await decisions.focus();
      await page.keyboard.press("Enter");
      await page
        .getByRole("table", { name: /'s decisions$/ })
        .first()
        .waitFor();
      const { violations } = await runAxe(page);
      const blocking = violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
      assert.equal(blocking.length, 0, describeViolations(blocking));
    },
  );
}

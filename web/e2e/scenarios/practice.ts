// Scenario 5: practice mode, two players on one device, a whole game of Yatzy by keyboard.
import assert from "node:assert/strict";

import { eventually } from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  diceGroup,
  keyboardScore,
  rollCount,
  sheetTotals,
  turnLine,
  waitForRoll,
  waitForRollEnabled,
} from "../lib/ui.ts";

export function practiceScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "practice: a two-player hot-seat game of Yatzy, played to the end with the keyboard",
    { timeout: 300_000 },
    async (session) => {
      // With reduced motion the dice settle at once (the app's own path for it): 30 turns go faster.
      const tracked = await session.newPage("practice", { reducedMotion: "reduce" });
      const { page } = tracked;
      await session.goto(tracked, "/practice");
      await page.getByRole("heading", { level: 1, name: "Practice" }).waitFor();

      await page.getByRole("radio", { name: "2 players" }).check();
      await page.getByLabel("Player 1 name").fill("Ann");
      await page.getByLabel("Player 2 name").fill("Ben");
      await page.getByRole("radio", { name: "Yatzy" }).check();
      await page.getByLabel("Games in the match").selectOption({ label: "1 game" });
      await page.getByRole("button", { name: "Start practising" }).click();

      const boxes = 15;
      const live = page.getByTestId("live-region");
      for (let turn = 0; turn < 2 * boxes; turn++) {
        const player = turn % 2 === 0 ? "Ann" : "Ben";
        const round = Math.floor(turn / 2) + 1;
        const line = turnLine(page);
        await eventually(`${player}'s turn in round ${round}`, async () => {
          const text = (await line.textContent({ timeout: 1_000 })) ?? "";
          return text.startsWith(`${player}'s turn: round ${round} of ${boxes}`) ? true : undefined;
        });
        await waitForRollEnabled(page);
        await page.keyboard.press("r");
        const first = await waitForRoll(page, 1);

        if (round % 5 === 1) {
          // Keep die 1, re-roll the rest: die 1 stays what it was.
          await page.keyboard.press("1");
          const die1 = diceGroup(page).getByRole("button").first();
          await eventually("die 1 to be kept", async () =>
            (await die1.getAttribute("aria-pressed")) === "true" ? true : undefined,
          );
          await page.keyboard.press("r");
          const second = await waitForRoll(page, 2);
          assert.equal(second[0], first[0], "a kept die keeps its value");
          // D reads the dice aloud (through the live region).
          await page.keyboard.press("d");
          await eventually("the dice to be read out", async () =>
            /Dice: .*Roll 2 of 3\. Keeping die 1\./.test((await live.textContent()) ?? "")
              ? true
              : undefined,
          );
        }
        await keyboardScore(page);
        await eventually("the turn to pass", async () =>
          (await rollCount(page)) !== 1 && (await rollCount(page)) !== 2 ? true : undefined,
        );
      }

      await page.getByRole("heading", { level: 2, name: "Match over" }).waitFor();
      const totals = await sheetTotals(page);
      assert.deepEqual([...totals.keys()], ["Ann", "Ben"]);

      // The standings table agrees with the sheets.
      const standings = page
        .getByRole("table")
        .filter({ has: page.getByRole("columnheader", { name: "Place" }) });
      const rows = await standings.getByRole("row").all();
      const byName = new Map<string, { place: string; points: number; wins: number }>();
      for (const row of rows.slice(1)) {
        const name = (await row.getByRole("rowheader").textContent()) ?? "";
        const cells = await row.getByRole("cell").allTextContents();
        byName.set(name, { place: cells[0], wins: Number(cells[1]), points: Number(cells[2]) });
      }
      for (const [name, total] of totals) {
        assert.equal(byName.get(name)?.points, total, `${name}'s points in the standings`);
      }
      const [ann, ben] = [totals.get("Ann")!, totals.get("Ben")!];
      const leader = ann >= ben ? "Ann" : "Ben";
      assert.equal(byName.get(leader)?.place, "1st");
      assert.equal(byName.get(leader)?.wins, 1);
      assert.equal(await turnLine(page).textContent(), "Match over.");
    },
  );
}

// Scenario 12: skill across games (issue 26). Finished games are analysed and rated by the game
// index; the leaderboard shows each player's rating, points lost per game and share of best moves,
// and a rating opens the player's page, whose numbers are the index's and the leaderboard's.
import assert from "node:assert/strict";

import type {
  WireGameAnalysis,
  WireLeaderboard,
  WirePlayer,
} from "@dicehall/core/indexer/indexerWire.ts";
import { eventually, playToEnd, startGame } from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";

export function playerScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "player pages: the leaderboard's rating opens a player's page with their games, rating and accuracy",
    { timeout: 300_000 },
    async (session) => {
      const { stack } = session;
      const indexerUrl = stack.chain.indexerUrl;
      assert.ok(indexerUrl, "the suite's stack runs the game index");
      // Three finished games of Yazty among three accounts, played through the contract on
      // whichever Entropy the suite runs (the model's revelations or MockEntropy's).
      const [a, b, c] = [stack.accounts[12], stack.accounts[13], stack.accounts[14]];
      const gameIds: bigint[] = [];
      for (const [first, second] of [
        [a, b],
        [b, c],
        [a, c],
      ] as const) {
        const id = await startGame(stack, first, second, { ruleSet: 2 });
        await playToEnd(stack, id);
        gameIds.push(id);
      }
      // The index has analysed every one of them (the coach runs beside the indexer).
      for (const id of gameIds) {
        await eventually(
          `game ${id} analysed by the index`,
          async () =>
            (
              (await (
                await fetch(`${indexerUrl}/api/games/${id}/analysis`)
              ).json()) as WireGameAnalysis
            ).analysed
              ? true
              : undefined,
          // The first time, the index builds the coach's tables (seconds per rule set).
          180_000,
          500,
        );
      }
      const board = (await (
        await fetch(`${indexerUrl}/api/leaderboard?sort=rating&limit=1`)
      ).json()) as WireLeaderboard;
      const top = board.rows[0];

      const tracked = await session.newPage("player page");
      const { page } = tracked;
      await session.goto(tracked, "/leaderboard?sort=rating");
      const rating = page.getByTestId("leaderboard-rating").first();
      await rating.waitFor();
      assert.equal(await rating.textContent(), board.skill![0].rating!.toFixed(1));
      await rating.click();
      await page.waitForURL(new RegExp(`/players/${top.player}$`, "i"));

      const player = (await (
        await fetch(`${indexerUrl}/api/players/${top.player}`)
      ).json()) as WirePlayer;
      assert.equal(await page.getByTestId("player-games").textContent(), String(top.games));
      assert.equal(await page.getByTestId("player-wins").textContent(), String(top.wins));
      // One row per rule set played, its rating as the leaderboard's for the best of them.
      const ratings = page.getByTestId("player-ratings").getByRole("row");
      assert.equal(await ratings.count(), player.ratings.length + 1);
      const shown = await ratings.locator("td:nth-child(2)").allTextContents();
      assert.ok(shown.includes(board.skill![0].rating!.toFixed(1)), `ratings ${shown.join(", ")}`);
      assert.equal(
        await page.getByTestId("player-rating-chart").locator("polyline").count(),
        player.ratings.length,
      );
      // The accuracy chart's numbers, game by game, as a table.
      const accuracy = page.getByTestId("player-accuracy").getByRole("row");
      assert.equal(await accuracy.count(), player.accuracy.length + 1);
      const latest = player.accuracy.at(-1)!;
      const cells = await accuracy.nth(1).getByRole("cell").allTextContents();
      assert.equal(cells[0], `#${latest.gameId}`);
      assert.equal(cells[3], latest.pointsLost.toFixed(1));
      // Games link to their replays and analyses.
      await eventually("the recent games listed", async () =>
        (await page.getByTestId("player-recent").getByRole("link").count()) > 0 ? true : undefined,
      );
      await page.getByTestId("player-accuracy").getByRole("link").first().click();
      await page.waitForURL(new RegExp(`/games/${latest.gameId}/analysis$`));
      await page.getByTestId("coach-summary").waitFor();
    },
  );
}

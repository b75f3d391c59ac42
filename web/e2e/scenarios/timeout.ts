// Scenario 4: an opponent goes silent. The chain's clock moves past their move deadline, the other
// player claims the timeout from the page, and (two players) wins: the standings say so.
import assert from "node:assert/strict";

import {
  STATUS,
  currentPlayer,
  eventually,
  gameFinished,
  gameView,
  playerView,
  startGame,
  turnKey,
} from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  RESULT_HEADLINE,
  escapeRegExp,
  mouseTurn,
  moveLands,
  nameFor,
  openAs,
  sheetText,
  standings,
  turnLine,
} from "../lib/ui.ts";

const MOVE_TIMEOUT_S = 60;

export function timeoutScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "a silent opponent: time passes, the other player claims the timeout from the page and wins",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [claimer, silent] = [stack.accounts[8], stack.accounts[9]];
      const gameId = await startGame(stack, claimer, silent, { moveTimeout: MOVE_TIMEOUT_S });
      const c = await openAs(session, "claimer (account 8)", 8, `/games/${gameId}`);
      await c.page.getByRole("table", { name: "Score sheets" }).waitFor();

      // If the claimer moves first, they play their turn; then it is the silent player's.
      if ((await currentPlayer(stack, gameId)) === claimer) {
        const before = await turnKey(stack, gameId);
        await mouseTurn(c.page);
        await moveLands(stack, gameId, before, c.page, "the claimer's turn to be scored");
      }
      assert.equal(await currentPlayer(stack, gameId), silent);
      const claim = c.page.getByRole("button", { name: "Claim the timeout" });
      await eventually("the page to show the silent player's turn", async () =>
        (await turnLine(c.page).textContent({ timeout: 1_000 }))?.startsWith(
          `Round ${(await gameView(stack, gameId)).round} of 13. ${nameFor(silent, claimer)}'s turn`,
        )
          ? true
          : undefined,
      );
      assert.equal(await claim.count(), 0, "no claim before the deadline");

      // --- The silent player's deadline passes on chain.
      const { deadline } = await gameView(stack, gameId);
      await stack.increaseTime(MOVE_TIMEOUT_S + 30);
      const block = await stack.publicClient.getBlock();
      assert.ok(block.timestamp > deadline, "the chain's clock is past the deadline");

      await c.page.getByText(/ran out of time/).waitFor({ timeout: MOVE_TIMEOUT_MS });
      await claim.click();

      // --- Two players: the claimer is the last one standing and wins.
      await c.page
        .getByRole("heading", { level: 2, name: "You win!" })
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
      assert.equal((await playerView(stack, gameId, silent)).forfeited, true);
      const result = await gameFinished(stack, gameId);
      assert.deepEqual(result?.winners, [claimer]);

      const shown = await standings(c.page);
      assert.match(shown.heading, RESULT_HEADLINE);
      assert.deepEqual(
        shown.rows.map((r) => [r.place, r.name, r.note.startsWith("won ") ? "won" : r.note]),
        [
          ["1st", "You", "won"],
          ["–", nameFor(silent, claimer), "forfeited"],
        ],
      );
      // The sheet marks the forfeited player too.
      const header = (await sheetText(c.page))[0];
      assert.ok(
        header.some((cell) =>
          new RegExp(`^${escapeRegExp(nameFor(silent, claimer))}\\s*forfeited$`).test(cell),
        ),
        `the sheet's header marks the forfeit: ${header.join(" | ")}`,
      );
    },
  );
}

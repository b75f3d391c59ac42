// Scenario 4: an opponent goes silent. The chain's clock moves past their move deadline, the other
// player claims the timeout from the page, and (two players) wins: the standings say so.
import assert from "node:assert/strict";

import {
  STATUS,
  currentPlayer,
  eventually,
  gameFinished,
  gameView,
  playTurnOnChain,
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
import { PAGE_TIMEOUT_MS } from "../lib/timing.ts";

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

  e2e(
    suite,
    "the timeout claim opens with the first block past the deadline, not by the browser's clock",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [claimer, silent] = [stack.accounts[8], stack.accounts[11]];
      const gameId = await startGame(stack, claimer, silent, { moveTimeout: MOVE_TIMEOUT_S });
      if ((await currentPlayer(stack, gameId)) === claimer) await playTurnOnChain(stack, gameId);
      assert.equal(await currentPlayer(stack, gameId), silent);
      const c = await openAs(session, "claimer (account 8)", 8, `/games/${gameId}`);
      await c.page.getByRole("table", { name: "Score sheets" }).waitFor();
      const claim = c.page.getByRole("button", { name: "Claim the timeout" });
      const waitNote = c.page.getByText(/the claim opens with the chain's next block/);

      // The chain stops making blocks of its own: its clock moves past the deadline, but no block
      // carries that time until the test mines one (a chain whose next block is seconds away).
      const rpc = stack.publicClient.request as unknown as (args: {
        method: string;
        params: unknown[];
      }) => Promise<unknown>;
      await rpc({ method: "evm_setIntervalMining", params: [0] });
      try {
        const { deadline } = await gameView(stack, gameId);
        await stack.moveClock(MOVE_TIMEOUT_S + 30);
        const latest = await stack.publicClient.getBlock();
        assert.ok(latest.timestamp <= deadline, "no block is past the deadline yet");
        // The page's clock (the pending block's time) says time is up; the claim waits for a block.
        await waitNote.waitFor({ timeout: PAGE_TIMEOUT_MS });
        await eventually("the heading to say time is up", async () =>
          /time is up/.test((await turnLine(c.page).textContent()) ?? "") ? true : undefined,
        );
        await new Promise((r) => setTimeout(r, 1_500));
        assert.equal(await claim.count(), 0, "no claim while the latest block is at the deadline");

        await rpc({ method: "evm_mine", params: [] });
        const mined = Date.now();
        await claim.waitFor({ timeout: 10_000 });
        const shownAfterMs = Date.now() - mined;
        session.suite.log(`claim offered ${shownAfterMs} ms after the block past the deadline`);
        assert.equal(await waitNote.count(), 0, "the note goes with the block");
      } finally {
        await rpc({ method: "evm_setIntervalMining", params: [stack.chain.blockIntervalMs] });
      }
      await claim.click();
      await c.page
        .getByRole("heading", { level: 2, name: "You win!" })
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.equal(
        await c.page
          .getByRole("alert")
          .filter({ hasText: /still has time/ })
          .count(),
        0,
      );
      assert.equal((await playerView(stack, gameId, silent)).forfeited, true);
    },
  );
}

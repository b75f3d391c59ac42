// Scenario 12: a wallet that asks. Each player connects an injected wallet announced through
// EIP-6963 (web/e2e/lib/countingWallet.ts) that signs with a test key and counts every request a
// real wallet would put in front of its user; the scenarios assert how many there were.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Address } from "viem";

import { STATUS, currentPlayer, eventually, gameView, turnKey } from "../lib/chain.ts";
import { openWithWallet, type CountingWallet } from "../lib/countingWallet.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  chooseBox,
  diceGroup,
  legalBoxes,
  moveLands,
  rollButton,
  waitForRoll,
  waitForRollEnabled,
} from "../lib/ui.ts";

/** Asserts the wallet asked exactly `expected` times, listing what it asked for if not. */
function assertAsked(wallet: CountingWallet, expected: number, who: string): void {
  assert.equal(
    wallet.confirmations(),
    expected,
    `${who}'s wallet asked ${wallet.confirmations()} times, not ${expected}: ${wallet.confirmationLog().join(", ")}`,
  );
}

export function walletScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "signing every move: the wallet asks once for the table, once for the seat and once per move",
    { timeout: 300_000 },
    async (session) => {
      const { stack } = session;
      const [playerA, playerB] = [stack.accounts[10], stack.accounts[11]];

      // --- A opens an ETH table, B joins it: one confirmation each.
      const a = await openWithWallet(session, "A (account 10, wallet)", 10, "/games/new");
      await a.tracked.page.getByRole("radio", { name: /^ETH/ }).check();
      await a.tracked.page.getByRole("button", { name: "Open the table" }).click();
      await a.tracked.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.tracked.page.url())![1]);
      const asked = new Map<Address, number>([
        [playerA, 1],
        [playerB, 0],
      ]);
      assertAsked(a.wallet, 1, "A");

      const b = await openWithWallet(session, "B (account 11, wallet)", 11, `/games/${gameId}`);
      await b.tracked.page.getByRole("button", { name: /^Join for / }).click();
      asked.set(playerB, 1);
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assert.equal((await gameView(stack, gameId)).status, STATUS.Running);
      assertAsked(b.wallet, 1, "B");

      const pageOf = (player: Address): Page =>
        player === playerA ? a.tracked.page : b.tracked.page;
      const count = (player: Address) => asked.set(player, asked.get(player)! + 1);

      // --- The order roll (A presses it), then three rounds; one turn keeps a die and re-rolls.
      await waitForRollEnabled(a.tracked.page);
      await a.tracked.page.getByRole("button", { name: /^Roll for the turn order/ }).click();
      count(playerA);
      await eventually(
        "the first roll to draw the order",
        async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      const first = (await currentPlayer(stack, gameId))!;
      await waitForRoll(pageOf(first), 1);
      const afterDraw = await turnKey(stack, gameId);
      await chooseBox(pageOf(first), legalBoxes(pageOf(first)).first());
      count(first);
      await moveLands(stack, gameId, afterDraw, pageOf(first), "the first turn to be scored");

      for (let turn = 1; turn < 6; turn++) {
        const player = (await currentPlayer(stack, gameId))!;
        const page = pageOf(player);
        const before = await turnKey(stack, gameId);
        await waitForRollEnabled(page);
        await rollButton(page).click();
        count(player);
        await waitForRoll(page, 1);
        if (turn === 2) {
          const die1 = diceGroup(page).getByRole("button").first();
          await die1.click();
          await eventually("die 1 to show as kept", async () =>
            (await die1.getAttribute("aria-pressed")) === "true" ? true : undefined,
          );
          await rollButton(page).click();
          count(player);
          await waitForRoll(page, 2);
        }
        await chooseBox(page, legalBoxes(page).first());
        count(player);
        await moveLands(stack, gameId, before, page, `turn ${turn + 1} to be scored`);
      }

      assertAsked(a.wallet, asked.get(playerA)!, "A");
      assertAsked(b.wallet, asked.get(playerB)!, "B");
      // Every one of them a transaction (nothing signed off chain), and at least one per move.
      for (const wallet of [a.wallet, b.wallet]) {
        assert.ok(wallet.confirmationLog().every((line) => line.startsWith("eth_sendTransaction")));
      }
      assert.ok(asked.get(playerA)! + asked.get(playerB)! >= 2 + 1 + 6 * 2);
    },
  );
}

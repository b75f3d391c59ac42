// Scenario 1: a public Test USD table from the create form to the withdrawal of the winnings. A
// plays with the mouse, B with the keyboard only (R, 1–5, the T/S/C readouts, arrows, Enter). Both
// choose to sign every move (the path without a session key; scenario 12 plays with one).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { parseUnits, type Address } from "viem";

import {
  STATUS,
  currentPlayer,
  eventually,
  gameFinished,
  gameView,
  playerView,
  tokenBalance,
  credits,
  turnKey,
} from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  RESULT_HEADLINE,
  chooseBox,
  diceGroup,
  keyboardScore,
  legalBoxes,
  mouseTurn,
  moveLands,
  nameFor,
  openAs,
  sheetTotals,
  standings,
  waitForRoll,
  waitForRollEnabled,
} from "../lib/ui.ts";

const BET = "5";
const TUSD = (amount: string) => parseUnits(amount, 6);

/** B's turn, keys only. On some turns B keeps die 1 and re-rolls the others. */
async function keyboardTurn(page: Page, keepAndReroll: boolean): Promise<void> {
  await waitForRollEnabled(page);
  await page.keyboard.press("r");
  const first = await waitForRoll(page, 1);
  if (keepAndReroll) {
    await page.keyboard.press("1");
    const die1 = diceGroup(page).getByRole("button").first();
    await eventually("die 1 to show as kept", async () =>
      (await die1.getAttribute("aria-pressed")) === "true" ? true : undefined,
    );
    await page.keyboard.press("r");
    const second = await waitForRoll(page, 2);
    assert.equal(second[0], first[0], "the kept die keeps its value through the re-roll");
  }
  await keyboardScore(page);
}

/** Presses a readout key and waits for the live region to say `expected`. */
async function readout(page: Page, key: string, expected: RegExp): Promise<void> {
  await page.keyboard.press(key);
  await eventually(`${key.toUpperCase()} to read out ${expected}`, async () =>
    expected.test((await page.getByTestId("live-region").textContent()) ?? "") ? true : undefined,
  );
}

export function fullGameScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "a public TUSD table: create with approval, join from the lobby list, 13 rounds (B by keyboard), standings, withdraw",
    { timeout: 600_000 },
    async (session) => {
      const { stack } = session;
      const token = stack.testToken;
      const [playerA, playerB] = [stack.accounts[1], stack.accounts[2]];
      const balanceA0 = await tokenBalance(stack, token, playerA);
      const balanceB0 = await tokenBalance(stack, token, playerB);

      // --- A opens a public table with a TUSD bet; the button says the approval comes first.
      const a = await openAs(session, "A (account 1)", 1, "/games/new");
      await a.page.getByRole("radio", { name: "TUSD" }).check();
      await a.page.getByLabel(/^Bet per seat/).fill(BET);
      await a.page.getByRole("radio", { name: "Sign every move" }).check();
      await a.page.getByText(/TUSD is a token: your wallet asks twice/).waitFor();
      await a.page.getByRole("button", { name: "Approve TUSD and open the table" }).click();
      await a.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.page.url())![1]);
      await a.page.getByRole("heading", { name: "Waiting for players" }).waitFor();

      const opened = await gameView(stack, gameId);
      assert.equal(opened.status, STATUS.Open);
      assert.equal(opened.config.token, token);
      assert.equal(opened.config.bet, TUSD(BET));
      assert.deepEqual(opened.config.invitees, []);
      assert.equal(await tokenBalance(stack, token, playerA), balanceA0 - TUSD(BET));

      // --- B finds it in the lobby list and joins (approving first, too).
      const b = await openAs(session, "B (account 2)", 2, "/games");
      const card = b.page
        .getByRole("list", { name: "Open tables" })
        .getByRole("listitem")
        .filter({ hasText: `#${gameId}` });
      await card.waitFor();
      // One seat of two taken. (The card's "1 of 2 seats taken" is an aria-label on a plain
      // <span>, which has no accessible name; the visible "1/2" is read instead.) The bet reads in
      // TUSD once the token's symbol and decimals are in (until then the card shows raw units).
      const seat = new RegExp(`1/2.*${BET} TUSD a seat`);
      await card.filter({ hasText: seat }).waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.match((await card.textContent()) ?? "", seat);
      await card.getByRole("link", { name: "View & join" }).click();
      await b.page.getByRole("radio", { name: "Sign every move" }).check();
      await b.page.getByRole("button", { name: `Approve TUSD and join for ${BET} TUSD` }).click();

      for (const p of [a.page, b.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assert.equal((await gameView(stack, gameId)).status, STATUS.Running);
      assert.equal(await tokenBalance(stack, token, playerB), balanceB0 - TUSD(BET));

      // --- The first roll draws the turn order: A makes it from the table ("Roll for the turn
      // order"), B's page shows the same offer; the dice go to whoever the draw puts first.
      const pageOf = (player: Address) => (player === playerA ? a.page : b.page);
      assert.equal((await gameView(stack, gameId)).orderDrawn, false);
      await b.page.getByRole("button", { name: /^Roll for the turn order/ }).waitFor();
      await waitForRollEnabled(a.page);
      await a.page.getByRole("button", { name: /^Roll for the turn order/ }).click();
      await eventually(
        "the first roll to draw the order",
        async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      const first = (await currentPlayer(stack, gameId))!;
      assert.equal((await playerView(stack, gameId, first)).rollsUsed, 1);
      await waitForRoll(pageOf(first), 1);
      const afterDraw = await turnKey(stack, gameId);
      let bTurns = 0;
      if (first === playerA) {
        await chooseBox(a.page, legalBoxes(a.page).first());
      } else {
        bTurns++;
        await keyboardScore(b.page);
      }
      await moveLands(
        stack,
        gameId,
        afterDraw,
        pageOf(first),
        "the first turn to be scored on chain",
      );

      // --- The other 25 turns of 13 rounds: whoever's turn it is on chain moves on their page.
      for (let turn = 1; turn < 26; turn++) {
        const player = await currentPlayer(stack, gameId);
        assert.ok(player, `the game runs at turn ${turn + 1}`);
        const before = await turnKey(stack, gameId);
        if (player === playerA) {
          await mouseTurn(pageOf(player));
        } else {
          bTurns++;
          if (bTurns === 2) {
            // The readouts: T whose turn, S everyone's totals, C my sheet (spoken through the
            // live region).
            await waitForRollEnabled(b.page);
            await readout(b.page, "t", /Round 2 of 13\. Your turn/);
            await readout(b.page, "s", /Totals (after round 1|so far, in round 2) of 13: /);
            await readout(b.page, "c", /Your sheet: Ones (\d+|open)/);
          }
          await keyboardTurn(b.page, bTurns === 1 || bTurns === 7);
        }
        await moveLands(
          stack,
          gameId,
          before,
          pageOf(player),
          `turn ${turn + 1} to be scored on chain`,
        );
      }

      // --- The end: the standings on both pages match the sheets and the contract.
      assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
      const result = await gameFinished(stack, gameId);
      assert.ok(result, "GameFinished was emitted");
      const contractTotals = new Map<string, bigint>();
      for (const player of [playerA, playerB]) {
        contractTotals.set(player, (await playerView(stack, gameId, player)).total);
      }
      for (const [viewer, page] of [
        [playerA, a.page],
        [playerB, b.page],
      ] as const) {
        await page
          .getByRole("heading", { level: 2, name: RESULT_HEADLINE })
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        const shown = await standings(page);
        const sheet = await sheetTotals(page);
        assert.equal(shown.rows.length, 2);
        for (const row of shown.rows) {
          const player = [playerA, playerB].find((p) => nameFor(p, viewer) === row.name);
          assert.ok(player, `standings row "${row.name}" names a player`);
          assert.equal(
            BigInt(row.total),
            contractTotals.get(player),
            `${row.name}: standings = getPlayer total`,
          );
          assert.equal(sheet.get(row.name), row.total, `${row.name}: standings = sheet total`);
          const won = result.winners!.includes(player);
          assert.equal(/^won /.test(row.note), won, `${row.name}: "${row.note}"`);
        }
        assert.ok(shown.rows[0].total >= shown.rows[1].total, "standings are sorted, best first");
        const iWon = result.winners!.includes(viewer);
        assert.match(
          shown.heading,
          iWon ? /^You (win|share the win)!$/ : / wins\.$| share the win\.$/,
        );
      }

      // --- The (first) winner withdraws; the TUSD balance grows by the payout.
      const winner = result.winners![0];
      const page = pageOf(winner);
      const owed = await credits(stack, token, winner);
      const pot = TUSD(BET) * 2n;
      const remainder =
        pot - result.houseFee! - result.payoutEach! * BigInt(result.winners!.length);
      assert.equal(owed, result.payoutEach! + remainder, "the winner is owed the payout");
      const before = await tokenBalance(stack, token, winner);
      const winnings = page.getByRole("region", { name: "Your winnings" });
      await winnings.getByRole("button", { name: "Withdraw" }).click();
      await winnings.getByText("Sent to your wallet.").waitFor({ timeout: MOVE_TIMEOUT_MS });
      const after = await tokenBalance(stack, token, winner);
      assert.equal(after - before, owed, "the balance grew by the payout");
      assert.equal(await credits(stack, token, winner), 0n);
    },
  );
}

// Scenario 2: a private table. An account that is not invited is told why it cannot join (and the
// contract agrees); the invited one finds it under its invitations and joins.
import assert from "node:assert/strict";
import { parseEther } from "viem";

import { STATUS, gameView, joinRefusal } from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import { MOVE_TIMEOUT_MS, openAs } from "../lib/ui.ts";

export function privateLobbyScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "a private table: the uninvited account is told why it cannot join, the invited one joins",
    { timeout: 180_000 },
    async (session) => {
      const { stack } = session;
      const [host, guest, stranger] = [stack.accounts[3], stack.accounts[4], stack.accounts[5]];
      const bet = "0.01";

      // --- The host opens a private table in ETH for the guest.
      const h = await openAs(session, "host (account 3)", 3, "/games/new");
      await h.page.getByRole("radio", { name: "ETH (native)" }).check();
      await h.page.getByLabel(/^Bet per seat/).fill(bet);
      await h.page.getByLabel("Invite players (optional)").fill(guest);
      await h.page.getByRole("button", { name: "Open the table" }).click();
      await h.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(h.page.url())![1]);
      await h.page.getByRole("heading", { name: "Waiting for players" }).waitFor();
      const opened = await gameView(stack, gameId);
      assert.equal(opened.status, STATUS.Open);
      assert.deepEqual(opened.config.invitees, [guest]);

      // --- A stranger opens the table's link: no join button, and the reason in words.
      const s = await openAs(session, "stranger (account 5)", 5, `/games/${gameId}`);
      await s.page.getByRole("heading", { name: "Waiting for players" }).waitFor();
      await s.page.getByText("This table is private, and you are not on its list.").waitFor();
      assert.equal(
        await s.page.getByRole("button", { name: /^(Approve .* and )?[Jj]oin/ }).count(),
        0,
      );
      // The contract refuses it too, for the same reason.
      assert.equal(await joinRefusal(stack, stranger, gameId, parseEther(bet)), "NotInvited");

      // --- The guest sees it among their invitations and joins; the game starts.
      const g = await openAs(session, "guest (account 4)", 4, "/games");
      const invitation = g.page
        .getByRole("list", { name: "Invitations" })
        .getByRole("listitem")
        .filter({ hasText: `#${gameId}` });
      await invitation.waitFor();
      await invitation.getByText("private").waitFor();
      await invitation.getByRole("link", { name: "View & join" }).click();
      await g.page.getByRole("button", { name: /^Join for / }).click();
      await g.page
        .getByRole("table", { name: "Score sheets" })
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      const started = await gameView(stack, gameId);
      assert.equal(started.status, STATUS.Running);
      assert.deepEqual([...started.players].sort(), [host, guest].sort());

      // The stranger's page follows: the table, as a spectator.
      await s.page
        .getByRole("table", { name: "Score sheets" })
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      await s.page.getByText("You are watching this game.").waitFor();
    },
  );
}

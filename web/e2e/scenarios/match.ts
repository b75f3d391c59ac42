// Scenario 15: a match (issue 33): three games of Yahtzee for one ETH stake at one table, each
// player with the counting wallet (web/e2e/lib/countingWallet.ts) and a session key. The wallets
// are asked exactly once each, for the whole match (the create, the join); the standings are on
// screen after every game; at the end each key pays its player out, and the keys and the credits
// in the hall are at 0.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type Address } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import {
  NATIVE,
  STATUS,
  credits,
  currentPlayer,
  eventually,
  gameView,
  hallTable,
  openLobby,
  playTurnOnChain,
  turnKey,
} from "../lib/chain.ts";
import { joinGame, openMatch } from "../../../scripts/lib/table.ts";
import { openWithWallet, type CountingWallet } from "../lib/countingWallet.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  chooseBox,
  legalBoxes,
  mouseTurn,
  moveLands,
  waitForRoll,
  waitForRollEnabled,
} from "../lib/ui.ts";

const GAMES = 3;
const MATCH_HEADLINE =
  /^(You win the match!|You share the match!|.+ wins the match\.|.+ share the match\.)$/;

function assertAsked(wallet: CountingWallet, expected: number, who: string): void {
  assert.equal(
    wallet.confirmations(),
    expected,
    `${who}'s wallet asked ${wallet.confirmations()} times, not ${expected}: ${wallet.confirmationLog().join(", ")}`,
  );
}

async function sessionKeyOf(stack: Suite["stack"], player: Address): Promise<Address> {
  const view = await stack.publicClient.readContract({
    address: stack.diceHall,
    abi: diceHallAbi,
    functionName: "session",
    args: [player],
  });
  return view.key;
}

/**
 * One game of the match, from its order roll (pressed on `starter`'s page: any seated player may)
 * to its last score, each move on the page of whoever's turn it is on chain. Returns when the
 * chain has moved on to the next game, or finished the match.
 */
async function playOneGame(
  stack: Suite["stack"],
  gameId: bigint,
  number: number,
  pageOf: (player: Address) => Page,
  starter: Page,
): Promise<void> {
  await waitForRollEnabled(starter);
  await starter.getByRole("button", { name: /^Roll for the turn order/ }).click();
  await eventually(
    `game ${number}'s first roll to draw its order`,
    async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
    MOVE_TIMEOUT_MS,
  );
  const first = (await currentPlayer(stack, gameId))!;
  await waitForRoll(pageOf(first), 1);
  const afterDraw = await turnKey(stack, gameId);
  await chooseBox(pageOf(first), legalBoxes(pageOf(first)).first());
  await moveLands(stack, gameId, afterDraw, pageOf(first), `game ${number}'s first turn`);
  for (let turn = 1; ; turn++) {
    const view = await gameView(stack, gameId);
    // The game is over once the chain counts the next one (or the match is over).
    if (view.status !== STATUS.Running || view.gameNumber !== number) break;
    const player = view.players[view.currentSeat];
    const before = await turnKey(stack, gameId);
    await mouseTurn(pageOf(player));
    await moveLands(stack, gameId, before, pageOf(player), `game ${number}, turn ${turn + 1}`);
  }
}

export function matchScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "a 3-game ETH match: one confirmation a player for the whole match, the standings after each game, keys and credits at 0",
    { timeout: 1_500_000 },
    async (session) => {
      const { stack } = session;
      const [playerA, playerB] = [stack.accounts[12], stack.accounts[13]];

      // --- A opens a match of 3 games: one confirmation, the key sized for every game.
      const a = await openWithWallet(session, "A (account 12, match)", 12, "/games/new");
      await a.tracked.page.getByRole("radio", { name: /^ETH/ }).check();
      await a.tracked.page.getByLabel(/^Bet per seat/).fill("0.01");
      await a.tracked.page.getByLabel("Games in the match").selectOption(String(GAMES));
      await a.tracked.page
        .getByTestId("session-summary")
        .getByText(/^Your wallet asks once/)
        .waitFor();
      await a.tracked.page.getByRole("button", { name: "Open the table" }).click();
      await a.tracked.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.tracked.page.url())![1]);
      assertAsked(a.wallet, 1, "A");
      assert.equal((await gameView(stack, gameId)).games, GAMES, "the chain holds a 3-game match");

      // --- B joins: one confirmation.
      const b = await openWithWallet(session, "B (account 13, match)", 13, `/games/${gameId}`);
      await b.tracked.page
        .getByTestId("session-summary")
        .getByText(/^Your wallet asks once/)
        .waitFor();
      await b.tracked.page.getByRole("button", { name: /^Join for / }).click();
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assertAsked(b.wallet, 1, "B");
      const keys = new Map<Address, Address>();
      for (const p of [playerA, playerB]) keys.set(p, await sessionKeyOf(stack, p));
      const pageOf = (player: Address): Page =>
        player === playerA ? a.tracked.page : b.tracked.page;
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p
          .getByTestId("match-line")
          .getByText(/^Game 1 of 3 · you 0 – 0 /)
          .waitFor();
      }

      // --- Three games at the same table; the next one starts with no confirmation.
      for (let number = 1; number <= GAMES; number++) {
        // Whoever lost the last game's first turn starts the next: any seated player may.
        await playOneGame(
          stack,
          gameId,
          number,
          pageOf,
          number % 2 ? a.tracked.page : b.tracked.page,
        );
        const view = await gameView(stack, gameId);
        const wins = new Map(view.players.map((p, i) => [p.toLowerCase(), view.wins[i]]));
        for (const [me, other, page] of [
          [playerA, playerB, a.tracked.page],
          [playerB, playerA, b.tracked.page],
        ] as const) {
          const mine = wins.get(me.toLowerCase());
          const theirs = wins.get(other.toLowerCase());
          const head = number < GAMES ? `Game ${number + 1} of 3` : "3 of 3 games played";
          // The score line over the table, from each player's side, as the chain counts it.
          await page
            .getByTestId("match-line")
            .getByText(new RegExp(`^${head} · you ${mine} – ${theirs} `))
            .waitFor({ timeout: MOVE_TIMEOUT_MS });
          // The standings: every finished game, with its replay and analysis.
          const standings = page.getByTestId("match-standings");
          await standings
            .getByText(`After ${number} of 3 games`)
            .waitFor({ timeout: MOVE_TIMEOUT_MS });
          await page.getByRole("link", { name: `Replay game ${number}` }).waitFor();
          await page.getByRole("link", { name: `Analysis of game ${number}` }).waitFor();
        }
        assertAsked(a.wallet, 1, "A");
        assertAsked(b.wallet, 1, "B");
        session.suite.log(`match ${gameId}: game ${number} over, wins ${view.wins.join("–")}`);
      }

      // --- The end: the match's result, each key pays its player out.
      assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
      for (const page of [a.tracked.page, b.tracked.page]) {
        await page
          .getByRole("heading", { level: 2, name: MATCH_HEADLINE })
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        await page.getByTestId("session-payout").waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assertAsked(a.wallet, 1, "A");
      assertAsked(b.wallet, 1, "B");
      for (const player of [playerA, playerB]) {
        const key = keys.get(player)!;
        await eventually(
          `${player}'s key and credit to be emptied`,
          async () =>
            (await stack.publicClient.getBalance({ address: key })) === 0n &&
            (await credits(stack, NATIVE, player)) === 0n
              ? true
              : undefined,
          MOVE_TIMEOUT_MS,
        );
      }

      // --- Each game of the match replays as a game of its own.
      await a.tracked.page.getByRole("link", { name: "Replay game 2" }).click();
      await a.tracked.page
        .getByRole("heading", {
          level: 1,
          name: new RegExp(`^Replay of game 2 of match #${gameId}`),
        })
        .waitFor();
    },
  );

  e2e(
    suite,
    "a match's replays: each game its own; a game past the match's length is no game, not one to come",
    { timeout: 180_000 },
    async (session) => {
      const { stack } = session;
      const [a, b] = [stack.accounts[14], stack.accounts[16]];
      const t = hallTable(stack);
      const game = {
        token: NATIVE,
        bet: 10n ** 15n,
        seats: 2,
        ruleSet: 0 as const,
        joinWindow: 3600,
        moveTimeout: 3600,
      };
      const gameId = await openMatch(t, a, game, GAMES);
      await joinGame(t, b, gameId, NATIVE, game.bet);
      // Game 1 is under way (its order drawn, a turn scored); games 2 and 3 can still come.
      await playTurnOnChain(stack, gameId);
      const page = (await session.newPage("visitor (match replays)")).page;
      const open = (path: string) => page.goto(new URL(path, stack.webUrl).toString());

      // --- The match's replay is each game's, not one replay of the whole table as "game #N".
      await open(`/games/${gameId}/replay`);
      await page.getByRole("heading", { level: 1, name: `Replay of match #${gameId}` }).waitFor();
      const games = page.getByRole("navigation", { name: "Games of the match" });
      await games.getByRole("link", { name: "Replay game 1" }).waitFor();
      await games.getByText("Game 2 (not started yet)").waitFor();
      await games.getByText("Game 3 (not started yet)").waitFor();
      assert.equal(await page.getByText(`Replay of game #${gameId}`).count(), 0);
      await games.getByRole("link", { name: "Replay game 1" }).click();
      await page
        .getByRole("heading", {
          level: 1,
          name: new RegExp(`^Replay of game 1 of match #${gameId}`),
        })
        .waitFor();
      await page.getByRole("group", { name: "Replay controls" }).waitFor();

      // --- Game 4 and game 9 of a 3-game match are no games; game 2 is one still to come.
      for (const n of [4, 9]) {
        await open(`/games/${gameId}/replay?game=${n}`);
        await page
          .getByRole("heading", { level: 1, name: `No game ${n} of match #${gameId}` })
          .waitFor();
        await page
          .getByText(`Match #${gameId} has 3 games: there is no game ${n} (of 3).`)
          .waitFor();
        assert.equal(await page.getByText(/has not started yet/).count(), 0, `game ${n}`);
        assert.equal(await page.getByText(new RegExp(`Replay of game ${n}`)).count(), 0);
      }
      await open(`/games/${gameId}/replay?game=2`);
      await page.getByText(`Game 2 of match #${gameId} has not started yet.`).waitFor();

      // --- A single game has no game 2.
      const single = await openLobby(stack, a);
      await open(`/games/${single}/replay?game=2`);
      await page.getByText(`Game #${single} is a single game: there is no game 2.`).waitFor();
    },
  );
}

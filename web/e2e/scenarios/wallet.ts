// Scenario 12: a wallet that asks. Each player connects an injected wallet announced through
// EIP-6963 (web/e2e/lib/countingWallet.ts) that signs with a test key and counts every request a
// real wallet would put in front of its user; the scenarios assert how many there were.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { parseAbiItem, parseUnits, type Address, type Hex } from "viem";

import { clients } from "../../../scripts/lib/chain.ts";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { diceHallAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";
import {
  NATIVE,
  STATUS,
  credits,
  currentPlayer,
  eventually,
  gameFinished,
  gameView,
  tokenBalance,
  turnKey,
} from "../lib/chain.ts";
import { openWithWallet, type CountingWallet } from "../lib/countingWallet.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import {
  MOVE_TIMEOUT_MS,
  chooseBox,
  diceGroup,
  RESULT_HEADLINE,
  legalBoxes,
  mouseTurn,
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

// The time alone when the key ends today, with the date before it when it ends on another day
// (a key made late in the evening ends after midnight).
const ETH = { symbol: "ETH", decimals: 18 };
const KEY_SENTENCE = /^Moves signed by this browser's session key, until (\d{1,2} \w+ )?\d\d:\d\d/;
const withdrawnEvent = parseAbiItem(
  "event Withdrawn(address indexed token, address indexed account, uint256 amount)",
);

/** The player's session key as the chain holds it (zero when none is active). */
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
 * Every move of a running game, each on the page of whoever's turn it is on chain, from the order
 * roll to the last score. `midGame` runs once, before turn 9's move.
 */
async function playWholeGame(
  stack: Suite["stack"],
  gameId: bigint,
  pageOf: (player: Address) => Page,
  starter: Page,
  midGame: (player: Address) => Promise<void> = async () => {},
): Promise<void> {
  await waitForRollEnabled(starter);
  await starter.getByRole("button", { name: /^Roll for the turn order/ }).click();
  await eventually(
    "the first roll to draw the order",
    async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
    MOVE_TIMEOUT_MS,
  );
  const first = (await currentPlayer(stack, gameId))!;
  await waitForRoll(pageOf(first), 1);
  const afterDraw = await turnKey(stack, gameId);
  await chooseBox(pageOf(first), legalBoxes(pageOf(first)).first());
  await moveLands(stack, gameId, afterDraw, pageOf(first), "the first turn to be scored");
  for (let turn = 1; ; turn++) {
    const player = await currentPlayer(stack, gameId);
    if (!player) break;
    if (turn === 8) await midGame(player);
    const before = await turnKey(stack, gameId);
    await mouseTurn(pageOf(player));
    await moveLands(stack, gameId, before, pageOf(player), `turn ${turn + 1} to be scored`);
  }
  assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
}

/**
 * What reached `player`'s wallet from `fromBlock` on: the hall's Withdrawn payouts in `token` and
 * the native coin sent by `key` (its leftover gas).
 */
async function paidBack(
  stack: Suite["stack"],
  player: Address,
  key: Address,
  token: Address,
  fromBlock: bigint,
): Promise<{ withdrawn: bigint; nativeWithdrawn: bigint; fromKey: bigint }> {
  const logs = await stack.publicClient.getLogs({
    address: stack.diceHall,
    event: withdrawnEvent,
    args: { account: player },
    fromBlock,
  });
  const sum = (t: Address) =>
    logs
      .filter((l) => l.args.token!.toLowerCase() === t.toLowerCase())
      .reduce((a, l) => a + l.args.amount!, 0n);
  let fromKey = 0n;
  const latest = await stack.publicClient.getBlockNumber();
  for (let n = fromBlock; n <= latest; n++) {
    const block = await stack.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (
        tx.from.toLowerCase() === key.toLowerCase() &&
        tx.to?.toLowerCase() === player.toLowerCase()
      ) {
        fromKey += tx.value;
      }
    }
  }
  return { withdrawn: sum(token), nativeWithdrawn: sum(NATIVE), fromKey };
}

/** What the wallet paid for its transactions: the values sent and the gas. */
async function walletSpent(stack: Suite["stack"], hashes: Hex[]): Promise<bigint> {
  let spent = 0n;
  for (const hash of hashes) {
    const [tx, receipt] = await Promise.all([
      stack.publicClient.getTransaction({ hash }),
      stack.publicClient.getTransactionReceipt({ hash }),
    ]);
    spent += tx.value + receipt.gasUsed * receipt.effectiveGasPrice;
  }
  return spent;
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
      await a.tracked.page.getByRole("radio", { name: "Sign every move" }).check();
      await a.tracked.page.getByRole("button", { name: "Open the table" }).click();
      await a.tracked.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.tracked.page.url())![1]);
      const asked = new Map<Address, number>([
        [playerA, 1],
        [playerB, 0],
      ]);
      assertAsked(a.wallet, 1, "A");

      const b = await openWithWallet(session, "B (account 11, wallet)", 11, `/games/${gameId}`);
      await b.tracked.page.getByRole("radio", { name: "Sign every move" }).check();
      await b.tracked.page.getByRole("button", { name: /^Join for / }).click();
      asked.set(playerB, 1);
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assert.equal((await gameView(stack, gameId)).status, STATUS.Running);
      assertAsked(b.wallet, 1, "B");
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByText("Moves signed by your wallet, one confirmation each.").waitFor();
      }

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

  sessionGame(suite, "ETH");
  sessionGame(suite, "TUSD");

  e2e(
    suite,
    "a wallet that batches (EIP-5792): a TUSD table opened and joined with one confirmation each",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [playerA, playerB] = [stack.accounts[10], stack.accounts[11]];
      const bet = "3";
      const { wallet } = clients(stack.rpcUrl);
      for (const player of [playerA, playerB]) {
        const hash = await wallet(stack.accounts[0]).writeContract({
          address: stack.testToken,
          abi: testTokenAbi,
          functionName: "mint",
          args: [player, parseUnits(bet, 6)],
        });
        await stack.publicClient.waitForTransactionReceipt({ hash });
      }

      const a = await openWithWallet(session, "A (account 10, batching)", 10, "/games/new", {
        batching: true,
      });
      await a.tracked.page.getByRole("radio", { name: "TUSD" }).check();
      await a.tracked.page.getByLabel(/^Bet per seat/).fill(bet);
      await a.tracked.page
        .getByTestId("session-summary")
        .getByText(/^Your wallet asks once \(the approval and open the table in one batch\)/)
        .waitFor();
      await a.tracked.page.getByRole("button", { name: "Approve TUSD and open the table" }).click();
      await a.tracked.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.tracked.page.url())![1]);
      assertAsked(a.wallet, 1, "A");
      assert.match(
        a.wallet.confirmationLog()[0],
        /^wallet_sendCalls 0x[0-9a-f]{8}\+0x[0-9a-f]{8}$/,
      );

      const b = await openWithWallet(session, "B (account 11, batching)", 11, `/games/${gameId}`, {
        batching: true,
      });
      await b.tracked.page
        .getByTestId("session-summary")
        .getByText(/^Your wallet asks once \(the approval and join in one batch\)/)
        .waitFor();
      await b.tracked.page
        .getByRole("button", { name: `Approve TUSD and join for ${bet} TUSD` })
        .click();
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
        await p.getByText(KEY_SENTENCE).waitFor();
      }
      assertAsked(b.wallet, 1, "B");
      const view = await gameView(stack, gameId);
      assert.equal(view.status, STATUS.Running);
      assert.equal(view.config.token, stack.testToken);

      // The order roll goes through A's key: still one confirmation.
      await waitForRollEnabled(a.tracked.page);
      await a.tracked.page.getByRole("button", { name: /^Roll for the turn order/ }).click();
      await eventually(
        "the first roll to draw the order",
        async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      assertAsked(a.wallet, 1, "A");
    },
  );
}

/**
 * A whole 2-player game with one confirmation a player (two for an ERC-20 bet: approve, then
 * create or join): a session key made in each browser plays every move; one player reloads in
 * the middle of the game and finishes it with no confirmation; at the end each key pays its
 * player's credit out and sends its leftover gas back, and the balances add up to the wei.
 */
function sessionGame(suite: () => Suite, tokenName: "ETH" | "TUSD"): void {
  const erc20 = tokenName === "TUSD";
  e2e(
    suite,
    `one confirmation a game in ${tokenName}: a session key plays every move, a reload finds it, the winnings and the key's leftover gas come back`,
    { timeout: 600_000 },
    async (session) => {
      const { stack } = session;
      const [playerA, playerB] = [stack.accounts[10], stack.accounts[11]];
      const token = erc20 ? stack.testToken : NATIVE;
      const bet = erc20 ? "2" : "0.01";
      const betUnits = erc20 ? parseUnits(bet, 6) : parseUnits(bet, 18);
      const expected = erc20 ? 2 : 1;
      if (erc20) {
        // Accounts 10 and 11 hold no Test USD at the start: the token mints to anyone.
        const { wallet } = clients(stack.rpcUrl);
        for (const player of [playerA, playerB]) {
          const hash = await wallet(stack.accounts[0]).writeContract({
            address: stack.testToken,
            abi: testTokenAbi,
            functionName: "mint",
            args: [player, betUnits],
          });
          await stack.publicClient.waitForTransactionReceipt({ hash });
        }
      }
      const fromBlock = (await stack.publicClient.getBlockNumber()) + 1n;
      const coin0 = new Map<Address, bigint>();
      const token0 = new Map<Address, bigint>();
      for (const p of [playerA, playerB]) {
        coin0.set(p, await stack.publicClient.getBalance({ address: p }));
        if (erc20) token0.set(p, await tokenBalance(stack, token, p));
      }

      // --- A opens the table: the form shows what goes in before the wallet opens.
      const a = await openWithWallet(
        session,
        `A (account 10, wallet, ${tokenName})`,
        10,
        "/games/new",
      );
      await a.tracked.page.getByRole("radio", { name: new RegExp(`^${tokenName}`) }).check();
      await a.tracked.page.getByLabel(/^Bet per seat/).fill(bet);
      const summary = a.tracked.page.getByTestId("session-summary");
      await summary
        .getByText(erc20 ? /^Your wallet asks twice/ : /^Your wallet asks once/)
        .waitFor();
      assert.match((await summary.textContent()) ?? "", new RegExp(`the bet: ${bet} ${tokenName}`));
      // Issue 43: the coin is set aside in the hall for the key, which holds only a float.
      assert.doesNotMatch((await summary.textContent()) ?? "", /credit/);
      assert.match(
        (await summary.textContent()) ?? "",
        /set aside in the hall for the session key's roll fees and gas: /,
      );
      assert.match((await summary.textContent()) ?? "", /held by the key itself: /);
      assert.match(
        (await summary.textContent()) ?? "",
        /What comes back to your wallet when the game ends/,
      );
      // A game's fees and gas at today's prices stand beside the bet (issue 32).
      await a.tracked.page
        .getByTestId("game-cost")
        .getByText(/^At today's prices/)
        .waitFor();
      assert.equal(a.wallet.confirmations(), 0, "nothing is asked before the button");
      const create = a.tracked.page.getByRole("button", {
        name: erc20 ? "Approve TUSD and open the table" : "Open the table",
      });
      // The button says what the wallet asks for: the bet with the fees and the key's gas.
      const createLabel = (await create.textContent()) ?? "";
      await create.click();
      await a.tracked.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(a.tracked.page.url())![1]);
      assertAsked(a.wallet, expected, "A");
      const createValue = (
        await stack.publicClient.getTransaction({ hash: a.wallet.sentTransactions().at(-1)! })
      ).value;
      assert.ok(createValue > betUnits || erc20, "the wallet sent the bet and the key's coin");
      assert.ok(
        createLabel.endsWith(
          ` for ${erc20 ? `${bet} TUSD + ` : ""}${formatTokenAmount(createValue, ETH, 6)}`,
        ),
        `the button said "${createLabel}"; the wallet sent ${formatTokenAmount(createValue, ETH, 18)}`,
      );

      // --- B joins from the table's page.
      const b = await openWithWallet(
        session,
        `B (account 11, wallet, ${tokenName})`,
        11,
        `/games/${gameId}`,
      );
      await b.tracked.page
        .getByTestId("session-summary")
        .getByText(/^Your wallet asks/)
        .waitFor();
      const join = b.tracked.page.getByRole("button", {
        name: erc20 ? `Approve TUSD and join for ${bet} TUSD + ` : /^Join for /,
      });
      const joinLabel = (await join.textContent()) ?? "";
      await join.click();
      for (const p of [a.tracked.page, b.tracked.page]) {
        await p.getByRole("table", { name: "Score sheets" }).waitFor({ timeout: MOVE_TIMEOUT_MS });
        await p.getByText(KEY_SENTENCE).waitFor();
      }
      assertAsked(b.wallet, expected, "B");
      const joinValue = (
        await stack.publicClient.getTransaction({ hash: b.wallet.sentTransactions().at(-1)! })
      ).value;
      assert.ok(
        joinLabel.endsWith(formatTokenAmount(joinValue, ETH, 6)),
        `the button said "${joinLabel}"; the wallet sent ${formatTokenAmount(joinValue, ETH, 18)}`,
      );
      const keys = new Map<Address, Address>();
      for (const p of [playerA, playerB]) keys.set(p, await sessionKeyOf(stack, p));

      if (!erc20) {
        // A second browser of A's holds no key: its moves would be signed by the wallet, and
        // the table says why.
        const other = await openWithWallet(session, "A's second browser", 10, `/games/${gameId}`);
        await other.tracked.page
          .getByText(
            "Moves signed by your wallet: the session key that plays this game was made in another browser, and only that browser holds it.",
          )
          .waitFor();
        assert.equal(other.wallet.confirmations(), 0);
        await other.tracked.context.close();
      }

      // --- The whole game; the player to move at turn 9 reloads first, and plays on with the key.
      const pageOf = (player: Address): Page =>
        player === playerA ? a.tracked.page : b.tracked.page;
      let reloaded = false;
      await playWholeGame(stack, gameId, pageOf, a.tracked.page, async (player) => {
        const page = pageOf(player);
        await page.reload();
        await page.getByRole("table", { name: "Score sheets" }).waitFor();
        await page.getByText(KEY_SENTENCE).waitFor();
        reloaded = true;
      });
      assert.ok(reloaded, "a page was reloaded in the middle of the game");

      // --- The end: both pages show the result, and each key pays its player out.
      for (const page of [a.tracked.page, b.tracked.page]) {
        await page
          .getByRole("heading", { level: 2, name: RESULT_HEADLINE })
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        await page.getByTestId("session-payout").waitFor({ timeout: MOVE_TIMEOUT_MS });
      }
      assertAsked(a.wallet, expected, "A");
      assertAsked(b.wallet, expected, "B");

      const result = (await gameFinished(stack, gameId))!;
      for (const [player, wallet] of [
        [playerA, a.wallet],
        [playerB, b.wallet],
      ] as const) {
        const key = keys.get(player)!;
        assert.equal(await stack.publicClient.getBalance({ address: key }), 0n, "the key is empty");
        assert.equal(await credits(stack, token, player), 0n, "nothing left in the hall");
        assert.equal(await credits(stack, NATIVE, player), 0n, "no roll fees left in the hall");
        const back = await paidBack(stack, player, key, token, fromBlock);
        assert.ok(back.fromKey > 0n, "the key sent its leftover gas back");
        const spent = await walletSpent(stack, wallet.sentTransactions());
        const coin = await stack.publicClient.getBalance({ address: player });
        const winnings = result.winners!.includes(player) ? result.payoutEach! : 0n;
        if (erc20) {
          assert.equal(
            (await tokenBalance(stack, token, player)) - token0.get(player)!,
            back.withdrawn - betUnits,
            "the token: the bet went in, the payout came back",
          );
          assert.ok(back.withdrawn >= winnings, "the winnings reached the wallet");
          assert.equal(
            coin - coin0.get(player)!,
            back.nativeWithdrawn + back.fromKey - spent,
            "the coin: fees and gas went in, the unspent fees and gas came back",
          );
        } else {
          assert.equal(
            coin - coin0.get(player)!,
            back.withdrawn + back.fromKey - spent,
            "what the wallet sent, less what came back, is all that left it",
          );
          assert.ok(back.withdrawn >= winnings, "the winnings reached the wallet");
        }
        session.suite.log(
          `${tokenName} game ${gameId}, ${player}: wallet sent ${spent}, payout ${back.withdrawn}, native payout ${back.nativeWithdrawn}, key gas back ${back.fromKey}`,
        );
      }
    },
  );
}

// Scenario 16: session keys that rotate. A player's key is new for every session; Revoke says
// what it costs before the wallet opens; a key whose session is over and still holds coin is shown
// on any page with one button that sends it back; the way back to one confirmation ("Play with one
// confirmation again") and the top-up each take one confirmation; a squat attempt on the player's
// keys fails for want of the key's own consent; an expired session is named as such at the table;
// and a game's end pays the player out while they are on another page.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createWalletClient, http, parseEther, type Abi, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

import { clients } from "../../../scripts/lib/chain.ts";
import { startHallKeeper } from "../../../scripts/lib/hallKeeper.ts";
import { KEY_FLOAT_GAS, KEY_ROLL_GAS_LIMIT } from "@dicehall/core/contract/session.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { signSessionConsent } from "@dicehall/core/contract/sessionConsent.ts";
import {
  NATIVE,
  STATUS,
  credits,
  currentPlayer,
  eventually,
  gameView,
  playTurnOnChain,
  turnKey,
} from "../lib/chain.ts";
import { openWithWallet, type CountingWallet } from "../lib/countingWallet.ts";
import { e2e, type Session, type Suite } from "../lib/harness.ts";
import { E2E_ENTROPY } from "../lib/stack.ts";
import {
  MOVE_TIMEOUT_MS,
  chooseBox,
  legalBoxes,
  moveLands,
  rollButton,
  waitForRoll,
  waitForRollEnabled,
} from "../lib/ui.ts";

const KEY_SENTENCE = /^Moves signed by this browser's session key, until /;
type Stack = Suite["stack"];

function assertAsked(wallet: CountingWallet, expected: number, what: string): void {
  assert.equal(
    wallet.confirmations(),
    expected,
    `${what}: the wallet asked ${wallet.confirmations()} times, not ${expected}: ${wallet.confirmationLog().join(", ")}`,
  );
}

async function sessionOf(stack: Stack, player: Address) {
  return stack.publicClient.readContract({
    address: stack.diceHall,
    abi: diceHallAbi,
    functionName: "session",
    args: [player],
  });
}

/** The private keys this page's browser keeps for `player`, oldest first. */
async function storedKeys(page: Page, player: Address): Promise<Hex[]> {
  const raw = await page.evaluate(
    (name) => localStorage.getItem(name),
    `dicehall.sessionKeys.31337.${player.toLowerCase()}`,
  );
  return raw ? (JSON.parse(raw) as { k: Hex }[]).map((r) => r.k) : [];
}

async function waitForKeySentence(page: Page): Promise<void> {
  await page
    .getByTestId("session-status")
    .getByText(KEY_SENTENCE)
    .waitFor({ timeout: MOVE_TIMEOUT_MS });
}

/** A (account 18) opens an ETH table with a session key, B (account 19) joins with one: one confirmation each. */
async function sessionTable(session: Session, aLabel = "A (account 18, wallet)") {
  const a = await openWithWallet(session, aLabel, 18, "/games/new");
  const pageA = a.tracked.page;
  await pageA.getByRole("radio", { name: /^ETH/ }).check();
  await pageA.getByLabel(/^Bet per seat/).fill("0.01");
  await pageA
    .getByTestId("session-summary")
    .getByText(/^Your wallet asks once/)
    .waitFor();
  await pageA.getByRole("button", { name: "Open the table" }).click();
  await pageA.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
  const gameId = BigInt(/\/games\/(\d+)/.exec(pageA.url())![1]);
  assertAsked(a.wallet, 1, "A opens the table");
  const b = await openWithWallet(session, "B (account 19, wallet)", 19, `/games/${gameId}`);
  await b.tracked.page.getByRole("button", { name: /^Join for / }).click();
  await waitForKeySentence(pageA);
  await waitForKeySentence(b.tracked.page);
  assertAsked(b.wallet, 1, "B joins");
  return { a, b, gameId };
}

export function sessionKeyScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "session keys rotate: revoke says its cost, a key's coin is shown and sent back from another page, the way back, a top-up after a squat attempt and a new session after expiry each take one confirmation, the end pays out on another page",
    { timeout: 600_000 },
    async (session) => {
      const { stack } = session;
      const playerA = stack.accounts[18];
      const { publicClient, wallet } = clients(stack.rpcUrl);

      // --- A opens an ETH table with a key (one confirmation), B joins (one).
      const { a, gameId } = await sessionTable(session);
      const pageA = a.tracked.page;
      const table = `/games/${gameId}`;
      const firstKey = (await sessionOf(stack, playerA)).key;
      assert.deepEqual(
        (await storedKeys(pageA, playerA)).map((k) => privateKeyToAccount(k).address),
        [firstKey],
        "A's browser keeps the one key the chain names",
      );

      // The order draw, by A's key (no confirmation).
      await waitForRollEnabled(pageA);
      await pageA.getByRole("button", { name: /^Roll for the turn order/ }).click();
      await eventually(
        "the order draw",
        async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      assertAsked(a.wallet, 1, "the order draw by the key");

      // --- Revoke: first the cost in words, nothing asked; then one confirmation.
      const status = pageA.getByTestId("session-status");
      await status.getByRole("button", { name: "Revoke", exact: true }).click();
      const warning = status.getByTestId("revoke-warning");
      await warning.waitFor();
      assert.match(
        (await warning.textContent()) ?? "",
        /Every move you have left in this game then asks your wallet for a confirmation: up to \d+ more/,
      );
      assertAsked(a.wallet, 1, "the revoke warning asks nothing");
      await status.getByRole("button", { name: "Revoke the key" }).click();
      await status
        .getByText("Moves signed by your wallet, one confirmation each.")
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      assertAsked(a.wallet, 2, "the revoke");
      const firstKeyCoin = await publicClient.getBalance({ address: firstKey });
      assert.ok(firstKeyCoin > 0n, "the revoked key still holds its gas");

      // --- On another page: the revoked key's coin is shown, and one button sends it back.
      await pageA.getByRole("link", { name: "Leaderboard" }).first().click();
      const coin = pageA.getByTestId("key-coin");
      await coin.waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.match((await coin.textContent()) ?? "", /still holds 0\.\d+ ETH/);
      const coinBefore = await publicClient.getBalance({ address: playerA });
      await coin.getByRole("button", { name: "Send it back to your wallet" }).click();
      await pageA.getByTestId("key-returned").waitFor({ timeout: MOVE_TIMEOUT_MS });
      assert.equal(await publicClient.getBalance({ address: firstKey }), 0n, "the key is empty");
      assert.ok(
        (await publicClient.getBalance({ address: playerA })) > coinBefore,
        "its coin reached A's wallet",
      );
      assertAsked(a.wallet, 2, "sending the key's coin back asks nothing");

      // --- The way back: a new key for the turns left, one confirmation.
      await session.goto(a.tracked, table);
      await pageA
        .getByRole("button", { name: "Play with one confirmation again" })
        .click({ timeout: MOVE_TIMEOUT_MS });
      await waitForKeySentence(pageA);
      assertAsked(a.wallet, 3, "the way back");
      const secondKey = (await sessionOf(stack, playerA)).key;
      assert.notEqual(secondKey, firstKey, "a new key, never the revoked one");

      // --- A squat attempt: naming A's keys (the live one, the revoked one) for someone else
      // fails without the key's own consent.
      const squatter = stack.accounts[0];
      const impostor = privateKeyToAccount(generatePrivateKey());
      const latest = await publicClient.getBlock();
      // The live key is refused as another player's active key; the revoked one, free on chain,
      // for want of its own consent (the impostor's signature is not the key's).
      for (const [key, refusal] of [
        [secondKey, /InvalidSessionKey/],
        [firstKey, /InvalidSessionConsent/],
      ] as const) {
        const grant = {
          key,
          expiresAt: latest.timestamp + 3_600n,
          feeAllowance: 0n,
          keyGas: 0n,
        };
        const consent = await signSessionConsent(impostor, {
          chainId: 31337,
          hall: stack.diceHall,
          player: squatter,
          grant,
        });
        await assert.rejects(
          publicClient.simulateContract({
            account: squatter,
            address: stack.diceHall,
            abi: diceHallAbi,
            functionName: "openSession",
            args: [grant, consent],
          }),
          refusal,
          `naming ${key} without its consent`,
        );
      }
      assert.equal((await sessionOf(stack, playerA)).key, secondKey, "A's session is untouched");

      // --- The top-up after the squat attempt: the key runs out of gas (its coin is sent away
      // here with its own private key), the table offers a top-up, one confirmation, a new key.
      const secondPrivate = (await storedKeys(pageA, playerA)).find(
        (k) => privateKeyToAccount(k).address === secondKey,
      )!;
      const drained = privateKeyToAccount(secondPrivate);
      const balance = await publicClient.getBalance({ address: secondKey });
      const gasPrice = await publicClient.getGasPrice();
      const drain = await createWalletClient({
        chain: clients(stack.rpcUrl).chain,
        transport: http(stack.rpcUrl),
      }).sendTransaction({
        account: drained,
        to: squatter,
        value: balance - 21_000n * gasPrice * 2n - parseEther("0.0000001"),
        gas: 21_000n,
        gasPrice: gasPrice * 2n,
        type: "legacy",
      });
      await publicClient.waitForTransactionReceipt({ hash: drain });
      const topUp = pageA.getByRole("button", { name: "Top up the session key" });
      await topUp.waitFor({ timeout: MOVE_TIMEOUT_MS });
      await topUp.click();
      await eventually(
        "the top-up's new key",
        async () => {
          const key = (await sessionOf(stack, playerA)).key;
          return key !== secondKey ? key : undefined;
        },
        MOVE_TIMEOUT_MS,
      );
      await waitForKeySentence(pageA);
      assertAsked(a.wallet, 4, "the top-up");
      const thirdKey = (await sessionOf(stack, playerA)).key;
      assert.ok(![firstKey, secondKey].includes(thirdKey), "a fresh key for the top-up");

      // --- The session expires: the table says so, and a new session takes one confirmation.
      const third = await sessionOf(stack, playerA);
      const now = (await publicClient.getBlock()).timestamp;
      await stack.increaseTime(Number(third.expiresAt - now) + 5);
      await pageA
        .getByText("Moves signed by your wallet: your key's session ended.")
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      const expired = await sessionOf(stack, playerA);
      assert.equal(expired.key, thirdKey, "session() still names the expired key");
      assert.equal(expired.active, false);
      await pageA.getByRole("button", { name: "Play with one confirmation again" }).click();
      await waitForKeySentence(pageA);
      assertAsked(a.wallet, 5, "a new session after the expiry");
      const fourthKey = (await sessionOf(stack, playerA)).key;
      assert.ok(![firstKey, secondKey, thirdKey].includes(fourthKey), "a fresh key after expiry");

      // --- The end while A is on another page: the game is timed out (the clock moved past
      // the move deadline); A's key pays A out from the leaderboard.
      await pageA.getByRole("link", { name: "Leaderboard" }).first().click();
      const mover = await currentPlayer(stack, gameId);
      assert.ok(mover, "someone is to move");
      const claim = await wallet(squatter).writeContract({
        address: stack.diceHall,
        abi: diceHallAbi,
        functionName: "claimTimeout",
        args: [gameId],
      });
      await publicClient.waitForTransactionReceipt({ hash: claim });
      assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
      await pageA.getByTestId("session-payout").waitFor({ timeout: MOVE_TIMEOUT_MS });
      await eventually(
        "A's key and credit to be paid out",
        async () =>
          (await publicClient.getBalance({ address: fourthKey })) === 0n &&
          (await credits(stack, NATIVE, playerA)) === 0n
            ? true
            : undefined,
        MOVE_TIMEOUT_MS,
      );
      assertAsked(a.wallet, 5, "the payout asks nothing");
    },
  );

  e2e(
    suite,
    "a refused roll is asked again by every seated player's open app, through its key, from another page, with no confirmation",
    { timeout: 300_000 },
    async (session) => {
      const { stack } = session;
      if (E2E_ENTROPY !== "model") return session.suite.log("skipped: E2E_ENTROPY=mock");
      const { a, b, gameId } = await sessionTable(session);
      const playerB = stack.accounts[19];
      // The order draw, by A's key; then A closes the table: only B's app is open, on the
      // leaderboard (the hall's own keeper does not run in this suite).
      await waitForRollEnabled(a.tracked.page);
      await a.tracked.page.getByRole("button", { name: /^Roll for the turn order/ }).click();
      await eventually(
        "the order draw",
        async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      await a.tracked.context.close();
      await b.tracked.page.getByRole("link", { name: "Leaderboard" }).first().click();

      // The provider prices rolls above the game's cap: the mover's roll (sent here from the
      // mover's own account) is refused.
      const { artifacts } = await import("hardhat");
      const { abi } = await artifacts.readArtifact("EntropyModel");
      const model = stack.chain.addresses.mockEntropy;
      const provider = clients(stack.rpcUrl).wallet(stack.chain.addresses.entropyProvider);
      const setFee = async (fee: bigint) => {
        const hash = await provider.writeContract({
          address: model,
          abi: abi as Abi,
          functionName: "setProviderFee",
          args: [fee],
        });
        await stack.publicClient.waitForTransactionReceipt({ hash });
      };
      const info = (await stack.publicClient.readContract({
        address: model,
        abi: abi as Abi,
        functionName: "getProviderInfoV2",
        args: [stack.chain.addresses.entropyProvider],
      })) as { feeInWei: bigint };
      const mover = (await currentPlayer(stack, gameId))!;
      const view = await gameView(stack, gameId);
      const sentBefore = await stack.publicClient.getBlockNumber();
      await setFee(10n ** 30n);
      try {
        const hash = await clients(stack.rpcUrl)
          .wallet(mover)
          .writeContract({
            address: stack.diceHall,
            abi: diceHallAbi,
            functionName: "roll",
            args: [gameId, 0],
            value: view.rollFeeCap,
          });
        await stack.publicClient.waitForTransactionReceipt({ hash });
        assert.equal((await gameView(stack, gameId)).pendingSequence, 0n, "the roll is refused");
      } finally {
        await setFee(info.feeInWei);
      }

      // B's app, on the leaderboard, asks again through B's key; the keeper delivers the dice.
      const asked = await eventually(
        "B's key to ask for the refused roll again",
        async () => {
          const logs = await stack.publicClient.getContractEvents({
            address: stack.diceHall,
            abi: diceHallAbi,
            eventName: "RollRequested",
            args: { gameId },
            fromBlock: sentBefore,
          });
          return logs.find((l) => l.args.player?.toLowerCase() === playerB.toLowerCase());
        },
        MOVE_TIMEOUT_MS,
      );
      const tx = await stack.publicClient.getTransaction({ hash: asked.transactionHash });
      assert.equal(
        tx.from.toLowerCase(),
        (await sessionOf(stack, playerB)).key.toLowerCase(),
        "sent by B's session key",
      );
      assert.equal(tx.value, 0n, "the fee from the roll fees set aside for B's session");
      await eventually(
        "the dice to arrive",
        async () => ((await gameView(stack, gameId)).entropyAttempts === 0 ? true : undefined),
        MOVE_TIMEOUT_MS,
      );
      assertAsked(b.wallet, 1, "asking again asks nothing");
    },
  );

  e2e(
    suite,
    "a player who closes the tab mid-game for good and loses by timeout has all but the key's float back in the wallet within 2 minutes, paid by the hall's keeper; another browser of theirs says what the key holds and when it comes back",
    { timeout: 600_000 },
    async (session) => {
      const { stack } = session;
      const [playerA, playerB] = [stack.accounts[18], stack.accounts[19]];
      const { publicClient, wallet } = clients(stack.rpcUrl);
      // The hall's keeper as an operator runs it (the suite's stack runs none: scenarios hold rolls
      // on purpose), from this scenario's first block, on accounts no scenario plays with.
      const keeper = startHallKeeper({
        publicClient: stack.publicClient,
        wallet: wallet(stack.accounts[2]),
        payoutWallet: wallet(stack.accounts[3]),
        hall: stack.diceHall,
        fromBlock: await publicClient.getBlockNumber(),
        deliver: false,
        advance: false,
        log: (line) => session.suite.log(`hall keeper: ${line}`),
      });
      try {
        const walletBefore = await publicClient.getBalance({ address: playerA });
        const { a, b, gameId } = await sessionTable(
          session,
          "A (account 18, the tab closed for good)",
        );
        const pageA = a.tracked.page;
        // A's credit once the session is open (an earlier session it replaced went there).
        const creditBefore = await credits(stack, NATIVE, playerA);
        const opened = (
          await publicClient.getContractEvents({
            address: stack.diceHall,
            abi: diceHallAbi,
            eventName: "SessionOpened",
            args: { player: playerA },
            fromBlock: 0n,
          })
        ).at(-1)!;
        const key = opened.args.key!;
        const float = opened.args.keyGas!;
        const openTx = await publicClient.getTransactionReceipt({ hash: opened.transactionHash });
        const openValue = (await publicClient.getTransaction({ hash: opened.transactionHash }))
          .value;
        const bet = (await gameView(stack, gameId)).config.bet;

        // The order draw by A's key; then turns until each has rolled and it is A's turn: A's by
        // A's key from the page, B's from B's own account (a player's roll, paid by value).
        await waitForRollEnabled(pageA);
        await pageA.getByRole("button", { name: /^Roll for the turn order/ }).click();
        await eventually(
          "the order draw",
          async () => ((await gameView(stack, gameId)).orderDrawn ? true : undefined),
          MOVE_TIMEOUT_MS,
        );
        // The draw's dice are the first mover's first roll. If A moves first, A scores them from the
        // page (A's key); B plays a turn from B's own account (a player's roll, paid by value);
        // then, on A's turn, A's key rolls from the page and A leaves in the middle of the turn.
        if ((await currentPlayer(stack, gameId)) === playerA) {
          const before = await turnKey(stack, gameId);
          await waitForRoll(pageA, 1);
          await chooseBox(pageA, legalBoxes(pageA).first());
          await moveLands(stack, gameId, before, pageA, "A's first box, by A's key");
        }
        assert.equal(await currentPlayer(stack, gameId), playerB, "B is to move");
        await playTurnOnChain(stack, gameId);
        assert.equal(await currentPlayer(stack, gameId), playerA, "A is to move");
        await waitForRollEnabled(pageA);
        await rollButton(pageA).click();
        await waitForRoll(pageA, 1);
        assertAsked(a.wallet, 1, "A's moves by the key");

        // A key's roll against a player's, in gas (target: within +5 000).
        const rollGas = async (player: Address) => {
          const logs = await publicClient.getContractEvents({
            address: stack.diceHall,
            abi: diceHallAbi,
            eventName: "RollRequested",
            args: { gameId, player },
            fromBlock: openTx.blockNumber,
          });
          const turnRoll = logs.at(-1)!;
          const tx = await publicClient.getTransaction({ hash: turnRoll.transactionHash });
          const receipt = await publicClient.getTransactionReceipt({ hash: tx.hash });
          return { from: tx.from, gas: receipt.gasUsed };
        };
        const keyRoll = await rollGas(playerA);
        const playerRoll = await rollGas(playerB);
        assert.equal(keyRoll.from.toLowerCase(), key.toLowerCase(), "A's roll was the key's");
        assert.equal(playerRoll.from.toLowerCase(), playerB.toLowerCase(), "B's roll was B's own");
        session.suite.log(
          `a key's roll: ${keyRoll.gas} gas, a player's: ${playerRoll.gas} (${keyRoll.gas - playerRoll.gas} more)`,
        );
        assert.ok(
          keyRoll.gas <= playerRoll.gas + 5_000n,
          `a key's roll (${keyRoll.gas}) within 5 000 gas of a player's (${playerRoll.gas})`,
        );

        // --- A closes the tab for good, mid-game, on A's turn.
        await a.tracked.context.close();

        // --- Another browser of A's, without the key, says what the key holds and when it comes back.
        const other = await openWithWallet(
          session,
          "A in another browser (no key)",
          18,
          "/leaderboard",
        );
        const held = other.tracked.page.getByTestId("slot-held");
        await held.waitFor({ timeout: MOVE_TIMEOUT_MS });
        assert.match(
          (await held.textContent()) ?? "",
          new RegExp(
            `^0\\.\\d+ ETH is set aside in the hall for your session key \\(made in another browser\\)\\. It comes back to your wallet when game #${gameId} ends: the hall's keeper pays it out about 30 seconds after the end`,
          ),
        );
        const elsewhere = other.tracked.page.getByTestId("key-coin-elsewhere");
        await elsewhere.waitFor({ timeout: MOVE_TIMEOUT_MS });
        assert.match(
          (await elsewhere.textContent()) ?? "",
          /made in another browser hold 0\.\d+ ETH of gas/,
        );
        assertAsked(other.wallet, 0, "the other browser");
        await other.tracked.context.close();

        // --- A's move deadline passes; B claims the timeout from B's account: A loses.
        const slot = (await sessionOf(stack, playerA)).feeAllowance;
        const walletAtEnd = await publicClient.getBalance({ address: playerA });
        const { deadline } = await gameView(stack, gameId);
        const now = (await publicClient.getBlock()).timestamp;
        await stack.increaseTime(Number(deadline - now) + 5);
        const claim = await wallet(playerB).writeContract({
          address: stack.diceHall,
          abi: diceHallAbi,
          functionName: "claimTimeout",
          args: [gameId],
        });
        const end = await publicClient.waitForTransactionReceipt({ hash: claim });
        const endedAt = Date.now();
        assert.equal((await gameView(stack, gameId)).status, STATUS.Finished);
        session.suite.log(
          `the end: ${slot} wei in A's slot, ${await publicClient.getBalance({ address: key })} in A's key (float ${float})`,
        );

        // --- The hall's keeper pays A's slot to A's wallet within 2 minutes of the end.
        const paid = await eventually(
          "the hall's keeper to pay A out",
          async () =>
            (
              await publicClient.getContractEvents({
                address: stack.diceHall,
                abi: diceHallAbi,
                eventName: "Withdrawn",
                args: { token: NATIVE, account: playerA },
                fromBlock: end.blockNumber,
              })
            ).at(0),
          120_000,
        );
        const after = Date.now() - endedAt;
        const payout = await publicClient.getTransaction({ hash: paid.transactionHash });
        assert.ok(
          [stack.accounts[2], stack.accounts[3]].some(
            (k) => k.toLowerCase() === payout.from.toLowerCase(),
          ),
          "paid by the hall's keeper",
        );
        assert.ok(after <= 120_000, `paid ${after} ms after the end`);
        assert.equal(paid.args.amount, slot, "the whole slot (a loser's game leaves nothing else)");
        const walletAfter = await publicClient.getBalance({ address: playerA });
        assert.equal(walletAfter, walletAtEnd + slot, "it reached A's wallet");

        // Nothing of A's is left in the hall: the session is over, the credit as it was before.
        const ended = await sessionOf(stack, playerA);
        assert.equal(ended.key, "0x0000000000000000000000000000000000000000");
        assert.equal(ended.feeAllowance, 0n);
        assert.equal(await credits(stack, NATIVE, playerA), creditBefore);
        const owedNow = await publicClient.readContract({
          address: stack.diceHall,
          abi: diceHallAbi,
          functionName: "payOutAmount",
          args: [gameId, playerA, NATIVE],
        });
        assert.equal(owedNow, 0n, "the game owes A nothing more");

        // What the key keeps is its float at most: no more than 2 moves' gas at the session's
        // max fee per gas (the float's own price).
        const keyLeft = await publicClient.getBalance({ address: key });
        const maxFeePerGas = float / KEY_FLOAT_GAS;
        assert.ok(
          keyLeft <= 2n * KEY_ROLL_GAS_LIMIT * maxFeePerGas,
          `the key keeps ${keyLeft}, within two moves' gas (${2n * KEY_ROLL_GAS_LIMIT * maxFeePerGas})`,
        );

        // To the wei: A's wallet lost the bet, the opening's gas, and what the key spent and keeps
        // (its gas and the roll fees); nothing else. The key's gas is read from its transactions.
        let keyGasSpent = 0n;
        let keyRolls = 0n;
        for (let n = openTx.blockNumber; n <= end.blockNumber; n++) {
          const block = await publicClient.getBlock({ blockNumber: n, includeTransactions: true });
          for (const tx of block.transactions) {
            if (tx.from.toLowerCase() !== key.toLowerCase()) continue;
            const r = await publicClient.getTransactionReceipt({ hash: tx.hash });
            keyGasSpent += r.gasUsed * r.effectiveGasPrice;
          }
        }
        keyRolls = BigInt(
          (
            await publicClient.getContractEvents({
              address: stack.diceHall,
              abi: diceHallAbi,
              eventName: "RollRequested",
              args: { gameId, player: playerA },
              fromBlock: openTx.blockNumber,
            })
          ).length,
        );
        const fees = openValue - bet - slot - keyGasSpent - keyLeft;
        session.suite.log(
          `A asked ${openValue - bet} (float ${float}); the key spent ${keyGasSpent} of gas and ${fees} of fees on ${keyRolls} rolls, keeps ${keyLeft}; ${slot} came back ${after} ms after the end`,
        );
        assert.equal(
          walletBefore - walletAfter,
          bet + openTx.gasUsed * openTx.effectiveGasPrice + keyGasSpent + fees + keyLeft,
        );
        const rollFee = await publicClient.readContract({
          address: stack.diceHall,
          abi: diceHallAbi,
          functionName: "rollFee",
        });
        assert.equal(fees, keyRolls * rollFee, "the fees are the key's rolls' fees, no more");
        assert.equal(b.wallet.confirmations(), 1, "B's one confirmation");
      } finally {
        await keeper.stop();
      }
    },
  );
}

// Scenario 12 (issue 27): a roll that Entropy leaves without dice. With the provider's keeper
// stopped, an accepted request is never asked again: the player's own app fetches the provider's
// revelation from the revelation service and delivers it to Entropy. With the provider refusing
// (its fee above the game's cap), the roll is refused and the app asks for it again.
//
// Issue 32: these scenarios move the chain's clock without mining (stack.moveClock); the chain's own
// blocks, every 2 s as on Base, carry the new time. They used to mine a block themselves, which
// hid that the local chain stood still between transactions: on it, a stalled request had no
// block after it, so the revelation service never served it and the hall's keeper never saw its
// time pass.
import assert from "node:assert/strict";
import type { Abi } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { clients } from "../../../scripts/lib/chain.ts";
import { startHallKeeper, type HallKeeper } from "../../../scripts/lib/hallKeeper.ts";
import { currentPlayer, eventually, fullTable, gameView, startGame } from "../lib/chain.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import { E2E_ENTROPY } from "../lib/stack.ts";
import {
  MOVE_TIMEOUT_MS,
  openAs,
  rollButton,
  rollCount,
  settledDice,
  tableError,
  turnLine,
  waitForRoll,
} from "../lib/ui.ts";

export function entropyScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "a stalled roll: the keeper's deliveries stop, the player's app delivers the number itself",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      if (E2E_ENTROPY !== "model") return session.suite.log("skipped: E2E_ENTROPY=mock");
      const [a, b] = [stack.accounts[2], stack.accounts[3]];
      const gameId = await startGame(stack, a, b);
      const mover = (await currentPlayer(stack, gameId))!;
      const index = stack.accounts.indexOf(mover);
      const p = await openAs(session, `mover (account ${index})`, index, `/games/${gameId}`);
      await p.page.getByRole("table", { name: "Score sheets" }).waitFor();

      await stack.pauseKeeper();
      try {
        await rollButton(p.page).click();
        await p.page
          .getByText(/^Waiting for randomness \(request #\d+\)…$/)
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        const { pendingSequence } = await gameView(stack, gameId);
        assert.notEqual(pendingSequence, 0n);
        const deliver = p.page.getByRole("button", { name: "Deliver the dice" });
        assert.equal(await deliver.count(), 0, "not offered within the provider's answer time");
        // The provider's keeper stays down; half a minute later the app offers to deliver. Nobody
        // mines: the chain's own next block carries the time, and is the block after the request.
        await stack.moveClock(31);
        await p.page
          .getByText(/its number is already public on the provider's revelation service/)
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        await deliver.click();
        await waitForRoll(p.page, 1);
        const logs = await stack.publicClient.getContractEvents({
          address: stack.diceHall,
          abi: diceHallAbi,
          eventName: "DiceRolled",
          args: { gameId },
          fromBlock: 0n,
        });
        assert.equal(logs.at(-1)?.args.sequenceNumber, pendingSequence, "the one request's number");
        assert.equal(logs.at(-1)?.args.player, mover);
      } finally {
        stack.resumeKeeper();
      }
    },
  );

  e2e(
    suite,
    "a stalled roll the hall's keeper delivers: the table's delivery error goes once the dice are in",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      if (E2E_ENTROPY !== "model") return session.suite.log("skipped: E2E_ENTROPY=mock");
      const [a, b] = [stack.accounts[6], stack.accounts[7]];
      // The hall's keeper of this scenario watches only the rolls from here on.
      const fromBlock = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
      // The order is not drawn yet: the stalled roll is the draw.
      const gameId = await fullTable(stack, a, b);
      const p = await openAs(session, "a player (account 6)", 6, `/games/${gameId}`);
      await p.page.getByRole("table", { name: "Score sheets" }).waitFor();
      const service = `${stack.chain.revelations}/revelations/**`;
      // The refusal this scenario has the service answer is logged by the browser.
      p.expectedErrors.push(/status of 403 .*\/revelations\//);

      await stack.pauseKeeper();
      let hallKeeper: HallKeeper | undefined;
      try {
        await rollButton(p.page).click();
        await p.page
          .getByText(/^Waiting for randomness \(request #\d+\)…$/)
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        // The draw's heading says what its hint says.
        assert.match(
          (await turnLine(p.page).textContent()) ?? "",
          /^Round 1 of \d+\. Drawing the turn order, waiting for randomness/,
        );
        await stack.moveClock(31);
        const deliver = p.page.getByRole("button", { name: "Deliver the dice" });
        await deliver.waitFor({ timeout: MOVE_TIMEOUT_MS });
        // The service does not answer this time: the table says so.
        await p.page.route(service, (route) =>
          route.fulfill({
            status: 403,
            headers: { "access-control-allow-origin": "*" },
            contentType: "application/json",
            body: JSON.stringify({ error: "the request is not past the reveal delay yet" }),
          }),
        );
        await deliver.click();
        await p.page
          .getByRole("alert")
          .filter({ hasText: /^The revelation service does not serve request #\d+ yet/ })
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        await p.page.unroute(service);
        // Nobody presses again: the hall's keeper sees the request's time pass (the chain's own
        // blocks) and delivers it from the service.
        hallKeeper = startHallKeeper({
          publicClient: stack.publicClient,
          wallet: clients(stack.rpcUrl).wallet(stack.accounts.at(-1)!),
          hall: stack.diceHall,
          fromBlock,
          revelations: stack.chain.revelations,
          pollIntervalMs: 250,
          log: (line) => session.suite.log(`hall keeper: ${line}`),
        });
        // The draw's dice are on the table (whoever it put first), settled.
        await eventually(
          "the draw's dice on the table",
          async () =>
            (await rollCount(p.page)) === 1 && (await settledDice(p.page)) ? true : undefined,
          MOVE_TIMEOUT_MS,
        );
        assert.equal((await gameView(stack, gameId)).orderDrawn, true);
        assert.equal(hallKeeper.stats.delivered, 1, "the hall's keeper delivered the dice");
        // The error was about a request that has its dice now: it is gone.
        await eventually(
          "the delivery error to go",
          async () => ((await tableError(p.page)) === null ? true : undefined),
          MOVE_TIMEOUT_MS,
        );
      } finally {
        await hallKeeper?.stop();
        stack.resumeKeeper();
      }
    },
  );

  e2e(
    suite,
    "a refused roll: the provider prices it above the game's cap, the app asks for it again",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      if (E2E_ENTROPY !== "model") return session.suite.log("skipped: E2E_ENTROPY=mock");
      const [a, b] = [stack.accounts[4], stack.accounts[5]];
      const gameId = await startGame(stack, a, b);
      const mover = (await currentPlayer(stack, gameId))!;
      const index = stack.accounts.indexOf(mover);
      const p = await openAs(session, `mover (account ${index})`, index, `/games/${gameId}`);
      await p.page.getByRole("table", { name: "Score sheets" }).waitFor();

      const { artifacts } = await import("hardhat");
      const { abi } = await artifacts.readArtifact("EntropyModel");
      const model = stack.chain.addresses.mockEntropy;
      const provider = clients(stack.rpcUrl).wallet(stack.chain.addresses.entropyProvider);
      const providerFee = async (fee?: bigint): Promise<bigint> => {
        const info = (await stack.publicClient.readContract({
          address: model,
          abi: abi as Abi,
          functionName: "getProviderInfoV2",
          args: [stack.chain.addresses.entropyProvider],
        })) as { feeInWei: bigint };
        if (fee !== undefined) {
          const hash = await provider.writeContract({
            address: model,
            abi: abi as Abi,
            functionName: "setProviderFee",
            args: [fee],
          });
          await stack.publicClient.waitForTransactionReceipt({ hash });
        }
        return info.feeInWei;
      };
      const usual = await providerFee(10n ** 30n);
      try {
        await rollButton(p.page).click();
        await p.page
          .getByText(/^The randomness provider refused (this|the) roll/)
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        const refused = await stack.publicClient.getContractEvents({
          address: stack.diceHall,
          abi: diceHallAbi,
          eventName: "RollRefused",
          args: { gameId },
          fromBlock: 0n,
        });
        assert.equal(refused.length, 1);
        assert.equal((await gameView(stack, gameId)).pendingSequence, 0n);
      } finally {
        await providerFee(usual);
      }
      // The provider takes requests again: the app asks again, the keeper answers.
      const again = p.page.getByRole("button", { name: /^Ask for the dice again/ });
      await eventually(
        "the app to offer asking again",
        async () =>
          (await again.isEnabled({ timeout: 1_000 }).catch(() => false)) ? true : undefined,
        MOVE_TIMEOUT_MS,
      );
      await again.click();
      await waitForRoll(p.page, 1);
      const requested = await stack.publicClient.getContractEvents({
        address: stack.diceHall,
        abi: diceHallAbi,
        eventName: "RollRequested",
        args: { gameId },
        fromBlock: 0n,
      });
      const game = await gameView(stack, gameId);
      assert.equal(game.entropyAttempts, 0);
      assert.ok(requested.length >= 2, "the draw's request, then the roll asked again");
    },
  );
}

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { decodeFunctionData, getAddress, type Hex } from "viem";
import {
  hallEvent,
  openLobby,
  pricedHallFixture,
  rollTx,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { startHallKeeper } from "../scripts/lib/hallKeeper.ts";

/**
 * Issue 41, P-4: the hall's keeper asks again in a loop of its own, from an account of its own, so
 * payouts waiting for their blocks never hold a retry back. Before, one loop paid out one receipt at
 * a time between two retries: 8 payouts left 11 blocks without one.
 */

const connection = await network.create();
const { networkHelpers } = connection;
/** PricedEntropyMock's mode in which every request is refused (as a provider out of randomness). */
const REFUSE_REQUEST = 1;
const BLOCK_MS = 750;

async function rpc(h: Hall, method: string, params: unknown[] = []) {
  return h.connection.provider.request({ method, params });
}

describe("the hall's keeper: retries in their own lane (issue 41, P-4)", () => {
  it("8 payouts outstanding do not delay a retry: it asks again at every block while they are paid", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    // 8 lobbies from 8 addresses, cancelled: each creator's bet is due back to them.
    const creators = h.wallets.slice(10, 18);
    for (const creator of creators) {
      const { gameId } = await openLobby(h, creator);
      await send(h, h.hall.write.cancelGame([gameId], { account: creator.account }));
    }
    // A running game whose roll the provider refuses, whatever is asked.
    const { gameId } = await startGame(h, { players: [h.alice, h.bob] });
    await send(h, h.pricedEntropy!.write.setMode([REFUSE_REQUEST]));
    hallEvent(h, await send(h, rollTx(h, gameId, h.alice, 0)), "RollRefused");
    // Past the players' own half minute: the 8 payouts are due.
    await networkHelpers.time.increase(31);

    const retryLane = getAddress(h.wallets[8].account.address);
    const payoutLane = getAddress(h.wallets[7].account.address);
    const keeper = startHallKeeper({
      publicClient: h.publicClient as never,
      wallet: h.wallets[8] as never,
      payoutWallet: h.wallets[7] as never,
      hall: h.hall.address,
      fromBlock: 0n,
      pollIntervalMs: 25,
      log: process.env.KEEPER_LOG ? (line) => console.log(line) : undefined,
    });
    const start = await h.publicClient.getBlockNumber();
    // Blocks come on a clock, as a chain makes them, whatever the keeper is waiting for.
    await rpc(h, "evm_setAutomine", [false]);
    try {
      for (let i = 0; i < 40 && keeper.stats.paidOut < creators.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
        await networkHelpers.mine();
      }
      // Two blocks more: the retries go on after the payouts.
      for (let i = 0; i < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
        await networkHelpers.mine();
      }
    } finally {
      await rpc(h, "evm_setAutomine", [true]);
      await keeper.stop();
    }
    assert.equal(keeper.stats.paidOut, creators.length);
    for (const creator of creators) {
      assert.equal(await h.hall.read.credits([h.token.address, creator.account.address]), 0n);
      assert.equal(
        await h.hall.read.credits([
          "0x0000000000000000000000000000000000000000",
          creator.account.address,
        ]),
        0n,
        "paid out",
      );
    }

    const end = await h.publicClient.getBlockNumber();
    // Each block's calls to the hall, by lane: "roll" from the retry lane, "payOut" from the other.
    const calls: string[][] = [];
    for (let b = start + 1n; b <= end; b++) {
      const block = await h.publicClient.getBlock({ blockNumber: b, includeTransactions: true });
      calls.push(
        block.transactions.map((t) => {
          const { functionName } = decodeFunctionData({ abi: h.hall.abi, data: t.input as Hex });
          return `${getAddress(t.from) === retryLane ? "retry lane" : getAddress(t.from) === payoutLane ? "payout lane" : "other"} ${functionName}`;
        }),
      );
    }
    const payoutBlocks = calls.flatMap((c, i) => (c.includes("payout lane payOut") ? [i] : []));
    const retryBlocks = calls.flatMap((c, i) => (c.includes("retry lane roll") ? [i] : []));
    assert.ok(
      payoutBlocks.length >= 4,
      `the payouts were outstanding for ${payoutBlocks.length} blocks`,
    );
    // From the keeper's first retry to the block after the last payout, a retry in every block.
    const from = retryBlocks[0];
    const to = payoutBlocks.at(-1)! + 1;
    assert.ok(from <= payoutBlocks[0], "the first retry did not wait for the first payout");
    const missing = [];
    for (let i = from; i <= to; i++) if (!retryBlocks.includes(i)) missing.push(i);
    assert.deepEqual(missing, [], `blocks without a retry among ${from}..${to}`);
    assert.ok(keeper.stats.refused >= to - from + 1);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, parseEventLogs } from "viem";
import {
  BET,
  NATIVE,
  credits,
  hallFixture,
  lobbyConfig,
  openLobby,
  send,
  type Hall,
} from "./helpers/hall.ts";
import { startHallKeeper } from "../scripts/lib/hallKeeper.ts";

/**
 * Issue 41, P-1 (the keeper's side): a payout to an address the keeper does not control costs the
 * keeper a bounded, measured amount of gas, never more than a set share of what it pays, and a
 * receiver that burns the gas it is given gets it once: its money stays in its credit and the
 * keeper does not try again.
 */

const connection = await network.create();
const { networkHelpers } = connection;
/** What the keeper may spend on one payout to a receiver that burns every unit it is given. */
const PAYOUT_GAS_BOUND = 120_000n;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

function keeperFor(
  h: Hall,
  o: { payOutGasShareBps?: bigint; tokenPricesWei?: Record<`0x${string}`, bigint> } = {},
) {
  return startHallKeeper({
    publicClient: h.publicClient as never,
    wallet: h.wallets[8] as never,
    payoutWallet: h.wallets[7] as never,
    hall: h.hall.address,
    fromBlock: 0n,
    pollIntervalMs: 0,
    payOutGasShareBps: o.payOutGasShareBps,
    tokenPricesWei: o.tokenPricesWei,
    log: process.env.KEEPER_LOG ? (line) => console.log(line) : undefined,
  });
}

describe("the hall's keeper pays out with bounded gas (issue 41, P-1)", () => {
  it("a receiver that burns its gas: the keeper's payout stays under 120 000 gas, the money stays the player's credit, and the keeper does not try again", async () => {
    const h = await fixture();
    const burner = await h.viem.deployContract("HostileEthRejectingPlayer", [h.hall.address]);
    await send(h, burner.write.setBurnsGas([true]));
    // The attack of issue 41: open a lobby, cancel it, let the keeper pay it out.
    const opened = await send(h, burner.write.createGame([lobbyConfig()], { value: BET }));
    const [created] = parseEventLogs({
      abi: h.hall.abi,
      logs: opened.logs,
      eventName: "GameCreated",
    });
    const gameId = created.args.gameId;
    await send(h, burner.write.cancelGame([gameId]));
    assert.equal(await credits(h, NATIVE, burner.address), BET);
    assert.equal(await h.hall.read.payOutAmount([gameId, burner.address, NATIVE]), BET);
    await networkHelpers.time.increase(31);

    const payoutLane = getAddress(h.wallets[7].account.address);
    const keeper = keeperFor(h);
    try {
      await keeper.tick();
      assert.equal(keeper.stats.payOutsFailed, 1);
      assert.equal(keeper.stats.paidOut, 0);
      if (process.env.KEEPER_LOG) console.log(`burner's payout: ${keeper.stats.payOutGasMax} gas`);
      assert.ok(
        keeper.stats.payOutGasMax < PAYOUT_GAS_BOUND,
        `the keeper's payout used ${keeper.stats.payOutGasMax} gas`,
      );
      // The hall kept what it could not deliver, for the player to withdraw, and said so.
      assert.equal(await credits(h, NATIVE, burner.address), BET);
      const [failed] = await h.publicClient.getContractEvents({
        address: h.hall.address,
        abi: h.hall.abi,
        eventName: "PayoutFailed",
        fromBlock: 0n,
      });
      assert.equal(getAddress(failed.args.account!), getAddress(burner.address));
      assert.equal(failed.args.amount, BET);
      assert.equal(await h.hall.read.payOutAmount([gameId, burner.address, NATIVE]), 0n);

      // The keeper does not try again: not for this game, nor for the same receiver's next game.
      const sent = await h.publicClient.getTransactionCount({ address: payoutLane });
      await send(h, burner.write.createGame([lobbyConfig()], { value: BET }));
      const next = (await h.hall.read.nextGameId()) - 1n;
      await send(h, burner.write.cancelGame([next]));
      await networkHelpers.time.increase(31);
      await keeper.tick();
      await keeper.tick();
      assert.equal(await h.publicClient.getTransactionCount({ address: payoutLane }), sent);
      assert.equal(keeper.stats.payOutsFailed, 1);
    } finally {
      await keeper.stop();
    }
    // The player takes its money itself, once it accepts the coin.
    await send(h, burner.write.setBurnsGas([false]));
    await send(h, burner.write.setAcceptsEth([true]));
    await send(h, burner.write.withdraw([NATIVE]));
    assert.equal(await h.publicClient.getBalance({ address: burner.address }), 2n * BET);
  });

  it("never spends more on a player than its share of what it pays: a payout worth less than its gas bound at that share is left to the player", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice);
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    await networkHelpers.time.increase(31);
    const payoutLane = getAddress(h.wallets[7].account.address);
    const sent = await h.publicClient.getTransactionCount({ address: payoutLane });
    // At 0.01 % of 10^16 wei (10^12), no payout's gas fits: the keeper sends nothing.
    const stingy = keeperFor(h, { payOutGasShareBps: 1n });
    try {
      await stingy.tick();
      assert.equal(stingy.stats.payOutsDeclined, 1);
      assert.equal(stingy.stats.paidOut, 0);
      assert.equal(await h.publicClient.getTransactionCount({ address: payoutLane }), sent);
      assert.equal(await credits(h, NATIVE, h.alice), BET);
    } finally {
      await stingy.stop();
    }
    // At the default 10 %, the same payout is sent, and what it cost is within that share.
    const keeper = keeperFor(h);
    const before = await h.publicClient.getBalance({ address: h.alice.account.address });
    try {
      await keeper.tick();
      assert.equal(keeper.stats.paidOut, 1);
      assert.ok(keeper.stats.gasPaid * 10n <= BET, `the keeper paid ${keeper.stats.gasPaid} wei`);
      assert.equal(
        await h.publicClient.getBalance({ address: h.alice.account.address }),
        before + BET,
      );
    } finally {
      await keeper.stop();
    }
  });

  it("pays what the game left the player and leaves a deposit alone", async () => {
    const h = await fixture();
    await send(h, h.hall.write.deposit([NATIVE, BET], { account: h.bob.account, value: BET }));
    const { gameId } = await openLobby(h, h.bob);
    await send(h, h.hall.write.cancelGame([gameId], { account: h.bob.account }));
    assert.equal(await credits(h, NATIVE, h.bob), 2n * BET);
    await networkHelpers.time.increase(31);
    const keeper = keeperFor(h);
    try {
      await keeper.tick();
      assert.equal(keeper.stats.paidOut, 1);
      assert.equal(await credits(h, NATIVE, h.bob), BET, "the deposit stays");
    } finally {
      await keeper.stop();
    }
  });

  it("weighs a token payout only with the token's price: without one it is left to the player", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.carol, { token: h.token.address });
    await send(h, h.hall.write.cancelGame([gameId], { account: h.carol.account }));
    await networkHelpers.time.increase(31);
    const owed = await credits(h, h.token.address, h.carol);
    assert.ok(owed > 0n);
    const unpriced = keeperFor(h);
    try {
      await unpriced.tick();
      assert.equal(unpriced.stats.payOutsDeclined, 1);
      assert.equal(await credits(h, h.token.address, h.carol), owed);
    } finally {
      await unpriced.stop();
    }
    // Worth 10^9 wei a unit: far more than the payout's gas.
    const decimals = await h.token.read.decimals();
    const priced = keeperFor(h, {
      tokenPricesWei: { [h.token.address]: 10n ** BigInt(decimals) * 10n ** 9n },
    });
    const before = await h.token.read.balanceOf([h.carol.account.address]);
    try {
      await priced.tick();
      assert.equal(priced.stats.paidOut, 1);
      assert.equal(await h.token.read.balanceOf([h.carol.account.address]), before + owed);
    } finally {
      await priced.stop();
    }
  });
});

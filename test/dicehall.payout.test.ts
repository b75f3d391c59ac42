import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, zeroAddress } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import {
  BET,
  MOVE_TIMEOUT,
  NATIVE,
  PRICED_ROLL_FEE,
  STATUS,
  addressOf,
  consentOf,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  lobbyConfig,
  openLobby,
  pricedHallFixture,
  rollWith,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";

/**
 * What a third party's payOut may move (issue 41, P-1 and P-2; issue 43, a key that holds only a
 * float): only what that game left the player, and their session's slot once it is over; never a
 * deposit or another game's credit; and never more gas into the receiver's code than PAYOUT_GAS.
 */

const connection = await network.create();
const { networkHelpers } = connection;
const ALLOWANCE = PRICED_ROLL_FEE * 40n;
const FLOAT = 3n * 10n ** 15n;

async function now(h: Hall): Promise<bigint> {
  return (await h.publicClient.getBlock()).timestamp;
}

/** Plays nothing: the player to move times out, so the other (2 seats) wins the pot. */
async function finishByTimeout(h: Hall, gameId: bigint, keeper: WalletClient) {
  // The first roll draws the order; nobody makes it, so the lobby's deadline is the order draw's.
  await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
  await send(h, h.hall.write.claimTimeout([gameId], { account: keeper.account }));
}

async function grantFor(h: Hall, key: WalletClient, keyGas = 0n, feeAllowance = ALLOWANCE) {
  return {
    key: key.account.address,
    expiresAt: (await now(h)) + 3600n,
    feeAllowance,
    keyGas,
  };
}

/**
 * A contract player that opened a lobby and cancelled it: the game owes it its bet. `receiver` says
 * what its receive() does with a payout.
 */
async function contractPlayerOwedARefund(h: Hall, receiver: "takes it" | "burns gas" | "reverts") {
  const player = await h.viem.deployContract("HostileEthRejectingPlayer", [h.hall.address]);
  if (receiver === "takes it") await send(h, player.write.setAcceptsEth([true]));
  if (receiver === "burns gas") await send(h, player.write.setBurnsGas([true]));
  await send(h, player.write.createGame([lobbyConfig()], { value: BET }));
  const gameId = (await h.hall.read.nextGameId()) - 1n;
  await send(h, player.write.cancelGame([gameId]));
  return { player, gameId };
}

describe("payOut sends what the game left the player, and nothing else", () => {
  it("leaves a deposit and another game's credit alone, and pays each game once", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const keeper = h.wallets[8];
    // Alice keeps a deposit in the hall, and a refund from a lobby she cancelled.
    const deposit = 3n * 10n ** 16n;
    await send(
      h,
      h.hall.write.deposit([NATIVE, deposit], { account: h.alice.account, value: deposit }),
    );
    const { gameId: lobby } = await openLobby(h, h.alice);
    await send(h, h.hall.write.cancelGame([lobby], { account: h.alice.account }));
    // And a game she plays with bob, called off when nobody draws the order: every bet back.
    const { gameId } = await startGame(h, { seats: 2 });
    await finishByTimeout(h, gameId, keeper);
    assert.equal((await gameView(h, gameId)).status, STATUS.Cancelled);
    assert.equal(await credits(h, NATIVE, h.alice), deposit + 2n * BET);

    const paid = await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    assert.deepEqual(
      { ...hallEvent(h, paid, "Withdrawn") },
      { token: NATIVE, account: addressOf(h.alice), amount: BET },
    );
    // The deposit and the lobby's refund are still hers to keep in the hall.
    assert.equal(await credits(h, NATIVE, h.alice), deposit + BET);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.alice)],
    );
    assert.equal(await h.hall.read.payOutAmount([gameId, h.alice.account.address, NATIVE]), 0n);
    // Her own moves still see her credit: a bet from it goes through.
    const cfg = lobbyConfig();
    await send(h, h.hall.write.createGameFromCredit([cfg], { account: h.alice.account }));
    assert.equal(await credits(h, NATIVE, h.alice), deposit);
    // The lobby's refund was spent on that bet: there is nothing left of it to pay out.
    assert.equal(await h.hall.read.payOutAmount([lobby, h.alice.account.address, NATIVE]), 0n);
  });

  it("pays a winner their winnings only, even when the credit holds more", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const keeper = h.wallets[8];
    await send(h, h.hall.write.deposit([NATIVE, 7n], { account: h.bob.account, value: 7n }));
    const { gameId } = await startGame(h, { seats: 2 });
    // Alice draws the order (the join order) and rolls; then her clock runs out and bob wins the pot.
    await rollWith(h, gameId, h.alice, 0, [1, 2, 3, 4, 6]);
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const claimed = await send(h, h.hall.write.claimTimeout([gameId], { account: keeper.account }));
    const finished = hallEvent(h, claimed, "GameFinished");
    const winnings = 2n * BET - (finished.houseFee as bigint);
    assert.equal(finished.payoutEach, winnings);
    assert.equal(await credits(h, NATIVE, h.bob), winnings + 7n);
    assert.equal(await h.hall.read.payOutAmount([gameId, h.bob.account.address, NATIVE]), winnings);
    // The loser is owed nothing: a call for her reverts rather than moving her credit.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.alice)],
    );
    const paid = await send(
      h,
      h.hall.write.payOut([gameId, h.bob.account.address, NATIVE], { account: keeper.account }),
    );
    assert.equal(hallEvent(h, paid, "Withdrawn").amount, winnings);
    assert.equal(await credits(h, NATIVE, h.bob), 7n);
  });
});

describe("a payout someone else sends costs them a bounded amount, whatever the receiver does", () => {
  for (const mode of ["burns gas", "reverts"] as const) {
    it(`a receiver that ${mode}: the keeper's gas bounded, the money left in the player's credit`, async () => {
      const h = await networkHelpers.loadFixture(pricedHallFixture);
      const keeper = h.wallets[8];
      const { player, gameId } = await contractPlayerOwedARefund(h, mode);
      const before = await hallBalance(h);

      const receipt = await send(
        h,
        h.hall.write.payOut([gameId, player.address, NATIVE], {
          account: keeper.account,
          gas: 5_000_000n,
        }),
      );
      // PAYOUT_GAS (50 000) into the receiver, plus the payout's own reads and writes.
      assert.ok(receipt.gasUsed < 120_000n, `payOut used ${receipt.gasUsed} gas`);
      assert.deepEqual(
        { ...hallEvent(h, receipt, "PayoutFailed") },
        { token: NATIVE, account: getAddress(player.address), amount: BET },
      );
      assert.equal(hallEvents(h, receipt, "Withdrawn").length, 0);
      assert.equal(await credits(h, NATIVE, player.address), BET);
      assert.equal(await hallBalance(h), before);
      // The game owes it nothing more: nobody pays for the same receiver twice.
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.payOut([gameId, player.address, NATIVE], { account: keeper.account }),
        h.hall,
        "NothingToWithdraw",
        [NATIVE, getAddress(player.address)],
      );
      // Its own withdraw, once it takes the coin, still gets it.
      await send(h, player.write.setBurnsGas([false]));
      await send(h, player.write.setAcceptsEth([true]));
      await send(h, player.write.withdraw([NATIVE]));
      assert.equal(await credits(h, NATIVE, player.address), 0n);
    });
  }

  it("a receiver that takes the coin in under PAYOUT_GAS is paid", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { player, gameId } = await contractPlayerOwedARefund(h, "takes it");
    const receipt = await send(
      h,
      h.hall.write.payOut([gameId, player.address, NATIVE], { account: h.wallets[8].account }),
    );
    assert.equal(hallEvent(h, receipt, "Withdrawn").amount, BET);
    assert.equal(await h.publicClient.getBalance({ address: player.address }), BET);
  });
});

describe("a session key holds only its float; the rest comes back when its game is over", () => {
  async function sessionGame() {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const [key, bobKey] = [h.wallets[10], h.wallets[11]];
    // A fresh key: empty, as a browser's new key is.
    await networkHelpers.setBalance(key.account.address, 0n);
    const cfg = lobbyConfig({ seats: 2 });
    // A slot that holds the roll fees and the key's gas beyond its float.
    const grant = await grantFor(h, key, FLOAT, 10n ** 16n);
    const receipt = await send(
      h,
      h.hall.write.createGameWithSession([cfg, grant, await consentOf(h, key, h.alice, grant)], {
        account: h.alice.account,
        value: cfg.bet + grant.keyGas + grant.feeAllowance,
      }),
    );
    const gameId = hallEvent(h, receipt, "GameCreated").gameId as bigint;
    await send(h, h.hall.write.joinGame([gameId], { account: h.bob.account, value: BET }));
    return { h, key, bobKey, gameId, grant };
  }

  it("the key refuels itself from its slot up to its float, and no further", async () => {
    const { h, key, grant } = await sessionGame();
    assert.equal(await h.publicClient.getBalance({ address: key.account.address }), FLOAT);
    // A key that holds its float and the refuel's gas besides has nothing to take.
    await networkHelpers.setBalance(key.account.address, FLOAT + 10n ** 15n);
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.refuelKey({ account: key.account, gas: 100_000n }),
      h.hall,
      "KeyFull",
    );
    // The key spends some of its float (as its moves would), then refuels: during the call its balance is
    // what it held less the call's gas paid up front, and it is topped up to the float from there.
    const held = FLOAT - 10n ** 15n;
    await networkHelpers.setBalance(key.account.address, held);
    const gas = 100_000n;
    const receipt = await send(h, h.hall.write.refuelKey({ account: key.account, gas }));
    const price = receipt.effectiveGasPrice;
    const topUp = FLOAT - (held - gas * price);
    assert.deepEqual(
      { ...hallEvent(h, receipt, "KeyRefuelled") },
      { player: addressOf(h.alice), key: getAddress(key.account.address), amount: topUp },
    );
    assert.equal(
      await h.publicClient.getBalance({ address: key.account.address }),
      held - receipt.gasUsed * price + topUp,
    );
    assert.equal(
      (await h.hall.read.session([h.alice.account.address])).feeAllowance,
      grant.feeAllowance - topUp,
    );
    // Nobody but an active key refuels.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.refuelKey({ account: h.carol.account }),
      h.hall,
      "NotSessionKey",
      [addressOf(h.carol)],
    );
  });

  it("a player who closed the tab for good gets the game's money and the slot back from the keeper", async () => {
    const { h, key, gameId, grant } = await sessionGame();
    const keeper = h.wallets[8];
    // Nobody draws the order: the game is called off, every bet back.
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: keeper.account }));
    const due = await h.hall.read.payOutAmount([gameId, h.alice.account.address, NATIVE]);
    assert.equal(due, BET + grant.feeAllowance);
    const before = await h.publicClient.getBalance({ address: h.alice.account.address });
    const receipt = await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    assert.equal(hallEvent(h, receipt, "Withdrawn").amount, BET + grant.feeAllowance);
    assert.equal(
      await h.publicClient.getBalance({ address: h.alice.account.address }),
      before + BET + grant.feeAllowance,
    );
    // The session is over: the key can do nothing more, and is free; it keeps only its float.
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), zeroAddress);
    assert.equal((await h.hall.read.session([h.alice.account.address])).key, zeroAddress);
    assert.equal(await h.publicClient.getBalance({ address: key.account.address }), FLOAT);
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
  });

  it("a session opened on its own is paid out with a game only once it has expired", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const keeper = h.wallets[8];
    const key = h.wallets[10];
    const { gameId } = await startGame(h, { seats: 2 });
    const grant = await grantFor(h, key, 0n);
    await send(
      h,
      h.hall.write.openSession([grant, await consentOf(h, key, h.alice, grant)], {
        account: h.alice.account,
        value: grant.feeAllowance,
      }),
    );
    await finishByTimeout(h, gameId, keeper);
    // Not this game's session, and still active: only the refund.
    assert.equal(await h.hall.read.payOutAmount([gameId, h.alice.account.address, NATIVE]), BET);
    await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, ALLOWANCE);
    await networkHelpers.time.increaseTo(grant.expiresAt);
    assert.equal(
      await h.hall.read.payOutAmount([gameId, h.alice.account.address, NATIVE]),
      ALLOWANCE,
    );
    const late = await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    assert.equal(hallEvent(h, late, "Withdrawn").amount, ALLOWANCE);
  });
});

describe("a payout sent with too little gas is refused, not failed", () => {
  it("reverts PayoutGasTooLow rather than let a starved call push a willing receiver's money back to credit", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { player, gameId } = await contractPlayerOwedARefund(h, "takes it");
    // PAYOUT_MIN_GAS: PAYOUT_GAS as EIP-150 forwards it, and 40 000 for the call and the fallback.
    const needed = ((await h.hall.read.PAYOUT_GAS()) * 64n) / 63n + 40_000n;
    // Enough for everything before the send, not for the receiver's stipend and the fallback.
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.payOut([gameId, player.address, NATIVE], {
        account: h.wallets[8].account,
        gas: 70_000n,
      }),
      h.hall,
      "PayoutGasTooLow",
    );
    assert.ok(needed > 50_000n);
    // Nothing moved: the game still owes it, and a call with enough gas pays it.
    assert.equal(await h.hall.read.payOutAmount([gameId, player.address, NATIVE]), BET);
    const paid = await send(
      h,
      h.hall.write.payOut([gameId, player.address, NATIVE], { account: h.wallets[8].account }),
    );
    assert.equal(hallEvent(h, paid, "Withdrawn").amount, BET);
  });
});

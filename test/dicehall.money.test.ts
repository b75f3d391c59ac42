import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import {
  BET,
  FEE_BPS,
  MOVE_TIMEOUT,
  NATIVE,
  PRICED_ROLL_FEE,
  STATUS,
  TOKEN_BET,
  addressOf,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  hallFixture,
  openLobby,
  pricedHallFixture,
  requestRoll,
  reveal,
  rollWith,
  scoreBox,
  send,
  settlement,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { randomFor } from "./helpers/dice.ts";

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

/** Plays a Yazty game in which each seat gets the dice `diceFor(seat, round)` and scores box `round`. */
async function playYazty(
  h: Hall,
  gameId: bigint,
  order: WalletClient[],
  diceFor: (seat: number, round: number) => number[],
) {
  let last;
  for (let round = 0; round < 13; round++) {
    for (const [seat, player] of order.entries()) {
      await rollWith(h, gameId, player, 0, diceFor(seat, round));
      last = await scoreBox(h, gameId, player, round);
    }
  }
  return hallEvent(h, last!.receipt, "GameFinished");
}

// One hand per box of Yazty, so that a tied game still scores something in most boxes.
const YAZTY_HANDS = [
  [1, 1, 1, 2, 3],
  [2, 2, 2, 1, 3],
  [3, 3, 3, 1, 2],
  [4, 4, 4, 1, 2],
  [5, 5, 5, 1, 2],
  [6, 6, 6, 1, 2],
  [4, 4, 4, 2, 5],
  [3, 3, 3, 3, 6],
  [2, 2, 5, 5, 5],
  [2, 3, 4, 5, 6],
  [1, 2, 3, 4, 5],
  [6, 6, 6, 6, 6],
  [6, 6, 5, 5, 4],
];

describe("settlement", () => {
  it("splits a tied pot three ways and gives the remainder to the first winner in turn order", async () => {
    const h = await fixture();
    // An odd bet so that the pot after the fee does not divide by three.
    const bet = BET + 7n;
    const { gameId, order } = await startGame(h, { seats: 4, ruleSet: 2, bet });
    // The first seat does worse in the last box; the other three tie.
    const finished = await playYazty(h, gameId, order, (seat, round) =>
      seat === 0 && round === 12 ? [1, 1, 2, 2, 3] : YAZTY_HANDS[round],
    );
    const money = settlement(bet, 4, FEE_BPS, 3);
    assert.equal(money.remainder, 2n, "the case must leave a remainder to hand out");
    const winners = order.slice(1).map(addressOf);
    assert.deepEqual(finished.winners, winners);
    assert.equal(finished.payoutEach, money.payoutEach);
    assert.equal(finished.houseFee, money.fee);
    assert.equal((finished.totals as bigint[])[1], (finished.totals as bigint[])[2]);
    assert.ok((finished.totals as bigint[])[0] < (finished.totals as bigint[])[1]);

    assert.equal(await credits(h, NATIVE, order[0]), 0n);
    assert.equal(await credits(h, NATIVE, order[1]), money.payoutEach + 2n);
    assert.equal(await credits(h, NATIVE, order[2]), money.payoutEach);
    assert.equal(await credits(h, NATIVE, order[3]), money.payoutEach);
    assert.equal(await h.hall.read.treasury([NATIVE]), money.fee);
    // Every wei of the pot is accounted for.
    assert.equal(money.fee + 3n * money.payoutEach + 2n, money.pot);
    assert.equal(await hallBalance(h), money.pot);
  });

  it("credits a two-way tie equally in a token, fee to the treasury", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 2, token: h.token.address });
    const finished = await playYazty(h, gameId, order, (_seat, round) => YAZTY_HANDS[round]);
    const money = settlement(TOKEN_BET, 2, FEE_BPS, 2);
    assert.deepEqual(finished.winners, order.map(addressOf));
    assert.equal(finished.token, getAddress(h.token.address));
    assert.equal(await credits(h, h.token.address, order[0]), money.payoutEach + money.remainder);
    assert.equal(await credits(h, h.token.address, order[1]), money.payoutEach);
    assert.equal(await h.hall.read.treasury([h.token.address]), money.fee);
    assert.equal(await h.hall.read.treasury([NATIVE]), 0n);
  });

  it("takes no fee from a game opened while the fee was 0, even if it rose since", async () => {
    const h = await fixture();
    await send(h, h.hall.write.setHouseFee([0]));
    const { gameId, order } = await startGame(h, { seats: 2 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // draws the order
    await send(h, h.hall.write.setHouseFee([1000]));
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    const finished = hallEvent(h, receipt, "GameFinished");
    assert.equal(finished.houseFee, 0n);
    assert.equal(finished.payoutEach, 2n * BET);
    assert.equal(await credits(h, NATIVE, order[1]), 2n * BET);
    assert.equal(await h.hall.read.treasury([NATIVE]), 0n);
  });

  it("takes the 10% cap when the lobby opened at the cap", async () => {
    const h = await fixture();
    await send(h, h.hall.write.setHouseFee([1000]));
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // draws the order
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: h.stranger.account }));
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    const finished = hallEvent(h, receipt, "GameFinished");
    assert.equal(finished.houseFee, (3n * BET) / 10n);
    assert.deepEqual(finished.winners, [addressOf(order[2])]);
    assert.equal(await credits(h, NATIVE, order[2]), 3n * BET - (3n * BET) / 10n);
  });
});

describe("withdraw", () => {
  it("sends the native credits, zeroes them and says so", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    await send(h, h.hall.write.joinGame([gameId], { account: h.bob.account, value: BET }));
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    const tx = h.hall.write.withdraw([NATIVE], { account: h.bob.account });
    await h.viem.assertions.balancesHaveChanged(tx, [
      { address: addressOf(h.bob), amount: BET },
      { address: h.hall.address, amount: -BET },
    ]);
    const receipt = await h.publicClient.getTransactionReceipt({ hash: await tx });
    assert.deepEqual(
      { ...hallEvent(h, receipt, "Withdrawn") },
      { token: NATIVE, account: addressOf(h.bob), amount: BET },
    );
    assert.equal(await credits(h, NATIVE, h.bob), 0n);
    assert.equal(await credits(h, NATIVE, h.alice), BET, "another player's credit is untouched");
  });

  it("sends a winner's token credits in full", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, token: h.token.address });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // draws the order
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: h.stranger.account }));
    const winner = order[1];
    const owed = await credits(h, h.token.address, winner);
    assert.equal(owed, settlement(TOKEN_BET, 2, FEE_BPS, 1).payoutEach);
    const before = await h.token.read.balanceOf([addressOf(winner)]);
    const receipt = await send(
      h,
      h.hall.write.withdraw([h.token.address], { account: winner.account }),
    );
    assert.equal(await h.token.read.balanceOf([addressOf(winner)]), before + owed);
    assert.equal(
      await h.token.read.balanceOf([h.hall.address]),
      await h.hall.read.treasury([h.token.address]),
    );
    assert.equal(hallEvent(h, receipt, "Withdrawn").amount, owed);
    assert.equal(await credits(h, h.token.address, winner), 0n);
  });

  it("pays the owner the treasury, and never more", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // draws the order
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: h.stranger.account }));
    const fee = settlement(BET, 2, FEE_BPS, 1).fee;
    assert.equal(await h.hall.read.treasury([NATIVE]), fee);
    const tx = h.hall.write.withdrawTreasury([NATIVE, addressOf(h.carol), fee - 1n]);
    await h.viem.assertions.balancesHaveChanged(tx, [
      { address: addressOf(h.carol), amount: fee - 1n },
    ]);
    const receipt = await h.publicClient.getTransactionReceipt({ hash: await tx });
    assert.deepEqual(
      { ...hallEvent(h, receipt, "TreasuryWithdrawn") },
      { token: NATIVE, to: addressOf(h.carol), amount: fee - 1n },
    );
    assert.equal(await h.hall.read.treasury([NATIVE]), 1n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawTreasury([NATIVE, addressOf(h.carol), 2n]),
      h.hall,
      "TreasuryInsufficient",
      [NATIVE, 2n, 1n],
    );
  });
});

describe("the roll fee", () => {
  it("is the Entropy fee, and the roll forwards exactly that to Entropy", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const priced = h.pricedEntropy!;
    assert.equal(await h.hall.read.rollFee(), PRICED_ROLL_FEE);
    const { gameId, order } = await startGame(h, { seats: 2 });
    const receipt = await send(
      h,
      h.hall.write.roll([gameId, 0], { account: order[0].account, value: PRICED_ROLL_FEE }),
    );
    assert.equal(await priced.read.lastPaid(), PRICED_ROLL_FEE);
    assert.equal(await h.publicClient.getBalance({ address: priced.address }), PRICED_ROLL_FEE);
    assert.equal(hallEvents(h, receipt, "Credited").length, 0);
    assert.equal(await credits(h, NATIVE, order[0]), 0n);
    // The answer arrives through the priced Entropy like any other.
    const seq = hallEvent(h, receipt, "RollRequested").sequenceNumber as bigint;
    const answer = await reveal(h, seq, randomFor([2, 2, 3, 3, 3]));
    assert.deepEqual([...(hallEvent(h, answer, "DiceRolled").dice as number[])], [2, 2, 3, 3, 3]);
  });

  it("credits the surplus of an overpaid roll back to the roller", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const priced = h.pricedEntropy!;
    const { gameId, order } = await startGame(h, { seats: 2 });
    const surplus = 777n;
    const escrow = await hallBalance(h);
    const receipt = await send(
      h,
      h.hall.write.roll([gameId, 0], {
        account: order[0].account,
        value: PRICED_ROLL_FEE + surplus,
      }),
    );
    assert.equal(
      await priced.read.lastPaid(),
      PRICED_ROLL_FEE,
      "Entropy keeps what it is overpaid",
    );
    assert.deepEqual(
      { ...hallEvent(h, receipt, "Credited") },
      { token: NATIVE, account: addressOf(order[0]), amount: surplus },
    );
    assert.equal(await credits(h, NATIVE, order[0]), surplus);
    assert.equal(await hallBalance(h), escrow + surplus);
    await send(h, h.hall.write.withdraw([NATIVE], { account: order[0].account }));
    assert.equal(await hallBalance(h), escrow);
  });

  it("follows the Entropy fee as it changes", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const priced = h.pricedEntropy!;
    const { gameId, order } = await startGame(h, { seats: 2 });
    await send(h, priced.write.setFee([PRICED_ROLL_FEE * 2n]));
    assert.equal(await h.hall.read.rollFee(), PRICED_ROLL_FEE * 2n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 0], { account: order[0].account, value: PRICED_ROLL_FEE }),
      h.hall,
      "InsufficientRollFee",
      [PRICED_ROLL_FEE, PRICED_ROLL_FEE * 2n],
    );
    await requestRoll(h, gameId, order[0], 0, PRICED_ROLL_FEE * 2n);
  });

  it("credits a tip sent with a free roll", async () => {
    const h = await fixture();
    assert.equal(await h.hall.read.rollFee(), 0n);
    const { gameId, order } = await startGame(h, { seats: 2 });
    await requestRoll(h, gameId, order[0], 0, 5n);
    assert.equal(await credits(h, NATIVE, order[0]), 5n);
  });
});

describe("claimTimeout payouts", () => {
  it("pays the last player standing the pot minus the fee", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3, token: h.token.address });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // draws the order
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: h.stranger.account }));
    await rollWith(h, gameId, order[1], 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, gameId, order[1], 10);
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    const finished = hallEvent(h, receipt, "GameFinished");
    const money = settlement(TOKEN_BET, 3, FEE_BPS, 1);
    assert.deepEqual(finished.players, order.map(addressOf), "forfeited players are still listed");
    assert.deepEqual(finished.winners, [addressOf(order[1])]);
    assert.deepEqual(finished.totals, [0n, 40n, 0n]);
    assert.equal(finished.payoutEach, money.pot - money.fee);
    assert.equal(finished.houseFee, money.fee);
    assert.equal(await credits(h, h.token.address, order[1]), money.pot - money.fee);
    assert.equal(await credits(h, h.token.address, order[0]), 0n);
    assert.equal(await credits(h, h.token.address, order[2]), 0n);
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
  });
});

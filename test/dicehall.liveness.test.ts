import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import {
  BET,
  DEFAULT_CALL_OFF_WINDOW,
  DEFAULT_ENTROPY_TIMEOUT,
  FEE_BPS,
  MOVE_TIMEOUT,
  NATIVE,
  STATUS,
  addressOf,
  credits,
  gameView,
  hallEvent,
  hallEvents,
  hallFixture,
  playerView,
  requestRoll,
  reveal,
  rollTx,
  rollWith,
  scoreBox,
  scoreTx,
  send,
  settlement,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { keepsJoinOrder, randomFor } from "./helpers/dice.ts";

/** No one can be stuck: timeouts forfeit, play goes on, the last player standing wins. */

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

async function claim(h: Hall, gameId: bigint) {
  return send(h, h.hall.write.claimTimeout([gameId], { account: h.stranger.account }));
}

describe("claimTimeout", () => {
  it("forfeits the idle player one second after the deadline and passes the turn", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // the first roll draws the order
    const { deadline } = await gameView(h, gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline + 1n);
    const receipt = await claim(h, gameId);
    const forfeited = hallEvent(h, receipt, "PlayerForfeited");
    assert.equal(forfeited.gameId, gameId);
    assert.equal(forfeited.player, addressOf(order[0]));
    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Running);
    assert.equal(game.currentSeat, 1);
    assert.equal(game.round, 1);
    assert.equal(
      game.deadline,
      deadline + 1n + BigInt(MOVE_TIMEOUT),
      "the next player gets a full move",
    );
    assert.equal((await playerView(h, gameId, order[0])).forfeited, true);
    // The next player simply plays on.
    await rollWith(h, gameId, order[1], 0, [5, 5, 5, 5, 2]);
    assert.equal((await scoreBox(h, gameId, order[1], 4)).points, 20);
  });

  it("skips a forfeited player in every later round", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [1, 1, 1, 1, 1]);
    await scoreBox(h, gameId, order[0], 0);
    // The middle seat walks away.
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await claim(h, gameId);
    await rollWith(h, gameId, order[2], 0, [2, 2, 2, 2, 2]);
    await scoreBox(h, gameId, order[2], 1);
    for (let round = 2; round <= 3; round++) {
      let game = await gameView(h, gameId);
      assert.equal(game.round, round);
      assert.equal(game.currentSeat, 0);
      await rollWith(h, gameId, order[0], 0, [6, 6, 6, 6, 1]);
      await scoreBox(h, gameId, order[0], round + 3);
      game = await gameView(h, gameId);
      assert.equal(game.currentSeat, 2, "seat 1 forfeited and is skipped");
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        rollTx(h, gameId, order[1], 0),
        h.hall,
        "NotYourTurn",
        [gameId, addressOf(order[2])],
      );
      await rollWith(h, gameId, order[2], 0, [6, 6, 6, 6, 1]);
      await scoreBox(h, gameId, order[2], round + 3);
    }
  });

  it("advances the round when the last seat of a round times out", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, gameId, order[0], 12);
    await rollWith(h, gameId, order[1], 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, gameId, order[1], 12);
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await claim(h, gameId);
    const game = await gameView(h, gameId);
    assert.equal(game.round, 2);
    assert.equal(game.currentSeat, 0);
  });

  it("forfeits mid-turn after a roll, dropping the dice", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [6, 6, 6, 6, 6]);
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await claim(h, gameId);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, order[0], 11),
      h.hall,
      "NotYourTurn",
      [gameId, addressOf(order[1])],
    );
    assert.equal((await playerView(h, gameId, order[0])).filled[11], false);
  });

  it("never lets a forfeited player win, even with the best sheet", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3, ruleSet: 2 });
    const [quitter, winner, loser] = order;
    await rollWith(h, gameId, quitter, 0, [6, 6, 6, 6, 6]);
    await scoreBox(h, gameId, quitter, 11);
    let last;
    for (let round = 0; round < 13; round++) {
      if (round === 1) {
        await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
        await claim(h, gameId);
      }
      await rollWith(h, gameId, winner, 0, round === 12 ? [6, 6, 6, 5, 5] : [1, 1, 2, 2, 3]);
      await scoreBox(h, gameId, winner, round);
      await rollWith(h, gameId, loser, 0, [1, 1, 2, 2, 3]);
      last = await scoreBox(h, gameId, loser, round);
    }
    const finished = hallEvent(h, last!.receipt, "GameFinished");
    assert.deepEqual(finished.players, order.map(addressOf));
    // Yazty: Yatzi 50 for the quitter; 1-1-2-2-3 scores 2 + 4 + 3 and Random 9.
    assert.deepEqual(finished.totals, [50n, 9n + 28n, 18n]);
    assert.deepEqual(finished.winners, [addressOf(winner)]);
    const money = settlement(BET, 3, FEE_BPS, 1);
    assert.equal(await credits(h, NATIVE, winner), money.pot - money.fee);
    assert.equal(await credits(h, NATIVE, quitter), 0n);
  });

  it("ends a two-player game at once when one player times out", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // the first roll draws the order
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await claim(h, gameId);
    hallEvent(h, receipt, "PlayerForfeited");
    const finished = hallEvent(h, receipt, "GameFinished");
    assert.deepEqual(finished.winners, [addressOf(order[1])]);
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "GameNotRunning",
      [gameId, STATUS.Finished],
    );
  });

  it("does not run the clock against a player waiting for dice", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], 0);
    const requestedAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    // Entropy is slow: the old move deadline no longer applies, only the call-off window does.
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT + MOVE_TIMEOUT + 10);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
      [gameId, requestedAt + BigInt(DEFAULT_CALL_OFF_WINDOW)],
    );
    const answer = await reveal(h, sequenceNumber, randomFor([3, 3, 3, 2, 2], keepsJoinOrder(2)));
    const answeredAt = (await h.publicClient.getBlock({ blockNumber: answer.blockNumber }))
      .timestamp;
    assert.equal((await gameView(h, gameId)).deadline, answeredAt + BigInt(MOVE_TIMEOUT));
    assert.equal((await scoreBox(h, gameId, order[0], 8)).points, 25);
  });

  it("keeps the entropy timeout a game opened with when the owner changes it (for the record only)", async () => {
    const h = await fixture();
    const { gameId } = await startGame(h, { seats: 2 });
    await send(h, h.hall.write.setEntropyTimeout([3600]));
    assert.equal((await gameView(h, gameId)).entropyTimeout, DEFAULT_ENTROPY_TIMEOUT);
    const { gameId: later } = await startGame(h, { seats: 2 });
    assert.equal((await gameView(h, later)).entropyTimeout, 3600);
  });

  it("times out a player who walks away after their request went unanswered, once the dice came", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 6]); // the first roll draws the order
    const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], 0);
    const requestedAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    // Nobody forfeits while a roll is out; its number is delivered late (by anyone) and the dice arrive.
    await networkHelpers.time.setNextBlockTimestamp(requestedAt + BigInt(DEFAULT_ENTROPY_TIMEOUT));
    const answer = await reveal(h, sequenceNumber, randomFor([2, 2, 2, 5, 5]));
    assert.equal(hallEvent(h, answer, "DiceRolled").player, addressOf(order[0]));
    const answeredAt = (await h.publicClient.getBlock({ blockNumber: answer.blockNumber }))
      .timestamp;
    await networkHelpers.time.setNextBlockTimestamp(answeredAt + BigInt(MOVE_TIMEOUT) + 1n);
    const claimed = await claim(h, gameId);
    assert.equal(hallEvent(h, claimed, "PlayerForfeited").player, addressOf(order[0]));
    const game = await gameView(h, gameId);
    assert.equal(game.pendingSequence, 0n);
    assert.equal(game.currentSeat, 1);
    assert.equal(hallEvents(h, claimed, "GameFinished").length, 0);
  });
});

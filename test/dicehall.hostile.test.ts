import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import {
  decodeErrorResult,
  parseEventLogs,
  encodeFunctionData,
  getAddress,
  maxUint256,
  type Address,
  type Hex,
} from "viem";
import {
  BET,
  DEFAULT_CALL_OFF_WINDOW,
  DEFAULT_ENTROPY_TIMEOUT,
  FEE_BPS,
  FOREIGN_ERRORS,
  MOVE_TIMEOUT,
  NATIVE,
  TOKEN_BET,
  TOKEN_MAX_BET,
  TOKEN_MIN_BET,
  addressOf,
  createGameTx,
  credits,
  gameView,
  hallEvent,
  hallEvents,
  hallFixture,
  pricedHallFixture,
  joinGameTx,
  openLobby,
  playerView,
  requestRoll,
  reveal,
  rollWith,
  scoreBox,
  send,
  settlement,
  silentHallFixture,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { randomFor } from "./helpers/dice.ts";

/** Tokens, players and Entropy providers that misbehave, and what DiceHall does about them. */

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

/** Lists a hostile token and gives alice, bob and carol a supply approved to the hall. */
async function allowToken(h: Hall, token: Address): Promise<void> {
  await send(h, h.hall.write.setTokenConfig([token, true, TOKEN_MIN_BET, TOKEN_MAX_BET]));
  for (const w of [h.alice, h.bob, h.carol]) {
    // The hostile tokens share TestToken's mint and approve, so its ABI drives them.
    await send(
      h,
      h.owner.writeContract({
        address: token,
        abi: h.token.abi,
        functionName: "mint",
        args: [w.account.address, 10n ** 12n],
      }),
    );
    await send(
      h,
      w.writeContract({
        address: token,
        abi: h.token.abi,
        functionName: "approve",
        args: [h.hall.address, maxUint256],
      }),
    );
  }
}

async function reentrantFixture() {
  const h = await fixture();
  const token = await h.viem.deployContract("HostileReentrantToken");
  await allowToken(h, token.address);
  return { h, token };
}

async function feeOnTransferFixture() {
  const h = await fixture();
  const token = await h.viem.deployContract("HostileFeeOnTransferToken");
  await allowToken(h, token.address);
  return { h, token };
}

async function falseReturningFixture() {
  const h = await fixture();
  const token = await h.viem.deployContract("HostileFalseReturningToken");
  await allowToken(h, token.address);
  return { h, token };
}

function decodeForeign(data: Hex) {
  return decodeErrorResult({ abi: FOREIGN_ERRORS, data }).errorName;
}

describe("a token that re-enters DiceHall", () => {
  it("is refused re-entry while a bet is pulled, and the bet still lands in escrow", async () => {
    const { h, token } = await networkHelpers.loadFixture(reentrantFixture);
    await send(
      h,
      token.write.arm([
        h.hall.address,
        encodeFunctionData({ abi: h.hall.abi, functionName: "withdraw", args: [token.address] }),
        false,
      ]),
    );
    const { gameId } = await openLobby(h, h.alice, { token: token.address });
    assert.equal(await token.read.attacked(), true, "the token did try to re-enter");
    assert.equal(await token.read.innerSucceeded(), false);
    assert.equal(decodeForeign(await token.read.innerRevertData()), "ReentrancyGuardReentrantCall");
    assert.equal(await token.read.balanceOf([h.hall.address]), TOKEN_BET);
    assert.equal((await gameView(h, gameId)).config.bet, TOKEN_BET);
  });

  it("cannot cancel a lobby from inside a join, and a bubbled refusal undoes the join", async () => {
    const { h, token } = await networkHelpers.loadFixture(reentrantFixture);
    const { gameId } = await openLobby(h, h.alice, { token: token.address, seats: 3 });
    await send(
      h,
      token.write.arm([
        h.hall.address,
        encodeFunctionData({ abi: h.hall.abi, functionName: "cancelGame", args: [gameId] }),
        true,
      ]),
    );
    const bobBefore = await token.read.balanceOf([addressOf(h.bob)]);
    await h.viem.assertions.revertWithCustomError(
      joinGameTx(h, gameId, h.bob),
      h.hallErrors,
      "ReentrancyGuardReentrantCall",
    );
    assert.equal((await playerView(h, gameId, h.bob)).seated, false);
    assert.equal(await token.read.balanceOf([addressOf(h.bob)]), bobBefore);
    assert.equal(await token.read.balanceOf([h.hall.address]), TOKEN_BET);
    assert.equal((await gameView(h, gameId)).status, 1);
  });

  it("cannot withdraw twice: the inner withdraw is refused and the outer pays once", async () => {
    const { h, token } = await networkHelpers.loadFixture(reentrantFixture);
    const { gameId } = await openLobby(h, h.alice, { token: token.address, seats: 3 });
    await send(h, joinGameTx(h, gameId, h.bob));
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    await send(
      h,
      token.write.arm([
        h.hall.address,
        encodeFunctionData({ abi: h.hall.abi, functionName: "withdraw", args: [token.address] }),
        false,
      ]),
    );
    const before = await token.read.balanceOf([addressOf(h.alice)]);
    await send(h, h.hall.write.withdraw([token.address], { account: h.alice.account }));
    assert.equal(decodeForeign(await token.read.innerRevertData()), "ReentrancyGuardReentrantCall");
    assert.equal(await token.read.balanceOf([addressOf(h.alice)]), before + TOKEN_BET);
    assert.equal(await credits(h, token.address, h.alice), 0n);
    assert.equal(await credits(h, token.address, h.bob), TOKEN_BET);
    assert.equal(
      await token.read.balanceOf([h.hall.address]),
      TOKEN_BET,
      "bob's refund is still there",
    );
  });

  it("leaves the credit in place when a bubbled re-entry reverts the withdrawal", async () => {
    const { h, token } = await networkHelpers.loadFixture(reentrantFixture);
    const { gameId } = await openLobby(h, h.alice, { token: token.address });
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    await send(
      h,
      token.write.arm([
        h.hall.address,
        encodeFunctionData({ abi: h.hall.abi, functionName: "withdraw", args: [token.address] }),
        true,
      ]),
    );
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.withdraw([token.address], { account: h.alice.account }),
      h.hallErrors,
      "ReentrancyGuardReentrantCall",
    );
    assert.equal(await credits(h, token.address, h.alice), TOKEN_BET);
    assert.equal(await token.read.balanceOf([h.hall.address]), TOKEN_BET);
  });
});

describe("a fee-on-transfer token", () => {
  it("is refused with TransferAmountMismatch when a lobby opens", async () => {
    const { h, token } = await networkHelpers.loadFixture(feeOnTransferFixture);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: token.address }),
      h.hall,
      "TransferAmountMismatch",
      [token.address, TOKEN_BET, TOKEN_BET - TOKEN_BET / 100n],
    );
    assert.equal(await h.hall.read.nextGameId(), 1n);
    assert.equal(await token.read.balanceOf([h.hall.address]), 0n);
  });
});

describe("a token that returns false", () => {
  it("is refused with SafeERC20FailedOperation when a lobby opens", async () => {
    const { h, token } = await networkHelpers.loadFixture(falseReturningFixture);
    await send(h, token.write.setFailing([true]));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: token.address }),
      h.hallErrors,
      "SafeERC20FailedOperation",
      [token.address],
    );
    assert.equal(await h.hall.read.nextGameId(), 1n);
  });

  it("cannot fake a payout: the withdrawal reverts and the credit stays", async () => {
    const { h, token } = await networkHelpers.loadFixture(falseReturningFixture);
    const { gameId } = await openLobby(h, h.alice, { token: token.address });
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    await send(h, token.write.setFailing([true]));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdraw([token.address], { account: h.alice.account }),
      h.hallErrors,
      "SafeERC20FailedOperation",
      [token.address],
    );
    assert.equal(await credits(h, token.address, h.alice), TOKEN_BET);
    await send(h, token.write.setFailing([false]));
    await send(h, h.hall.write.withdraw([token.address], { account: h.alice.account }));
    assert.equal(await token.read.balanceOf([h.hall.address]), 0n);
  });
});

describe("a winner that rejects the native coin", () => {
  it("does not block the settlement; the other winner withdraws; its own credit waits", async () => {
    const h = await fixture();
    const player = await h.viem.deployContract("HostileEthRejectingPlayer", [h.hall.address]);
    const operator = h.erin;
    const cfg = {
      token: NATIVE,
      bet: BET,
      seats: 2,
      ruleSet: 2,
      joinWindow: 3600,
      moveTimeout: MOVE_TIMEOUT,
      invitees: [],
    };
    await send(h, player.write.createGame([cfg], { account: operator.account, value: BET }));
    const gameId = 1n;
    await send(h, joinGameTx(h, gameId, h.alice));
    const order = (await gameView(h, gameId)).players as readonly Address[];
    const contractAddress = getAddress(player.address);

    // Both play the same hands, so both win half the pot.
    let last;
    for (let round = 0; round < 13; round++) {
      const dice = [1 + (round % 6), 2, 3, 4, 1 + ((round * 5) % 6)];
      for (const seat of order) {
        if (seat === contractAddress) {
          const rolled = await send(
            h,
            player.write.roll([gameId, 0], { account: operator.account }),
          );
          const seq = hallEvent(h, rolled, "RollRequested").sequenceNumber as bigint;
          await reveal(h, seq, randomFor(dice));
          last = await send(h, player.write.score([gameId, round], { account: operator.account }));
        } else {
          await rollWith(h, gameId, h.alice, 0, dice);
          last = (await scoreBox(h, gameId, h.alice, round)).receipt;
        }
      }
    }
    const finished = hallEvent(h, last!, "GameFinished");
    assert.deepEqual([...(finished.winners as Address[])].sort(), [...order].sort());
    const money = settlement(BET, 2, FEE_BPS, 2);
    const owedTo = (a: Address) => money.payoutEach + (a === order[0] ? money.remainder : 0n);

    await h.viem.assertions.balancesHaveChanged(
      h.hall.write.withdraw([NATIVE], { account: h.alice.account }),
      [{ address: addressOf(h.alice), amount: owedTo(addressOf(h.alice)) }],
    );
    const owed = owedTo(contractAddress);
    assert.equal(await credits(h, NATIVE, contractAddress), owed);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      player.write.withdraw([NATIVE], { account: operator.account }),
      h.hall,
      "NativeTransferFailed",
      [contractAddress, owed],
    );
    assert.equal(await credits(h, NATIVE, contractAddress), owed, "the credit stays");
    // Once it accepts the coin, the same credit pays out.
    await send(h, player.write.setAcceptsEth([true], { account: operator.account }));
    await send(h, player.write.withdraw([NATIVE], { account: operator.account }));
    assert.equal(await h.publicClient.getBalance({ address: player.address }), owed);
    assert.equal(await credits(h, NATIVE, contractAddress), 0n);
  });
});

describe("an Entropy provider that never answers", () => {
  it("never replaces its accepted request: nobody may ask again, however long it waits", async () => {
    const h = await networkHelpers.loadFixture(silentHallFixture);
    const silent = h.silentEntropy!;
    const { gameId, order } = await startGame(h, { seats: 2 });
    const first = await requestRoll(h, gameId, order[0], 0);
    assert.equal((await gameView(h, gameId)).deadline, 0n);
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT * 4);
    for (const asker of [order[0], order[1], h.stranger]) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.roll([gameId, 0], { account: asker.account }),
        h.hall,
        "RollPending",
        [gameId, first.sequenceNumber, 0n],
      );
    }
    assert.equal(await silent.read.requests(), 1n, "one request, never a second");
    const game = await gameView(h, gameId);
    assert.equal(game.pendingSequence, first.sequenceNumber);
    assert.equal(game.retryAt, 0n);
    assert.equal((await playerView(h, gameId, order[0])).rollsUsed, 0, "no dice, no roll used");
  });

  it("calls the undrawn table off once its roll has been out for the call-off window, not a second before", async () => {
    const h = await networkHelpers.loadFixture(silentHallFixture);
    const { gameId, order } = await startGame(h, { seats: 2 });
    const { receipt } = await requestRoll(h, gameId, order[0], 0);
    const requestedAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    const deadline = requestedAt + BigInt(DEFAULT_CALL_OFF_WINDOW);
    await networkHelpers.time.setNextBlockTimestamp(deadline - 1n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
      [gameId, deadline],
    );
    await networkHelpers.time.setNextBlockTimestamp(deadline);
    const claimed = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    // The first roll draws the order, so no one owns the turn yet: nobody forfeits, all are refunded.
    hallEvent(h, claimed, "GameCancelled");
    assert.equal(hallEvents(h, claimed, "PlayerForfeited").length, 0);
    for (const p of order) assert.equal(await h.hall.read.credits([NATIVE, addressOf(p)]), BET);
  });
});

describe("a late answer", () => {
  it("to the roll's only request counts however late, short of the call-off", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const only = await requestRoll(h, gameId, order[0], 0);
    const { callOffAt } = await gameView(h, gameId);
    await networkHelpers.time.setNextBlockTimestamp(callOffAt - 1n);
    const rolled = hallEvent(
      h,
      await reveal(h, only.sequenceNumber, randomFor([1, 2, 3, 4, 5])),
      "DiceRolled",
    );
    assert.equal(rolled.sequenceNumber, only.sequenceNumber);
    assert.equal(rolled.rollNumber, 1);
  });

  it("is ignored once its roll has its dice: a second delivery of the same request gives nothing", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const only = await requestRoll(h, gameId, order[0], 0);
    await reveal(h, only.sequenceNumber, randomFor([1, 2, 3, 4, 5]));
    const entropy = await h.hall.read.entropy();
    await networkHelpers.impersonateAccount(entropy);
    await networkHelpers.setBalance(entropy, 10n ** 18n);
    const hash = await h.hall.write._entropyCallback(
      [only.sequenceNumber, h.provider, randomFor([6, 6, 6, 6, 6])],
      { account: entropy },
    );
    const late = await h.publicClient.waitForTransactionReceipt({ hash });
    await networkHelpers.stopImpersonatingAccount(entropy);
    assert.equal(hallEvents(h, late, "DiceRolled").length, 0);
    const sheet = await playerView(h, gameId, order[0]);
    assert.deepEqual([...sheet.dice], [1, 2, 3, 4, 5]);
    assert.equal(sheet.rollsUsed, 1);
  });

  it("finds its game even after 64 other requests came and went", async () => {
    const h = await fixture();
    const waiting = await startGame(h, { seats: 2, players: [h.carol, h.dave] });
    const pending = await requestRoll(h, waiting.gameId, waiting.order[0], 0);
    const busy = await startGame(h, { seats: 2 });
    // Three rolls a turn: 22 turns make 66 more requests, wrapping any small table of slots.
    for (let turn = 0; turn < 22; turn++) {
      const player = busy.order[turn % 2];
      await rollWith(h, busy.gameId, player, 0, [1, 2, 3, 4, 6]);
      await rollWith(h, busy.gameId, player, 0b01111, [1, 2, 3, 4, 5]);
      await rollWith(h, busy.gameId, player, 0b01111, [1, 2, 3, 4, 6]);
      await scoreBox(h, busy.gameId, player, Math.floor(turn / 2));
    }
    const answer = await reveal(h, pending.sequenceNumber, randomFor([4, 4, 4, 5, 5]));
    const rolled = hallEvent(h, answer, "DiceRolled");
    assert.equal(rolled.gameId, waiting.gameId);
    assert.equal(rolled.player, addressOf(waiting.order[0]));
    assert.deepEqual(
      [...(await playerView(h, waiting.gameId, waiting.order[0])).dice],
      [4, 4, 4, 5, 5],
    );
  });
});

describe("the Entropy callback's gas", () => {
  it("stays under the callback gas limit DiceHall asks for, even for a first roll of five dice", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 4, ruleSet: 3 });
    const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], 0);
    const requested = parseEventLogs({
      abi: h.entropy.abi,
      logs: receipt.logs,
      eventName: "Requested",
    });
    const gasLimit = BigInt(requested[0].args.gasLimit);
    assert.equal(gasLimit, BigInt(await h.hall.read.callbackGasLimit()));
    await networkHelpers.impersonateAccount(h.entropy.address);
    await networkHelpers.setBalance(h.entropy.address, 10n ** 18n);
    const r = randomFor([6, 5, 4, 3, 2]);
    const data = encodeFunctionData({
      abi: h.hall.abi,
      functionName: "_entropyCallback",
      args: [sequenceNumber, h.provider, r],
    });
    const estimate = await h.publicClient.estimateGas({
      account: h.entropy.address,
      to: h.hall.address,
      data,
    });
    const calldataGas = [...Buffer.from(data.slice(2), "hex")].reduce(
      (sum, byte) => sum + (byte === 0 ? 4n : 16n),
      0n,
    );
    const execution = estimate - 21_000n - calldataGas;
    assert.ok(execution < gasLimit, `the callback needs ${execution} gas of ${gasLimit}`);
    // And it really succeeds with no more than that limit.
    const answered = await send(
      h,
      h.hall.write._entropyCallback([sequenceNumber, h.provider, r], {
        account: h.entropy.address,
        gas: 21_000n + calldataGas + gasLimit,
      }),
    );
    assert.deepEqual([...(hallEvent(h, answered, "DiceRolled").dice as number[])], [6, 5, 4, 3, 2]);
  });
});

describe("the user's contribution to the random number", () => {
  it("is supplied by DiceHall with every request and differs between rolls", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const contributions: string[] = [];
    for (const keepMask of [0, 0b00001]) {
      const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], keepMask);
      const [requested] = parseEventLogs({
        abi: h.entropy.abi,
        logs: receipt.logs,
        eventName: "Requested",
      });
      assert.equal(requested.args.caller, getAddress(h.hall.address));
      contributions.push(requested.args.userContribution);
      await reveal(h, sequenceNumber, randomFor([1, 2, 3, 4, 5]));
    }
    assert.ok(contributions.every((c) => BigInt(c) !== 0n));
    assert.notEqual(contributions[0], contributions[1]);
  });
});

describe("a change of Entropy provider", () => {
  // Sequence numbers are counted per provider, so after setEntropyProvider two pending requests
  // can carry the same number; each answer must still reach the request it was made for.
  it("keeps two providers' requests with the same sequence number apart", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const entropy = h.pricedEntropy!;
    const a = await startGame(h, { seats: 2, players: [h.alice, h.bob] });
    const newProvider = addressOf(h.wallets[11]);
    const first = await requestRoll(h, a.gameId, a.order[0], 0);
    // Pyth names a new default provider, and the owner follows it.
    await send(h, entropy.write.setDefaultProvider([newProvider]));
    await send(h, h.hall.write.setEntropyProvider([newProvider]));
    // Each game keeps the provider it was opened with: B is opened after the switch.
    const b = await startGame(h, { seats: 2, players: [h.carol, h.dave] });
    const second = await requestRoll(h, b.gameId, b.order[0], 0);
    assert.equal(first.sequenceNumber, second.sequenceNumber, "both providers count from 1");

    const answerB = await send(
      h,
      entropy.write.revealFrom([newProvider, second.sequenceNumber, randomFor([6, 6, 6, 6, 6])]),
    );
    const rolledB = hallEvent(h, answerB, "DiceRolled");
    assert.equal(rolledB.gameId, b.gameId, "the new provider's answer is for game B's request");
    assert.deepEqual([...(await playerView(h, b.gameId, b.order[0])).dice], [6, 6, 6, 6, 6]);
    assert.equal((await gameView(h, a.gameId)).pendingSequence, first.sequenceNumber);

    const answerA = await send(
      h,
      entropy.write.revealFrom([h.provider, first.sequenceNumber, randomFor([1, 2, 3, 4, 5])]),
    );
    assert.equal(hallEvent(h, answerA, "DiceRolled").gameId, a.gameId);
    assert.deepEqual([...(await playerView(h, a.gameId, a.order[0])).dice], [1, 2, 3, 4, 5]);
  });
});

describe("unknown sequence numbers", () => {
  it("are ignored without a revert when Entropy delivers them", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const pending = await requestRoll(h, gameId, order[0], 0);
    const before = await gameView(h, gameId);
    await networkHelpers.impersonateAccount(h.entropy.address);
    await networkHelpers.setBalance(h.entropy.address, 10n ** 18n);
    for (const seq of [0n, pending.sequenceNumber + 1n, 2n ** 63n, pending.sequenceNumber + 64n]) {
      const receipt = await send(
        h,
        h.hall.write._entropyCallback([seq, h.provider, randomFor([6, 6, 6, 6, 6])], {
          account: h.entropy.address,
        }),
      );
      assert.equal(receipt.logs.length, 0, `sequence ${seq} is not ours`);
    }
    assert.deepEqual(await gameView(h, gameId), before);
    assert.equal((await playerView(h, gameId, order[0])).rollsUsed, 0);
  });

  it("are ignored when a request is answered twice", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const { sequenceNumber } = await requestRoll(h, gameId, order[0], 0);
    await reveal(h, sequenceNumber, randomFor([2, 2, 2, 2, 2]));
    await networkHelpers.impersonateAccount(h.entropy.address);
    await networkHelpers.setBalance(h.entropy.address, 10n ** 18n);
    const again = await send(
      h,
      h.hall.write._entropyCallback([sequenceNumber, h.provider, randomFor([5, 5, 5, 5, 5])], {
        account: h.entropy.address,
      }),
    );
    assert.equal(again.logs.length, 0);
    const sheet = await playerView(h, gameId, order[0]);
    assert.deepEqual([...sheet.dice], [2, 2, 2, 2, 2]);
    assert.equal(sheet.rollsUsed, 1);
  });
});

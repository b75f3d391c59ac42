import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, toFunctionSelector, type Hex } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { rollDice } from "../web/src/rules/dice.ts";
import type { Dice } from "../web/src/rules/score.ts";
import { applyScore, newSheet, type Sheet } from "../web/src/rules/sheet.ts";
import { chooseTurnAction } from "../web/src/rules/strategy.ts";
import { drawTurnOrder } from "../web/src/rules/turnOrder.ts";
import {
  BET,
  NATIVE,
  STATUS,
  addressOf,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  joinLobby,
  openLobby,
  scoreBox,
  scoreTx,
  send,
  walletOf,
} from "./helpers/hall.ts";
import {
  CALLBACK,
  PROVIDER_FEE,
  PROVIDER_GAS_LIMIT,
  PYTH_FEE,
  combinedRandom,
  entropyEvents,
  providerById,
  providerRevelation,
  realHallFixture,
  realRollTx,
  registerProvider,
  requestRealRoll,
  requestSlotIndex,
  revealRoll,
  starveCallback,
  type EntropyRequest,
  type RealHall,
} from "./helpers/realEntropy.ts";

/**
 * DiceHall against Pyth's real Entropy contract (vendored, behind an ERC1967 proxy), its providers
 * committed to keccak hash chains and answering through revealWithCallback as Pyth's keeper does.
 * The mocks of the other suites cannot show Entropy's fees, its CallbackFailed flow, its refusals
 * (OutOfRandomness) or its request slots; these tests do.
 */

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<RealHall> {
  return networkHelpers.loadFixture(realHallFixture);
}

const OUT_OF_RANDOMNESS = toFunctionSelector("OutOfRandomness()");

/** The rounded-up callback gas Entropy grants: the game's limit, or the provider's default if higher. */
function grantedGas(gameLimit: number, providerDefault = PROVIDER_GAS_LIMIT): number {
  const g = Math.max(gameLimit, providerDefault);
  return Math.ceil(g / 10_000) * 10_000;
}

/** A full lobby: `players[0]` opens it, the rest join. The order is not drawn yet. */
async function fullLobby(h: RealHall, players: WalletClient[], bet = BET): Promise<bigint> {
  const { gameId } = await openLobby(h, players[0], { seats: players.length, bet });
  for (const p of players.slice(1)) {
    const receipt = await joinLobby(h, gameId, p);
    assert.equal(hallEvents(h, receipt, "GameStarted").length, 0, "the last join draws nothing");
  }
  const game = await gameView(h, gameId);
  assert.equal(game.status, STATUS.Running);
  assert.equal(game.orderDrawn, false);
  return gameId;
}

/** Reveals a DiceHall roll and checks the dice it announces against Entropy's number. */
async function revealAndCheck(
  h: RealHall,
  request: EntropyRequest,
  previous: Dice | null,
  keepMask: number,
) {
  const p = providerById(h, request.provider);
  const receipt = await revealRoll(h, p, request);
  const r = combinedRandom(request.userContribution, providerRevelation(p, request.sequenceNumber));
  const revealed = entropyEvents(h, receipt, "Revealed").filter((a) => "callbackFailed" in a);
  assert.equal(revealed.length, 1);
  assert.equal(revealed[0].callbackFailed, false);
  assert.equal(revealed[0].randomNumber, r, "Entropy's number is keccak(user, provider, 0)");
  const rolled = hallEvent(h, receipt, "DiceRolled");
  assert.equal(rolled.sequenceNumber, request.sequenceNumber);
  assert.equal(rolled.randomNumber, r);
  assert.deepEqual([...rolled.dice], [...rollDice(r, previous, keepMask)], "dice follow RULES.md");
  return { receipt, rolled, random: r };
}

/** Makes the first roll of a full lobby and answers it; returns the drawn order. */
async function drawOrder(h: RealHall, gameId: bigint, roller: WalletClient) {
  const { request } = await requestRealRoll(h, gameId, roller, 0);
  return { request, ...(await drawOrderFrom(h, gameId, request)) };
}

/** Answers a game's first roll and checks the order it draws against RULES.md's draw. */
async function drawOrderFrom(h: RealHall, gameId: bigint, request: EntropyRequest) {
  const joinOrder = (await gameView(h, gameId)).players.map((a) => getAddress(a));
  const { receipt, rolled, random } = await revealAndCheck(h, request, null, 0);
  const started = hallEvent(h, receipt, "GameStarted");
  const expected = drawTurnOrder(random, joinOrder.length).map((i) => joinOrder[i]);
  assert.deepEqual(
    (started.order as Hex[]).map((a) => getAddress(a)),
    expected,
    "the order comes from Entropy",
  );
  const order = expected.map((a) => walletOf(h, a));
  assert.equal(getAddress(rolled.player), addressOf(order[0]), "the first dice are order[0]'s");
  return { order, dice: rolled.dice as Dice };
}

describe("DiceHall on the real Pyth Entropy", () => {
  it("runs Entropy as Pyth deploys it: behind a proxy, initialized once", async () => {
    const h = await fixture();
    assert.equal(getAddress(await h.real.read.getDefaultProvider()), h.providerA.address);
    assert.equal(await h.real.read.getPythFee(), PYTH_FEE);
    await h.viem.assertions.revertWithCustomError(
      h.real.write.initialize([addressOf(h.stranger), 0n, addressOf(h.stranger), false], {
        account: h.stranger.account,
      }),
      h.real,
      "AlreadyInitialized",
    );
  });

  it("plays a whole game through revealWithCallback with a real hash chain", async () => {
    const h = await fixture();
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const game = await gameView(h, gameId);
    assert.equal(getAddress(game.provider), h.providerA.address);

    // Bob, not the creator, makes the first roll: any seated player may.
    const first = await drawOrder(h, gameId, h.bob);
    const sheets = new Map<string, Sheet>(
      first.order.map((w) => [addressOf(w), newSheet(0)] as const),
    );
    let dice: Dice | null = first.dice;
    let rollsUsed = 1;
    let lastSequence = first.request.sequenceNumber;
    let finish;
    for (let round = 1; round <= 13; round++) {
      for (const [seat, player] of first.order.entries()) {
        const view = await gameView(h, gameId);
        assert.equal(view.round, round);
        assert.equal(view.currentSeat, seat);
        let sheet = sheets.get(addressOf(player))!;
        for (;;) {
          const action = chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed);
          if (action.action === "roll") {
            const { request } = await requestRealRoll(h, gameId, player, action.keepMask);
            assert.equal(request.provider, h.providerA.address);
            assert.equal(request.gasLimit, grantedGas(Number(view.callbackGasLimit)));
            assert.ok(request.sequenceNumber > lastSequence, "the provider's sequence grows");
            lastSequence = request.sequenceNumber;
            const { rolled } = await revealAndCheck(h, request, dice, action.keepMask);
            dice = rolled.dice as Dice;
            rollsUsed++;
            assert.equal(Number(rolled.rollNumber), rollsUsed);
            continue;
          }
          const expected = applyScore(sheet, dice!, action.box);
          const scored = await scoreBox(h, gameId, player, action.box);
          assert.equal(scored.points, expected.points);
          sheet = expected.sheet;
          sheets.set(addressOf(player), sheet);
          finish = scored.receipt;
          dice = null;
          rollsUsed = 0;
          break;
        }
      }
    }
    hallEvent(h, finish!, "GameFinished");
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
    // Every number came off the chain: Entropy's current commitment is the last value revealed.
    const info = await h.real.read.getProviderInfoV2([h.providerA.address]);
    assert.equal(info.currentCommitmentSequenceNumber, lastSequence);
    assert.equal(info.currentCommitment, providerRevelation(h.providerA, lastSequence));
  });

  it("pays the provider fee plus Pyth's fee per roll and credits the roller's surplus", async () => {
    const h = await fixture();
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const fee = await h.hall.read.gameRollFee([gameId]);
    assert.equal(fee, PROVIDER_FEE + PYTH_FEE, "at the provider's default gas the fee is flat");
    assert.equal(fee, await h.real.read.getFeeV2([h.providerA.address, 100_000]));

    const providerBefore = await h.real.read.getProviderInfoV2([h.providerA.address]);
    const pythBefore = await h.real.read.getAccruedPythFees();
    const hallBefore = await hallBalance(h);
    const surplus = 123_456_789n;
    const { receipt } = await requestRealRoll(h, gameId, h.alice, 0, surplus);
    const providerAfter = await h.real.read.getProviderInfoV2([h.providerA.address]);
    assert.equal(providerAfter.accruedFeesInWei - providerBefore.accruedFeesInWei, PROVIDER_FEE);
    assert.equal(
      (await h.real.read.getAccruedPythFees()) - pythBefore,
      PYTH_FEE,
      "Entropy keeps whatever it is sent beyond the provider fee: DiceHall sends exactly the fee",
    );
    const credited = hallEvent(h, receipt, "Credited");
    assert.equal(credited.account, addressOf(h.alice));
    assert.equal(credited.amount, surplus);
    assert.equal(await credits(h, NATIVE, h.alice), surplus);
    assert.equal(await hallBalance(h), hallBefore + surplus);

    // The provider can take its fees out of the real contract.
    await send(h, h.real.write.withdraw([PROVIDER_FEE], { account: h.providerA.wallet.account }));
  });

  it("charges more for a callback gas limit above the provider's default, fixed per game", async () => {
    const h = await fixture();
    await send(h, h.hall.write.setCallbackGasLimit([250_000]));
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    await send(h, h.hall.write.setCallbackGasLimit([PROVIDER_GAS_LIMIT]));
    const scaled =
      PROVIDER_FEE +
      (PROVIDER_FEE * BigInt(250_000 - PROVIDER_GAS_LIMIT)) / BigInt(PROVIDER_GAS_LIMIT);
    assert.equal(await h.hall.read.gameRollFee([gameId]), scaled + PYTH_FEE);
    assert.equal(
      await h.hall.read.rollFee(),
      PROVIDER_FEE + PYTH_FEE,
      "new lobbies: the new limit",
    );
    const { request } = await requestRealRoll(h, gameId, h.alice, 0);
    assert.equal(request.gasLimit, 250_000, "the game's own limit reaches Entropy");

    // A provider fee rise between quote and send: the stale quote is refused, not underpaid.
    const quoted = await h.hall.read.gameRollFee([gameId]);
    await revealAndCheck(h, request, null, 0);
    await send(
      h,
      h.real.write.setProviderFee([PROVIDER_FEE * 2n], { account: h.providerA.wallet.account }),
    );
    const view = await gameView(h, gameId);
    const player = walletOf(h, view.players[view.currentSeat]);
    const fresh = await h.hall.read.gameRollFee([gameId]);
    assert.ok(fresh > quoted);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 0b00001], { account: player.account, value: quoted }),
      h.hall,
      "InsufficientRollFee",
      [quoted, fresh],
    );
  });

  it("survives a callback that fails: Entropy records CallbackFailed and the retry lands", async () => {
    const h = await fixture();
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const { request } = await requestRealRoll(h, gameId, h.alice, 0);
    // 10 000 gas: less than DiceHall's callback needs, so it runs out of gas inside Entropy's call.
    await starveCallback(h, request, 1);

    const failedReceipt = await revealRoll(h, h.providerA, request);
    const failed = entropyEvents(h, failedReceipt, "CallbackFailed");
    assert.equal(failed.length, 1);
    assert.equal(getAddress(failed[0].requestor), getAddress(h.hall.address));
    assert.equal(failed[0].errorCode, "0x", "out of gas: no revert data");
    assert.equal(failed[0].sequenceNumber, request.sequenceNumber);
    assert.equal(hallEvents(h, failedReceipt, "DiceRolled").length, 0);
    const stored = await h.real.read.getRequestV2([h.providerA.address, request.sequenceNumber]);
    assert.equal(stored.callbackStatus, CALLBACK.Failed);
    let game = await gameView(h, gameId);
    assert.equal(game.pendingSequence, request.sequenceNumber, "DiceHall still waits for it");
    assert.equal(game.orderDrawn, false);

    // Anyone may retry a failed callback; Entropy then calls with all the gas the transaction has.
    const { rolled, random } = await revealAndCheck(h, request, null, 0);
    assert.equal(random, failed[0].randomNumber, "the retry delivers the same number");
    assert.equal(rolled.sequenceNumber, request.sequenceNumber);
    game = await gameView(h, gameId);
    assert.equal(game.orderDrawn, true);
    assert.equal(game.pendingSequence, 0n);
    const cleared = await h.real.read.getRequestV2([h.providerA.address, request.sequenceNumber]);
    assert.equal(cleared.sequenceNumber, 0n, "Entropy forgot the request");
  });

  it("ignores a failed callback retried after the player asked again", async () => {
    const h = await fixture();
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const { request: stale } = await requestRealRoll(h, gameId, h.alice, 0);
    await starveCallback(h, stale, 1);
    await revealRoll(h, h.providerA, stale);
    const retryAt = (await gameView(h, gameId)).retryAt;
    await networkHelpers.time.increaseTo(retryAt);
    const { request: fresh } = await requestRealRoll(h, gameId, h.alice, 0);
    assert.equal((await gameView(h, gameId)).entropyAttempts, 2);

    const late = await revealRoll(h, h.providerA, stale);
    assert.equal(hallEvents(h, late, "DiceRolled").length, 0, "a replaced request is ignored");
    assert.equal((await gameView(h, gameId)).pendingSequence, fresh.sequenceNumber);
    await revealAndCheck(h, fresh, null, 0);
    assert.equal((await gameView(h, gameId)).orderDrawn, true);
  });

  it("keeps each running game on its own provider across switches (A -> B -> A)", async () => {
    const h = await fixture();
    const { providerA: A, providerB: B } = h;
    const game1 = await fullLobby(h, [h.alice, h.bob]);
    const { request: a1 } = await requestRealRoll(h, game1, h.alice, 0);
    assert.equal(a1.provider, A.address);

    await send(h, h.hall.write.setEntropyProvider([B.address]));
    assert.equal(getAddress(await h.hall.read.entropyProvider()), B.address);
    const game2 = await fullLobby(h, [h.carol, h.dave]);
    assert.equal(getAddress((await gameView(h, game2)).provider), B.address);
    assert.equal(getAddress((await gameView(h, game1)).provider), A.address, "game 1 keeps A");
    const { request: b1 } = await requestRealRoll(h, game2, h.dave, 0);
    assert.equal(b1.provider, B.address);

    // Back to A while both games wait: the in-flight rolls of both providers still land.
    await send(h, h.hall.write.setEntropyProvider([A.address]));
    await send(h, h.hall.write.setEntropyProvider([A.address]));
    const { order: order1 } = await drawOrderFrom(h, game1, a1);
    const { order: order2 } = await drawOrderFrom(h, game2, b1);

    // Their next rolls still go to their own providers.
    await send(h, scoreTx(h, game1, order1[0], 12));
    const { request: a2 } = await requestRealRoll(h, game1, order1[1], 0);
    assert.equal(a2.provider, A.address);
    await send(h, scoreTx(h, game2, order2[0], 12));
    const { request: b2 } = await requestRealRoll(h, game2, order2[1], 0);
    assert.equal(b2.provider, B.address);
    await revealAndCheck(h, a2, null, 0);
    await revealAndCheck(h, b2, null, 0);
    const game3 = await fullLobby(h, [h.erin, h.alice]);
    assert.equal(getAddress((await gameView(h, game3)).provider), A.address);
  });

  it("refuses a provider Entropy does not know", async () => {
    const h = await fixture();
    const unknown = addressOf(h.stranger);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setEntropyProvider([unknown]),
      h.hall,
      "ProviderNotRegistered",
      [unknown],
    );
    assert.equal(getAddress(await h.hall.read.entropyProvider()), h.providerA.address);
  });

  it("stops the clock when a used-up provider refuses, and calls the game off after 3 attempts", async () => {
    const h = await fixture();
    // A provider whose chain holds one number: the game's first roll uses it up.
    const C = await registerProvider(h.publicClient, h.real, h.wallets[10], {
      chainLength: 2,
      seed: "provider C",
    });
    await send(h, h.hall.write.setEntropyProvider([C.address]));
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const { request } = await requestRealRoll(h, gameId, h.alice, 0);
    const first = await revealRoll(h, C, request);
    const order = (hallEvent(h, first, "GameStarted").order as Hex[]).map((a) => walletOf(h, a));
    const mover = order[0];
    const entropyTimeout = BigInt((await gameView(h, gameId)).entropyTimeout);

    const pot = (await gameView(h, gameId)).pot;
    const hallBefore = await hallBalance(h);
    const keepMask = 0b00011;
    let refunded = 0n;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const creditsBefore = await credits(h, NATIVE, mover);
      const fee = await h.hall.read.gameRollFee([gameId]);
      const receipt = await send(h, realRollTx(h, gameId, mover, keepMask));
      const refused = hallEvent(h, receipt, "RollRefused");
      assert.equal(refused.player, addressOf(mover));
      assert.equal((refused.reason as Hex).slice(0, 10), OUT_OF_RANDOMNESS);
      assert.equal(hallEvents(h, receipt, "RollRequested").length, 0);
      assert.equal(await credits(h, NATIVE, mover), creditsBefore + fee, "the fee comes back");
      refunded += fee;
      const game = await gameView(h, gameId);
      assert.equal(game.entropyAttempts, attempt);
      assert.equal(game.pendingSequence, 0n);
      assert.equal(game.pendingKeepMask, keepMask);
      const now = BigInt(await networkHelpers.time.latest());
      assert.equal(game.retryAt, now + entropyTimeout);

      // While the attempt stands, nobody can time the mover out and the dice on the table are frozen.
      // (A margin of seconds: a reverted call is simulated on a block whose time follows the clock.)
      await networkHelpers.time.increaseTo(game.retryAt - 10n);
      await h.viem.assertions.revertWithCustomError(
        h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
        h.hall,
        "DeadlineNotPassed",
      );
      await h.viem.assertions.revertWithCustomError(
        scoreTx(h, gameId, mover, 12),
        h.hall,
        "RollPending",
      );
      await h.viem.assertions.revertWithCustomError(
        realRollTx(h, gameId, mover, keepMask),
        h.hall,
        "RollPending",
      );
      await networkHelpers.time.increaseTo(game.retryAt);
      if (attempt < 3) {
        await h.viem.assertions.revertWithCustomErrorWithArgs(
          realRollTx(h, gameId, mover, 0b00001),
          h.hall,
          "KeepMaskLocked",
          [gameId, keepMask],
        );
      }
    }
    await h.viem.assertions.revertWithCustomError(
      realRollTx(h, gameId, mover, keepMask),
      h.hall,
      "RollAttemptsExhausted",
    );

    // Three refusals: anyone may call the game off; the pot goes back in equal shares, no house fee.
    await networkHelpers.time.increase(1);
    const aliceBefore = await credits(h, NATIVE, h.alice);
    const bobBefore = await credits(h, NATIVE, h.bob);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    hallEvent(h, receipt, "GameCancelled");
    assert.equal(hallEvents(h, receipt, "PlayerForfeited").length, 0);
    assert.equal((await gameView(h, gameId)).status, STATUS.Cancelled);
    assert.equal((await credits(h, NATIVE, h.alice)) - aliceBefore, pot / 2n);
    assert.equal((await credits(h, NATIVE, h.bob)) - bobBefore, pot / 2n);
    assert.equal(await hallBalance(h), hallBefore + refunded, "the refused fees wait as credits");
  });

  it("lets a refused roll through once the provider registers a fresh chain", async () => {
    const h = await fixture();
    const C0 = await registerProvider(h.publicClient, h.real, h.wallets[10], {
      chainLength: 1,
      seed: "provider C, empty",
    });
    await send(h, h.hall.write.setEntropyProvider([C0.address]));
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    const refused = await send(h, realRollTx(h, gameId, h.bob, 0));
    hallEvent(h, refused, "RollRefused");
    assert.equal((await gameView(h, gameId)).orderDrawn, false);

    // The provider rotates its commitment; after the entropy timeout the same roll is asked again.
    const C = await registerProvider(
      h.publicClient,
      h.real,
      h.wallets[10],
      { seed: "provider C, new" },
      C0,
    );
    await networkHelpers.time.increaseTo((await gameView(h, gameId)).retryAt);
    const { request } = await requestRealRoll(h, gameId, h.bob, 0);
    assert.equal(request.provider, C.address);
    const receipt = await revealRoll(h, C, request);
    hallEvent(h, receipt, "GameStarted");
    assert.equal((await gameView(h, gameId)).entropyAttempts, 0);
  });

  it("rolls onto an Entropy request slot still held by an unanswered request, and back", async () => {
    const h = await fixture();
    const A = h.providerA;
    const consumer = await h.viem.deployContract("NullEntropyConsumer", [h.real.address]);
    const fee = PROVIDER_FEE + PYTH_FEE;
    const nextSlot = async () =>
      requestSlotIndex(
        A.address,
        (await h.real.read.getProviderInfoV2([A.address])).sequenceNumber,
      );
    const gameId = await fullLobby(h, [h.alice, h.bob]);
    // Unanswered requests of another consumer until the next sequence number's slot is one of theirs.
    const held = new Set<number>();
    while (!held.has(await nextSlot())) {
      held.add(await nextSlot());
      await send(h, consumer.write.request([PROVIDER_GAS_LIMIT], { value: fee }));
    }
    // DiceHall's request takes the slot; Entropy moves the older one to its overflow mapping.
    const { request } = await requestRealRoll(h, gameId, h.alice, 0);
    const slot = requestSlotIndex(A.address, request.sequenceNumber);
    // Then another request lands on DiceHall's slot and moves DiceHall's request to the mapping.
    while ((await nextSlot()) !== slot) {
      await send(h, consumer.write.request([PROVIDER_GAS_LIMIT], { value: fee }));
    }
    await send(h, consumer.write.request([PROVIDER_GAS_LIMIT], { value: fee }));
    const stored = await h.real.read.getRequestV2([A.address, request.sequenceNumber]);
    assert.equal(getAddress(stored.requester), getAddress(h.hall.address), "found in the mapping");
    await revealAndCheck(h, request, null, 0);
    assert.equal((await gameView(h, gameId)).orderDrawn, true);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { decodeErrorResult, getAddress, keccak256, toHex } from "viem";
import {
  BET,
  FEE_BPS,
  NATIVE,
  STATUS,
  addressOf,
  credits,
  gameView,
  hallEvent,
  modelHallFixture,
  playerView,
  requestRoll,
  reveal,
  rollTx,
  send,
  settlement,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { expectedWinners, playToTheEnd } from "./helpers/play.ts";
import {
  MODEL_DEFAULT_GAS_LIMIT,
  MODEL_PROVIDER_FEE,
  registerProvider,
  requestsIn,
  revealRequest,
  revealedIn,
} from "./helpers/entropyModel.ts";
import { boxCount, type RuleSetId } from "../core/rules/ruleSets.ts";
import { totals } from "../core/rules/sheet.ts";
import { ROLL_GAS_HEADROOM, rollValue } from "../web/src/lib/gas.ts";

/**
 * DiceHall on our Entropy model (contracts/test/EntropyModel.sol), the test of record for how it
 * meets Entropy: real fees, numbers from a provider's hash chain that no test chooses, requests
 * spilling out of Entropy's array, a provider refusing. Only the hall's lasting public behaviour
 * (create, join, roll, score, withdraw and their events) is relied on.
 */

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(modelHallFixture);
}

/** Another consumer of the same provider, to flood it or move its sequence numbers on. */
async function otherConsumer(h: Hall) {
  const consumer = await h.viem.deployContract("ScriptedEntropyConsumer", [h.model!.address]);
  const fee = await h.model!.contract.read.getFeeV2([h.provider, MODEL_DEFAULT_GAS_LIMIT]);
  return {
    consumer,
    /** One request of the provider; returns its sequence number. */
    async ask(): Promise<bigint> {
      const receipt = await send(
        h,
        consumer.write.request([h.provider, keccak256(toHex("other")), MODEL_DEFAULT_GAS_LIMIT], {
          value: fee,
        }),
      );
      return requestsIn(h.model!, receipt)[0].sequenceNumber;
    },
  };
}

const RULE_SET_NAMES = ["Yahtzee", "Yatzy", "Yazty", "Extended"];

describe("DiceHall on the Entropy model: a whole game in every rule set", () => {
  for (const ruleSet of [0, 1, 2, 3] as RuleSetId[]) {
    const seats = 2 + (ruleSet % 3);
    it(`plays ${RULE_SET_NAMES[ruleSet]} with ${seats} players to a settlement the engine agrees with`, async () => {
      const h = await fixture();
      const { gameId, order: joinOrder } = await startGame(h, { seats, ruleSet });
      const played = await playToTheEnd(h, gameId, joinOrder, ruleSet, `model-${ruleSet}`);
      const { order } = played;
      assert.equal(played.scoredEvents, seats * boxCount(ruleSet));
      assert.deepEqual(
        order.map(addressOf).sort(),
        joinOrder.map(addressOf).sort(),
        "the drawn order seats everyone once",
      );

      const finished = hallEvent(h, played.finishReceipt, "GameFinished");
      const winners = expectedWinners(order, played.sheets);
      const money = settlement(BET, seats, FEE_BPS, winners.length);
      assert.deepEqual(finished.players, order.map(addressOf));
      assert.deepEqual(
        finished.totals,
        order.map((w) => BigInt(totals(played.sheets.get(addressOf(w))!).total)),
      );
      assert.deepEqual(finished.winners, winners);
      assert.equal(finished.payoutEach, money.payoutEach);
      assert.equal(finished.houseFee, money.fee);
      assert.equal((await gameView(h, gameId)).status, STATUS.Finished);

      // The first winner takes the pot out.
      const first = order.find((w) => addressOf(w) === winners[0])!;
      const owed = money.payoutEach + money.remainder;
      const surplus = await credits(h, NATIVE, first);
      assert.ok(surplus >= owed);
      const before = await h.publicClient.getBalance({ address: first.account.address });
      const receipt = await send(h, h.hall.write.withdraw([NATIVE], { account: first.account }));
      const after = await h.publicClient.getBalance({ address: first.account.address });
      assert.equal(after - before + receipt.gasUsed * receipt.effectiveGasPrice, surplus);
      assert.equal(await credits(h, NATIVE, first), 0n);
    });
  }
});

describe("DiceHall on the Entropy model: what Entropy does to a roll", () => {
  it("the app's roll headroom covers the worst path: both Entropy's and the hall's slots held", async () => {
    const h = await fixture();
    const model = h.model!;
    // A roll nobody answers holds sequence s: its Entropy array slot and the hall's ring slot.
    const held = await startGame(h, { players: [h.alice, h.bob] });
    const { sequenceNumber: s } = await requestRoll(h, held.gameId, h.alice, 0);
    const later = await startGame(h, { players: [h.carol, h.dave] });
    // The app's value: the fee plus 10 %, which opens the roller's credit.
    const value = rollValue(await h.hall.read.gameRollFee([later.gameId]));
    const other = await otherConsumer(h);
    let estimate = 0n;
    for (let seq = s + 1n; seq < s + 64n; seq++) {
      assert.equal(await other.ask(), seq);
      await revealRequest(model, h.provider, seq);
      if (seq === s + 62n) {
        // Estimated while the next request's slots are free, as a wallet may do it.
        estimate = await h.publicClient.estimateContractGas({
          address: h.hall.address,
          abi: h.hall.abi,
          functionName: "roll",
          args: [later.gameId, 0],
          account: h.carol.account,
          value,
        });
      }
    }
    // Mined as request s + 64, on both of s's slots.
    const receipt = await send(
      h,
      h.hall.write.roll([later.gameId, 0], {
        account: h.carol.account,
        value,
        gas: estimate + ROLL_GAS_HEADROOM,
      }),
    );
    assert.equal(hallEvent(h, receipt, "RollRequested").sequenceNumber, s + 64n);
    assert.ok(
      receipt.gasUsed > estimate + 60_000n,
      `the worst path costs well over the estimate (${receipt.gasUsed} against ${estimate})`,
    );
    // Both requests are still Entropy's, and both are delivered.
    for (const seq of [s, s + 64n]) {
      const request = await model.contract.read.getRequestV2([h.provider, seq]);
      assert.equal(request.requester, getAddress(h.hall.address));
    }
    hallEvent(h, await reveal(h, s + 64n, "0x"), "DiceRolled");
    hallEvent(h, await reveal(h, s, "0x"), "DiceRolled");
  });

  it("a four-seat order draw is delivered under the 60 000 gas floor, as Entropy itself runs it", async (t) => {
    const h = await fixture();
    // Coverage instruments the contract (its code outgrows the 24 KB limit) and so its gas.
    const code = await h.publicClient.getCode({ address: h.hall.address });
    if ((code?.length ?? 0) / 2 - 1 > 24_576) return t.skip("gas is not measured under coverage");
    await send(h, h.hall.write.setCallbackGasLimit([60_000]));
    // Entropy gives at least the provider's default: a provider whose default is the floor.
    await send(
      h,
      h.model!.contract.write.setDefaultGasLimit([60_000], { account: h.wallets[9].account }),
    );
    for (let n = 0; n < 3; n++) {
      const { gameId } = await startGame(h, { seats: 4 });
      assert.equal((await gameView(h, gameId)).callbackGasLimit, 60_000);
      const { sequenceNumber } = await requestRoll(h, gameId, h.players[n], 0);
      const request = await h.model!.contract.read.getRequestV2([h.provider, sequenceNumber]);
      assert.equal(request.gasLimit10k, 6);
      const receipt = await reveal(h, sequenceNumber, "0x");
      const [revealed] = revealedIn(h.model!, receipt);
      assert.equal(revealed.callbackFailed, false, `draw ${n}: the callback fit its limit`);
      hallEvent(h, receipt, "GameStarted");
      hallEvent(h, receipt, "DiceRolled");
    }
  });

  it("a flood of unrevealed requests makes the provider refuse: the roll is refused, its fee credited back", async () => {
    const h = await fixture();
    const model = h.model!;
    await send(h, model.contract.write.setMaxNumHashes([8], { account: h.wallets[9].account }));
    const { gameId } = await startGame(h);
    const other = await otherConsumer(h);
    for (let i = 0; i < 8; i++) await other.ask();
    const fee = await h.hall.read.gameRollFee([gameId]);
    const before = await credits(h, NATIVE, h.alice);
    const receipt = await send(h, rollTx(h, gameId, h.alice, 0, fee));
    const refused = hallEvent(h, receipt, "RollRefused");
    assert.equal(
      decodeErrorResult({ abi: model.contract.abi, data: refused.reason }).errorName,
      "LastRevealedTooOld",
    );
    assert.equal(await credits(h, NATIVE, h.alice), before + fee);
    // The provider's keeper catches up: revealing the latest lets it take requests again.
    await revealRequest(model, h.provider, 8n);
    assert.equal(await other.ask(), 9n);
  });

  it("a provider at its chain's end refuses with OutOfRandomness: the roll is refused, its fee credited back", async () => {
    const h = await fixture();
    const model = h.model!;
    // A rotation to a chain with one value left to hand out, which another consumer takes.
    await registerProvider(model, h.wallets[9], { chainLength: 2 });
    const { gameId } = await startGame(h);
    const other = await otherConsumer(h);
    await other.ask();
    const fee = await h.hall.read.gameRollFee([gameId]);
    const receipt = await send(h, rollTx(h, gameId, h.bob, 0, fee));
    const refused = hallEvent(h, receipt, "RollRefused");
    assert.equal(
      decodeErrorResult({ abi: model.contract.abi, data: refused.reason }).errorName,
      "OutOfRandomness",
    );
    assert.equal(await credits(h, NATIVE, h.bob), fee);
  });

  it("a provider fee rise within the app's 10 % goes through; the surplus is credited", async () => {
    const h = await fixture();
    const { gameId } = await startGame(h);
    const quoted = await h.hall.read.gameRollFee([gameId]);
    const value = rollValue(quoted);
    // The provider raises its fee by 5 % between the quote and the block.
    await send(
      h,
      h.model!.contract.write.setProviderFee([(MODEL_PROVIDER_FEE * 105n) / 100n], {
        account: h.wallets[9].account,
      }),
    );
    const charged = await h.hall.read.gameRollFee([gameId]);
    assert.ok(charged > quoted && charged <= value);
    const { sequenceNumber } = await requestRoll(h, gameId, h.alice, 0, value);
    assert.equal(await credits(h, NATIVE, h.alice), value - charged);
    const rolled = hallEvent(h, await reveal(h, sequenceNumber, "0x"), "DiceRolled");
    assert.equal(rolled.rollNumber, 1);
    const first = (await gameView(h, gameId)).players[0];
    assert.equal((await playerView(h, gameId, first)).rollsUsed, 1);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, parseEventLogs } from "viem";
import {
  DEFAULT_CALLBACK_GAS_LIMIT,
  DEFAULT_ENTROPY_TIMEOUT,
  DEFAULT_WINDOW_MAX,
  DEFAULT_WINDOW_MIN,
  FEE_CAP,
  NATIVE,
  NATIVE_MAX_BET,
  NATIVE_MIN_BET,
  TOKEN_BET,
  addressOf,
  bareHallFixture,
  createGameTx,
  hallEvent,
  hallFixture,
  openLobby,
  requestRoll,
  rollWith,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

describe("deployment", () => {
  it("starts with nothing allowed, no fee and the documented defaults", async () => {
    const h = await networkHelpers.loadFixture(bareHallFixture);
    for (const token of [NATIVE, h.token.address]) {
      assert.deepEqual(await h.hall.read.tokenConfig([token]), {
        allowed: false,
        minBet: 0n,
        maxBet: 0n,
      });
    }
    assert.equal(await h.hall.read.houseFeeBps(), 0);
    assert.deepEqual(await h.hall.read.joinWindowBounds(), [
      DEFAULT_WINDOW_MIN,
      DEFAULT_WINDOW_MAX,
    ]);
    assert.deepEqual(await h.hall.read.moveTimeoutBounds(), [
      DEFAULT_WINDOW_MIN,
      DEFAULT_WINDOW_MAX,
    ]);
    assert.equal(await h.hall.read.entropyTimeout(), DEFAULT_ENTROPY_TIMEOUT);
    assert.equal(await h.hall.read.callbackGasLimit(), DEFAULT_CALLBACK_GAS_LIMIT);
    assert.equal(await h.hall.read.entropy(), getAddress(h.entropy.address));
    assert.equal(await h.hall.read.entropyProvider(), await h.entropy.read.getDefaultProvider());
    assert.equal(await h.hall.read.nextGameId(), 1n);
    assert.equal(await h.hall.read.paused(), false);
    assert.equal(await h.hall.read.owner(), addressOf(h.owner));
  });

  it("makes the constructor's owner the owner, not the deployer", async () => {
    const h = await fixture();
    const hall = await h.viem.deployContract("DiceHall", [h.entropy.address, addressOf(h.carol)]);
    assert.equal(await hall.read.owner(), addressOf(h.carol));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      hall.write.setHouseFee([1]),
      h.hallErrors,
      "OwnableUnauthorizedAccount",
      [addressOf(h.owner)],
    );
    await send(h, hall.write.setHouseFee([1], { account: h.carol.account }));
  });
});

describe("Ownable2Step", () => {
  it("hands the hall over only when the new owner accepts", async () => {
    const h = await fixture();
    await send(h, h.hall.write.transferOwnership([addressOf(h.dave)]));
    assert.equal(await h.hall.read.owner(), addressOf(h.owner), "not before acceptance");
    assert.equal(await h.hall.read.pendingOwner(), addressOf(h.dave));
    await send(h, h.hall.write.acceptOwnership({ account: h.dave.account }));
    assert.equal(await h.hall.read.owner(), addressOf(h.dave));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setHouseFee([1]),
      h.hallErrors,
      "OwnableUnauthorizedAccount",
      [addressOf(h.owner)],
    );
  });
});

describe("owner setters", () => {
  it("setTokenConfig allows a token within inclusive limits and announces it", async () => {
    const h = await networkHelpers.loadFixture(bareHallFixture);
    const receipt = await send(
      h,
      h.hall.write.setTokenConfig([NATIVE, true, NATIVE_MIN_BET, NATIVE_MAX_BET]),
    );
    assert.deepEqual(
      { ...hallEvent(h, receipt, "TokenConfigured") },
      { token: NATIVE, allowed: true, minBet: NATIVE_MIN_BET, maxBet: NATIVE_MAX_BET },
    );
    assert.deepEqual(await h.hall.read.tokenConfig([NATIVE]), {
      allowed: true,
      minBet: NATIVE_MIN_BET,
      maxBet: NATIVE_MAX_BET,
    });
    await openLobby(h, h.alice, { bet: NATIVE_MIN_BET });
    await openLobby(h, h.alice, { bet: NATIVE_MAX_BET });
  });

  it("setTokenConfig forbids a token again, without touching its open lobbies", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { token: h.token.address });
    const receipt = await send(h, h.hall.write.setTokenConfig([h.token.address, false, 5n, 9n]));
    const configured = hallEvent(h, receipt, "TokenConfigured");
    assert.equal(configured.allowed, false);
    assert.equal((await h.hall.read.tokenConfig([h.token.address])).allowed, false);
    // The lobby opened before still fills and runs.
    await send(h, h.hall.write.joinGame([gameId], { account: h.bob.account }));
    assert.equal(await h.token.read.balanceOf([h.hall.address]), 2n * TOKEN_BET);
  });

  it("setHouseFee accepts the cap itself and announces it", async () => {
    const h = await fixture();
    const receipt = await send(h, h.hall.write.setHouseFee([FEE_CAP]));
    assert.equal(hallEvent(h, receipt, "HouseFeeSet").bps, FEE_CAP);
    assert.equal(await h.hall.read.houseFeeBps(), FEE_CAP);
  });

  it("setJoinWindowBounds and setMoveTimeoutBounds bound new lobbies, edges included", async () => {
    const h = await fixture();
    const a = await send(h, h.hall.write.setJoinWindowBounds([600, 1200]));
    assert.deepEqual({ ...hallEvent(h, a, "JoinWindowBoundsSet") }, { min: 600, max: 1200 });
    const b = await send(h, h.hall.write.setMoveTimeoutBounds([120, 3600]));
    assert.deepEqual({ ...hallEvent(h, b, "MoveTimeoutBoundsSet") }, { min: 120, max: 3600 });
    assert.deepEqual(await h.hall.read.joinWindowBounds(), [600, 1200]);
    assert.deepEqual(await h.hall.read.moveTimeoutBounds(), [120, 3600]);
    await openLobby(h, h.alice, { joinWindow: 600, moveTimeout: 120 });
    await openLobby(h, h.alice, { joinWindow: 1200, moveTimeout: 3600 });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { joinWindow: 1201, moveTimeout: 120 }),
      h.hall,
      "JoinWindowOutOfRange",
      [1201, 600, 1200],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { joinWindow: 600, moveTimeout: 119 }),
      h.hall,
      "MoveTimeoutOutOfRange",
      [119, 120, 3600],
    );
  });

  it("setEntropyTimeout announces the new timeout", async () => {
    const h = await fixture();
    const receipt = await send(h, h.hall.write.setEntropyTimeout([3600]));
    assert.equal(hallEvent(h, receipt, "EntropyTimeoutSet").seconds_, 3600);
    assert.equal(await h.hall.read.entropyTimeout(), 3600);
  });

  it("setCallbackGasLimit applies to the first roll of a lobby opened after; setEntropyProvider follows the default", async () => {
    const h = await fixture();
    const a = await send(h, h.hall.write.setCallbackGasLimit([2_500_000]));
    assert.equal(hallEvent(h, a, "CallbackGasLimitSet").gasLimit, 2_500_000);
    // Pyth's default provider is the only one the hall takes (tests with another default: entropy).
    const b = await send(h, h.hall.write.setEntropyProvider([h.provider]));
    assert.equal(hallEvent(h, b, "EntropyProviderSet").provider, getAddress(h.provider));
    assert.equal(await h.hall.read.entropyProvider(), getAddress(h.provider));

    const { gameId, order } = await startGame(h, { seats: 2 });
    const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], 0);
    const requested = parseEventLogs({
      abi: h.entropy.abi,
      logs: receipt.logs,
      eventName: "Requested",
    });
    assert.equal(requested.length, 1);
    assert.equal(requested[0].args.provider, getAddress(h.provider));
    assert.equal(requested[0].args.gasLimit, 2_500_000);
    const request = await h.entropy.read.getRequestV2([h.provider, sequenceNumber]);
    assert.equal(request.requester, getAddress(h.hall.address));
    const answer = await send(
      h,
      h.entropy.write.mockReveal([h.provider, sequenceNumber, `0x${"ab".repeat(32)}`]),
    );
    assert.equal(hallEvent(h, answer, "DiceRolled").rollNumber, 1);
  });

  it("pause and unpause announce themselves", async () => {
    const h = await fixture();
    const paused = await send(h, h.hall.write.pause());
    assert.equal(
      parseEventLogs({ abi: h.hall.abi, logs: paused.logs, eventName: "Paused" as never }).length,
      1,
    );
    const unpaused = await send(h, h.hall.write.unpause());
    assert.equal(
      parseEventLogs({ abi: h.hall.abi, logs: unpaused.logs, eventName: "Unpaused" as never })
        .length,
      1,
    );
  });
});

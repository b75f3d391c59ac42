import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress } from "viem";
import {
  BET,
  JOIN_WINDOW,
  MOVE_TIMEOUT,
  NATIVE,
  STATUS,
  TOKEN_BET,
  addressOf,
  createGameTx,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  hallFixture,
  joinGameTx,
  joinLobby,
  lobbyConfig,
  openLobby,
  playerView,
  rollWith,
  scoreBox,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

describe("createGame", () => {
  it("hands out game ids from 1 and returns the new id", async () => {
    const h = await fixture();
    assert.equal(await h.hall.read.nextGameId(), 1n);
    const { result } = await h.hall.simulate.createGame([lobbyConfig()], {
      account: h.alice.account.address,
      value: BET,
    });
    assert.equal(result, 1n);
    assert.equal((await openLobby(h, h.alice)).gameId, 1n);
    assert.equal((await openLobby(h, h.bob)).gameId, 2n);
    assert.equal(await h.hall.read.nextGameId(), 3n);
  });

  it("seats the creator at seat 0, takes the bet into escrow and announces the lobby", async () => {
    const h = await fixture();
    const before = await hallBalance(h);
    const { gameId, receipt } = await openLobby(h, h.alice, { seats: 4, ruleSet: 2 });
    assert.equal(await hallBalance(h), before + BET);
    const created = hallEvent(h, receipt, "GameCreated");
    assert.deepEqual(
      { ...created },
      {
        gameId,
        creator: addressOf(h.alice),
        token: NATIVE,
        bet: BET,
        seats: 4,
        ruleSet: 2,
        isPrivate: false,
      },
    );
    // The creator's seat is not a join.
    assert.equal(hallEvents(h, receipt, "PlayerJoined").length, 0);
    assert.equal(hallEvents(h, receipt, "PlayerInvited").length, 0);
    const alice = await playerView(h, gameId, h.alice);
    assert.equal(alice.seated, true);
    assert.equal(alice.seat, 0);
  });

  it("pulls exactly the bet of an allowed token", async () => {
    const h = await fixture();
    const aliceBefore = await h.token.read.balanceOf([addressOf(h.alice)]);
    const { receipt } = await openLobby(h, h.alice, { token: h.token.address });
    assert.equal(await h.token.read.balanceOf([addressOf(h.alice)]), aliceBefore - TOKEN_BET);
    assert.equal(await h.token.read.balanceOf([h.hall.address]), TOKEN_BET);
    assert.equal(hallEvent(h, receipt, "GameCreated").token, getAddress(h.token.address));
  });

  it("announces a private lobby and invites each listed player by name", async () => {
    const h = await fixture();
    const invitees = [addressOf(h.bob), addressOf(h.carol), addressOf(h.dave)];
    const { gameId, receipt } = await openLobby(h, h.alice, { seats: 3, invitees });
    assert.equal(hallEvent(h, receipt, "GameCreated").isPrivate, true);
    const invited = hallEvents(h, receipt, "PlayerInvited");
    assert.deepEqual(
      invited.map((e) => e.invitee),
      invitees,
    );
    assert.ok(invited.every((e) => e.gameId === gameId));
    assert.deepEqual((await gameView(h, gameId)).config.invitees, invitees);
  });

  it("applies the owner's new house fee only to lobbies opened afterwards", async () => {
    const h = await fixture();
    const { gameId: before } = await openLobby(h, h.alice);
    await send(h, h.hall.write.setHouseFee([1000]));
    const { gameId: after } = await openLobby(h, h.alice);
    assert.equal((await gameView(h, before)).houseFeeBps, 500);
    assert.equal((await gameView(h, after)).houseFeeBps, 1000);
  });

  it("applies new bounds and entropy timeout only to lobbies opened afterwards", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { joinWindow: 600 });
    await send(h, h.hall.write.setJoinWindowBounds([3600, 7200]));
    await send(h, h.hall.write.setEntropyTimeout([3600]));
    // The open lobby keeps its window and its entropy timeout.
    const game = await gameView(h, gameId);
    assert.equal(game.config.joinWindow, 600);
    assert.equal(game.entropyTimeout, 1800);
    await joinLobby(h, gameId, h.bob);
    assert.equal((await gameView(h, gameId)).status, STATUS.Running);
    const { gameId: later } = await openLobby(h, h.alice, { joinWindow: 3600 });
    assert.equal((await gameView(h, later)).entropyTimeout, 3600);
  });
});

describe("joinGame", () => {
  it("seats a player in join order without starting an unfilled lobby", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    const receipt = await joinLobby(h, gameId, h.bob);
    const joined = hallEvent(h, receipt, "PlayerJoined");
    assert.equal(joined.gameId, gameId);
    assert.equal(joined.player, addressOf(h.bob));
    assert.equal(hallEvents(h, receipt, "GameStarted").length, 0);
    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Open);
    assert.deepEqual(game.players, [addressOf(h.alice), addressOf(h.bob)]);
    assert.equal(await hallBalance(h), 2n * BET);
  });

  it("starts the game when the last seat fills, its order left to the first roll", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 4 });
    await joinLobby(h, gameId, h.bob);
    await joinLobby(h, gameId, h.carol);
    const receipt = await joinLobby(h, gameId, h.dave);
    assert.equal(hallEvent(h, receipt, "PlayerJoined").player, addressOf(h.dave));
    // No order yet: a joiner cannot pick their place by joining (and reverting) at the right time.
    assert.equal(hallEvents(h, receipt, "GameStarted").length, 0);
    const joinOrder = [h.alice, h.bob, h.carol, h.dave].map(addressOf);
    const block = await h.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Running);
    assert.equal(game.orderDrawn, false);
    assert.deepEqual(game.players, joinOrder);
    assert.equal(game.round, 1);
    assert.equal(game.deadline, block.timestamp + BigInt(MOVE_TIMEOUT));
    for (const [seat, player] of joinOrder.entries()) {
      assert.equal((await playerView(h, gameId, player)).seat, seat);
    }
  });

  it("lets an invited player take a seat at a private table", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, {
      seats: 2,
      invitees: [addressOf(h.bob), addressOf(h.carol)],
    });
    await joinLobby(h, gameId, h.carol);
    assert.equal((await gameView(h, gameId)).status, STATUS.Running);
  });

  it("takes a token bet from each joiner", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { token: h.token.address, seats: 3 });
    await joinLobby(h, gameId, h.bob);
    await joinLobby(h, gameId, h.carol);
    assert.equal(await h.token.read.balanceOf([h.hall.address]), 3n * TOKEN_BET);
    assert.equal(await hallBalance(h), 0n, "no native coin moves in a token game");
  });

  it("accepts a join one second before the window closes", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice);
    const { deadline } = await gameView(h, gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline - 1n);
    await send(h, joinGameTx(h, gameId, h.bob, BET));
    assert.equal((await gameView(h, gameId)).status, STATUS.Running);
  });
});

describe("leaveGame", () => {
  it("refunds a player who leaves as a credit and frees the seat", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    await joinLobby(h, gameId, h.bob);
    const receipt = await send(h, h.hall.write.leaveGame([gameId], { account: h.bob.account }));
    const left = hallEvent(h, receipt, "PlayerLeft");
    assert.equal(left.player, addressOf(h.bob));
    const credited = hallEvent(h, receipt, "Credited");
    assert.deepEqual({ ...credited }, { token: NATIVE, account: addressOf(h.bob), amount: BET });
    assert.equal(await credits(h, NATIVE, h.bob), BET);
    assert.equal((await playerView(h, gameId, h.bob)).seated, false);
    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Open);
    assert.deepEqual(game.players, [addressOf(h.alice)]);
    // The freed seat can be taken, and filling the lobby starts it with the right players.
    await joinLobby(h, gameId, h.carol);
    await joinLobby(h, gameId, h.dave);
    const order = (await gameView(h, gameId)).players;
    assert.deepEqual([...order].sort(), [h.alice, h.carol, h.dave].map(addressOf).sort());
  });

  it("keeps the remaining players seated when a middle seat leaves", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 4 });
    await joinLobby(h, gameId, h.bob);
    await joinLobby(h, gameId, h.carol);
    await send(h, h.hall.write.leaveGame([gameId], { account: h.bob.account }));
    const game = await gameView(h, gameId);
    assert.deepEqual([...game.players].sort(), [addressOf(h.alice), addressOf(h.carol)].sort());
    for (const [seat, player] of game.players.entries()) {
      assert.equal((await playerView(h, gameId, player)).seat, seat);
    }
    await joinLobby(h, gameId, h.dave);
    await joinLobby(h, gameId, h.erin);
    const order = (await gameView(h, gameId)).players;
    assert.deepEqual([...order].sort(), [h.alice, h.carol, h.dave, h.erin].map(addressOf).sort());
    assert.equal(await hallBalance(h), 5n * BET, "four bets in escrow, one refund owed");
  });

  it("lets a player who left join again", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    await joinLobby(h, gameId, h.bob);
    await send(h, h.hall.write.leaveGame([gameId], { account: h.bob.account }));
    await joinLobby(h, gameId, h.bob);
    assert.equal((await playerView(h, gameId, h.bob)).seated, true);
    assert.equal(await credits(h, NATIVE, h.bob), BET, "the refund stays theirs");
    assert.equal(await hallBalance(h), 3n * BET);
  });

  it("cancels the lobby when the creator leaves, refunding everyone", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3, token: h.token.address });
    await joinLobby(h, gameId, h.bob);
    const receipt = await send(h, h.hall.write.leaveGame([gameId], { account: h.alice.account }));
    hallEvent(h, receipt, "GameCancelled");
    assert.equal((await gameView(h, gameId)).status, STATUS.Cancelled);
    assert.equal(await credits(h, h.token.address, h.alice), TOKEN_BET);
    assert.equal(await credits(h, h.token.address, h.bob), TOKEN_BET);
  });
});

describe("cancelGame", () => {
  it("lets the creator cancel at any time before the start and refunds every seat", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 4 });
    await joinLobby(h, gameId, h.bob);
    await joinLobby(h, gameId, h.carol);
    const receipt = await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    assert.equal(hallEvent(h, receipt, "GameCancelled").gameId, gameId);
    const credited = hallEvents(h, receipt, "Credited");
    assert.deepEqual(
      credited.map((c) => c.account).sort(),
      [h.alice, h.bob, h.carol].map(addressOf).sort(),
    );
    for (const w of [h.alice, h.bob, h.carol]) assert.equal(await credits(h, NATIVE, w), BET);
    assert.equal((await gameView(h, gameId)).status, STATUS.Cancelled);
    // The escrow became credits: the coin is still in the hall until each withdraws.
    assert.equal(await hallBalance(h), 3n * BET);
  });

  it("lets anyone cancel an expired lobby from the second its window closes", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3, token: h.token.address });
    await joinLobby(h, gameId, h.bob);
    const { deadline } = await gameView(h, gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline);
    const receipt = await send(
      h,
      h.hall.write.cancelGame([gameId], { account: h.stranger.account }),
    );
    hallEvent(h, receipt, "GameCancelled");
    assert.equal(await credits(h, h.token.address, h.alice), TOKEN_BET);
    assert.equal(await credits(h, h.token.address, h.bob), TOKEN_BET);
    assert.equal(await credits(h, h.token.address, h.stranger), 0n);
    // Everyone gets their tokens back in full.
    const before = await h.token.read.balanceOf([addressOf(h.bob)]);
    await send(h, h.hall.write.withdraw([h.token.address], { account: h.bob.account }));
    assert.equal(await h.token.read.balanceOf([addressOf(h.bob)]), before + TOKEN_BET);
  });

  it("lets a seated player cancel an expired lobby too", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    await joinLobby(h, gameId, h.bob);
    await networkHelpers.time.increase(JOIN_WINDOW);
    await send(h, h.hall.write.cancelGame([gameId], { account: h.bob.account }));
    assert.equal((await gameView(h, gameId)).status, STATUS.Cancelled);
  });
});

describe("pause", () => {
  it("blocks new lobbies and joins but not leaving, cancelling, playing or withdrawing", async () => {
    const h = await fixture();
    const { gameId: running, order } = await startGame(h, { seats: 2 });
    const { gameId: lobby } = await openLobby(h, h.carol, { seats: 3 });
    await joinLobby(h, lobby, h.dave);
    await send(h, h.hall.write.pause());
    assert.equal(await h.hall.read.paused(), true);

    await h.viem.assertions.revertWithCustomError(
      createGameTx(h, h.alice),
      h.hallErrors,
      "EnforcedPause",
    );
    await h.viem.assertions.revertWithCustomError(
      joinGameTx(h, lobby, h.erin),
      h.hallErrors,
      "EnforcedPause",
    );

    await send(h, h.hall.write.leaveGame([lobby], { account: h.dave.account }));
    await send(h, h.hall.write.cancelGame([lobby], { account: h.carol.account }));
    await send(h, h.hall.write.withdraw([NATIVE], { account: h.dave.account }));
    await rollWith(h, running, order[0], 0, [3, 3, 3, 4, 4]);
    assert.equal((await scoreBox(h, running, order[0], 8)).points, 25);
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([running], { account: h.stranger.account }));
    assert.equal((await gameView(h, running)).status, STATUS.Finished);
    await send(h, h.hall.write.withdraw([NATIVE], { account: order[0].account }));

    await send(h, h.hall.write.unpause());
    await openLobby(h, h.alice);
  });
});

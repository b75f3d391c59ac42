import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, zeroAddress } from "viem";
import {
  BET,
  DEFAULT_CALL_OFF_WINDOW,
  DEFAULT_ENTROPY_TIMEOUT,
  DEFAULT_WINDOW_MAX,
  DEFAULT_WINDOW_MIN,
  FEE_BPS,
  FEE_CAP,
  JOIN_WINDOW,
  MOVE_TIMEOUT,
  NATIVE,
  NATIVE_MAX_BET,
  NATIVE_MIN_BET,
  PRICED_ROLL_FEE,
  STATUS,
  TOKEN_BET,
  TOKEN_MAX_BET,
  TOKEN_MIN_BET,
  addressOf,
  bareHallFixture,
  createGameTx,
  gameView,
  hallFixture,
  joinGameTx,
  openLobby,
  pricedHallFixture,
  requestRoll,
  rollTx,
  rollWith,
  scoreBox,
  scoreTx,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";

/**
 * Every refusal of PROTOCOL.md by its custom error and arguments, and where two reasons apply at
 * once, the one the documented check order names first.
 */

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

async function lobbyFixture(): Promise<Hall & { gameId: bigint }> {
  const h = await fixture();
  const { gameId } = await openLobby(h, h.alice, { seats: 3 });
  return { ...h, gameId };
}

async function runningFixture() {
  const h = await fixture();
  const started = await startGame(h, { seats: 2 });
  return { ...h, ...started };
}

/** A running game whose first roll drew the order: order[0] holds dice from one roll. */
async function drawnFixture() {
  const h = await runningFixture();
  await rollWith(h, h.gameId, h.order[0], 0, [1, 2, 3, 4, 6]);
  return h;
}

describe("createGame", () => {
  it("reverts EnforcedPause while the hall is paused, before any other check", async () => {
    const h = await fixture();
    await send(h, h.hall.write.pause());
    await h.viem.assertions.revertWithCustomError(
      createGameTx(h, h.alice, { seats: 9, ruleSet: 9 }),
      h.hallErrors,
      "EnforcedPause",
    );
  });

  it("reverts SeatsOutOfRange for a table of one", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { seats: 1 }),
      h.hall,
      "SeatsOutOfRange",
      [1],
    );
  });

  it("reverts SeatsOutOfRange for a table of five, before the rule set is looked at", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { seats: 5, ruleSet: 7 }),
      h.hall,
      "SeatsOutOfRange",
      [5],
    );
  });

  it("reverts UnknownRuleSet for rule set 4, before the token is looked at", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { ruleSet: 4, token: h.stranger.account.address }),
      h.hall,
      "UnknownRuleSet",
      [4],
    );
  });

  it("reverts TokenNotAllowed for a token the owner never listed", async () => {
    const h = await fixture();
    const stray = await h.viem.deployContract("TestToken");
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: stray.address }),
      h.hall,
      "TokenNotAllowed",
      [stray.address],
    );
  });

  it("reverts TokenNotAllowed for the native coin on a fresh deployment", async () => {
    const h = await networkHelpers.loadFixture(bareHallFixture);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice),
      h.hall,
      "TokenNotAllowed",
      [NATIVE],
    );
  });

  it("reverts TokenNotAllowed for a token the owner took off the list", async () => {
    const h = await fixture();
    await send(h, h.hall.write.setTokenConfig([h.token.address, false, 0n, 0n]));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: h.token.address }),
      h.hall,
      "TokenNotAllowed",
      [h.token.address],
    );
  });

  it("reverts BetOutOfRange below the minimum bet", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { bet: NATIVE_MIN_BET - 1n }),
      h.hall,
      "BetOutOfRange",
      [NATIVE_MIN_BET - 1n, NATIVE_MIN_BET, NATIVE_MAX_BET],
    );
  });

  it("reverts BetOutOfRange above the maximum bet of a token", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: h.token.address, bet: TOKEN_MAX_BET + 1n }),
      h.hall,
      "BetOutOfRange",
      [TOKEN_MAX_BET + 1n, TOKEN_MIN_BET, TOKEN_MAX_BET],
    );
  });

  it("reverts JoinWindowOutOfRange for a window under a minute", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { joinWindow: 59 }),
      h.hall,
      "JoinWindowOutOfRange",
      [59, DEFAULT_WINDOW_MIN, DEFAULT_WINDOW_MAX],
    );
  });

  it("reverts MoveTimeoutOutOfRange for a move timeout over a week", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { moveTimeout: DEFAULT_WINDOW_MAX + 1 }),
      h.hall,
      "MoveTimeoutOutOfRange",
      [DEFAULT_WINDOW_MAX + 1, DEFAULT_WINDOW_MIN, DEFAULT_WINDOW_MAX],
    );
  });

  it("reverts TooManyInvitees for seventeen invitees", async () => {
    const h = await fixture();
    const invitees = h.wallets.slice(2, 19).map(addressOf);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { seats: 4, invitees }),
      h.hall,
      "TooManyInvitees",
      [17n, 16n],
    );
  });

  it("reverts NotEnoughInvitees when the list cannot fill the open seats", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { seats: 4, invitees: [addressOf(h.bob), addressOf(h.carol)] }),
      h.hall,
      "NotEnoughInvitees",
      [2n, 3n],
    );
  });

  it("reverts InvalidInvitee for the zero address", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { invitees: [addressOf(h.bob), zeroAddress] }),
      h.hall,
      "InvalidInvitee",
      [zeroAddress],
    );
  });

  it("reverts InvalidInvitee when the creator invites themself", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { invitees: [addressOf(h.alice)] }),
      h.hall,
      "InvalidInvitee",
      [addressOf(h.alice)],
    );
  });

  it("reverts InvalidInvitee for a name listed twice", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, {
        seats: 3,
        invitees: [addressOf(h.bob), addressOf(h.carol), addressOf(h.bob)],
      }),
      h.hall,
      "InvalidInvitee",
      [addressOf(h.bob)],
    );
  });

  it("reverts WrongPayment when the coin sent is not the bet", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { value: BET - 1n }),
      h.hall,
      "WrongPayment",
      [BET - 1n, BET],
    );
  });

  it("reverts WrongPayment when coin comes with a token bet", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: h.token.address, value: 1n }),
      h.hall,
      "WrongPayment",
      [1n, 0n],
    );
  });

  it("reverts with the token's own error when the creator has not approved the bet", async () => {
    const h = await fixture();
    await send(h, h.token.write.approve([h.hall.address, 0n], { account: h.alice.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      createGameTx(h, h.alice, { token: h.token.address }),
      h.token,
      "ERC20InsufficientAllowance",
      [h.hall.address, 0n, TOKEN_BET],
    );
  });
});

describe("joinGame", () => {
  it("reverts EnforcedPause while the hall is paused", async () => {
    const h = await lobbyFixture();
    await send(h, h.hall.write.pause());
    await h.viem.assertions.revertWithCustomError(
      joinGameTx(h, h.gameId, h.bob),
      h.hallErrors,
      "EnforcedPause",
    );
  });

  it("reverts UnknownGame for an id never handed out", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGame([42n], { account: h.bob.account, value: BET }),
      h.hall,
      "UnknownGame",
      [42n],
    );
  });

  it("reverts UnknownGame for game 0, since ids start at 1", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGame([0n], { account: h.bob.account, value: BET }),
      h.hall,
      "UnknownGame",
      [0n],
    );
  });

  it("reverts GameNotOpen when the lobby is full and running", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGame([h.gameId], { account: h.carol.account, value: BET }),
      h.hall,
      "GameNotOpen",
      [h.gameId, STATUS.Running],
    );
  });

  it("reverts GameNotOpen for a cancelled lobby, even after its window", async () => {
    const h = await lobbyFixture();
    await send(h, h.hall.write.cancelGame([h.gameId], { account: h.alice.account }));
    await networkHelpers.time.increase(JOIN_WINDOW + 1);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, h.gameId, h.bob),
      h.hall,
      "GameNotOpen",
      [h.gameId, STATUS.Cancelled],
    );
  });

  it("reverts JoinWindowClosed once the window is over, even for a seated player", async () => {
    const h = await lobbyFixture();
    const { deadline } = await gameView(h, h.gameId);
    await networkHelpers.time.increase(JOIN_WINDOW);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, h.gameId, h.alice),
      h.hall,
      "JoinWindowClosed",
      [h.gameId, deadline],
    );
  });

  it("reverts JoinWindowClosed at the very second the window closes", async () => {
    const h = await lobbyFixture();
    const { deadline } = await gameView(h, h.gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGame([h.gameId], { account: h.bob.account, value: BET }),
      h.hall,
      "JoinWindowClosed",
      [h.gameId, deadline],
    );
  });

  it("reverts AlreadyJoined when the creator joins their own lobby", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, h.gameId, h.alice),
      h.hall,
      "AlreadyJoined",
      [h.gameId, addressOf(h.alice)],
    );
  });

  it("reverts AlreadyJoined when a player joins twice", async () => {
    const h = await lobbyFixture();
    await send(h, joinGameTx(h, h.gameId, h.bob));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, h.gameId, h.bob),
      h.hall,
      "AlreadyJoined",
      [h.gameId, addressOf(h.bob)],
    );
  });

  it("reverts NotInvited for a stranger at a private table, before the payment is checked", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { invitees: [addressOf(h.bob)] });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGame([gameId], { account: h.carol.account, value: 1n }),
      h.hall,
      "NotInvited",
      [gameId, addressOf(h.carol)],
    );
  });

  it("reverts WrongPayment when the joiner sends less than the bet", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, h.gameId, h.bob, BET / 2n),
      h.hall,
      "WrongPayment",
      [BET / 2n, BET],
    );
  });

  it("reverts WrongPayment when coin comes with a token bet", async () => {
    const h = await fixture();
    const { gameId } = await openLobby(h, h.alice, { token: h.token.address });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      joinGameTx(h, gameId, h.bob, 5n),
      h.hall,
      "WrongPayment",
      [5n, 0n],
    );
  });
});

describe("leaveGame", () => {
  it("reverts GameNotOpen once the game has started", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.leaveGame([h.gameId], { account: h.bob.account }),
      h.hall,
      "GameNotOpen",
      [h.gameId, STATUS.Running],
    );
  });

  it("reverts NotInGame for a player without a seat", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.leaveGame([h.gameId], { account: h.stranger.account }),
      h.hall,
      "NotInGame",
      [h.gameId, addressOf(h.stranger)],
    );
  });

  it("reverts NotInGame for a player who already left", async () => {
    const h = await lobbyFixture();
    await send(h, joinGameTx(h, h.gameId, h.bob));
    await send(h, h.hall.write.leaveGame([h.gameId], { account: h.bob.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.leaveGame([h.gameId], { account: h.bob.account }),
      h.hall,
      "NotInGame",
      [h.gameId, addressOf(h.bob)],
    );
  });
});

describe("cancelGame", () => {
  it("reverts JoinWindowStillOpen for a stranger before the window closes", async () => {
    const h = await lobbyFixture();
    const { deadline } = await gameView(h, h.gameId);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([h.gameId], { account: h.stranger.account }),
      h.hall,
      "JoinWindowStillOpen",
      [h.gameId, deadline],
    );
  });

  it("reverts JoinWindowStillOpen for a seated non-creator one second before the window closes", async () => {
    const h = await lobbyFixture();
    await send(h, joinGameTx(h, h.gameId, h.bob));
    const { deadline } = await gameView(h, h.gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline - 1n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([h.gameId], { account: h.bob.account }),
      h.hall,
      "JoinWindowStillOpen",
      [h.gameId, deadline],
    );
  });

  it("reverts GameNotOpen for a running game, even for its creator", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([h.gameId], { account: h.alice.account }),
      h.hall,
      "GameNotOpen",
      [h.gameId, STATUS.Running],
    );
  });

  it("reverts GameNotOpen when the lobby is already cancelled", async () => {
    const h = await lobbyFixture();
    await send(h, h.hall.write.cancelGame([h.gameId], { account: h.alice.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([h.gameId], { account: h.alice.account }),
      h.hall,
      "GameNotOpen",
      [h.gameId, STATUS.Cancelled],
    );
  });
});

describe("roll", () => {
  it("reverts UnknownGame for an id never handed out", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, 77n, h.alice, 0),
      h.hall,
      "UnknownGame",
      [77n],
    );
  });

  it("reverts GameNotRunning in an open lobby", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.alice, 0),
      h.hall,
      "GameNotRunning",
      [h.gameId, STATUS.Open],
    );
  });

  it("reverts NotYourTurn for the seated player whose turn it is not", async () => {
    const h = await drawnFixture();
    const [first, second] = h.order;
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, second, 0),
      h.hall,
      "NotYourTurn",
      [h.gameId, addressOf(first)],
    );
  });

  it("reverts NotYourTurn for a stranger, before the keep mask is looked at", async () => {
    const h = await drawnFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.stranger, 0b11111),
      h.hall,
      "NotYourTurn",
      [h.gameId, addressOf(h.order[0])],
    );
  });

  it("reverts RollPending while the dice are out, naming no retry: an accepted request is never replaced", async () => {
    const h = await runningFixture();
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[0], 0),
      h.hall,
      "RollPending",
      [h.gameId, sequenceNumber, 0n],
    );
  });

  it("reverts RollPending long past the old entropy timeout: the request is still the roll's only one", async () => {
    const h = await runningFixture();
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0);
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT * 10);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([h.gameId, 0], { account: h.order[0].account }),
      h.hall,
      "RollPending",
      [h.gameId, sequenceNumber, 0n],
    );
  });

  it("reverts RollPending for another seated player and for a stranger while an accepted request is out", async () => {
    const h = await drawnFixture();
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0);
    for (const asker of [h.order[1], h.stranger]) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        rollTx(h, h.gameId, asker, 0),
        h.hall,
        "RollPending",
        [h.gameId, sequenceNumber, 0n],
      );
    }
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[1], 0),
      h.hall,
      "NotYourTurn",
      [h.gameId, addressOf(h.order[0])],
    );
  });

  it("reverts NoRollsLeft for a fourth roll, whatever the keep mask", async () => {
    const h = await runningFixture();
    const first = h.order[0];
    await rollWith(h, h.gameId, first, 0, [1, 2, 3, 4, 5]);
    await rollWith(h, h.gameId, first, 0b00001, [1, 1, 3, 4, 5]);
    await rollWith(h, h.gameId, first, 0b00011, [1, 1, 1, 4, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, first, 0b00111),
      h.hall,
      "NoRollsLeft",
      [h.gameId],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, first, 0b11111),
      h.hall,
      "NoRollsLeft",
      [h.gameId],
    );
  });

  it("reverts FirstRollKeepsNone when the first roll of a turn keeps a die", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[0], 0b00100),
      h.hall,
      "FirstRollKeepsNone",
      [0b00100],
    );
  });

  it("reverts FirstRollKeepsNone, not InvalidKeepMask, for a first roll that keeps all", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[0], 0b11111),
      h.hall,
      "FirstRollKeepsNone",
      [0b11111],
    );
  });

  it("reverts InvalidKeepMask for a re-roll that keeps all five dice", async () => {
    const h = await runningFixture();
    await rollWith(h, h.gameId, h.order[0], 0, [6, 6, 6, 6, 6]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[0], 31),
      h.hall,
      "InvalidKeepMask",
      [31],
    );
  });

  it("reverts InvalidKeepMask for bits above die 4", async () => {
    const h = await runningFixture();
    await rollWith(h, h.gameId, h.order[0], 0, [6, 6, 6, 6, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[0], 0b100000),
      h.hall,
      "InvalidKeepMask",
      [0b100000],
    );
  });

  it("reverts GameNotRunning once the game is over", async () => {
    const h = await drawnFixture();
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([h.gameId], { account: h.stranger.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, h.gameId, h.order[1], 0),
      h.hall,
      "GameNotRunning",
      [h.gameId, STATUS.Finished],
    );
  });
});

describe("roll with a priced Entropy", () => {
  it("reverts InsufficientRollFee when the roll pays less than rollFee()", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { gameId, order } = await startGame(h, { seats: 2 });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, order[0], 0, PRICED_ROLL_FEE - 1n),
      h.hall,
      "InsufficientRollFee",
      [PRICED_ROLL_FEE - 1n, PRICED_ROLL_FEE],
    );
  });

  it("checks the keep mask before the fee", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { gameId, order } = await startGame(h, { seats: 2 });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, order[0], 1, 0n),
      h.hall,
      "FirstRollKeepsNone",
      [1],
    );
  });
});

describe("score", () => {
  it("reverts UnknownGame for an id never handed out", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, 5n, h.order[0], 0),
      h.hall,
      "UnknownGame",
      [5n],
    );
  });

  it("reverts GameNotRunning in an open lobby", async () => {
    const h = await lobbyFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.alice, 0),
      h.hall,
      "GameNotRunning",
      [h.gameId, STATUS.Open],
    );
  });

  it("reverts NotYourTurn for the player who is not to move", async () => {
    const h = await runningFixture();
    await rollWith(h, h.gameId, h.order[0], 0, [1, 2, 3, 4, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[1], 0),
      h.hall,
      "NotYourTurn",
      [h.gameId, addressOf(h.order[0])],
    );
  });

  it("reverts RollPending while the dice are out", async () => {
    const h = await runningFixture();
    await rollWith(h, h.gameId, h.order[0], 0, [1, 2, 3, 4, 5]);
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0b00001);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[0], 12),
      h.hall,
      "RollPending",
      [h.gameId, sequenceNumber, 0n],
    );
  });

  it("reverts NotRolledYet before the first roll, even for a box that does not exist", async () => {
    const h = await runningFixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[0], 200),
      h.hall,
      "NotRolledYet",
      [h.gameId],
    );
  });

  it("reverts RollPending, not NotRolledYet, while the only roll is out, even past its timeout", async () => {
    const h = await runningFixture();
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0);
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT + 1);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[0], 0),
      h.hall,
      "RollPending",
      [h.gameId, sequenceNumber, 0n],
    );
  });

  it("reverts BoxOutOfRange for box 13 of a 13-box sheet", async () => {
    const h = await runningFixture();
    await rollWith(h, h.gameId, h.order[0], 0, [1, 2, 3, 4, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, h.order[0], 13),
      h.hall,
      "BoxOutOfRange",
      [0, 13],
    );
  });

  it("reverts BoxOutOfRange for box 15 of Yatzy's 15 boxes", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 1 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 4, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, order[0], 15),
      h.hall,
      "BoxOutOfRange",
      [1, 15],
    );
  });

  it("reverts BoxFilled for a box already used", async () => {
    const h = await runningFixture();
    const [first, second] = h.order;
    await rollWith(h, h.gameId, first, 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, h.gameId, first, 12);
    await rollWith(h, h.gameId, second, 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, h.gameId, second, 12);
    await rollWith(h, h.gameId, first, 0, [6, 2, 3, 4, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, first, 12),
      h.hall,
      "BoxFilled",
      [12],
    );
  });

  it("reverts BoxFilled, not JokerForbidsBox, for a filled box that the Joker would also forbid", async () => {
    const h = await runningFixture();
    const [first, second] = h.order;
    await rollWith(h, h.gameId, first, 0, [2, 2, 2, 2, 2]);
    await scoreBox(h, h.gameId, first, 11);
    await rollWith(h, h.gameId, second, 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, h.gameId, second, 12);
    await rollWith(h, h.gameId, first, 0, [5, 5, 5, 5, 5]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, first, 11),
      h.hall,
      "BoxFilled",
      [11],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, h.gameId, first, 12),
      h.hall,
      "JokerForbidsBox",
      [12],
    );
  });
});

describe("claimTimeout", () => {
  it("reverts GameNotRunning in an open lobby", async () => {
    const h = await lobbyFixture();
    await networkHelpers.time.increase(JOIN_WINDOW + MOVE_TIMEOUT);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([h.gameId], { account: h.stranger.account }),
      h.hall,
      "GameNotRunning",
      [h.gameId, STATUS.Open],
    );
  });

  it("reverts DeadlineNotPassed at the deadline itself", async () => {
    const h = await runningFixture();
    const { deadline } = await gameView(h, h.gameId);
    await networkHelpers.time.setNextBlockTimestamp(deadline);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([h.gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
      [h.gameId, deadline],
    );
  });

  it("reverts DeadlineNotPassed while a roll is pending until its call-off window has passed", async () => {
    const h = await runningFixture();
    const { receipt } = await requestRoll(h, h.gameId, h.order[0], 0);
    const requestedAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    // Past the entropy and move timeouts: the player is still waiting for dice, so no timeout yet.
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT + MOVE_TIMEOUT + 1);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([h.gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
      [h.gameId, requestedAt + BigInt(DEFAULT_CALL_OFF_WINDOW)],
    );
  });
});

describe("the Entropy callback", () => {
  it("reverts NotEntropy when anyone but the Entropy contract calls it", async () => {
    const h = await runningFixture();
    const { sequenceNumber } = await requestRoll(h, h.gameId, h.order[0], 0);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write._entropyCallback([sequenceNumber, h.provider, `0x${"11".repeat(32)}`], {
        account: h.order[0].account,
      }),
      h.hall,
      "NotEntropy",
      [addressOf(h.order[0])],
    );
  });
});

describe("withdraw", () => {
  it("reverts NothingToWithdraw for an account without credits", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdraw([NATIVE], { account: h.stranger.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.stranger)],
    );
  });

  it("reverts NothingToWithdraw in a token when the credits are in the coin", async () => {
    const h = await lobbyFixture();
    await send(h, h.hall.write.cancelGame([h.gameId], { account: h.alice.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdraw([h.token.address], { account: h.alice.account }),
      h.hall,
      "NothingToWithdraw",
      [h.token.address, addressOf(h.alice)],
    );
  });

  it("reverts NothingToWithdraw on a second withdrawal", async () => {
    const h = await lobbyFixture();
    await send(h, h.hall.write.cancelGame([h.gameId], { account: h.alice.account }));
    await send(h, h.hall.write.withdraw([NATIVE], { account: h.alice.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdraw([NATIVE], { account: h.alice.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.alice)],
    );
  });
});

describe("owner calls", () => {
  const ownerOnly: [string, (h: Hall) => Promise<unknown>][] = [
    [
      "setTokenConfig",
      (h) => h.hall.write.setTokenConfig([NATIVE, true, 1n, 2n], { account: h.alice.account }),
    ],
    ["setHouseFee", (h) => h.hall.write.setHouseFee([1], { account: h.alice.account })],
    [
      "setJoinWindowBounds",
      (h) => h.hall.write.setJoinWindowBounds([60, 120], { account: h.alice.account }),
    ],
    [
      "setMoveTimeoutBounds",
      (h) => h.hall.write.setMoveTimeoutBounds([60, 120], { account: h.alice.account }),
    ],
    [
      "setEntropyTimeout",
      (h) => h.hall.write.setEntropyTimeout([60], { account: h.alice.account }),
    ],
    [
      "setCallbackGasLimit",
      (h) => h.hall.write.setCallbackGasLimit([200_000], { account: h.alice.account }),
    ],
    [
      "setEntropyProvider",
      (h) => h.hall.write.setEntropyProvider([addressOf(h.alice)], { account: h.alice.account }),
    ],
    ["pause", (h) => h.hall.write.pause({ account: h.alice.account })],
    [
      "withdrawTreasury",
      (h) =>
        h.hall.write.withdrawTreasury([NATIVE, addressOf(h.alice), 0n], {
          account: h.alice.account,
        }),
    ],
  ];
  for (const [name, call] of ownerOnly) {
    it(`reverts OwnableUnauthorizedAccount when a player calls ${name}`, async () => {
      const h = await fixture();
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        call(h) as Promise<`0x${string}`>,
        h.hallErrors,
        "OwnableUnauthorizedAccount",
        [addressOf(h.alice)],
      );
    });
  }

  it("reverts OwnableUnauthorizedAccount when a player unpauses", async () => {
    const h = await fixture();
    await send(h, h.hall.write.pause());
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.unpause({ account: h.bob.account }),
      h.hallErrors,
      "OwnableUnauthorizedAccount",
      [addressOf(h.bob)],
    );
  });

  it("reverts FeeAboveCap above 10%", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setHouseFee([FEE_CAP + 1]),
      h.hall,
      "FeeAboveCap",
      [FEE_CAP + 1, FEE_CAP],
    );
  });

  it("reverts InvalidBounds for a join-window minimum of 0", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setJoinWindowBounds([0, 100]),
      h.hall,
      "InvalidBounds",
      [0, 100],
    );
  });

  it("reverts InvalidBounds for a move-timeout minimum above its maximum", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setMoveTimeoutBounds([301, 300]),
      h.hall,
      "InvalidBounds",
      [301, 300],
    );
  });

  it("reverts InvalidBetLimits for an allowed token with a maximum bet of 0", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setTokenConfig([h.token.address, true, 0n, 0n]),
      h.hall,
      "InvalidBetLimits",
      [0n, 0n],
    );
  });

  it("reverts InvalidBetLimits for an allowed token with min above max", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setTokenConfig([NATIVE, true, 10n, 9n]),
      h.hall,
      "InvalidBetLimits",
      [10n, 9n],
    );
  });

  it("reverts InvalidSetting for an entropy timeout of 0", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setEntropyTimeout([0]),
      h.hall,
      "InvalidSetting",
      [0n],
    );
  });

  it("reverts InvalidSetting for a callback gas limit of 0", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setCallbackGasLimit([0]),
      h.hall,
      "InvalidSetting",
      [0n],
    );
  });

  it("reverts InvalidSetting for a callback gas limit above 2 500 000", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setCallbackGasLimit([2_500_001]),
      h.hall,
      "InvalidSetting",
      [2_500_001n],
    );
  });

  it("reverts NotDefaultProvider for any provider but Entropy's default, the zero one included", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.setEntropyProvider([zeroAddress]),
      h.hall,
      "NotDefaultProvider",
      [zeroAddress, getAddress(h.provider)],
    );
  });

  it("reverts ZeroAddress for a treasury withdrawal to nobody", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.withdrawTreasury([NATIVE, zeroAddress, 0n]),
      h.hall,
      "ZeroAddress",
    );
  });

  it("reverts TreasuryInsufficient when the owner asks for more than the fees collected", async () => {
    const h = await drawnFixture();
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([h.gameId], { account: h.stranger.account }));
    const fee = (2n * BET * BigInt(FEE_BPS)) / 10_000n;
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawTreasury([NATIVE, addressOf(h.owner), fee + 1n]),
      h.hall,
      "TreasuryInsufficient",
      [NATIVE, fee + 1n, fee],
    );
  });

  it("reverts TreasuryInsufficient rather than pay out escrow or credits", async () => {
    // Bets in escrow and a refund credit sit in the contract, but the treasury is empty.
    const h = await lobbyFixture();
    await send(h, joinGameTx(h, h.gameId, h.bob));
    await send(h, h.hall.write.leaveGame([h.gameId], { account: h.bob.account }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawTreasury([NATIVE, addressOf(h.owner), 1n]),
      h.hall,
      "TreasuryInsufficient",
      [NATIVE, 1n, 0n],
    );
  });
});

// PROTOCOL.md names UnknownGame only for joinGame, roll and score; these pin the same answer for
// the other calls that take a game id, so that the app can decode one error for "no such game".
describe("calls on a game id never handed out", () => {
  it("reverts UnknownGame for leaveGame", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.leaveGame([9n], { account: h.alice.account }),
      h.hall,
      "UnknownGame",
      [9n],
    );
  });

  it("reverts UnknownGame for cancelGame", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([9n], { account: h.alice.account }),
      h.hall,
      "UnknownGame",
      [9n],
    );
  });

  it("reverts UnknownGame for claimTimeout", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.claimTimeout([9n], { account: h.alice.account }),
      h.hall,
      "UnknownGame",
      [9n],
    );
  });

  it("reverts UnknownGame for getGame and getPlayer", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.getGame([9n]),
      h.hall,
      "UnknownGame",
      [9n],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.getPlayer([9n, addressOf(h.alice)]),
      h.hall,
      "UnknownGame",
      [9n],
    );
  });
});

describe("scoreDice", () => {
  it("reverts UnknownRuleSet for rule set 4", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.scoreDice([4, 0, [1, 2, 3, 4, 5]]),
      h.hall,
      "UnknownRuleSet",
      [4],
    );
  });

  it("reverts BoxOutOfRange for box 16 of Extended's 16 boxes", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.scoreDice([3, 16, [1, 2, 3, 4, 5]]),
      h.hall,
      "BoxOutOfRange",
      [3, 16],
    );
  });

  it("reverts InvalidDie for a die showing 7", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.scoreDice([0, 12, [1, 2, 7, 4, 5]]),
      h.hall,
      "InvalidDie",
      [2, 7],
    );
  });

  it("reverts InvalidDie for a die showing 0", async () => {
    const h = await fixture();
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.read.scoreDice([2, 0, [1, 2, 3, 4, 0]]),
      h.hall,
      "InvalidDie",
      [4, 0],
    );
  });
});

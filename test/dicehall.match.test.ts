import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, type Address, type TransactionReceipt } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { boxCount, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { totals } from "@dicehall/core/rules/sheet.ts";
import {
  BET,
  DEFAULT_CALL_OFF_WINDOW,
  FEE_BPS,
  PRICED_ROLL_FEE,
  MOVE_TIMEOUT,
  NATIVE,
  STATUS,
  TOKEN_BET,
  addressOf,
  consentOf,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  hallFixture,
  joinLobby,
  lobbyConfig,
  modelHallFixture,
  playerView,
  pricedHallFixture,
  requestRoll,
  reveal,
  rollTx,
  rollWith,
  scoreBox,
  scoreTx,
  send,
  settlement,
  walletOf,
  type Hall,
  type LobbyOptions,
} from "./helpers/hall.ts";
import { playMatchGame, playToTheEnd } from "./helpers/play.ts";
import { keepsJoinOrder, randomForRoll } from "./helpers/dice.ts";

/**
 * Matches (docs/PROTOCOL.md, Matches): 1 to 10 games at one table for one stake, each game with a
 * blank sheet and an order drawn by its own first roll, settled once after the last game by games
 * won, then points. Whole matches are played by the engine's bot and every game, standing and
 * payout is checked against the engine.
 */

const connection = await network.create();
const { networkHelpers } = connection;

const RULE_SET_NAMES = ["Yahtzee", "Yatzy", "Yazty", "Extended"];

/** Opens a match lobby and fills it; returns its id and the players in join order. */
async function startMatch(
  h: Hall,
  games: number,
  o: LobbyOptions & { players?: WalletClient[] } = {},
): Promise<{ gameId: bigint; players: WalletClient[]; createReceipt: TransactionReceipt }> {
  const seats = o.seats ?? 2;
  const players = o.players ?? h.players.slice(0, seats);
  const cfg = lobbyConfig({ ...o, seats });
  const createReceipt = await send(
    h,
    h.hall.write.createMatch([cfg, games], {
      account: players[0].account,
      value: cfg.token === NATIVE ? cfg.bet : 0n,
    }),
  );
  const gameId = hallEvent(h, createReceipt, "GameCreated").gameId as bigint;
  for (const p of players.slice(1)) await joinLobby(h, gameId, p);
  return { gameId, players, createReceipt };
}

interface PlayedMatch {
  /** The last game's turn order. */
  order: WalletClient[];
  wins: Map<string, number>;
  points: Map<string, number>;
  out: Set<string>;
  finishReceipt: TransactionReceipt;
  gamesPlayed: number;
}

/** The match winners by PROTOCOL.md: still in, most games won, then most points; in `order`. */
function matchWinners(
  order: WalletClient[],
  wins: Map<string, number>,
  points: Map<string, number>,
  out: Set<string>,
): Address[] {
  const inPlay = order.map(addressOf).filter((a) => !out.has(a));
  const bestWins = Math.max(...inPlay.map((a) => wins.get(a)!));
  const byWins = inPlay.filter((a) => wins.get(a) === bestWins);
  const bestPoints = Math.max(...byWins.map((a) => points.get(a)!));
  return byWins.filter((a) => points.get(a) === bestPoints);
}

/**
 * Plays a started match to its end, checking each game's MatchGameFinished and the standings
 * getGame shows after it. `timeOut` maps a game number to the player who lets their turn run out
 * in it.
 */
async function playMatch(
  h: Hall,
  gameId: bigint,
  ruleSet: RuleSetId,
  games: number,
  seed: string,
  timeOut: (game: number, wins: Map<string, number>) => WalletClient | undefined = () => undefined,
): Promise<PlayedMatch> {
  const first = await gameView(h, gameId);
  const wins = new Map<string, number>(first.players.map((a) => [getAddress(a), 0]));
  const points = new Map<string, number>(first.players.map((a) => [getAddress(a), 0]));
  const out = new Set<string>();
  let order: WalletClient[] = [];
  let receipt: TransactionReceipt | undefined;
  let game = 1;
  for (; game <= games; game++) {
    const before = await gameView(h, gameId);
    assert.equal(before.games, games);
    assert.equal(before.gameNumber, game, "games are numbered from 1");
    const played = await playMatchGame(
      h,
      gameId,
      ruleSet,
      `${seed}-${game}`,
      out,
      timeOut(game, wins),
    );
    order = played.order;
    receipt = played.endReceipt;
    const ended = hallEvent(h, receipt, "MatchGameFinished");
    const gameTotals = order.map((w) => totals(played.sheets.get(addressOf(w))!).total);
    const inPlay = order.filter((w) => !out.has(addressOf(w)));
    const best = Math.max(...inPlay.map((w) => gameTotals[order.indexOf(w)]));
    const gameWinners = inPlay.filter((w) => gameTotals[order.indexOf(w)] === best).map(addressOf);
    assert.equal(ended.gameId, gameId);
    assert.equal(Number(ended.game), game);
    assert.deepEqual(ended.players, order.map(addressOf));
    assert.deepEqual(ended.totals, gameTotals.map(BigInt));
    assert.deepEqual(ended.winners, gameWinners, "a tied game is a win for each of its winners");
    for (const a of gameWinners) wins.set(a, wins.get(a)! + 1);
    order.forEach((w, i) => points.set(addressOf(w), points.get(addressOf(w))! + gameTotals[i]));

    const view = await gameView(h, gameId);
    const finished = hallEvents(h, receipt, "GameFinished").length === 1;
    assert.deepEqual(
      view.wins.map(Number),
      view.players.map((a) => wins.get(getAddress(a))),
      `getGame shows the games won so far ${JSON.stringify(view, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`,
    );
    assert.deepEqual(
      view.points,
      view.players.map((a) => BigInt(points.get(getAddress(a))!)),
      "getGame shows the points of the games finished so far",
    );
    if (finished) break;
    assert.equal(view.status, STATUS.Running);
    assert.equal(
      view.gameNumber,
      game + 1,
      "the next game starts in the transaction that ended one",
    );
    assert.equal(view.orderDrawn, false);
    assert.equal(view.round, 1);
    for (const a of view.players) {
      const sheet = await playerView(h, gameId, a);
      assert.ok(sheet.seated);
      assert.deepEqual(
        sheet.filled,
        sheet.filled.map(() => false),
        "every game has blank sheets",
      );
      assert.equal(sheet.total, 0n);
      assert.equal(sheet.rollsUsed, 0);
      assert.equal(sheet.forfeited, out.has(getAddress(a)));
    }
  }
  assert.ok(receipt);
  return { order, wins, points, out, finishReceipt: receipt, gamesPlayed: Math.min(game, games) };
}

/** Checks the match's GameFinished and its payouts against PROTOCOL.md; returns the winners. */
async function checkSettlement(
  h: Hall,
  gameId: bigint,
  played: PlayedMatch,
  o: { token: Address; bet: bigint; seats: number; ruleSet: number },
): Promise<Address[]> {
  const finished = hallEvent(h, played.finishReceipt, "GameFinished");
  const winners = matchWinners(played.order, played.wins, played.points, played.out);
  const money = settlement(o.bet, o.seats, FEE_BPS, winners.length);
  assert.equal(finished.gameId, gameId);
  assert.equal(finished.token, o.token);
  assert.equal(finished.ruleSet, o.ruleSet);
  assert.deepEqual(finished.players, played.order.map(addressOf), "in the last game's turn order");
  assert.deepEqual(
    finished.totals,
    played.order.map((w) => BigInt(played.points.get(addressOf(w))!)),
    "totals are the points over all the match's games",
  );
  assert.deepEqual(finished.winners, winners);
  assert.equal(finished.payoutEach, money.payoutEach);
  assert.equal(finished.houseFee, money.fee, "the house fee is taken once");
  // Exactly the pot is paid out, to the winners only, in the transaction that ended the match.
  const paid = hallEvents(h, played.finishReceipt, "Credited");
  assert.deepEqual(
    paid.map((c) => [c.account, c.amount]),
    winners.map((a, i) => [a, money.payoutEach + (i === 0 ? money.remainder : 0n)]),
  );
  const view = await gameView(h, gameId);
  assert.equal(view.status, STATUS.Finished);
  assert.equal(view.gameNumber, played.gamesPlayed);
  return winners;
}

describe("a match played to the end in every rule set", () => {
  for (const ruleSet of [0, 1, 2, 3] as RuleSetId[]) {
    const seats = 2 + ((ruleSet + 1) % 3);
    it(`3 games of ${RULE_SET_NAMES[ruleSet]} with ${seats} players on the Entropy model`, async () => {
      const h = await networkHelpers.loadFixture(modelHallFixture);
      const { gameId, createReceipt } = await startMatch(h, 3, { seats, ruleSet });
      assert.equal(hallEvent(h, createReceipt, "MatchCreated").games, 3);
      const escrow = await hallBalance(h);
      assert.equal(escrow, BET * BigInt(seats), "each stake is paid once, for the whole match");
      const played = await playMatch(h, gameId, ruleSet, 3, `match3-${ruleSet}`);
      assert.equal(played.gamesPlayed, 3);
      assert.equal(hallEvents(h, played.finishReceipt, "MatchGameFinished").length, 1);
      await checkSettlement(h, gameId, played, { token: NATIVE, bet: BET, seats, ruleSet });
      assert.equal(await h.hall.read.treasury([NATIVE]), settlement(BET, seats, FEE_BPS, 1).fee);
    });
  }

  for (const ruleSet of [0, 1, 2, 3] as RuleSetId[]) {
    const token = ruleSet % 2 === 1;
    it(`10 games of ${RULE_SET_NAMES[ruleSet]} with 2 players${token ? " in Test USD" : ""}`, async () => {
      const h = await networkHelpers.loadFixture(hallFixture);
      const tokenAddress = token ? getAddress(h.token.address) : NATIVE;
      const bet = token ? TOKEN_BET : BET;
      const { gameId } = await startMatch(h, 10, { ruleSet, token: tokenAddress });
      const played = await playMatch(h, gameId, ruleSet, 10, `match10-${ruleSet}`);
      assert.equal(played.gamesPlayed, 10);
      const winners = await checkSettlement(h, gameId, played, {
        token: tokenAddress,
        bet,
        seats: 2,
        ruleSet,
      });
      const money = settlement(bet, 2, FEE_BPS, winners.length);
      assert.equal(await h.hall.read.treasury([tokenAddress]), money.fee);
      for (const w of h.players.slice(0, 2)) {
        const rank = winners.indexOf(addressOf(w));
        const owed = rank < 0 ? 0n : money.payoutEach + (rank === 0 ? money.remainder : 0n);
        assert.equal(await credits(h, tokenAddress, w), owed);
      }
      assert.equal(
        await hallBalance(h, tokenAddress),
        bet * 2n,
        "the books: the pot, now credits and fee",
      );
    });
  }
});

describe("opening a match", () => {
  it("refuses 0 and 11 games with GamesOutOfRange", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    for (const games of [0, 11]) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.createMatch([lobbyConfig(), games], { account: h.alice.account, value: BET }),
        h.hall,
        "GamesOutOfRange",
        [games],
      );
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.createMatchFromCredit([lobbyConfig(), games], { account: h.alice.account }),
        h.hall,
        "GamesOutOfRange",
        [games],
      );
    }
    assert.equal(await h.hall.read.MAX_GAMES(), 10);
  });

  it("a match of 1 game is a plain game: no MatchCreated, no MatchGameFinished, one GameFinished", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId, players, createReceipt } = await startMatch(h, 1);
    assert.equal(hallEvents(h, createReceipt, "MatchCreated").length, 0);
    const view = await gameView(h, gameId);
    assert.equal(view.games, 1);
    assert.equal(view.gameNumber, 1);
    const played = await playToTheEnd(h, gameId, players, 0, "match1");
    assert.equal(hallEvents(h, played.finishReceipt, "MatchGameFinished").length, 0);
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
    // createGame opens the same: games 1.
    const { gameId: plain } = await startMatch(h, 1);
    assert.equal((await gameView(h, plain)).games, 1);
  });

  it("announces the length after GameCreated and before the invitations; the lobby shows it", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const invitees = [addressOf(h.bob), addressOf(h.carol)];
    const receipt = await send(
      h,
      h.hall.write.createMatch([lobbyConfig({ seats: 3, invitees }), 10], {
        account: h.alice.account,
        value: BET,
      }),
    );
    const names = receipt.logs
      .filter((log) => log.address.toLowerCase() === h.hall.address.toLowerCase())
      .map((log) => {
        for (const name of ["GameCreated", "MatchCreated", "PlayerInvited"]) {
          if (hallEvents(h, { ...receipt, logs: [log] }, name).length === 1) return name;
        }
        return "other";
      });
    assert.deepEqual(names, ["GameCreated", "MatchCreated", "PlayerInvited", "PlayerInvited"]);
    const created = hallEvent(h, receipt, "MatchCreated");
    const gameId = created.gameId as bigint;
    assert.equal(created.games, 10);
    const view = await gameView(h, gameId);
    assert.equal(view.status, STATUS.Open);
    assert.equal(view.games, 10);
    assert.equal(view.gameNumber, 1);
    assert.deepEqual(view.wins, [0]);
    assert.deepEqual(view.points, [0n]);
    assert.equal(view.pot, BET * 3n, "the pot is the stakes, whatever the length");
  });

  it("takes each stake once: from credit, by value, and with a session; a lobby left or cancelled refunds it", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    await send(h, h.hall.write.deposit([NATIVE, BET], { account: h.alice.account, value: BET }));
    const receipt = await send(
      h,
      h.hall.write.createMatchFromCredit([lobbyConfig({ seats: 3 }), 4], {
        account: h.alice.account,
      }),
    );
    const gameId = hallEvent(h, receipt, "MatchCreated").gameId as bigint;
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
    await joinLobby(h, gameId, h.bob);
    await send(h, h.hall.write.leaveGame([gameId], { account: h.bob.account }));
    assert.equal(await credits(h, NATIVE, h.bob), BET, "a match lobby refunds as a game's");
    await send(h, h.hall.write.cancelGame([gameId], { account: h.alice.account }));
    assert.equal(await credits(h, NATIVE, h.alice), BET);
    assert.equal(await hallBalance(h), BET * 2n, "refunds are credits until withdrawn");

    const key = h.wallets[10];
    const grant = {
      key: key.account.address,
      expiresAt: (await h.publicClient.getBlock()).timestamp + 3600n,
      feeAllowance: 1000n,
      keyGas: 0n,
    };
    const withSession = await send(
      h,
      h.hall.write.createMatchWithSession(
        [lobbyConfig(), 3, grant, await consentOf(h, key, h.carol, grant)],
        {
          account: h.carol.account,
          value: BET + 1000n,
        },
      ),
    );
    const sessionGame = hallEvent(h, withSession, "MatchCreated").gameId as bigint;
    assert.equal((await gameView(h, sessionGame)).games, 3);
    assert.equal(hallEvent(h, withSession, "SessionOpened").key, getAddress(key.account.address));
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.carol));
  });
});

/** Scripted dice that score the same box the same for everyone: round r fills box r - 1. */
const PLAIN = [1, 2, 3, 4, 6];

/**
 * Plays a scripted Yahtzee game of a match: every turn one roll, round r fills box r - 1 with
 * PLAIN, except the last round's Chance, whose dice each player gets from `chance`.
 */
async function scriptedGame(
  h: Hall,
  gameId: bigint,
  order: WalletClient[],
  chance: Map<WalletClient, number[]>,
): Promise<TransactionReceipt> {
  let last: TransactionReceipt | undefined;
  for (let round = 1; round <= 13; round++) {
    for (const p of order) {
      await rollWith(h, gameId, p, 0, round === 13 ? chance.get(p)! : PLAIN);
      last = (await scoreBox(h, gameId, p, round - 1)).receipt;
    }
  }
  return last!;
}

describe("a match's settlement", () => {
  it("splits the pot when games won and points tie; a tied game is a win for each", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { alice, bob } = h;
    const { gameId } = await startMatch(h, 3);
    const high = [6, 6, 6, 5, 4]; // Chance 27
    const low = [6, 6, 6, 5, 3]; // Chance 26
    const one = await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, high],
        [bob, low],
      ]),
    );
    assert.deepEqual(hallEvent(h, one, "MatchGameFinished").winners, [addressOf(alice)]);
    const two = await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, low],
        [bob, high],
      ]),
    );
    assert.deepEqual(hallEvent(h, two, "MatchGameFinished").winners, [addressOf(bob)]);
    const three = await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, high],
        [bob, high],
      ]),
    );
    const ended = hallEvent(h, three, "MatchGameFinished");
    assert.equal(ended.game, 3);
    assert.deepEqual(ended.winners, [addressOf(alice), addressOf(bob)]);
    const view = await gameView(h, gameId);
    assert.deepEqual(view.wins, [2, 2], "the tied game counted for both");
    assert.equal(view.points[0], view.points[1]);

    const finished = hallEvent(h, three, "GameFinished");
    const money = settlement(BET, 2, FEE_BPS, 2);
    assert.deepEqual(finished.winners, [addressOf(alice), addressOf(bob)]);
    assert.deepEqual(finished.totals, view.points);
    assert.equal(finished.payoutEach, money.payoutEach);
    assert.equal(finished.houseFee, money.fee);
    assert.equal(await credits(h, NATIVE, alice), money.payoutEach + money.remainder);
    assert.equal(await credits(h, NATIVE, bob), money.payoutEach);
    assert.equal(await h.hall.read.treasury([NATIVE]), money.fee);
  });

  it("breaks a tie in games won by the points over all games", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { alice, bob } = h;
    const { gameId } = await startMatch(h, 2);
    // Alice wins game 1 by one point, Bob game 2 by two.
    await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, [6, 6, 6, 5, 4]],
        [bob, [6, 6, 6, 5, 3]],
      ]),
    );
    const last = await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, [6, 6, 6, 5, 3]],
        [bob, [6, 6, 6, 5, 5]],
      ]),
    );
    const finished = hallEvent(h, last, "GameFinished");
    const money = settlement(BET, 2, FEE_BPS, 1);
    assert.deepEqual(finished.winners, [addressOf(bob)]);
    assert.equal((finished.totals as bigint[])[1] - (finished.totals as bigint[])[0], 1n);
    assert.equal(await credits(h, NATIVE, bob), money.payoutEach);
    assert.equal(await credits(h, NATIVE, alice), 0n);
  });
});

describe("a forfeit in a match", () => {
  it("in game 2 of 5: the first to move times out, never wins, the others play all 5 games", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId } = await startMatch(h, 5, { seats: 3 });
    // Alice moves first in every game (the scripted draws keep the join order): from game 3 on the
    // draw's dice go to the first player still in, Bob.
    const forfeited: string = addressOf(h.alice);
    const played = await playMatch(h, gameId, 0, 5, "forfeit", (game) =>
      game === 2 ? h.alice : undefined,
    );
    assert.ok(forfeited);
    assert.equal(played.gamesPlayed, 5, "the others play on");
    assert.ok(played.out.has(forfeited));
    assert.equal(
      played.wins.get(forfeited),
      1,
      "the game it won before still counts in the standings",
    );
    const winners = await checkSettlement(h, gameId, played, {
      token: NATIVE,
      bet: BET,
      seats: 3,
      ruleSet: 0,
    });
    assert.ok(!winners.includes(forfeited as Address), "a forfeited player never wins the match");
    assert.equal(await credits(h, NATIVE, forfeited as Address), 0n);
    assert.equal((await playerView(h, gameId, forfeited as Address)).forfeited, true);
  });

  it("leaving one player ends the game and the match there: the one left takes the pot", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId } = await startMatch(h, 5, { ruleSet: 2 });
    const played = await playMatch(h, gameId, 2, 5, "last-one", (game) =>
      game === 2 ? h.alice : undefined,
    );
    assert.equal(played.gamesPlayed, 2);
    const ended = hallEvent(h, played.finishReceipt, "MatchGameFinished");
    assert.equal(ended.game, 2);
    assert.deepEqual(ended.winners, [addressOf(h.bob)]);
    const winners = await checkSettlement(h, gameId, played, {
      token: NATIVE,
      bet: BET,
      seats: 2,
      ruleSet: 2,
    });
    assert.deepEqual(winners, [addressOf(h.bob)]);
  });
});

describe("a match called off", () => {
  /** A 5-game match whose first two games are played; game 3 has not started. */
  async function atGameThree() {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId } = await startMatch(h, 5, { seats: 3, ruleSet: 1 });
    const out = new Set<string>();
    for (const game of [1, 2]) await playMatchGame(h, gameId, 1, `off-${game}`, out);
    const view = await gameView(h, gameId);
    assert.equal(view.gameNumber, 3);
    assert.equal(await hallBalance(h), BET * 3n, "the stakes stay in escrow between games");
    return { h, gameId };
  }

  async function everyStakeBack(h: Hall, gameId: bigint, receipt: TransactionReceipt) {
    hallEvent(h, receipt, "GameCancelled");
    assert.equal(hallEvents(h, receipt, "GameFinished").length, 0);
    assert.equal(hallEvents(h, receipt, "MatchGameFinished").length, 0);
    for (const p of h.players.slice(0, 3)) assert.equal(await credits(h, NATIVE, p), BET);
    assert.equal(await h.hall.read.treasury([NATIVE]), 0n, "no house fee");
    const view = await gameView(h, gameId);
    assert.equal(view.status, STATUS.Cancelled);
    assert.equal(view.gameNumber, 3);
  }

  it("in game 3 of 5 by Entropy's call-off window: every stake back", async () => {
    const { h, gameId } = await atGameThree();
    // Game 3's order is drawn, then a roll never comes.
    await rollWith(h, gameId, h.alice, 0, PLAIN);
    await scoreBox(h, gameId, h.alice, 0);
    await requestRoll(h, gameId, h.bob, 0);
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
    );
    await networkHelpers.time.increase(DEFAULT_CALL_OFF_WINDOW + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    await everyStakeBack(h, gameId, receipt);
  });

  it("in game 1 when nobody draws its order in time: every stake back", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId } = await startMatch(h, 5, { seats: 3, ruleSet: 1 });
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
    );
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    hallEvent(h, receipt, "GameCancelled");
    assert.equal(hallEvents(h, receipt, "GameFinished").length, 0);
    for (const p of h.players.slice(0, 3)) assert.equal(await credits(h, NATIVE, p), BET);
    assert.equal(await h.hall.read.treasury([NATIVE]), 0n, "no house fee");
    const view = await gameView(h, gameId);
    assert.equal(view.status, STATUS.Cancelled);
    assert.equal(view.gameNumber, 1);
  });
});

describe("a later game's order nobody draws: the match settles on the games played", () => {
  const HIGH = [6, 6, 6, 5, 4]; // Chance 27
  const LOW = [6, 6, 6, 5, 3]; // Chance 26
  const LOWER = [6, 6, 6, 4, 3]; // Chance 25

  /** A 5-game match of Alice and Bob, one scripted game per pair of Chance dice; then game 3's draw missed. */
  async function missedDraw(games: [number[], number[]][]) {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { alice, bob } = h;
    const { gameId } = await startMatch(h, 5);
    for (const [a, b] of games) {
      await scriptedGame(
        h,
        gameId,
        [alice, bob],
        new Map([
          [alice, a],
          [bob, b],
        ]),
      );
    }
    const view = await gameView(h, gameId);
    assert.equal(view.gameNumber, games.length + 1);
    assert.equal(view.orderDrawn, false);
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
    );
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    assert.equal(hallEvents(h, receipt, "GameCancelled").length, 0, "not called off");
    assert.equal(hallEvents(h, receipt, "MatchGameFinished").length, 0, "no game 3 was played");
    const after = await gameView(h, gameId);
    assert.equal(after.status, STATUS.Finished);
    assert.equal(after.gameNumber, games.length + 1, "the game number stays at the undrawn game");
    return { h, gameId, receipt, view };
  }

  it("Alice leads 2-0 and nobody draws game 3: claimTimeout pays her the pot less the fee", async () => {
    const { h, receipt, view } = await missedDraw([
      [HIGH, LOW],
      [HIGH, LOW],
    ]);
    assert.deepEqual(view.wins, [2, 0]);
    const finished = hallEvent(h, receipt, "GameFinished");
    const money = settlement(BET, 2, FEE_BPS, 1);
    assert.deepEqual(finished.players, [addressOf(h.alice), addressOf(h.bob)], "join order");
    assert.deepEqual(finished.winners, [addressOf(h.alice)]);
    assert.deepEqual(finished.totals, view.points, "the points over the games played");
    assert.equal(finished.payoutEach, money.pot - money.fee);
    assert.equal(finished.houseFee, money.fee);
    assert.equal(await credits(h, NATIVE, h.alice), money.pot - money.fee);
    assert.equal(await credits(h, NATIVE, h.bob), 0n, "no stake back for the trailing player");
    assert.equal(await h.hall.read.treasury([NATIVE]), money.fee);
    assert.equal(await hallBalance(h), money.pot, "the pot is all credits and fee");
  });

  it("1-1 in games: the most points over the games played win", async () => {
    // Alice wins game 1 by one point, Bob game 2 by two.
    const { h, receipt, view } = await missedDraw([
      [HIGH, LOW],
      [LOWER, HIGH],
    ]);
    assert.deepEqual(view.wins, [1, 1]);
    assert.equal(view.points[1] - view.points[0], 1n);
    const finished = hallEvent(h, receipt, "GameFinished");
    const money = settlement(BET, 2, FEE_BPS, 1);
    assert.deepEqual(finished.winners, [addressOf(h.bob)]);
    assert.equal(await credits(h, NATIVE, h.bob), money.payoutEach);
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
    assert.equal(await h.hall.read.treasury([NATIVE]), money.fee);
  });

  it("1-1 in games and level on points: the pot is split, the fee taken once", async () => {
    const { h, receipt, view } = await missedDraw([
      [HIGH, LOW],
      [LOW, HIGH],
    ]);
    assert.deepEqual(view.wins, [1, 1]);
    assert.equal(view.points[0], view.points[1]);
    const finished = hallEvent(h, receipt, "GameFinished");
    const money = settlement(BET, 2, FEE_BPS, 2);
    assert.deepEqual(finished.winners, [addressOf(h.alice), addressOf(h.bob)]);
    assert.equal(finished.payoutEach, money.payoutEach);
    assert.equal(finished.houseFee, money.fee);
    assert.equal(await credits(h, NATIVE, h.alice), money.payoutEach + money.remainder);
    assert.equal(await credits(h, NATIVE, h.bob), money.payoutEach);
    assert.equal(await h.hall.read.treasury([NATIVE]), money.fee);
  });
});

describe("every rule of a game holds in a match's later games", () => {
  it("game 2: the draw, the turn, keep masks, three rolls, a blank sheet, fees and deadlines", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { alice, bob } = h;
    const { gameId } = await startMatch(h, 2);
    await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, PLAIN],
        [bob, PLAIN],
      ]),
    );
    const between = await gameView(h, gameId);
    assert.equal(between.gameNumber, 2);
    assert.equal(between.orderDrawn, false);

    // The lobby is closed; only a seated player draws the order, with a first roll keeping none.
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.joinGame([gameId], { account: h.carol.account, value: BET }),
      h.hall,
      "GameNotOpen",
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, h.carol, 0),
      h.hall,
      "NotInGame",
      [gameId, addressOf(h.carol)],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, alice, 3),
      h.hall,
      "FirstRollKeepsNone",
      [3],
    );
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
      h.hall,
      "DeadlineNotPassed",
    );
    // The draw: bob may make it; the dice are alice's, the join order kept.
    const draw = await requestRoll(h, gameId, bob, 0);
    const drawn = await reveal(
      h,
      draw.sequenceNumber,
      randomForRoll(0, [5, 5, 2, 2, 1], keepsJoinOrder(2)),
    );
    assert.deepEqual(hallEvent(h, drawn, "GameStarted").order, [addressOf(alice), addressOf(bob)]);
    assert.equal(hallEvent(h, drawn, "DiceRolled").player, addressOf(alice));

    await h.viem.assertions.revertWithCustomError(rollTx(h, gameId, bob, 1), h.hall, "NotYourTurn");
    await h.viem.assertions.revertWithCustomError(
      scoreTx(h, gameId, bob, 0),
      h.hall,
      "NotYourTurn",
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, alice, 31),
      h.hall,
      "InvalidKeepMask",
      [31],
    );
    await h.viem.assertions.revertWithCustomError(
      rollTx(h, gameId, alice, 3, PRICED_ROLL_FEE - 1n),
      h.hall,
      "InsufficientRollFee",
    );
    // A roll overpaid: the surplus is the roller's credit.
    const before = await credits(h, NATIVE, alice);
    const second = await requestRoll(h, gameId, alice, 3, PRICED_ROLL_FEE + 7n);
    assert.equal(await credits(h, NATIVE, alice), before + 7n);
    await h.viem.assertions.revertWithCustomError(
      scoreTx(h, gameId, alice, 0),
      h.hall,
      "RollPending",
    );
    await reveal(h, second.sequenceNumber, randomForRoll(3, [5, 5, 5, 2, 1]));
    await rollWith(h, gameId, alice, 7, [5, 5, 5, 5, 1]);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, alice, 15),
      h.hall,
      "NoRollsLeft",
      [gameId],
    );
    // Box 0 was filled in game 1; game 2's sheet is blank, so it is open again.
    const aces = await scoreBox(h, gameId, alice, 0);
    assert.equal(aces.points, 1);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, bob, 0),
      h.hall,
      "NotRolledYet",
      [gameId],
    );
    await rollWith(h, gameId, bob, 0, PLAIN);
    await scoreBox(h, gameId, bob, 0);
    await rollWith(h, gameId, alice, 0, PLAIN);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, alice, 0),
      h.hall,
      "BoxFilled",
      [0],
    );
    // Move clocks: alice's deadline runs as in any game.
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const timedOut = await send(
      h,
      h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
    );
    assert.equal(hallEvent(h, timedOut, "PlayerForfeited").player, addressOf(alice));
    const finished = hallEvent(h, timedOut, "GameFinished");
    assert.deepEqual(finished.winners, [addressOf(bob)], "one player left: the match is theirs");
  });
});

describe("Entropy refusing inside a match", () => {
  it("game 2: a refused re-roll is asked again by anyone with its keep mask locked, the fee back, the clock stopped", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { alice, bob } = h;
    const { gameId } = await startMatch(h, 2);
    await scriptedGame(
      h,
      gameId,
      [alice, bob],
      new Map([
        [alice, PLAIN],
        [bob, PLAIN],
      ]),
    );
    await rollWith(h, gameId, alice, 0, [4, 4, 2, 2, 1]);
    await send(h, h.pricedEntropy!.write.setMode([1])); // refuse requests
    const before = await credits(h, NATIVE, alice);
    const refused = await send(h, rollTx(h, gameId, alice, 3));
    assert.equal(hallEvent(h, refused, "RollRefused").keepMask, 3);
    assert.equal(
      await credits(h, NATIVE, alice),
      before + PRICED_ROLL_FEE,
      "a refusal spends nothing",
    );
    const out = await gameView(h, gameId);
    assert.equal(out.entropyAttempts, 1);
    assert.equal(out.deadline, 0n, "no move clock runs while a roll is out");
    await networkHelpers.time.increase(2);
    await send(h, h.pricedEntropy!.write.setMode([0]));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      rollTx(h, gameId, bob, 1),
      h.hall,
      "KeepMaskLocked",
      [gameId, 3],
    );
    // Bob asks again for Alice's roll: the dice are still hers.
    const again = await requestRoll(h, gameId, bob, 3);
    const answer = await reveal(h, again.sequenceNumber, randomForRoll(3, [4, 4, 4, 4, 1]));
    const rolled = hallEvent(h, answer, "DiceRolled");
    assert.equal(rolled.player, addressOf(alice));
    assert.deepEqual([...(rolled.dice as number[])], [4, 4, 4, 4, 1]);
    assert.equal((await gameView(h, gameId)).gameNumber, 2);
  });
});

describe("one confirmation for the whole match", () => {
  it("session keys play every game of a 2-game match; the players send nothing after create and join", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const { alice, bob } = h;
    const [aliceKey, bobKey] = [h.wallets[10], h.wallets[11]];
    const allowance = PRICED_ROLL_FEE * 2n * 13n; // one roll a turn, two games
    const grant = async (key: WalletClient) => ({
      key: key.account.address,
      expiresAt: (await h.publicClient.getBlock()).timestamp + 3600n,
      feeAllowance: allowance,
      keyGas: 0n,
    });
    const ga = await grant(aliceKey);
    const created = await send(
      h,
      h.hall.write.createMatchWithSession(
        [lobbyConfig(), 2, ga, await consentOf(h, aliceKey, alice, ga)],
        {
          account: alice.account,
          value: BET + allowance,
        },
      ),
    );
    const gameId = hallEvent(h, created, "MatchCreated").gameId as bigint;
    const gb = await grant(bobKey);
    await send(
      h,
      h.hall.write.joinGameWithSession([gameId, gb, await consentOf(h, bobKey, bob, gb)], {
        account: bob.account,
        value: BET + allowance,
      }),
    );
    const nonces = await Promise.all(
      [alice, bob].map((w) => h.publicClient.getTransactionCount({ address: w.account.address })),
    );
    const keyOf = new Map([
      [alice, aliceKey],
      [bob, bobKey],
    ]);
    let last: TransactionReceipt | undefined;
    for (const game of [1, 2]) {
      for (let round = 1; round <= 13; round++) {
        for (const p of [alice, bob]) {
          const view = await gameView(h, gameId);
          const accept = view.orderDrawn ? undefined : keepsJoinOrder(2);
          const dice = round === 13 && p === (game === 1 ? alice : bob) ? [6, 6, 6, 6, 5] : PLAIN;
          const asked = await send(
            h,
            h.hall.write.roll([gameId, 0], { account: keyOf.get(p)!.account }),
          );
          const seq = hallEvent(h, asked, "RollRequested").sequenceNumber as bigint;
          await reveal(h, seq, randomForRoll(0, dice, accept));
          last = await send(
            h,
            h.hall.write.score([gameId, round - 1], { account: keyOf.get(p)!.account }),
          );
        }
      }
      assert.equal(hallEvent(h, last!, "MatchGameFinished").game, game);
    }
    const finished = hallEvent(h, last!, "GameFinished");
    assert.equal((finished.winners as string[]).length, 2, "one game each, the same points: split");
    const after = await Promise.all(
      [alice, bob].map((w) => h.publicClient.getTransactionCount({ address: w.account.address })),
    );
    assert.deepEqual(after, nonces, "no player signed anything after create and join");
    for (const p of [alice, bob])
      assert.equal((await h.hall.read.session([p.account.address])).feeAllowance, 0n);
  });
});

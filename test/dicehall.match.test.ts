import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, type Address, type TransactionReceipt } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { boxCount, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { totals } from "@dicehall/core/rules/sheet.ts";
import {
  BET,
  FEE_BPS,
  MOVE_TIMEOUT,
  NATIVE,
  STATUS,
  TOKEN_BET,
  addressOf,
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
  send,
  settlement,
  walletOf,
  type Hall,
  type LobbyOptions,
} from "./helpers/hall.ts";
import { playMatchGame } from "./helpers/play.ts";

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
  timeOut: Map<number, WalletClient> = new Map(),
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
      timeOut.get(game),
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

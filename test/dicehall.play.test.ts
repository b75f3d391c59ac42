import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { boxCount, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { applyScore, newSheet, totals, type Sheet } from "@dicehall/core/rules/sheet.ts";
import {
  BET,
  DEFAULT_ENTROPY_TIMEOUT,
  FEE_BPS,
  MOVE_TIMEOUT,
  NATIVE,
  STATUS,
  TOKEN_BET,
  addressOf,
  credits,
  gameView,
  hallEvent,
  rollTx,
  hallFixture,
  playerView,
  requestRoll,
  reveal,
  rollWith,
  scoreBox,
  scoreTx,
  settlement,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import { expectedWinners, playToTheEnd } from "./helpers/play.ts";
import { randomFor } from "./helpers/dice.ts";

const connection = await network.create();
const { networkHelpers } = connection;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(hallFixture);
}

const RULE_SET_NAMES = ["Yahtzee", "Yatzy", "Yazty", "Extended"];

// Every rule set at every table size, alternating the native coin and Test USD.
const FULL_GAMES = ([0, 1, 2, 3] as const).flatMap((ruleSet) =>
  [2, 3, 4].map((seats) => ({
    ruleSet: ruleSet as RuleSetId,
    seats,
    token: (ruleSet + seats) % 2 === 1,
  })),
);

describe("a full game", () => {
  for (const { ruleSet, seats, token } of FULL_GAMES) {
    it(`plays ${RULE_SET_NAMES[ruleSet]} with ${seats} players to a settlement the engine agrees with`, async () => {
      const h = await fixture();
      const tokenAddress = token ? getAddress(h.token.address) : NATIVE;
      const bet = token ? TOKEN_BET : BET;
      const { gameId, order } = await startGame(h, { seats, ruleSet, token: tokenAddress });

      const played = await playToTheEnd(h, gameId, order, ruleSet, `full-${ruleSet}-${seats}`);
      assert.equal(played.scoredEvents, seats * boxCount(ruleSet));

      const finished = hallEvent(h, played.finishReceipt, "GameFinished");
      const orderAddresses = order.map(addressOf);
      const engineTotals = order.map((w) => BigInt(totals(played.sheets.get(addressOf(w))!).total));
      const winners = expectedWinners(order, played.sheets);
      const money = settlement(bet, seats, FEE_BPS, winners.length);
      assert.equal(finished.gameId, gameId);
      assert.equal(finished.token, tokenAddress);
      assert.equal(finished.ruleSet, ruleSet);
      assert.deepEqual(finished.players, orderAddresses);
      assert.deepEqual(finished.totals, engineTotals);
      assert.deepEqual(finished.winners, winners);
      assert.equal(finished.payoutEach, money.payoutEach);
      assert.equal(finished.houseFee, money.fee);

      assert.equal(await h.hall.read.treasury([tokenAddress]), money.fee);
      for (const w of order) {
        const rank = winners.indexOf(addressOf(w));
        const owed = rank < 0 ? 0n : money.payoutEach + (rank === 0 ? money.remainder : 0n);
        assert.equal(await credits(h, tokenAddress, w), owed);
      }

      const game = await gameView(h, gameId);
      assert.equal(game.status, STATUS.Finished);
      for (const w of order) {
        const sheet = played.sheets.get(addressOf(w))!;
        const view = await playerView(h, gameId, w);
        const t = totals(sheet);
        assert.deepEqual(
          view.filled,
          sheet.boxes.map(() => true),
        );
        assert.deepEqual(
          view.boxScores,
          sheet.boxes.map((points) => BigInt(points!)),
        );
        assert.equal(view.upperTotal, BigInt(t.upper));
        assert.equal(view.upperBonus, BigInt(t.upperBonus));
        assert.equal(view.yahtzeeBonus, BigInt(t.yahtzeeBonus));
        assert.equal(view.yahtzeeBonusCount, sheet.yahtzeeBonuses);
        assert.equal(view.total, BigInt(t.total));
        assert.equal(view.forfeited, false);
      }
    });
  }
});

interface ScriptedTurn {
  dice: number[];
  box: number;
  /** What the box must score and earn, written out by hand from docs/RULES.md (not by the engine). */
  points?: number;
  bonus?: number;
  /** Boxes the forced Joker rule must refuse for these dice, tried before scoring. */
  forbidden?: number[];
  /** Filled boxes tried before scoring, refused with BoxFilled. */
  filled?: number[];
}

// Alice's Yahtzee box holds 50, then five 3s come again and again: every Joker case in turn.
const ALICE_JOKER_GAME: ScriptedTurn[] = [
  { dice: [2, 2, 2, 2, 2], box: 11, points: 50, bonus: 0 },
  // Threes open: the Joker must go there.
  { dice: [3, 3, 3, 3, 3], box: 2, points: 15, bonus: 100, forbidden: [12, 8, 1, 0] },
  // Threes filled: any open lower box, Full House / straights at full value.
  { dice: [3, 3, 3, 3, 3], box: 8, points: 25, bonus: 100, forbidden: [0, 1, 3] },
  { dice: [3, 3, 3, 3, 3], box: 9, points: 30, bonus: 100 },
  { dice: [3, 3, 3, 3, 3], box: 10, points: 40, bonus: 100 },
  { dice: [6, 6, 6, 1, 2], box: 6, points: 21, bonus: 0 },
  { dice: [5, 5, 5, 5, 1], box: 7, points: 21, bonus: 0 },
  // Chance is a lower box that scores "as usual".
  { dice: [3, 3, 3, 3, 3], box: 12, points: 15, bonus: 100, forbidden: [0, 5] },
  // Every lower box filled: a 0 in an open upper box, and the bonus still counts.
  { dice: [3, 3, 3, 3, 3], box: 0, points: 0, bonus: 100, filled: [2, 8, 12] },
  { dice: [2, 2, 2, 4, 5], box: 1, points: 6, bonus: 0 },
  { dice: [4, 4, 4, 1, 2], box: 3, points: 12, bonus: 0 },
  { dice: [5, 5, 5, 1, 2], box: 4, points: 15, bonus: 0 },
  { dice: [6, 6, 6, 6, 1], box: 5, points: 24, bonus: 0 },
];

// Bob zeroes his Yahtzee box first: five of a kind afterwards is still a forced Joker, without bonus.
const BOB_JOKER_GAME: ScriptedTurn[] = [
  { dice: [1, 2, 3, 4, 6], box: 11, points: 0, bonus: 0 },
  { dice: [4, 4, 4, 4, 4], box: 3, points: 20, bonus: 0, forbidden: [12, 8, 0] },
  { dice: [4, 4, 4, 4, 4], box: 8, points: 25, bonus: 0, forbidden: [0, 5] },
  { dice: [1, 1, 2, 3, 5], box: 0 },
  { dice: [2, 2, 2, 3, 5], box: 1 },
  { dice: [3, 3, 1, 2, 6], box: 2 },
  { dice: [5, 5, 5, 1, 6], box: 4 },
  { dice: [6, 6, 6, 6, 2], box: 5 },
  { dice: [1, 1, 1, 5, 6], box: 6 },
  { dice: [2, 2, 3, 4, 5], box: 7 },
  { dice: [1, 3, 4, 5, 6], box: 9 },
  { dice: [2, 3, 4, 5, 6], box: 10 },
  { dice: [6, 5, 6, 5, 4], box: 12 },
];

async function playScriptedTurn(
  h: Hall,
  gameId: bigint,
  player: WalletClient,
  sheet: Sheet,
  turn: ScriptedTurn,
): Promise<Sheet> {
  await rollWith(h, gameId, player, 0, turn.dice);
  for (const box of turn.forbidden ?? []) {
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, player, box),
      h.hall,
      "JokerForbidsBox",
      [box],
    );
  }
  for (const box of turn.filled ?? []) {
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      scoreTx(h, gameId, player, box),
      h.hall,
      "BoxFilled",
      [box],
    );
  }
  const expected = applyScore(sheet, turn.dice, turn.box);
  const scored = await scoreBox(h, gameId, player, turn.box);
  if (turn.points !== undefined) assert.equal(scored.points, turn.points);
  if (turn.bonus !== undefined) assert.equal(scored.bonus, turn.bonus);
  assert.equal(scored.points, expected.points, `engine and contract agree on box ${turn.box}`);
  assert.equal(scored.bonus, expected.bonus);
  return expected.sheet;
}

describe("the Joker rule and Yahtzee bonuses (classic)", () => {
  it("forces the upper box, pays full straights and Full House, zeroes an upper box, and counts every bonus", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 0 });
    const scripts = new Map<string, ScriptedTurn[]>([
      [addressOf(h.alice), ALICE_JOKER_GAME],
      [addressOf(h.bob), BOB_JOKER_GAME],
    ]);
    const sheets = new Map<string, Sheet>(order.map((w) => [addressOf(w), newSheet(0)]));
    let last;
    for (let round = 0; round < 13; round++) {
      for (const player of order) {
        const turn = scripts.get(addressOf(player))![round];
        const sheet = await playScriptedTurn(
          h,
          gameId,
          player,
          sheets.get(addressOf(player))!,
          turn,
        );
        sheets.set(addressOf(player), sheet);
      }
      last = await gameView(h, gameId);
    }
    assert.equal(last!.status, STATUS.Finished);

    const alice = await playerView(h, gameId, h.alice);
    assert.equal(alice.yahtzeeBonusCount, 6);
    assert.equal(alice.yahtzeeBonus, 600n);
    assert.equal(alice.upperTotal, 72n);
    assert.equal(alice.upperBonus, 35n);
    assert.equal(alice.total, 909n);
    assert.deepEqual(alice.boxScores, [
      0n,
      6n,
      15n,
      12n,
      15n,
      24n,
      21n,
      21n,
      25n,
      30n,
      40n,
      50n,
      15n,
    ]);

    const bob = await playerView(h, gameId, h.bob);
    assert.equal(bob.yahtzeeBonusCount, 0, "a zeroed Yahtzee box earns no bonus");
    assert.equal(bob.yahtzeeBonus, 0n);
    assert.equal(bob.boxScores[11], 0n);
    assert.equal(bob.total, BigInt(totals(sheets.get(addressOf(h.bob))!).total));
    assert.equal(await credits(h, NATIVE, h.alice), settlement(BET, 2, FEE_BPS, 1).payoutEach);
  });

  it("gives no Joker and no bonus in the rule sets without them", async () => {
    const h = await fixture();
    // Extended: five of a kind in Chance after the Yahtzee box holds 50 is plain Chance.
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 3 });
    const [first, second] = order;
    await rollWith(h, gameId, first, 0, [4, 4, 4, 4, 4]);
    assert.equal((await scoreBox(h, gameId, first, 11)).points, 50);
    await rollWith(h, gameId, second, 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, gameId, second, 0);
    await rollWith(h, gameId, first, 0, [4, 4, 4, 4, 4]);
    // Fours is open, yet Chance is allowed: no forced Joker here.
    const chance = await scoreBox(h, gameId, first, 12);
    assert.equal(chance.points, 20);
    assert.equal(chance.bonus, 0);
    await rollWith(h, gameId, second, 0, [1, 2, 3, 4, 5]);
    await scoreBox(h, gameId, second, 1);
    await rollWith(h, gameId, first, 0, [4, 4, 4, 4, 4]);
    // Without the Joker, five of a kind is no Full House.
    const fullHouse = await scoreBox(h, gameId, first, 8);
    assert.equal(fullHouse.points, 0);
    assert.equal(fullHouse.bonus, 0);
    assert.equal((await playerView(h, gameId, first)).yahtzeeBonusCount, 0);
  });
});

describe("scoreDice", () => {
  // docs/RULES.md "Public examples", written out as the spec gives them.
  const EXAMPLES: [ruleSet: number, box: number, dice: number[], points: number][] = [
    [0, 6, [3, 3, 3, 5, 2], 16],
    [0, 8, [1, 1, 1, 5, 5], 25],
    [0, 9, [1, 2, 3, 4, 6], 30],
    [0, 10, [2, 3, 4, 5, 6], 40],
    [1, 6, [3, 4, 3, 5, 6], 6],
    [1, 7, [3, 3, 5, 4, 5], 16],
    [1, 10, [1, 2, 3, 4, 5], 15],
    [2, 0, [1, 1, 1, 4, 5], 3],
    [2, 12, [1, 4, 4, 5, 6], 20],
    [3, 14, [1, 3, 3, 5, 5], 17],
    [3, 8, [6, 6, 6, 5, 5], 28],
    [3, 8, [1, 1, 1, 2, 2], 25],
    [3, 15, [6, 6, 6, 6, 6], 6],
  ];
  for (const [ruleSet, box, dice, points] of EXAMPLES) {
    it(`scores ${dice.join("-")} in ${RULE_SET_NAMES[ruleSet]} box ${box} as ${points}`, async () => {
      const h = await fixture();
      const raw = await h.hall.read.scoreDice([
        ruleSet,
        box,
        dice as [number, number, number, number, number],
      ]);
      assert.equal(raw, BigInt(points));
    });
  }
});

describe("five of a kind while the Yahtzee box is open (classic)", () => {
  it("is no Joker: any box may take it, and it is no Full House", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 0 });
    const [first, second] = order;
    await rollWith(h, gameId, first, 0, [4, 4, 4, 4, 4]);
    // Fours is open, but with the Yahtzee box open nothing is forced.
    const fullHouse = await scoreBox(h, gameId, first, 8);
    assert.equal(fullHouse.points, 0);
    assert.equal(fullHouse.bonus, 0);
    await rollWith(h, gameId, second, 0, [3, 3, 3, 3, 3]);
    const chance = await scoreBox(h, gameId, second, 12);
    assert.equal(chance.points, 15);
    assert.equal(chance.bonus, 0);
  });
});

describe("roll", () => {
  it("re-rolls only the dice not kept and counts the rolls of the turn", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const [first] = order;
    const one = await rollWith(h, gameId, first, 0, [1, 2, 3, 4, 5]);
    assert.equal(one.rollNumber, 1);
    // Keep dice 0, 2 and 4 (mask 0b10101); only positions 1 and 3 change.
    const two = await rollWith(h, gameId, first, 0b10101, [1, 6, 3, 6, 5]);
    assert.equal(two.rollNumber, 2);
    let view = await playerView(h, gameId, first);
    assert.deepEqual([...view.dice], [1, 6, 3, 6, 5]);
    assert.equal(view.rollsUsed, 2);
    const three = await rollWith(h, gameId, first, 0b01010, [2, 6, 2, 6, 2]);
    assert.equal(three.rollNumber, 3);
    view = await playerView(h, gameId, first);
    assert.equal(view.rollsUsed, 3);
    assert.deepEqual([...view.dice], [2, 6, 2, 6, 2]);
    // 2-2-2-6-6 is a Full House.
    assert.equal((await scoreBox(h, gameId, first, 8)).points, 25);
  });

  it("keeps the dice of a kept position whatever the revealed number says", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const [first] = order;
    await rollWith(h, gameId, first, 0, [6, 6, 6, 6, 1]);
    // This number would turn every die into a 1; only die 4 may move.
    const allOnes = randomFor([1, 1, 1, 1, 1]);
    const { sequenceNumber } = await requestRoll(h, gameId, first, 0b01111);
    const receipt = await reveal(h, sequenceNumber, allOnes);
    const rolled = hallEvent(h, receipt, "DiceRolled");
    assert.deepEqual([...(rolled.dice as number[])], [6, 6, 6, 6, 1]);
  });

  it("starts every turn from no dice and no rolls", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const [first, second] = order;
    await rollWith(h, gameId, first, 0, [5, 5, 5, 2, 2]);
    await rollWith(h, gameId, first, 0b00111, [5, 5, 5, 5, 1]);
    await scoreBox(h, gameId, first, 4);
    await rollWith(h, gameId, second, 0, [1, 1, 1, 1, 1]);
    await scoreBox(h, gameId, second, 0);
    // Round 2: the first player's sheet is waiting for a fresh first roll.
    const view = await playerView(h, gameId, first);
    assert.equal(view.rollsUsed, 0);
    assert.deepEqual([...view.dice], [0, 0, 0, 0, 0]);
    assert.equal((await gameView(h, gameId)).round, 2);
  });
});

describe("score", () => {
  it("fills a box with 0 when the dice do not qualify", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    await rollWith(h, gameId, order[0], 0, [1, 2, 3, 5, 6]);
    const scored = await scoreBox(h, gameId, order[0], 11);
    assert.equal(scored.points, 0);
    const view = await playerView(h, gameId, order[0]);
    assert.equal(view.filled[11], true);
    assert.equal(view.boxScores[11], 0n);
  });

  it("passes the turn to the next seat and gives them a fresh deadline", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 3 });
    await rollWith(h, gameId, order[0], 0, [2, 2, 3, 3, 3]);
    const { receipt } = await scoreBox(h, gameId, order[0], 8);
    const block = await h.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const game = await gameView(h, gameId);
    assert.equal(game.currentSeat, 1);
    assert.equal(game.round, 1);
    assert.equal(game.deadline, block.timestamp + BigInt(MOVE_TIMEOUT));
  });

  it("never scores the old dice while a re-roll is out: nor asks again, the one request's answer counts", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2 });
    const [first] = order;
    await rollWith(h, gameId, first, 0, [6, 6, 6, 2, 3]);
    const { sequenceNumber } = await requestRoll(h, gameId, first, 0b00111);
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT + 1);
    await h.viem.assertions.revertWithCustomError(
      scoreTx(h, gameId, first, 5),
      h.hall,
      "RollPending",
    );
    await h.viem.assertions.revertWithCustomError(
      rollTx(h, gameId, first, 0b00111),
      h.hall,
      "RollPending",
    );
    await reveal(h, sequenceNumber, randomFor([null, null, null, 1, 1]));
    assert.equal((await scoreBox(h, gameId, first, 5)).points, 18);
    assert.equal((await playerView(h, gameId, first)).boxScores[5], 18n);
  });
});

describe("getGame and getPlayer", () => {
  it("describe an open lobby in join order with its window as the deadline", async () => {
    const h = await fixture();
    const cfg = { seats: 3, ruleSet: 1, joinWindow: 7200, moveTimeout: 900 };
    const created = await h.hall.write.createGame(
      [{ token: NATIVE, bet: BET, invitees: [], ...cfg }],
      { account: h.alice.account, value: BET },
    );
    const receipt = await h.publicClient.waitForTransactionReceipt({ hash: created });
    const createdAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    const gameId = hallEvent(h, receipt, "GameCreated").gameId as bigint;
    await h.hall.write.joinGame([gameId], { account: h.bob.account, value: BET });

    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Open);
    assert.equal(game.config.token, NATIVE);
    assert.equal(game.config.bet, BET);
    assert.equal(game.config.seats, 3);
    assert.equal(game.config.ruleSet, 1);
    assert.equal(game.config.joinWindow, 7200);
    assert.equal(game.config.moveTimeout, 900);
    assert.deepEqual(game.config.invitees, []);
    assert.equal(game.creator, addressOf(h.alice));
    assert.deepEqual(game.players, [addressOf(h.alice), addressOf(h.bob)]);
    assert.equal(game.round, 0);
    assert.equal(game.deadline, createdAt + 7200n);
    assert.equal(game.pendingSequence, 0n);
    assert.equal(game.houseFeeBps, FEE_BPS);
    assert.equal(game.entropyTimeout, DEFAULT_ENTROPY_TIMEOUT);
    assert.equal(game.pot, BET * 3n);

    const bob = await playerView(h, gameId, h.bob);
    assert.equal(bob.seated, true);
    assert.equal(bob.seat, 1);
    assert.equal(bob.filled.length, 15);
    assert.equal(bob.boxScores.length, 15);
    assert.equal((await playerView(h, gameId, h.stranger)).seated, false);
  });

  it("follow a running game through a pending roll and its answer", async () => {
    const h = await fixture();
    const { gameId, order, startReceipt } = await startGame(h, { seats: 4, ruleSet: 3 });
    const startedAt = (await h.publicClient.getBlock({ blockNumber: startReceipt.blockNumber }))
      .timestamp;
    let game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Running);
    assert.deepEqual(game.players, order.map(addressOf), "players are listed in turn order");
    assert.deepEqual([...game.players].sort(), h.players.slice(0, 4).map(addressOf).sort());
    assert.equal(game.currentSeat, 0);
    assert.equal(game.round, 1);
    assert.equal(game.deadline, startedAt + BigInt(MOVE_TIMEOUT));
    for (const [seat, w] of order.entries()) {
      const view = await playerView(h, gameId, w);
      assert.equal(view.seat, seat);
      assert.equal(view.filled.length, 16);
      assert.ok(view.filled.every((f: boolean) => !f));
      assert.equal(view.total, 0n);
    }

    await rollWith(h, gameId, order[0], 0, [1, 1, 2, 2, 6]);
    const { sequenceNumber, receipt } = await requestRoll(h, gameId, order[0], 0b01111);
    const requestedAt = (await h.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      .timestamp;
    game = await gameView(h, gameId);
    assert.equal(game.pendingSequence, sequenceNumber);
    assert.equal(game.rollRequestedAt, requestedAt);
    assert.equal(game.pendingKeepMask, 0b01111);
    assert.equal(game.deadline, 0n, "the clock stops while Entropy is asked");

    const answered = await reveal(h, sequenceNumber, randomFor([null, null, null, null, 2]));
    const answeredAt = (await h.publicClient.getBlock({ blockNumber: answered.blockNumber }))
      .timestamp;
    game = await gameView(h, gameId);
    assert.equal(game.pendingSequence, 0n);
    assert.equal(game.deadline, answeredAt + BigInt(MOVE_TIMEOUT));
    let view = await playerView(h, gameId, order[0]);
    assert.deepEqual([...view.dice], [1, 1, 2, 2, 2]);
    assert.equal(view.rollsUsed, 2);

    // 1-1-2-2-2 in Extended's Full House: the greater of 25 and the sum (8).
    await scoreBox(h, gameId, order[0], 8);
    view = await playerView(h, gameId, order[0]);
    assert.equal(view.filled[8], true);
    assert.equal(view.boxScores[8], 25n);
    assert.equal(view.total, 25n);
    assert.equal(view.forfeited, false);
  });

  it("count the upper bonus as soon as the upper boxes reach 63", async () => {
    const h = await fixture();
    const { gameId, order } = await startGame(h, { seats: 2, ruleSet: 1 });
    const [first, second] = order;
    // Yatzy: four of each of 4, 5, 6 and three 3s = 16 + 20 + 24 + 9 = 69, bonus 50.
    const turns: [number[], number][] = [
      [[4, 4, 4, 4, 1], 3],
      [[5, 5, 5, 5, 1], 4],
      [[6, 6, 6, 6, 1], 5],
      [[3, 3, 3, 1, 2], 2],
    ];
    let sheet = newSheet(1);
    for (const [dice, box] of turns) {
      await rollWith(h, gameId, first, 0, dice);
      await scoreBox(h, gameId, first, box);
      sheet = applyScore(sheet, dice, box).sheet;
      await rollWith(h, gameId, second, 0, [1, 2, 3, 4, 6]);
      await scoreBox(h, gameId, second, box);
    }
    const view = await playerView(h, gameId, first);
    assert.equal(view.upperTotal, 69n);
    assert.equal(view.upperBonus, 50n);
    assert.equal(view.total, 119n);
    assert.equal(view.total, BigInt(totals(sheet).total));
  });
});

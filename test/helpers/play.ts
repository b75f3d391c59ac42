import assert from "node:assert/strict";
import type { TransactionReceipt } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { rollDice } from "@dicehall/core/rules/dice.ts";
import type { Dice } from "@dicehall/core/rules/score.ts";
import { boxCount, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { applyScore, newSheet, totals, type Sheet } from "@dicehall/core/rules/sheet.ts";
import { chooseTurnAction } from "@dicehall/core/rules/strategy.ts";
import { drawTurnOrder } from "@dicehall/core/rules/turnOrder.ts";
import { seededJoinOrderRandom, seededRandom } from "./dice.ts";
import {
  addressOf,
  gameView,
  hallEvent,
  hallEvents,
  MOVE_TIMEOUT,
  rollRandom,
  sameAddress,
  scoreBox,
  send,
  STATUS,
  walletOf,
  type Hall,
} from "./hall.ts";

/**
 * Plays a started game to the end with the TypeScript engine's bot choosing every keep mask and
 * box, and checks every roll and every box the contract reports against the engine as it goes.
 * The dice come from a seed, so a failing game replays exactly.
 */
export interface PlayedGame {
  /** The turn order played: the one passed in, or on the model the one its first roll drew. */
  order: WalletClient[];
  sheets: Map<string, Sheet>;
  finishReceipt: TransactionReceipt;
  scoredEvents: number;
}

export async function playToTheEnd(
  h: Hall,
  gameId: bigint,
  order: WalletClient[],
  ruleSet: RuleSetId,
  seed: string,
): Promise<PlayedGame> {
  const sheets = new Map<string, Sheet>(order.map((w) => [addressOf(w), newSheet(ruleSet)]));
  const rounds = boxCount(ruleSet);
  let draws = 0;
  let scoredEvents = 0;
  let finishReceipt: TransactionReceipt | undefined;

  for (let round = 1; round <= rounds; round++) {
    for (let seat = 0; seat < order.length; seat++) {
      const game = await gameView(h, gameId);
      assert.equal(game.status, STATUS.Running);
      assert.equal(game.round, round, "the round grows after the last seat");
      assert.equal(game.currentSeat, seat, "turns go around in turn order");
      let player = order[seat];
      let sheet = sheets.get(addressOf(player))!;
      let dice: number[] | null = null;
      let rollsUsed = 0;
      for (;;) {
        const action = chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed);
        if (action.action === "roll") {
          let r = seededRandom(seed, draws++);
          // The game's first roll draws the order: keep it the one the caller passed.
          if (round === 1 && seat === 0 && rollsUsed === 0) {
            [r, draws] = seededJoinOrderRandom(seed, draws - 1, order.length);
          }
          const rolled = await rollRandom(h, gameId, player, action.keepMask, r);
          if (h.model && round === 1 && seat === 0 && rollsUsed === 0) {
            // The model's number drew an order of its own (the engine's draw from that number): the
            // dice are its first player's.
            const joinOrder = order;
            order = (await gameView(h, gameId)).players.map((a) => walletOf(h, a));
            assert.deepEqual(
              order.map(addressOf),
              drawTurnOrder(rolled.randomNumber, joinOrder.length).map((j) =>
                addressOf(joinOrder[j]),
              ),
            );
            player = order[0];
            sheet = sheets.get(addressOf(player))!;
          }
          const expected = rollDice(rolled.randomNumber, dice as Dice | null, action.keepMask);
          rollsUsed++;
          assert.deepEqual(rolled.dice, [...expected], "dice follow RULES.md from r alone");
          assert.equal(rolled.rollNumber, rollsUsed);
          dice = rolled.dice;
          continue;
        }
        assert.ok(dice);
        const expected = applyScore(sheet, dice, action.box);
        const scored = await scoreBox(h, gameId, player, action.box);
        scoredEvents++;
        assert.equal(
          scored.points,
          expected.points,
          `ruleSet ${ruleSet} box ${action.box} dice ${dice.join("")}`,
        );
        assert.equal(scored.bonus, expected.bonus);
        sheet = expected.sheet;
        sheets.set(addressOf(player), sheet);
        if (round === rounds && seat === order.length - 1) finishReceipt = scored.receipt;
        break;
      }
    }
  }
  assert.ok(finishReceipt);
  hallEvent(h, finishReceipt, "GameFinished");
  return { order, sheets, finishReceipt, scoredEvents };
}

/** Winners by the engine's totals, in turn order. */
export function expectedWinners(order: WalletClient[], sheets: Map<string, Sheet>): string[] {
  const totalOf = (w: WalletClient) => totals(sheets.get(addressOf(w))!).total;
  const best = Math.max(...order.map(totalOf));
  return order.filter((w) => totalOf(w) === best).map(addressOf);
}

// ---------------------------------------------------------------------------------- matches

export interface PlayedMatchGame {
  /** This game's turn order: the join order kept by the scripted draw, or on the model the drawn one. */
  order: WalletClient[];
  sheets: Map<string, Sheet>;
  /** The transaction that ended the game (its last box, or the timeout that left one player). */
  endReceipt: TransactionReceipt;
  scoredEvents: number;
}

/**
 * Plays the current game of a match (blank sheets, order not drawn yet) to its end with the
 * engine's bot, checking every roll and box against the engine. Players in `out` forfeited in an
 * earlier game: they never have a turn. `timeOut`, if given, lets that player's first turn run out
 * (on the game's first turn after the roll that draws the order): anyone times them out, they join
 * `out`, and the others play on.
 */
export async function playMatchGame(
  h: Hall,
  gameId: bigint,
  ruleSet: RuleSetId,
  seed: string,
  out: Set<string>,
  timeOut?: WalletClient,
): Promise<PlayedMatchGame> {
  const start = await gameView(h, gameId);
  assert.equal(start.status, STATUS.Running);
  assert.equal(start.orderDrawn, false, "a game of a match starts with its order undrawn");
  assert.equal(start.round, 1);
  const joinOrder = start.players.map((a) => walletOf(h, a));
  let order = joinOrder;
  const sheets = new Map<string, Sheet>(order.map((w) => [addressOf(w), newSheet(ruleSet)]));
  const isOut = (w: WalletClient) => out.has(addressOf(w));
  const rounds = boxCount(ruleSet);
  let draws = 0;
  let scoredEvents = 0;
  let endReceipt: TransactionReceipt | undefined;
  let ended = false;

  /** One turn; `first` is the game's first, whose roll draws the order (made by `player`). */
  const turn = async (player: WalletClient, first: boolean): Promise<number> => {
    let sheet = sheets.get(addressOf(player))!;
    let dice: number[] | null = null;
    let rollsUsed = 0;
    let position = order.indexOf(player);
    for (;;) {
      if (player === timeOut && (!first || rollsUsed > 0)) {
        // The player lets the deadline pass: anyone may time them out.
        await h.networkHelpers.time.increase(MOVE_TIMEOUT_FOR_MATCHES + 1);
        const receipt = await send(
          h,
          h.hall.write.claimTimeout([gameId], { account: h.stranger.account }),
        );
        assert.ok(
          sameAddress(hallEvent(h, receipt, "PlayerForfeited").player as string, addressOf(player)),
        );
        out.add(addressOf(player));
        if (hallEvents(h, receipt, "MatchGameFinished").length === 1) {
          endReceipt = receipt;
          ended = true;
        }
        return position;
      }
      const action = chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed);
      if (action.action === "roll") {
        let r = seededRandom(seed, draws++);
        const drawing = first && rollsUsed === 0;
        if (drawing) [r, draws] = seededJoinOrderRandom(seed, draws - 1, order.length);
        const rolled = await rollRandom(h, gameId, player, action.keepMask, r);
        if (drawing) {
          order = (await gameView(h, gameId)).players.map((a) => walletOf(h, a));
          const expectedOrder = h.model
            ? drawTurnOrder(rolled.randomNumber, joinOrder.length)
            : joinOrder.map((_, i) => i);
          assert.deepEqual(
            order.map(addressOf),
            expectedOrder.map((j) => addressOf(joinOrder[j])),
            "each game of a match draws its own order from its first roll's number",
          );
          // The dice are the first player's who has not forfeited.
          position = order.findIndex((w) => !isOut(w));
          player = order[position];
          sheet = sheets.get(addressOf(player))!;
          const dealt = hallEvent(h, rolled.receipt, "DiceRolled");
          assert.ok(sameAddress(dealt.player as string, addressOf(player)));
          assert.equal((await gameView(h, gameId)).currentSeat, position);
        }
        const expected = rollDice(rolled.randomNumber, dice as Dice | null, action.keepMask);
        rollsUsed++;
        assert.deepEqual(rolled.dice, [...expected], "dice follow RULES.md from r alone");
        assert.equal(rolled.rollNumber, rollsUsed);
        dice = rolled.dice;
        continue;
      }
      assert.ok(dice);
      const expected = applyScore(sheet, dice, action.box);
      const scored = await scoreBox(h, gameId, player, action.box);
      scoredEvents++;
      assert.equal(scored.points, expected.points);
      assert.equal(scored.bonus, expected.bonus);
      sheets.set(addressOf(player), expected.sheet);
      if (hallEvents(h, scored.receipt, "MatchGameFinished").length === 1) {
        endReceipt = scored.receipt;
        ended = true;
      }
      return position;
    }
  };

  // The first turn: any seated player may make the roll that draws the order (here the first in
  // join order who is still in).
  let position = await turn(
    joinOrder.find((w) => !isOut(w))!,
    true,
  );
  let round = 1;
  while (!ended) {
    let next = position;
    do {
      next = (next + 1) % order.length;
      if (next === 0) round++;
    } while (isOut(order[next]));
    assert.ok(round <= rounds, "the game ends after its last round");
    const game = await gameView(h, gameId);
    assert.equal(game.status, STATUS.Running);
    assert.equal(game.round, round, "the round grows after the last seat");
    assert.equal(game.currentSeat, next, "turns go around in turn order, past forfeited players");
    position = await turn(order[next], false);
  }
  assert.ok(endReceipt);
  return { order, sheets, endReceipt, scoredEvents };
}

/** The move timeout the match tests open their lobbies with (the fixtures' default). */
export const MOVE_TIMEOUT_FOR_MATCHES = MOVE_TIMEOUT;

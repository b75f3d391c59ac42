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
  rollRandom,
  scoreBox,
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

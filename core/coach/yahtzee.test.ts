import { describe, expect, it } from "vitest";
import { applyScore, newSheet, totals, type Sheet } from "../rules/sheet.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import { adviseBox, adviseKeep, coachTurnAction, positionValue, rollValue } from "./advise.ts";
import { analyseGame, shownLoss, TIE_EPSILON, type TurnRecord } from "./analyse.ts";
import { HAND_COUNT, HAND_DICE, HAND_PROB } from "./combos.ts";
import {
  BEST_CHANCE,
  BUILD_TIMEOUT,
  P_FIVE_OF_A_KIND,
  P_SIX,
  binomialAtLeast,
  describeRuleSet,
  toCome,
} from "./ruleSetSuite.ts";
import { deserialiseTable, serialiseTable } from "./serialise.ts";
import { recordGame, seededRandom } from "./simulate.ts";
import { buildTable, forEachState } from "./solver.ts";
import { sheetOpen } from "./testkit.ts";

/** sheetOpen with the Yahtzee box holding 50 (the +100 bonus and the Joker in play). */
function withYahtzee(open: number[], upper: number): Sheet {
  const sheet = sheetOpen(0, open, upper);
  sheet.boxes[11] = 50;
  return sheet;
}

describeRuleSet({
  ruleSet: 0,
  // docs/RULES.md's forced Joker; Verhoeff's 254.5896 is under a free-choice Joker (see below).
  start: "254.5877",
  byHand: [
    ["Chance alone", sheetOpen(0, [12], 63), BEST_CHANCE],
    ["Yahtzee alone", sheetOpen(0, [11], 63), 50 * P_FIVE_OF_A_KIND],
    ["Sixes alone, bonus made", sheetOpen(0, [5], 63), 30 * P_SIX],
    [
      "Sixes alone, three 6s for the bonus",
      sheetOpen(0, [5], 45),
      30 * P_SIX + 35 * binomialAtLeast(5, P_SIX, 3),
    ],
  ],
  twoBoxes: [
    ["Yahtzee and Chance", sheetOpen(0, [11, 12], 63)],
    ["Full House and Small Straight", sheetOpen(0, [8, 9], 63)],
    ["Sixes and Chance, 18 short of the bonus", sheetOpen(0, [5, 12], 45)],
    ["Threes and Large Straight, Yahtzee box 50 (Joker, +100)", withYahtzee([2, 10], 40)],
    ["Full House and Four of a Kind, Yahtzee box 50", withYahtzee([7, 8], 63)],
    ["Ones and Twos, Yahtzee box 0 (forced Joker into the upper box)", sheetOpen(0, [0, 1], 58)],
  ],
  extra: (table) => {
    it(
      "reproduces Verhoeff's 254.5896 with his free-choice Joker; ours is the forced Joker of RULES.md",
      () => {
        const free = buildTable(0, { jokerRule: "free" });
        expect(free.startValue.toFixed(4)).toBe("254.5896");
        // Forcing the Joker (upper box first, then lower, then a zero) costs 0.00188 points a game.
        expect((free.startValue - table().startValue).toFixed(5)).toBe("0.00188");
      },
      BUILD_TIMEOUT,
    );

    describe("advice", () => {
      it("the start value is the mean over the first roll of the best play from it", () => {
        const t = table();
        const sheet = newSheet(0);
        expect(positionValue(t, sheet)).toBe(t.startValue);
        let mean = 0;
        for (let h = 0; h < HAND_COUNT; h++)
          mean += HAND_PROB[h] * rollValue(t, sheet, HAND_DICE[h], 1);
        expect(mean).toBeCloseTo(t.startValue, 9);
      });

      it("lists every keep, best first, with the points each gives up", () => {
        const t = table();
        const sheet = newSheet(0);
        const options = adviseKeep(t, sheet, [1, 2, 3, 4, 6], 1);
        // 1-2-3-4-6: 32 keeps, all distinct; the straight draw 1-2-3-4 is best.
        expect(options).toHaveLength(32);
        expect(options[0]).toMatchObject({
          kept: [1, 2, 3, 4],
          keepMask: 0b01111,
          stop: false,
          loss: 0,
        });
        expect(options[0].expected).toBeCloseTo(rollValue(t, sheet, [1, 2, 3, 4, 6], 1), 9);
        expect(options.filter((o) => o.stop)).toHaveLength(1);
        for (let i = 1; i < options.length; i++) {
          expect(options[i].expected).toBeLessThanOrEqual(options[i - 1].expected);
          expect(options[i].loss).toBeCloseTo(options[0].expected - options[i].expected, 12);
        }
        // Four 6s and a 1 on the first roll: keep the four 6s (the first four positions).
        expect(adviseKeep(t, sheet, [6, 1, 6, 6, 6], 1)[0]).toMatchObject({
          kept: [6, 6, 6, 6],
          keepMask: 0b11101,
        });
        // Keeping the same faces in other positions is the same option: duplicates collapse.
        expect(adviseKeep(t, sheet, [5, 5, 5, 5, 5], 2).length).toBe(6);
      });

      it("lists every legal box with its expected final score, the Joker as the engine rules it", () => {
        const t = table();
        const sheet = newSheet(0);
        const boxes = adviseBox(t, sheet, [2, 3, 4, 5, 6]);
        expect(boxes).toHaveLength(13);
        expect(boxes[0]).toMatchObject({ box: 10, points: 40, loss: 0 });
        expect(boxes[0].expected).toBeCloseTo(rollValue(t, sheet, [2, 3, 4, 5, 6], 3), 9);
        // Five 6s with the Yahtzee box at 50 and Sixes open: only Sixes, +100.
        const joker = withYahtzee([5, 9, 12], 40);
        const forced = adviseBox(t, joker, [6, 6, 6, 6, 6]);
        expect(forced).toHaveLength(1);
        expect(forced[0]).toMatchObject({ box: 5, points: 30, yahtzeeBonus: 100, upperBonus: 35 });
        // Sixes filled: any open lower box, Small Straight at its full 30.
        const lower = adviseBox(t, withYahtzee([4, 9, 12], 40), [6, 6, 6, 6, 6]);
        expect(lower.map((o) => o.box).sort()).toEqual([12, 9]);
        expect(lower.find((o) => o.box === 9)).toMatchObject({ points: 30, yahtzeeBonus: 100 });
      });

      it("the coach's policy plays the best move: no expected points lost, every move best", () => {
        const t = table();
        const coach = (s: Sheet, d: readonly number[], r: number) => coachTurnAction(t, s, d, r);
        const heuristic = (s: Sheet, d: readonly number[], r: number) => chooseTurnAction(s, d, r);
        const random = seededRandom(99);
        const a = recordGame(0, coach, random);
        const b = recordGame(0, heuristic, random);
        const review = analyseGame(t, {
          ruleSet: 0,
          players: [
            { player: "coach", turns: a.turns },
            { player: "heuristic", turns: b.turns },
          ],
        });
        const [c, h] = review.players;
        expect(c.totalLoss).toBeCloseTo(0, 9);
        expect(c.bestShare).toBe(1);
        expect(c.biggestMistake).toBeNull();
        expect(c.score).toBe(totals(a.sheet).total);
        expect(c.series[0].expected).toBe(t.startValue);
        expect(c.series.at(-1)!.expected).toBeCloseTo(c.score, 9);
        expect(c.series).toHaveLength(c.decisions.length + 1);
        // 13 box decisions, and a keep decision after every roll 1 and 2 made.
        expect(c.decisions.filter((d) => d.kind === "box")).toHaveLength(13);
        // The heuristic: a loss where it differs, the biggest mistake the largest loss.
        expect(h.finished).toBe(true);
        expect(h.score).toBe(totals(b.sheet).total);
        expect(h.series.at(-1)!.expected).toBeCloseTo(h.score, 9);
        const losses = h.decisions.map((d) => d.loss);
        // The summary is what the decisions show, added up (each to a tenth, ties 0).
        expect(h.totalLoss).toBeCloseTo(
          losses.reduce((x, y) => x + shownLoss(y), 0),
          9,
        );
        if (h.biggestMistake) expect(h.biggestMistake.loss).toBe(Math.max(...losses));
        expect(h.bestShare).toBe(h.decisions.filter((d) => d.isBest).length / h.decisions.length);
        for (const d of h.decisions) {
          expect(d.loss).toBeGreaterThanOrEqual(0);
          expect(d.isBest).toBe(d.loss < TIE_EPSILON);
        }
      });

      it("answers a hint within 50 ms once the table is there", () => {
        const t = table();
        const random = seededRandom(5);
        let slowest = 0;
        for (let game = 0; game < 15; game++) {
          const { turns } = recordGame(0, (s, d, r) => coachTurnAction(t, s, d, r), random);
          // Every sheet part way through the game: a fresh state each time, nothing cached.
          for (let turn = 0; turn < 13; turn++) {
            const sheet = sheetAfter(turns.slice(0, turn));
            const dice = [1, 2, 3, 4, 5].map(() => 1 + Math.floor(random() * 6));
            const started = performance.now();
            adviseKeep(t, sheet, dice, 1 + (turn % 2));
            adviseBox(t, sheet, dice);
            slowest = Math.max(slowest, performance.now() - started);
          }
        }
        expect(slowest).toBeLessThan(50);
      }, 60_000);
    });

    describe("table bytes", () => {
      it(
        "float64 bytes give back the table exactly, float32 within 1e-4 of every value",
        { timeout: 60_000 },
        () => {
          const t = table();
          const exact = deserialiseTable(serialiseTable(t, 8));
          const small = deserialiseTable(serialiseTable(t, 4));
          expect(exact.startValue).toBe(t.startValue);
          let worst = 0;
          let differ = 0;
          forEachState(t.model, (index) => {
            if (exact.values[index] !== t.values[index]) differ++;
            worst = Math.max(worst, Math.abs(small.values[index] - t.values[index]));
          });
          expect(differ).toBe(0);
          expect(worst).toBeLessThan(1e-4);
          expect(toCome(small, sheetOpen(0, [11, 12], 63))).toBeCloseTo(
            toCome(t, sheetOpen(0, [11, 12], 63)),
            4,
          );
        },
      );

      it("refuses bytes that are not a table", () => {
        const bytes = serialiseTable(table(), 4);
        expect(() => deserialiseTable(bytes.slice(0, 100))).toThrow(RangeError);
        const wrong = bytes.slice();
        wrong[0] = 0;
        expect(() => deserialiseTable(wrong)).toThrow("Not a coach table.");
      });
    });
  },
});

/** The sheet after some recorded turns. */
function sheetAfter(turns: readonly TurnRecord[]): Sheet {
  let sheet = newSheet(0);
  for (const turn of turns) sheet = applyScore(sheet, turn.rolls.at(-1)!, turn.box!).sheet;
  return sheet;
}

// The TypeScript engine (core/rules) against the Solidity libraries on the in-process chain:
// 20 000 random (rule set, box, dice) cases and 2 000 random whole sheets, including their totals.
import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import { network } from "hardhat";
import { boxCount, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { scoreBox } from "@dicehall/core/rules/score.ts";
import { applyScore, legalBoxes, newSheet, totals } from "@dicehall/core/rules/sheet.ts";

// A small seeded PRNG (mulberry32) so that a failure names a case that can be replayed.
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RANDOM_BOXES = 20_000;
const RANDOM_SHEETS = 2_000;
const BATCH = 1_000;

describe("rules: TypeScript engine vs Solidity", async () => {
  const { viem } = await network.create();
  let harness: Awaited<ReturnType<typeof viem.deployContract<"RulesHarness">>>;

  before(async () => {
    harness = await viem.deployContract("RulesHarness");
  });

  it(`agrees on ${RANDOM_BOXES} random box scores`, async () => {
    const rand = prng(2026);
    const die = () => 1 + Math.floor(rand() * 6);
    for (let start = 0; start < RANDOM_BOXES; start += BATCH) {
      const ruleSets: number[] = [];
      const boxes: number[] = [];
      const dice: number[] = [];
      for (let i = 0; i < BATCH; i++) {
        const rs = Math.floor(rand() * 4);
        ruleSets.push(rs);
        boxes.push(Math.floor(rand() * boxCount(rs)));
        // One hand in eight is five of a kind, which random dice almost never give.
        const five = rand() < 0.125 ? die() : 0;
        for (let d = 0; d < 5; d++) dice.push(five || die());
      }
      const onChain = await harness.read.scoreMany([ruleSets, boxes, dice]);
      for (let i = 0; i < BATCH; i++) {
        const hand = dice.slice(5 * i, 5 * i + 5);
        assert.equal(
          Number(onChain[i]),
          scoreBox(ruleSets[i], boxes[i], hand),
          `rule set ${ruleSets[i]} box ${boxes[i]} dice ${hand.join("-")}`,
        );
      }
    }
  });

  it(`agrees on ${RANDOM_SHEETS} random whole sheets, bonuses and totals included`, async () => {
    const rand = prng(63);
    const die = () => 1 + Math.floor(rand() * 6);
    const pending: Promise<void>[] = [];
    for (let n = 0; n < RANDOM_SHEETS; n++) {
      const ruleSet = (n % 4) as RuleSetId;
      let sheet = newSheet(ruleSet);
      const boxes: number[] = [];
      const dice: number[] = [];
      const points: number[] = [];
      const bonuses: number[] = [];
      for (let round = 0; round < boxCount(ruleSet); round++) {
        const five = rand() < 0.2 ? die() : 0;
        const hand = [die(), die(), die(), die(), die()].map((d) => five || d);
        const legal = legalBoxes(sheet, hand);
        const box = legal[Math.floor(rand() * legal.length)];
        const result = applyScore(sheet, hand, box);
        sheet = result.sheet;
        boxes.push(box);
        dice.push(...hand);
        points.push(result.points);
        bonuses.push(result.bonus);
      }
      const expected = totals(sheet);
      pending.push(
        harness.read
          .sheetTotals([ruleSet, boxes, dice])
          .then(([p, b, upper, upperBonus, yBonus, total]) => {
            const what = `sheet ${n} (rule set ${ruleSet}, boxes ${boxes.join(",")}, dice ${dice.join("")})`;
            assert.deepEqual(p.map(Number), points, `${what}: points`);
            assert.deepEqual(b.map(Number), bonuses, `${what}: bonuses`);
            assert.equal(Number(upper), expected.upper, `${what}: upper`);
            assert.equal(Number(upperBonus), expected.upperBonus, `${what}: upper bonus`);
            assert.equal(Number(yBonus), expected.yahtzeeBonus, `${what}: yahtzee bonus`);
            assert.equal(Number(total), expected.total, `${what}: total`);
          }),
      );
      if (pending.length === 100) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
  });
});

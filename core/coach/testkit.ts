import { ruleSet, type RuleSetId } from "../rules/ruleSets.ts";
import {
  applyScore,
  boxOptions,
  isComplete,
  newSheet,
  totals,
  type Sheet,
} from "../rules/sheet.ts";

/**
 * For the coach's tests only: a sheet builder and a slow, plain reference solver for positions
 * near the end of a game. The reference shares nothing with the solver but the rules engine: it
 * plays real sheets through boxOptions and applyScore, counts points as the difference of totals
 * (so the upper and Yahtzee bonuses are the engine's), and enumerates every ordered re-roll.
 */

/** A sheet with the given boxes filled (box index → points); the rest open. */
export function sheetWith(
  ruleSetId: RuleSetId,
  filled: Readonly<Record<number, number>>,
  yahtzeeBonuses = 0,
): Sheet {
  const sheet = newSheet(ruleSetId);
  for (const [box, points] of Object.entries(filled)) sheet.boxes[Number(box)] = points;
  sheet.yahtzeeBonuses = yahtzeeBonuses;
  return sheet;
}

/** A sheet with every box filled except `open`; the upper boxes hold `upperTotal`, the highest faces first. */
export function sheetOpen(ruleSetId: RuleSetId, open: readonly number[], upperTotal = 0): Sheet {
  const info = ruleSet(ruleSetId);
  const sheet = newSheet(ruleSetId);
  let left = upperTotal;
  for (const b of [...info.boxes].reverse()) {
    if (open.includes(b.index)) continue;
    if (b.section === "upper") {
      // Up to five dice of the face: as much of what is left as that box can hold.
      const face = b.index + 1;
      const count = Math.min(5, Math.floor(left / face));
      sheet.boxes[b.index] = count * face;
      left -= count * face;
    } else {
      sheet.boxes[b.index] = 0;
    }
  }
  if (left !== 0) throw new Error(`The filled upper boxes cannot hold ${upperTotal}.`);
  return sheet;
}

function orderedOutcomes(n: number): number[][] {
  let out: number[][] = [[]];
  for (let i = 0; i < n; i++) out = out.flatMap((o) => [1, 2, 3, 4, 5, 6].map((d) => [...o, d]));
  return out;
}
const OUTCOMES = [0, 1, 2, 3, 4, 5].map(orderedOutcomes);
const sorted = (dice: readonly number[]): number[] => [...dice].sort((a, b) => a - b);

function subMultisets(hand: readonly number[]): number[][] {
  const seen = new Map<string, number[]>();
  for (let mask = 0; mask < 32; mask++) {
    const kept = hand.filter((_, i) => (mask >> i) & 1);
    seen.set(kept.join(""), kept);
  }
  return [...seen.values()];
}

/**
 * The expected points still to come from a turn-start sheet with best play, by brute force.
 * Fast enough for one or two open boxes (a fraction of a second each).
 */
export function referenceValue(sheet: Sheet, memo = new Map<string, number>()): number {
  if (isComplete(sheet)) return 0;
  // What the rest of the game depends on: the open boxes, the upper total and the Yahtzee box.
  const upper = sheet.boxes.slice(0, 6).reduce<number>((a, b) => a + (b ?? 0), 0);
  const key = `${sheet.boxes.map((b) => (b === null ? "." : b === 50 ? "F" : "x")).join("")}/${upper}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const before = totals(sheet).total;
  const stopMemo = new Map<string, number>();
  const stop = (hand: number[]): number => {
    const k = hand.join("");
    let v = stopMemo.get(k);
    if (v === undefined) {
      v = -Infinity;
      for (const o of boxOptions(sheet, hand)) {
        if (!o.legal) continue;
        const next = applyScore(sheet, hand, o.box).sheet;
        v = Math.max(v, totals(next).total - before + referenceValue(next, memo));
      }
      stopMemo.set(k, v);
    }
    return v;
  };
  const holdMemo = new Map<string, number>();
  // The best value holding `hand` (sorted) with `rollsLeft` re-rolls allowed.
  const hold = (hand: number[], rollsLeft: number): number => {
    const k = `${hand.join("")}/${rollsLeft}`;
    let v = holdMemo.get(k);
    if (v !== undefined) return v;
    v = stop(hand);
    if (rollsLeft > 0) {
      for (const kept of subMultisets(hand)) {
        if (kept.length < 5) v = Math.max(v, reroll(kept, rollsLeft));
      }
    }
    holdMemo.set(k, v);
    return v;
  };
  const rerollMemo = new Map<string, number>();
  // The mean over every ordered re-roll of the dice not kept.
  const reroll = (kept: number[], rollsLeft: number): number => {
    const k = `${kept.join("")}/${rollsLeft}`;
    let v = rerollMemo.get(k);
    if (v === undefined) {
      const outcomes = OUTCOMES[5 - kept.length];
      let sum = 0;
      for (const o of outcomes) sum += hold(sorted([...kept, ...o]), rollsLeft - 1);
      v = sum / outcomes.length;
      rerollMemo.set(k, v);
    }
    return v;
  };
  const value = reroll([], 3);
  memo.set(key, value);
  return value;
}

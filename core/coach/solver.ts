import { ruleSet, type RuleSetId } from "../rules/ruleSets.ts";
import { scoreBox } from "../rules/score.ts";
import { boxOptions, newSheet } from "../rules/sheet.ts";
import * as combos from "./combos.ts";

// Local copies of the combinatorics: a test runner's module transform can turn every use of an
// imported binding into a property read, which the inner loops below cannot afford.
const {
  CHILD,
  FACES,
  GROWABLE,
  HAND_BASE,
  HAND_COUNT,
  HAND_DICE,
  HAND_PROB,
  KEEP_COUNT,
  KEEP_COUNTS,
  PARENT,
  PARENT_START,
  handOf,
} = combos;

/**
 * The exact solver: backward induction over the turn-start states of a rule set.
 *
 * A turn-start state is what the rest of the game depends on, and nothing more:
 *   - `mask`: the filled boxes, bit b for box b (13, 15, 13 or 16 boxes);
 *   - `upper`: the upper total so far, capped at the bonus threshold (0..63), in rule sets with
 *     an upper bonus (Yahtzee, Yatzy, Extended). Yazty has no upper bonus, so no upper dimension.
 *     Only the totals that the filled upper boxes can make are solved ("reachable");
 *   - `flag`: in Yahtzee only, whether the Yahtzee box holds 50 (the +100 bonus). Whether it is
 *     filled at all (the Joker) is in the mask; the flag is 0 while it is open.
 * Its value is the expected points still to come with best play: boxes, the upper bonus when the
 * upper total reaches the threshold, and Yahtzee bonuses. The expected final score of a sheet is
 * its total so far plus that value.
 *
 * Table layout: values[(mask * upperStates + upper) * flagStates + flag], with upperStates 64 or
 * 1 and flagStates 2 or 1. Unreachable entries are NaN.
 *
 * Within a turn (the classic three layers, shared over all positions of a state):
 *   S[h]  the value of scoring hand h now: max over legal boxes of points + bonuses + next state;
 *   E1[k] the value of keeping multiset k and rolling the rest once, then scoring;
 *   M1[h] the value of holding h with one roll left: max over keeps of h (all five = score now);
 *   E2, M2 the same with two rolls left; the state's value is sum over h of P(h) * M2[h].
 * E[k] for k of fewer than five dice is the mean over the six faces of E[k + face] (one die at a
 * time: 210 x 6 additions, no transition table), and the max over every sub-multiset of a hand is
 * taken by M[k] = max(E[k], M[k - face] for each face k holds) (about 1 100 comparisons).
 *
 * Points come from the engine: scoreBox for every box and hand, and for five of a kind once the
 * Yahtzee box is filled, boxOptions itself (the forced Joker, its prizes and the +100 bonus).
 */

export interface RuleSetModel {
  readonly ruleSet: RuleSetId;
  readonly boxes: number;
  readonly fullMask: number;
  /** 64 with an upper bonus (totals 0..63 capped), else 1. */
  readonly upperStates: number;
  readonly threshold: number;
  readonly upperBonus: number;
  /** 2 with the Yahtzee bonus (flag: the Yahtzee box holds 50), else 1. */
  readonly flagStates: number;
  /** The Yahtzee box's index where the Joker or the Yahtzee bonus exists, else -1. */
  readonly yahtzeeBox: number;
  /** score[box * 252 + hand]: scoreBox of that hand in that box. */
  readonly score: Float64Array;
  /** reachable[upperMask]: the capped upper totals the filled upper boxes can make. */
  readonly reachable: readonly Uint8Array[];
  readonly upperBoxes: number;
}

/** UPPER_COUNT[b * 252 + h]: how many dice of hand h show face b+1. */
const UPPER_COUNT = new Uint8Array(FACES * HAND_COUNT);
for (let b = 0; b < FACES; b++) {
  for (let h = 0; h < HAND_COUNT; h++)
    UPPER_COUNT[b * HAND_COUNT + h] = KEEP_COUNTS[(HAND_BASE + h) * FACES + b];
}

/** FIVE_OF_A_KIND[face]: the hand of five `face`s. */
const FIVE_OF_A_KIND = [0, 1, 2, 3, 4, 5, 6].map((f) => (f === 0 ? -1 : handOf([f, f, f, f, f])));

const models = new Map<RuleSetId, RuleSetModel>();

/**
 * Replaces the engine's score of a hand in a box: only for tests that show what a different rule
 * would give (a published value under other rules). The app never passes one.
 */
export type ScoreOverride = (box: number, dice: readonly number[], engineScore: number) => number;

export function modelOf(ruleSetId: RuleSetId, override?: ScoreOverride): RuleSetModel {
  let model = override ? undefined : models.get(ruleSetId);
  if (model) return model;
  const info = ruleSet(ruleSetId);
  const boxes = info.boxes.length;
  const upperBoxes = info.boxes.filter((b) => b.section === "upper").length;
  info.boxes.forEach((b, i) => {
    if ((b.section === "upper") !== i < upperBoxes) throw new Error("upper boxes come first");
  });
  const score = new Float64Array(boxes * HAND_COUNT);
  for (let b = 0; b < boxes; b++) {
    for (let h = 0; h < HAND_COUNT; h++) {
      const points = scoreBox(ruleSetId, b, HAND_DICE[h]);
      score[b * HAND_COUNT + h] = override ? override(b, HAND_DICE[h], points) : points;
    }
  }
  const threshold = info.upperBonus?.threshold ?? 0;
  const upperStates = info.upperBonus ? threshold + 1 : 1;
  const reachable: Uint8Array[] = [];
  for (let m = 0; m < 1 << upperBoxes; m++) {
    if (upperStates === 1) {
      reachable.push(Uint8Array.of(0));
      continue;
    }
    let set = new Set([0]);
    for (let b = 0; b < upperBoxes; b++) {
      if (!((m >> b) & 1)) continue;
      const next = new Set<number>();
      for (const u of set)
        for (let c = 0; c <= 5; c++) next.add(Math.min(threshold, u + c * (b + 1)));
      set = next;
    }
    reachable.push(Uint8Array.from([...set].sort((a, b) => a - b)));
  }
  const yahtzeeBox =
    info.joker || info.yahtzeeBonus ? info.boxes.findIndex((b) => b.key === "yahtzee") : -1;
  model = {
    ruleSet: ruleSetId,
    boxes,
    fullMask: (1 << boxes) - 1,
    upperStates,
    threshold,
    upperBonus: info.upperBonus?.points ?? 0,
    flagStates: info.yahtzeeBonus ? 2 : 1,
    yahtzeeBox,
    score,
    reachable,
    upperBoxes,
  };
  if (!override) models.set(ruleSetId, model);
  return model;
}

export interface SolverTable {
  readonly ruleSet: RuleSetId;
  readonly model: RuleSetModel;
  /** Expected points to come from each turn-start state; see the layout above. */
  readonly values: Float64Array;
  /** The expected score from the start of a game. */
  readonly startValue: number;
  readonly jokerRule: JokerRule;
}

/** A turn-start state. */
export interface TurnState {
  mask: number;
  upper: number;
  flag: number;
}

export function stateIndex(model: RuleSetModel, mask: number, upper: number, flag: number): number {
  return (mask * model.upperStates + upper) * model.flagStates + flag;
}

/** One box a five-of-a-kind may go in once the Yahtzee box is filled: from boxOptions. */
interface JokerOption {
  box: number;
  /** points + Yahtzee bonus. */
  gain: number;
  points: number;
}

/**
 * How five of a kind may be scored once the Yahtzee box is filled. "forced" is docs/RULES.md and the
 * engine (the only rule the app uses). "free" is the convention of Verhoeff's published solver
 * (any open box; the Joker prizes only when the face's upper box is filled): it exists only so
 * that a test can reproduce the literature's 254.5896 and show where our 254.5877 comes from.
 */
export type JokerRule = "forced" | "free";

/** The engine's options for five `face`s when the boxes in `mask` are filled (Yahtzee box: 50 or 0). */
function jokerOptions(
  model: RuleSetModel,
  mask: number,
  flag: number,
  face: number,
  rule: JokerRule,
): JokerOption[] {
  const sheet = newSheet(model.ruleSet);
  for (let b = 0; b < model.boxes; b++) {
    if ((mask >> b) & 1) sheet.boxes[b] = b === model.yahtzeeBox && flag === 1 ? 50 : 0;
  }
  const options = boxOptions(sheet, [face, face, face, face, face]);
  if (rule === "forced") {
    return options
      .filter((o) => o.legal)
      .map((o) => ({ box: o.box, gain: o.points + o.bonus, points: o.points }));
  }
  // Free choice: every open box; where the forced rule forbids a box it scores its raw points
  // (boxOptions reports them), and the Yahtzee bonus is the same wherever the dice go.
  const bonus = Math.max(0, ...options.map((o) => o.bonus));
  const faceBoxOpen = options.some((o) => o.box === face - 1);
  return options.map((o) => {
    const points =
      faceBoxOpen || !o.legal
        ? scoreBox(model.ruleSet, o.box, [face, face, face, face, face])
        : o.points;
    return { box: o.box, gain: points + bonus, points };
  });
}

/**
 * The per-turn computation for one state, with its buffers; reused for every state a build or a
 * game visits. After `run`, S, E1, M1, E2 and M2 describe the whole turn.
 */
export class TurnKernel {
  readonly S = new Float64Array(HAND_COUNT);
  readonly E1 = new Float64Array(KEEP_COUNT);
  readonly M1 = new Float64Array(KEEP_COUNT);
  readonly E2 = new Float64Array(KEEP_COUNT);
  readonly M2 = new Float64Array(KEEP_COUNT);
  private readonly w = new Float64Array(6);
  private readonly jokerCache = new Map<number, JokerOption[][]>();

  constructor(
    readonly model: RuleSetModel,
    private readonly values: Float64Array,
    private readonly jokerRule: JokerRule = "forced",
  ) {}

  /** Options for five of a kind when the Yahtzee box is filled, per face (1..6). */
  joker(mask: number, flag: number): JokerOption[][] {
    const key = mask * 2 + flag;
    let options = this.jokerCache.get(key);
    if (!options) {
      options = [[]];
      for (let face = 1; face <= 6; face++)
        options.push(jokerOptions(this.model, mask, flag, face, this.jokerRule));
      this.jokerCache.set(key, options);
    }
    return options;
  }

  /** The value of the state after filling `box` with `points`, bonuses included. */
  after(mask: number, upper: number, flag: number, box: number, points: number): number {
    const m = this.model;
    const nextMask = mask | (1 << box);
    if (box < m.upperBoxes && m.upperStates > 1) {
      const next = Math.min(m.threshold, upper + points);
      const bonus = upper < m.threshold && next >= m.threshold ? m.upperBonus : 0;
      return bonus + this.values[stateIndex(m, nextMask, next, flag)];
    }
    if (box === m.yahtzeeBox && m.flagStates === 2) {
      return this.values[stateIndex(m, nextMask, upper, points === 50 ? 1 : 0)];
    }
    return this.values[stateIndex(m, nextMask, upper, flag)];
  }

  /** Fills S: the value of scoring each hand now in the best legal box. */
  stopValues(mask: number, upper: number, flag: number): void {
    const m = this.model;
    const S = this.S;
    const score = m.score;
    const values = this.values;
    const w = this.w;
    let first = true;
    for (let b = 0; b < m.boxes; b++) {
      if ((mask >> b) & 1) continue;
      if (b < m.upperBoxes) {
        for (let c = 0; c <= 5; c++)
          w[c] = c * (b + 1) + this.after(mask, upper, flag, b, c * (b + 1));
        const off = b * HAND_COUNT;
        if (first) {
          for (let h = 0; h < HAND_COUNT; h++) S[h] = w[UPPER_COUNT[off + h]];
        } else {
          for (let h = 0; h < HAND_COUNT; h++) {
            const v = w[UPPER_COUNT[off + h]];
            if (v > S[h]) S[h] = v;
          }
        }
      } else {
        const base = values[stateIndex(m, mask | (1 << b), upper, flag)];
        const off = b * HAND_COUNT;
        if (first) {
          for (let h = 0; h < HAND_COUNT; h++) S[h] = score[off + h] + base;
        } else {
          for (let h = 0; h < HAND_COUNT; h++) {
            const v = score[off + h] + base;
            if (v > S[h]) S[h] = v;
          }
        }
      }
      first = false;
    }
    const y = m.yahtzeeBox;
    if (y < 0) return;
    if ((mask >> y) & 1) {
      // The Yahtzee box is filled: five of a kind plays by the engine's Joker rule and bonus.
      const joker = this.joker(mask, flag);
      for (let face = 1; face <= 6; face++) {
        const h = FIVE_OF_A_KIND[face];
        let best = -Infinity;
        for (const o of joker[face]) {
          const v = o.gain + this.after(mask, upper, flag, o.box, o.points);
          if (v > best) best = v;
        }
        S[h] = best;
      }
    } else if (m.flagStates === 2) {
      // The loop above gave 50 in the Yahtzee box the next state's flag 0; it is 1 (never worse).
      const v = 50 + this.after(mask, upper, flag, y, 50);
      for (let face = 1; face <= 6; face++) {
        const h = FIVE_OF_A_KIND[face];
        if (v > S[h]) S[h] = v;
      }
    }
  }

  /** The whole turn for a state; returns the state's value (expected points to come). */
  run(mask: number, upper: number, flag: number): number {
    this.stopValues(mask, upper, flag);
    const { S, E1, M1, E2, M2 } = this;
    // One roll left: after it the hand must be scored.
    E1.set(S, HAND_BASE);
    expect(E1);
    maximise(E1, M1);
    // Two rolls left: a roll lands on a hand held with one roll left (M1); keeping all five is
    // scoring now (S).
    E2.set(M1.subarray(HAND_BASE), HAND_BASE);
    expect(E2);
    E2.set(S, HAND_BASE);
    maximise(E2, M2);
    let v = 0;
    for (let h = 0; h < HAND_COUNT; h++) v += HAND_PROB[h] * M2[HAND_BASE + h];
    return v;
  }
}

const SIXTH = 1 / 6;

/** E[k] for keeps of fewer than five dice: the mean over one more die. Hands must be set. */
function expect(E: Float64Array): void {
  for (let k = GROWABLE - 1, c = k * FACES; k >= 0; k--, c -= FACES) {
    E[k] =
      (E[CHILD[c]] +
        E[CHILD[c + 1]] +
        E[CHILD[c + 2]] +
        E[CHILD[c + 3]] +
        E[CHILD[c + 4]] +
        E[CHILD[c + 5]]) *
      SIXTH;
  }
}

/** M[k]: the best E over every sub-multiset of k (k itself included). */
function maximise(E: Float64Array, M: Float64Array): void {
  M[0] = E[0];
  let j = PARENT_START[1];
  for (let k = 1; k < KEEP_COUNT; k++) {
    let best = E[k];
    for (const end = PARENT_START[k + 1]; j < end; j++) {
      const p = M[PARENT[j]];
      if (p > best) best = p;
    }
    M[k] = best;
  }
}

export interface BuildOptions {
  /** Called now and then with the share of the table done (0..1). */
  onProgress?: (done: number) => void;
  /** Only for the literature check; the app always plays "forced". */
  jokerRule?: JokerRule;
  /** Only for the literature check: other scores than the engine's (see ScoreOverride). */
  scoreOverride?: ScoreOverride;
}

/**
 * Visits every turn-start state that play can reach, in solving order (masks from full to empty:
 * a box filled sets a bit, so every next state comes first), except full sheets. Upper totals that
 * the filled upper boxes cannot make are skipped. Totals from which the bonus can no longer be
 * reached (the open upper boxes, five dice each, fall short) all have the same value: the first is
 * visited with copyOf -1, the others with copyOf its index.
 */
export function forEachState(
  m: RuleSetModel,
  visit: (index: number, mask: number, upper: number, flag: number, copyOf: number) => void,
): void {
  const upperBits = (1 << m.upperBoxes) - 1;
  const yBit = m.yahtzeeBox >= 0 && m.flagStates === 2 ? 1 << m.yahtzeeBox : 0;
  const t = m.threshold;
  for (let mask = m.fullMask - 1; mask >= 0; mask--) {
    const flags = mask & yBit ? 2 : 1;
    const upperMask = mask & upperBits;
    let reachLeft = 0;
    for (let b = 0; b < m.upperBoxes; b++) if (!((upperMask >> b) & 1)) reachLeft += 5 * (b + 1);
    let hopeless = -1;
    for (const u of m.reachable[upperMask]) {
      const isHopeless = m.upperStates > 1 && u < t && u + reachLeft < t;
      for (let f = 0; f < flags; f++) {
        const copyOf = isHopeless && hopeless >= 0 ? stateIndex(m, mask, hopeless, f) : -1;
        visit(stateIndex(m, mask, u, f), mask, u, f, copyOf);
      }
      if (isHopeless && hopeless < 0) hopeless = u;
    }
  }
}

/** A table with only the full sheets valued (0): the start of a build or a load. */
export function emptyValues(m: RuleSetModel): Float64Array {
  const values = new Float64Array((m.fullMask + 1) * m.upperStates * m.flagStates).fill(NaN);
  for (let u = 0; u < m.upperStates; u++) {
    for (let f = 0; f < m.flagStates; f++) values[stateIndex(m, m.fullMask, u, f)] = 0;
  }
  return values;
}

/** Fills the whole table of a rule set by backward induction (see forEachState for the order). */
export function buildTable(ruleSetId: RuleSetId, options: BuildOptions = {}): SolverTable {
  const m = modelOf(ruleSetId, options.scoreOverride);
  const jokerRule = options.jokerRule ?? "forced";
  const values = emptyValues(m);
  const kernel = new TurnKernel(m, values, jokerRule);
  const progressEvery = Math.max(1, m.fullMask >> 6);
  const onProgress = options.onProgress;
  let lastMask = -1;
  forEachState(m, (index, mask, upper, flag, copyOf) => {
    values[index] = copyOf >= 0 ? values[copyOf] : kernel.run(mask, upper, flag);
    if (onProgress && mask !== lastMask && mask % progressEvery === 0)
      onProgress(1 - mask / m.fullMask);
    lastMask = mask;
  });
  return {
    ruleSet: ruleSetId,
    model: m,
    values,
    startValue: values[stateIndex(m, 0, 0, 0)],
    jokerRule,
  };
}

import { beforeAll, describe, expect, it } from "vitest";
import { ruleSet, type RuleSetId } from "../rules/ruleSets.ts";
import { totals, type Sheet } from "../rules/sheet.ts";
import { positionValue } from "./advise.ts";
import { simulate } from "./simulate.ts";
import { buildTable, type SolverTable } from "./solver.ts";
import { referenceValue, sheetOpen } from "./testkit.ts";

/**
 * The tests every rule set's table passes (one test file per rule set, so that vitest builds the
 * tables side by side): the start value, end states worked out by hand and by the brute-force
 * reference, and a seeded simulation of the solver's policy.
 */

export const SIMULATED_GAMES = 20_000;
/** Building the largest table on a loaded 2-CPU machine takes up to about a minute. */
export const BUILD_TIMEOUT = 240_000;

/** P(five of a kind within three rolls, keeping the most common face): 2 783 176 / 6^10. */
export const P_FIVE_OF_A_KIND = 2_783_176 / 60_466_176;
/** Best Chance with three rolls: each die is re-rolled below 5 on the second roll, below 4 on the first. */
export const BEST_CHANCE = 5 * (28 / 6);
/** P(a die shows a 6 after chasing 6s for three rolls). */
export const P_SIX = 91 / 216;

export function binomialAtLeast(n: number, p: number, k: number): number {
  let sum = 0;
  for (let i = k; i <= n; i++) {
    let c = 1;
    for (let j = 0; j < i; j++) c = (c * (n - j)) / (j + 1);
    sum += c * p ** i * (1 - p) ** (n - i);
  }
  return sum;
}

/** Expected points still to come from a turn-start sheet, by the table. */
export function toCome(table: SolverTable, sheet: Sheet): number {
  return positionValue(table, sheet) - totals(sheet).total;
}

export interface RuleSetSpec {
  ruleSet: RuleSetId;
  /** The start value to 4 decimals. */
  start: string;
  /** Sheets with one box left whose value has a closed form: [label, sheet, value]. */
  byHand: [string, Sheet, number][];
  /** Two-box-left sheets checked against the brute-force reference: [label, sheet]. */
  twoBoxes: [string, Sheet][];
  /** More checks on the built table. */
  extra?: (table: () => SolverTable) => void;
}

export function describeRuleSet(spec: RuleSetSpec): void {
  const info = ruleSet(spec.ruleSet);
  describe(`coach: ${info.name} (rule set ${spec.ruleSet})`, () => {
    let table: SolverTable;
    beforeAll(() => {
      table = buildTable(spec.ruleSet);
    }, BUILD_TIMEOUT);

    it(`expects ${spec.start} from the start`, () => {
      expect(table.startValue.toFixed(4)).toBe(spec.start);
    });

    it("values one box left as worked out by hand", () => {
      for (const [label, sheet, value] of spec.byHand) {
        expect(toCome(table, sheet), label).toBeCloseTo(value, 9);
      }
    });

    it("values every one-box-left position as the brute-force reference does", () => {
      const memo = new Map<string, number>();
      const uppers = info.upperBonus ? [0, 63] : [0];
      for (const b of info.boxes) {
        for (const upper of uppers) {
          const sheet = sheetOpen(spec.ruleSet, [b.index], upper);
          expect(toCome(table, sheet), `${b.name}, upper ${upper}`).toBeCloseTo(
            referenceValue(sheet, memo),
            9,
          );
        }
      }
    }, 60_000);

    it("values two-box-left positions as the brute-force reference does", () => {
      const memo = new Map<string, number>();
      for (const [label, sheet] of spec.twoBoxes) {
        expect(toCome(table, sheet), label).toBeCloseTo(referenceValue(sheet, memo), 9);
      }
    }, 120_000);

    it(`plays ${SIMULATED_GAMES} seeded games with a mean within 3 standard errors of the start value`, () => {
      const r = simulate(table, SIMULATED_GAMES, 20_260 + spec.ruleSet);
      expect(Math.abs(r.mean - table.startValue)).toBeLessThan(3 * r.se);
    }, 240_000);

    spec.extra?.(() => table);
  });
}

/**
 * npm run solve -- --rule-set N|all [--simulate G] [--seed S] [--write DIR]
 *
 * Fills the coach's table of each rule set asked (core/coach) and prints its expected score from
 * the start; with --simulate, plays G games with the solver's policy on seeded dice and prints
 * their mean and its standard error; with --write, saves each table (float32, as the app loads
 * it) to DIR/coach-N.bin.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRuleSetId, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { simulate } from "@dicehall/core/coach/simulate.ts";
import { serialiseTable } from "@dicehall/core/coach/serialise.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run solve -- --rule-set 0..3|all [--simulate GAMES] [--seed N] [--write DIR]`,
  );
  process.exit(2);
}

const which = option("--rule-set") ?? usage("--rule-set is required");
const ruleSets: RuleSetId[] =
  which === "all"
    ? [0, 1, 2, 3]
    : isRuleSetId(Number(which)) && which.trim() !== ""
      ? [Number(which) as RuleSetId]
      : usage(`no rule set ${which}`);
const games = option("--simulate") === undefined ? 0 : Number(option("--simulate"));
if (!Number.isInteger(games) || games < 0) usage("--simulate takes a number of games");
const seed = Number(option("--seed") ?? 1);
const writeDir = option("--write");

for (const ruleSet of ruleSets) {
  const started = performance.now();
  const table = buildTable(ruleSet);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `rule set ${ruleSet}: expected score from the start ${table.startValue.toFixed(4)} (${seconds.toFixed(1)} s)`,
  );
  if (games > 0) {
    const simStarted = performance.now();
    const r = simulate(table, games, seed);
    const simSeconds = (performance.now() - simStarted) / 1000;
    const z = (r.mean - table.startValue) / r.se;
    console.log(
      `rule set ${ruleSet}: ${games} games with the solver's policy (seed ${seed}): mean ${r.mean.toFixed(4)}, ` +
        `standard error ${r.se.toFixed(4)} (${z >= 0 ? "+" : ""}${z.toFixed(2)} SE from the start value; ` +
        `sd ${r.sd.toFixed(2)}, ${simSeconds.toFixed(1)} s)`,
    );
  }
  if (writeDir) {
    mkdirSync(writeDir, { recursive: true });
    const file = join(writeDir, `coach-${ruleSet}.bin`);
    writeFileSync(file, serialiseTable(table, 4));
    console.log(`rule set ${ruleSet}: table written to ${file}`);
  }
}

// `npm run bench:indexer`: puts N whole games on a local chain of its own (the HallFiller plays
// each in one transaction, scripts/lib/fillGames.ts), starts the indexer on it, and prints how fast
// it indexed them (events/s), how fast its coach analysed them (games/s: in the indexer's worker
// threads, and in this process with the tables loaded), how fast the leaderboard and the player
// pages answer over HTTP at that size (p50/p99), and the indexer's peak memory.
// Targets: leaderboard p99 under 50 ms; analysis at least 200 games/s per core.
//
// Flags: --games N (default 10000), --players P (distinct players, default 500), --queries Q
// (leaderboard requests timed, default 400), --seed S (default 1), --postgres URL (index into
// this Postgres database, as production does, instead of PGlite; a schema of its own, dropped). Each game is one transaction and one block (~190 hall events). Nothing else
// should run meanwhile: the figures are the machine's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { performance } from "node:perf_hooks";
import {
  leaderboardSearch,
  type LeaderboardQuery,
  type WireGameLogs,
  type WireAnalysisStatus,
} from "@dicehall/core/indexer/indexerWire.ts";
import { buildTable, type SolverTable } from "@dicehall/core/coach/solver.ts";
import { deserialiseTable } from "@dicehall/core/coach/serialise.ts";
import { TABLE_FORMAT } from "@dicehall/core/coach/store.ts";
import { decodeLogs } from "@dicehall/core/events/hallEvents.ts";
import { analyseGameLogs } from "@dicehall/core/game/gameAnalysis.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { clients } from "./lib/chain.ts";
import { ROOT } from "./lib/deployments.ts";
import { startDevStack } from "./lib/devStack.ts";
import { fillGames } from "./lib/fillGames.ts";
import { startIndexer } from "./lib/indexer.ts";
import { NATIVE } from "./lib/table.ts";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "10000" },
    players: { type: "string", default: "500" },
    postgres: { type: "string" },
    queries: { type: "string", default: "400" },
    seed: { type: "string", default: "1" },
  },
});
const games = Number(values.games);
const queries = Number(values.queries);
const players = Number(values.players);
for (const [name, value] of Object.entries({ games, queries, players })) {
  if (!Number.isSafeInteger(value) || value <= 0) {
    console.error(`bench:indexer: --${name} must be a whole number above 0`);
    process.exit(1);
  }
}
const say = (line: string) => console.log(`[bench] ${line}`);
const schema = `dicehall_bench_${process.pid}`;

async function dropSchema(url: string, name: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await client.end();
}

const stack = await startDevStack({
  rpcPort: 0,
  web: false,
  keeper: false,
  deploymentId: `devstack-bench-indexer-${process.pid}`,
  deploymentsFile: null,
  log: say,
});
const stops: (() => Promise<void>)[] = [() => stack.stop()];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
};
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));

try {
  const { publicClient, wallet } = clients(stack.rpcUrl);

  // 1. The games.
  let lastReport = 0;
  const filled = await fillGames({
    publicClient,
    wallet: wallet(stack.accounts[0]),
    diceHall: stack.addresses.diceHall,
    mockEntropy: stack.addresses.mockEntropy,
    testToken: stack.addresses.testToken,
    games,
    seed: BigInt(values.seed),
    seats: Math.max(4, players),
    onProgress: (p) => {
      if (p.seconds - lastReport < 30 && p.games < p.of) return;
      lastReport = p.seconds;
      say(`filled ${p.games} of ${p.of} games (${(p.games / p.seconds).toFixed(1)}/s)`);
    },
  });
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
  say(`chain: ${filled.games} games in blocks ${filled.firstBlock}–${filled.lastBlock}`);

  // 2. Index them from scratch.
  const started = performance.now();
  const indexer = await startIndexer({
    port: 0,
    rpcUrl: stack.rpcUrl,
    chainId: stack.chainId,
    hall: stack.addresses.diceHall,
    startBlock: stack.deployment.deploymentBlock,
    dataDir: join(ROOT, ".dev", `indexer-bench-${process.pid}`),
    removeOnStop: true,
    readyTimeoutMs: 3 * 3600_000,
    postgres: values.postgres ? { url: values.postgres, schema } : undefined,
    log: say,
  });
  stops.push(() => indexer.stop());
  if (values.postgres) stops.unshift(() => dropSchema(values.postgres!, schema));
  await indexer.waitForBlock(head, 3600_000);
  const indexSeconds = (performance.now() - started) / 1000;
  const metrics = await (await fetch(`${indexer.url}/metrics`)).text();
  let events = 0;
  for (const line of metrics.split("\n")) {
    const match = /^ponder_indexing_completed_events\{[^}]*\} (\d+)/.exec(line);
    if (match) events += Number(match[1]);
  }

  // 3. The coach's analysis of every game, in the indexer's worker threads, as games finished
  // (it runs beside the backfill); then the same analysis in this process, tables loaded.
  const status = async () =>
    (await (await fetch(`${indexer.url}/api/analysis`)).json()) as WireAnalysisStatus;
  for (;;) {
    const analysis = await status();
    if (!analysis.threads) throw new Error("the indexer's analysis is off");
    if (analysis.analysed >= filled.games) break;
    if (performance.now() - started > 3 * 3600_000) throw new Error("analysis did not finish");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const analysedSeconds = (performance.now() - started) / 1000;
  const analysis = await status();
  const tables = new Map<RuleSetId, SolverTable>();
  const tableOf = (ruleSet: RuleSetId) => {
    let table = tables.get(ruleSet);
    if (!table) {
      const file = join(
        ROOT,
        "indexer",
        ".ponder",
        "coach",
        `coach-${TABLE_FORMAT}-${ruleSet}.bin`,
      );
      try {
        table = deserialiseTable(readFileSync(file));
      } catch {
        table = buildTable(ruleSet);
      }
      tables.set(ruleSet, table);
    }
    return table;
  };
  const sample = filled.gameIds.slice(0, Math.min(1000, filled.gameIds.length));
  // One after the other: a thousand requests at once can reset connections on a loaded machine.
  const sampleLogs: { id: bigint; logs: ReturnType<typeof decodeLogs> }[] = [];
  for (const id of sample) {
    const { logs } = (await (
      await fetch(`${indexer.url}/api/games/${id}/logs`)
    ).json()) as WireGameLogs;
    sampleLogs.push({ id, logs: decodeLogs(logs) });
  }
  for (const id of [0, 1, 2, 3] as RuleSetId[]) tableOf(id);
  const analyseStarted = performance.now();
  for (const { id, logs } of sampleLogs) analyseGameLogs(id, logs, tableOf);
  const analyseSeconds = (performance.now() - analyseStarted) / 1000;

  // 4. The leaderboard, as the app asks for it: filters, sorts, pages, the viewer's rank.
  const board = (await (await fetch(`${indexer.url}/api/leaderboard?limit=500`)).json()) as {
    rows: { player: string }[];
    total: number;
  };
  const lastTime = Number((await publicClient.getBlock({ blockNumber: head })).timestamp);
  const shapes: { name: string; query: LeaderboardQuery }[] = [
    { name: "all time, by wins", query: {} },
    { name: "one rule set", query: { ruleSet: 0 } },
    { name: "one rule set, by best score", query: { ruleSet: 3, sort: "best" } },
    {
      name: "native coin, by net winnings",
      query: { token: NATIVE, sort: "net", sortToken: NATIVE },
    },
    { name: "Test USD", query: { token: stack.addresses.testToken } },
    { name: "the last 24 hours (a period)", query: { since: lastTime - 86_400 } },
    { name: "the last minute (a period)", query: { since: lastTime - 60 } },
    { name: "by average, ascending", query: { sort: "average", direction: "asc" } },
    { name: "second page", query: { offset: 50, limit: 50 } },
    { name: "the viewer's rank", query: { me: board.rows.at(-1)?.player as `0x${string}` } },
    { name: "by rating", query: { sort: "rating" } },
    {
      name: "one rule set, by points lost per game",
      query: { ruleSet: 1, sort: "lossPerGame", direction: "asc" },
    },
  ];
  // Each round asks every shape twice: computed afresh (Cache-Control: no-cache; what the first
  // visitor after a game ends waits for) and as the next visitor gets it (the sorted board cached
  // until a game finishes).
  const timings = { cold: new Map<number, number[]>(), warm: new Map<number, number[]>() };
  const ask = async (shape: number, cold: boolean) => {
    const t0 = performance.now();
    const res = await fetch(
      `${indexer.url}/api/leaderboard?${leaderboardSearch(shapes[shape].query)}`,
      { headers: cold ? { "cache-control": "no-cache" } : {} },
    );
    if (!res.ok) {
      throw new Error(`leaderboard query failed: HTTP ${res.status} ${await res.text()}`);
    }
    await res.json();
    return performance.now() - t0;
  };
  for (let i = 0; i < queries + shapes.length; i++) {
    const shape = i % shapes.length;
    const cold = await ask(shape, true);
    const warm = await ask(shape, false);
    // The first round warms up connections and the database's plans; it is not counted.
    if (i < shapes.length) continue;
    for (const [series, ms] of [
      [timings.cold, cold],
      [timings.warm, warm],
    ] as const) {
      series.set(shape, [...(series.get(shape) ?? []), ms]);
    }
  }
  // A player's page, for players across the board (nothing cached: each is computed).
  const playerTimes: number[] = [];
  for (let i = 0; i < queries + 20; i++) {
    const player = board.rows[(i * 7919) % board.rows.length].player;
    const t0 = performance.now();
    const res = await fetch(`${indexer.url}/api/players/${player}`);
    if (!res.ok) throw new Error(`player page failed: HTTP ${res.status} ${await res.text()}`);
    await res.json();
    if (i >= 20) playerTimes.push(performance.now() - t0);
  }
  // The indexer's peak resident memory (Linux), its worker threads included.
  const peakKb = (() => {
    try {
      const line = readFileSync(`/proc/${indexer.pid}/status`, "utf8")
        .split("\n")
        .find((l) => l.startsWith("VmHWM:"));
      return line ? Number(/(\d+)/.exec(line)![1]) : null;
    } catch {
      return null;
    }
  })();
  const pct = (list: number[], p: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  };
  const ms = (value: number) => +value.toFixed(1);

  const indexed = (await (await fetch(`${indexer.url}/api/games?limit=1`)).json()) as {
    total: number;
  };
  if (indexed.total !== filled.games) {
    throw new Error(
      `the indexer has ${indexed.total} finished games; the chain has ${filled.games}`,
    );
  }
  console.log(
    `\nIndexer benchmark: ${filled.games} games, ${board.total} players, ` +
      `${values.postgres ? "Postgres" : "PGlite"}\n`,
  );
  console.table([
    {
      step: "fill the chain",
      seconds: +filled.seconds.toFixed(1),
      "per second": `${(filled.games / filled.seconds).toFixed(1)} games`,
    },
    {
      step: "index from scratch",
      seconds: +indexSeconds.toFixed(1),
      "per second": `${Math.round(events / indexSeconds)} events`,
    },
    {
      step: "index and analyse every game",
      seconds: +analysedSeconds.toFixed(1),
      "per second": `${(filled.games / analysedSeconds).toFixed(1)} games`,
    },
    {
      step: `analysis in the indexer (${analysis.threads} thread)`,
      seconds: +analysis.workerSeconds.toFixed(1),
      "per second": `${(analysis.games / analysis.workerSeconds).toFixed(1)} games`,
    },
    {
      step: "analysis in one core, tables loaded",
      seconds: +analyseSeconds.toFixed(2),
      "per second": `${(sample.length / analyseSeconds).toFixed(1)} games (of ${sample.length})`,
    },
  ]);
  console.log(`${events} events in ${head - BigInt(stack.deployment.deploymentBlock)} blocks\n`);
  console.table(
    shapes.map((shape, i) => ({
      query: shape.name,
      runs: timings.cold.get(i)!.length,
      "computed p50": ms(pct(timings.cold.get(i)!, 50)),
      "computed p99": ms(pct(timings.cold.get(i)!, 99)),
      "cached p50": ms(pct(timings.warm.get(i)!, 50)),
      "cached p99": ms(pct(timings.warm.get(i)!, 99)),
    })),
  );
  console.log(
    `player page over HTTP, ${playerTimes.length} players: p50 ${pct(playerTimes, 50).toFixed(1)} ms, ` +
      `p99 ${pct(playerTimes, 99).toFixed(1)} ms`,
  );
  console.log(
    `indexer peak memory (VmHWM): ${peakKb === null ? "unknown" : `${(peakKb / 1024).toFixed(0)} MB`}`,
  );
  for (const [name, series] of [
    ["computed afresh", timings.cold],
    ["cached board", timings.warm],
  ] as const) {
    const all = [...series.values()].flat();
    const p99 = pct(all, 99);
    console.log(
      `leaderboard over HTTP, ${name}, ${all.length} queries: p50 ${pct(all, 50).toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms (target p99 < 50 ms): ${p99 < 50 ? "met" : "NOT met"}`,
    );
  }
} finally {
  await stopAll();
}

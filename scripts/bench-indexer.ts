// `npm run bench:indexer`: puts N whole games on a local chain of its own (the HallFiller plays
// each in one transaction, scripts/lib/fillGames.ts), starts the indexer on it, and prints how fast
// it indexed them (events/s) and how fast the leaderboard answers over HTTP at that size (p50/p99).
// Target: leaderboard p99 under 50 ms at 10 000 games.
//
// Flags: --games N (default 10000), --players P (distinct players, default 500), --queries Q
// (leaderboard requests timed, default 400), --seed S (default 1), --postgres URL (index into
// this Postgres database, as production does, instead of PGlite; a schema of its own, dropped). Each game is one transaction and one block (~190 hall events). Nothing else
// should run meanwhile: the figures are the machine's.
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { performance } from "node:perf_hooks";
import { leaderboardSearch, type LeaderboardQuery } from "@dicehall/core/indexer/indexerWire.ts";
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

  // 3. The leaderboard, as the app asks for it: filters, sorts, pages, the viewer's rank.
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

// `npm run bench:indexer`: the indexer at the size of a busy hall. Plays N whole games on a local
// chain of its own (the HallFiller plays each in one transaction, scripts/lib/fillGames.ts) and
// indexes them from scratch; stops the indexer and writes a history of H more finished games
// straight into its database (scripts/lib/seedIndex.ts: bots of set skill, every row the indexer
// would write, the coach's analysis of every game timed on one core); plays N more games on the
// chain and restarts the indexer on the big index (Ponder's crash recovery, as a production
// restart); then times the leaderboard and the player pages over HTTP (p50/p99) and reads the
// indexer's peak memory. Targets: query p99 under 50 ms; analysis at least 200 games/s per core.
//
// Flags: --history H (default 100000; 0 skips the seeding), --games N (default 1000, each fill),
// --players P (the history's players, default 2000), --seats S (the chain games' players,
// default 100), --queries Q (requests timed per series, default 400), --seed S (default 1),
// --no-logs (seed without the ~200 hall_log rows a game), --postgres URL (index into this
// Postgres database, as production does, instead of PGlite; a schema of its own, dropped after),
// --hold (after the tables, keep the chain and the indexer up until Ctrl-C, to look closer).
// Nothing else should run meanwhile: the figures are the machine's.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { performance } from "node:perf_hooks";
import { numberToHex, pad, parseEther, parseUnits } from "viem";
import {
  leaderboardSearch,
  type LeaderboardQuery,
  type WireGameLogs,
} from "@dicehall/core/indexer/indexerWire.ts";
import { decodeLogs } from "@dicehall/core/events/hallEvents.ts";
import { analyseGameLogs } from "@dicehall/core/game/gameAnalysis.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { clients, mineEmptyBlocks } from "./lib/chain.ts";
import { ROOT } from "./lib/deployments.ts";
import { stackIndexer, startDevStack } from "./lib/devStack.ts";
import { fillGames, type FillResult } from "./lib/fillGames.ts";
import { INDEXER_ROOT, INDEXER_SCHEMA, startIndexer, type Indexer } from "./lib/indexer.ts";
import { coachTables } from "./lib/seedGames.ts";
import { seedStoppedIndex, type SeedResult, type Sql } from "./lib/seedIndex.ts";
import { parseServerTiming } from "./lib/serverTiming.ts";
import { NATIVE } from "./lib/table.ts";

const { values } = parseArgs({
  options: {
    history: { type: "string", default: "100000" },
    games: { type: "string", default: "1000" },
    players: { type: "string", default: "2000" },
    seats: { type: "string", default: "100" },
    postgres: { type: "string" },
    queries: { type: "string", default: "400" },
    seed: { type: "string", default: "1" },
    "no-logs": { type: "boolean", default: false },
    hold: { type: "boolean", default: false },
  },
});
const history = Number(values.history);
const games = Number(values.games);
const queries = Number(values.queries);
const players = Number(values.players);
const seats = Number(values.seats);
for (const [name, value] of Object.entries({ games, queries, players, seats, history })) {
  if (!Number.isSafeInteger(value) || value < (name === "history" ? 0 : 1)) {
    console.error(`bench:indexer: --${name} must be a whole number above 0`);
    process.exit(1);
  }
}
if (seats < 4) {
  console.error("bench:indexer: --seats must be at least 4 (a table has up to four)");
  process.exit(1);
}
const say = (line: string) => console.log(`[bench] ${line}`);
const schema = `dicehall_bench_${process.pid}`;
/** The seeded history's blocks: one finished game a minute (100 000 games: ten weeks). */
const BLOCK_SECONDS = 60;

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
const dataDir = join(ROOT, ".dev", `indexer-bench-${process.pid}`);
stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));

/** The indexer's cache of the coach's tables (its worker writes them on the first start). */
const COACH_CACHE = join(INDEXER_ROOT, ".ponder", "coach");

/** The stopped indexer's database, as the seeder writes it: PGlite's files or the Postgres schema. */
async function openIndexDatabase(): Promise<{ sql: Sql; schema: string; close(): Promise<void> }> {
  if (values.postgres) {
    const client = new pg.Client({ connectionString: values.postgres });
    await client.connect();
    return { sql: client, schema, close: () => client.end() };
  }
  const db = new PGlite(dataDir);
  return { sql: db, schema: INDEXER_SCHEMA, close: () => db.close() };
}

/**
 * Moves the hall's game counter from `from` to `to` (the seeded history took those ids): finds
 * its storage slot by trying the slots that hold `from`, and checks nextGameId() after.
 */
async function moveGameCounter(
  publicClient: ReturnType<typeof clients>["publicClient"],
  from: bigint,
  to: bigint,
): Promise<void> {
  const address = stack.addresses.diceHall;
  const read = () =>
    publicClient.readContract({ address, abi: diceHallAbi, functionName: "nextGameId" });
  const word = (value: bigint) => pad(numberToHex(value), { size: 32 });
  for (let slot = 0n; slot < 256n; slot++) {
    const at = numberToHex(slot, { size: 32 });
    const held = await publicClient.getStorageAt({ address, slot: at });
    if (held === undefined || BigInt(held) !== from) continue;
    await publicClient.request({
      method: "hardhat_setStorageAt" as never,
      params: [address, at, word(to)] as never,
    });
    if ((await read()) === to) return;
    await publicClient.request({
      method: "hardhat_setStorageAt" as never,
      params: [address, at, word(from)] as never,
    });
  }
  throw new Error("bench:indexer: the hall's game counter was not found in its storage");
}

try {
  // Reads are retried (the node may close a connection left idle while the history is seeded);
  // transactions are not, so that none is sent twice.
  const { publicClient } = clients(stack.rpcUrl, stack.chainId, { retryCount: 3 });
  const { wallet } = clients(stack.rpcUrl, stack.chainId);
  const rpc = (method: string, params: unknown[]) =>
    publicClient.request({ method: method as never, params: params as never });

  // 1. Games on the chain; the same players play the second fill.
  let filler: FillResult["filler"] | undefined;
  const fill = async (seed: bigint) => {
    let lastReport = 0;
    const filled = await fillGames({
      publicClient,
      wallet: wallet(stack.accounts[0]),
      diceHall: stack.addresses.diceHall,
      mockEntropy: stack.addresses.mockEntropy,
      testToken: stack.addresses.testToken,
      games,
      seed,
      seats,
      filler,
      onProgress: (p) => {
        if (p.seconds - lastReport < 30 && p.games < p.of) return;
        lastReport = p.seconds;
        say(`filled ${p.games} of ${p.of} games (${(p.games / p.seconds).toFixed(1)}/s)`);
      },
    });
    filler = filled.filler;
    return filled;
  };
  const indexerEvents = async (indexer: Indexer) => {
    const metrics = await (await fetch(`${indexer.url}/metrics`)).text();
    let events = 0;
    for (const line of metrics.split("\n")) {
      const match = /^ponder_indexing_completed_events\{[^}]*\} (\d+)/.exec(line);
      if (match) events += Number(match[1]);
    }
    return events;
  };
  /** Starts the indexer and waits until it has indexed the head and analysed `finished` games. */
  const index = async (resume: boolean, finished: number) => {
    const head = await publicClient.getBlockNumber({ cacheTime: 0 });
    const started = performance.now();
    const indexer = await startIndexer({
      port: 0,
      ...stackIndexer(stack),
      dataDir,
      resume,
      readyTimeoutMs: 3 * 3600_000,
      postgres: values.postgres ? { url: values.postgres, schema } : undefined,
      log: say,
    });
    say(`indexer ready after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    try {
      await indexer.waitForBlock(head, 3600_000);
      const indexSeconds = (performance.now() - started) / 1000;
      // Every game is final by then (see settle): analysed, and folded into the running sums.
      const analysis = await indexer.waitForAnalysis(finished, 3 * 3600_000, (status) =>
        say(`analysed ${status.analysed} of ${finished} games, ${status.folded} folded`),
      );
      const analysedSeconds = (performance.now() - started) / 1000;
      const events = await indexerEvents(indexer);
      return { indexer, indexSeconds, analysedSeconds, analysis, events };
    } catch (err) {
      await indexer.stop();
      throw err;
    }
  };
  if (values.postgres) stops.push(() => dropSchema(values.postgres!, schema));

  /**
   * Empty blocks mined one by one after a fill, so that every game is older than the blocks Ponder
   * treats as not yet final (the last 30 here). Its backfill then indexes them all, and a restart
   * has no unfinalized writes to take back and redo. The blocks after hardhat_mine's must be
   * ordinary ones too: the node reports a hash for the last of those that is not the parent hash
   * of the block after it, which Ponder takes for a deep reorg.
   */
  const settle = () => mineEmptyBlocks(publicClient, 64);

  const first = await fill(BigInt(values.seed));
  await settle();
  say(`chain: ${first.games} games in blocks ${first.firstBlock}–${first.lastBlock}`);
  const fresh = await index(false, first.games);
  const freshAnalysis = fresh.analysis;
  await fresh.indexer.stop();

  // 2. The history, in blocks mined for it (one game a block, a minute apart), with game ids
  // after the first fill's; the hall's game counter is moved past them for the second fill.
  let seeded: SeedResult | null = null;
  if (history > 0) {
    const before = await publicClient.getBlockNumber({ cacheTime: 0 });
    await rpc("hardhat_mine", [numberToHex(history), numberToHex(BLOCK_SECONDS)]);
    const firstSeeded = await publicClient.getBlock({ blockNumber: before + 1n });
    const nextGameId = await publicClient.readContract({
      address: stack.addresses.diceHall,
      abi: diceHallAbi,
      functionName: "nextGameId",
    });
    const sql = await openIndexDatabase();
    try {
      const seedStarted = performance.now();
      let lastReport = 0;
      seeded = await seedStoppedIndex({
        sql: sql.sql,
        schema: sql.schema,
        hall: stack.addresses.diceHall,
        games: history,
        firstGameId: nextGameId,
        firstBlock: firstSeeded.number,
        firstTimestamp: firstSeeded.timestamp,
        blockSeconds: BLOCK_SECONDS,
        players,
        tokens: [
          {
            address: NATIVE,
            bets: [parseEther("0.001"), parseEther("0.002"), parseEther("0.005")],
            share: 0.8,
          },
          {
            address: stack.addresses.testToken,
            bets: [parseUnits("5", 18), parseUnits("20", 18)],
            share: 0.2,
          },
        ],
        houseFeeBps: 250,
        seed: Number(values.seed),
        firstSequence: 1n << 40n,
        logs: !values["no-logs"],
        cacheDir: COACH_CACHE,
        onProgress: (done, of) => {
          const seconds = (performance.now() - seedStarted) / 1000;
          if (seconds - lastReport < 30 && done < of) return;
          lastReport = seconds;
          say(`seeded ${done} of ${of} games (${(done / seconds).toFixed(0)}/s)`);
        },
      });
    } finally {
      await sql.close();
    }
    await moveGameCounter(publicClient, nextGameId, nextGameId + BigInt(history));
    say(
      `history: games ${nextGameId}–${nextGameId + BigInt(history) - 1n} in blocks ${firstSeeded.number}–${seeded.last?.block}`,
    );
  }

  // 3. More games on the chain, indexed by a restart on the big index.
  const second = await fill(BigInt(values.seed) + 1n);
  await settle();
  say(
    `chain: games ${second.gameIds[0]}–${second.gameIds.at(-1)} in blocks ${second.firstBlock}–${second.lastBlock}`,
  );
  const total = first.games + second.games + history;
  const restarted = await index(true, total);
  const indexer = restarted.indexer;
  stops.push(() => indexer.stop());
  const restartAnalysis = restarted.analysis;

  // The coach on one core with its tables loaded, the indexer idle: the first 1 000 games of the
  // history (else of the chain), their logs as the index serves them.
  const tableOf = coachTables(COACH_CACHE);
  // (The chain's first games when the history was seeded without its logs.)
  const fromHistory = seeded !== null && !values["no-logs"];
  const sampleFrom = fromHistory ? seeded!.firstGameId : 1n;
  const sample: { id: bigint; logs: ReturnType<typeof decodeLogs> }[] = [];
  for (let id = sampleFrom; sample.length < Math.min(1000, fromHistory ? history : games); id++) {
    const { logs } = (await (
      await fetch(`${indexer.url}/api/games/${id}/logs`)
    ).json()) as WireGameLogs;
    sample.push({ id, logs: decodeLogs(logs) });
  }
  for (const ruleSet of [0, 1, 2, 3] as const) tableOf(ruleSet);
  const analyseStarted = performance.now();
  let analysedInSample = 0;
  for (const { id, logs } of sample) if (analyseGameLogs(id, logs, tableOf)) analysedInSample++;
  const analyseSeconds = (performance.now() - analyseStarted) / 1000;
  if (analysedInSample !== sample.length) {
    throw new Error(`the coach followed ${analysedInSample} of ${sample.length} games`);
  }
  // 4. The leaderboard, as the app asks for it: filters, sorts, pages, the viewer's rank.
  const board = (await (await fetch(`${indexer.url}/api/leaderboard?limit=500`)).json()) as {
    rows: { player: string }[];
    total: number;
  };
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
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
  /**
   * The leaderboard and player pages as one server answers them. Each round asks every shape
   * twice: computed afresh (Cache-Control: no-cache; what the first visitor after a game ends
   * waits for) and as the next visitor gets it (the sorted board cached until a game finishes).
   */
  const measure = async (url: string) => {
    const timings = { cold: new Map<number, number[]>(), warm: new Map<number, number[]>() };
    /** Each computed board's parts as its Server-Timing gives them, beside the whole over HTTP. */
    const parts: Map<string, number>[] = [];
    const ask = async (shape: number, cold: boolean) => {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/leaderboard?${leaderboardSearch(shapes[shape].query)}`, {
        headers: cold ? { "cache-control": "no-cache" } : {},
      });
      if (!res.ok) {
        throw new Error(`leaderboard query failed: HTTP ${res.status} ${await res.text()}`);
      }
      await res.json();
      const ms = performance.now() - t0;
      const server = parseServerTiming(res.headers.get("server-timing"));
      const part = new Map([...server].map(([name, { ms }]) => [name, ms]));
      part.set("http", ms);
      return { ms, part };
    };
    for (let i = 0; i < queries + shapes.length; i++) {
      const shape = i % shapes.length;
      const cold = await ask(shape, true);
      const warm = await ask(shape, false);
      // The first round warms up connections and the database's plans; it is not counted.
      if (i < shapes.length) continue;
      parts.push(cold.part);
      for (const [series, ms] of [
        [timings.cold, cold.ms],
        [timings.warm, warm.ms],
      ] as const) {
        series.set(shape, [...(series.get(shape) ?? []), ms]);
      }
    }
    // A player's page, for players across the board (nothing cached: each is computed).
    const playerTimes: number[] = [];
    for (let i = 0; i < queries + 20; i++) {
      const player = board.rows[(i * 7919) % board.rows.length].player;
      const t0 = performance.now();
      const res = await fetch(`${url}/api/players/${player}`);
      if (!res.ok) throw new Error(`player page failed: HTTP ${res.status} ${await res.text()}`);
      await res.json();
      if (i >= 20) playerTimes.push(performance.now() - t0);
    }
    return { timings, parts, playerTimes };
  };
  const measured = await measure(indexer.url);
  const { timings, parts } = measured;
  // The same from a read replica (`ponder serve` on the same database): the API in a process of
  // its own, beside the indexer's, as a busy hall would serve it.
  let replica: Awaited<ReturnType<typeof measure>> | null = null;
  if (values.postgres) {
    const server = await startIndexer({
      port: 0,
      ...stackIndexer(stack),
      dataDir,
      serve: true,
      postgres: { url: values.postgres, schema },
      log: say,
    });
    try {
      replica = await measure(server.url);
    } finally {
      await server.stop();
    }
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
  if (indexed.total !== total) {
    throw new Error(`the indexer has ${indexed.total} finished games; there are ${total}`);
  }
  const perSecond = (n: number, seconds: number, what: string) =>
    `${(n / seconds).toFixed(n / seconds < 100 ? 1 : 0)} ${what}`;
  console.log(
    `\nIndexer benchmark: ${total} finished games (${history} seeded, ${first.games + second.games} ` +
      `played on the chain), ${board.total} players, ${values.postgres ? "Postgres" : "PGlite"}\n`,
  );
  const steps = [
    {
      step: `fill the chain (${first.games} + ${second.games} games)`,
      seconds: +(first.seconds + second.seconds).toFixed(1),
      rate: perSecond(first.games + second.games, first.seconds + second.seconds, "games"),
    },
    {
      step: `index ${first.games} games from scratch`,
      seconds: +fresh.indexSeconds.toFixed(1),
      rate: perSecond(fresh.events, fresh.indexSeconds, "events"),
    },
    {
      step: "  and analyse every one (from the start)",
      seconds: +fresh.analysedSeconds.toFixed(1),
      rate: `${freshAnalysis.threads} thread: ${perSecond(freshAnalysis.games, freshAnalysis.workerSeconds, "games")}`,
    },
  ];
  if (seeded) {
    steps.push(
      {
        step: `seed ${history} games into the stopped index`,
        seconds: +seeded.seconds.toFixed(1),
        rate: `${perSecond(history, seeded.seconds, "games")}, ${seeded.logs} logs`,
      },
      {
        step: "  of which the bots' play",
        seconds: +seeded.playSeconds.toFixed(1),
        rate: perSecond(history, seeded.playSeconds, "games"),
      },
      {
        step: "  of which the analysis, one core, tables loaded",
        seconds: +seeded.analysisSeconds.toFixed(1),
        rate: perSecond(history, seeded.analysisSeconds, "games"),
      },
    );
  }
  steps.push(
    {
      step: `restart on the big index and index ${second.games} more`,
      seconds: +restarted.indexSeconds.toFixed(1),
      rate: perSecond(restarted.events, restarted.indexSeconds, "events"),
    },
    {
      step: "  and analyse every new one (from the restart)",
      seconds: +restarted.analysedSeconds.toFixed(1),
      rate: `${restartAnalysis.threads} thread: ${perSecond(restartAnalysis.games, restartAnalysis.workerSeconds, "games")}`,
    },
    {
      step: `analysis on one core, tables loaded (${sample.length} games)`,
      seconds: +analyseSeconds.toFixed(2),
      rate: perSecond(sample.length, analyseSeconds, "games"),
    },
  );
  console.table(steps);
  if (seeded) {
    console.log(
      `seeded rows: ${Object.entries(seeded.rows)
        .map(([table, n]) => `${table} ${n}`)
        .join(", ")}\n`,
    );
  }
  console.table(
    shapes.map((shape, i) => ({
      query: shape.name,
      runs: timings.cold.get(i)!.length,
      "computed p50": ms(pct(timings.cold.get(i)!, 50)),
      "computed p99": ms(pct(timings.cold.get(i)!, 99)),
      "cached p50": ms(pct(timings.warm.get(i)!, 50)),
      "cached p99": ms(pct(timings.warm.get(i)!, 99)),
      ...(replica && {
        "replica: computed p50": ms(pct(replica.timings.cold.get(i)!, 50)),
        "computed p99 ": ms(pct(replica.timings.cold.get(i)!, 99)),
      }),
    })),
  );
  // Where a computed board's time goes: each part's p50 and p99, and the parts of the slowest 1 %
  // of requests on average. The parts are the ones the API's Server-Timing names (the board
  // statement, shaping its rows, the garbage collector), after the whole over HTTP.
  const slowest = [...parts]
    .sort((a, b) => b.get("http")! - a.get("http")!)
    .slice(0, Math.max(1, Math.ceil(parts.length / 100)));
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  console.table(
    ["http", ...new Set(parts.flatMap((p) => [...p.keys()].filter((k) => k !== "http")))].map(
      (name) => ({
        "computed board, part": name,
        p50: ms(
          pct(
            parts.map((p) => p.get(name) ?? 0),
            50,
          ),
        ),
        p99: ms(
          pct(
            parts.map((p) => p.get(name) ?? 0),
            99,
          ),
        ),
        [`slowest ${slowest.length}, mean`]: ms(mean(slowest.map((p) => p.get(name) ?? 0))),
      }),
    ),
  );
  console.log(
    `indexer peak memory (VmHWM): ${peakKb === null ? "unknown" : `${(peakKb / 1024).toFixed(0)} MB`}`,
  );
  const overall = (run: Awaited<ReturnType<typeof measure>>, who: string) => {
    for (const [name, series] of [
      ["computed afresh", run.timings.cold],
      ["cached board", run.timings.warm],
    ] as const) {
      const all = [...series.values()].flat();
      const p99 = pct(all, 99);
      console.log(
        `leaderboard over HTTP from ${who}, ${name}, ${all.length} queries: ` +
          `p50 ${pct(all, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target p99 < 50 ms): ` +
          (p99 < 50 ? "met" : "NOT met"),
      );
    }
    console.log(
      `player page over HTTP from ${who}, ${run.playerTimes.length} players: ` +
        `p50 ${pct(run.playerTimes, 50).toFixed(1)} ms, p99 ${pct(run.playerTimes, 99).toFixed(1)} ms`,
    );
  };
  overall(measured, "the indexer");
  if (replica) overall(replica, "a read replica (ponder serve)");
  if (values.hold) {
    say(
      `holding: indexer ${indexer.url}` +
        (values.postgres ? `, schema ${schema}` : `, PGlite in ${dataDir}`) +
        `, chain ${stack.rpcUrl}; Ctrl-C ends`,
    );
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
  }
} finally {
  await stopAll();
}

import { Hono } from "hono";
import { cors } from "hono/cors";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { and, asc, client, count, desc, eq, sql } from "ponder";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { getAddress, numberToHex, type Address } from "viem";
import {
  rowFromSums,
  sortLeaderboard,
  type LeaderboardRow,
  type LeaderboardSums,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import {
  BadQueryError,
  INDEXER_API_VERSION,
  gameToWire,
  isSkillSortKey,
  parseGamesQuery,
  parseLeaderboardQuery,
  rowToWire,
  type WireAccuracyPoint,
  type WireAnalysisStatus,
  type WireGameAnalysis,
  type WireGameLogs,
  type WirePlayer,
  type WireSkill,
  type WireGames,
  type WireLeaderboard,
  type WireStatus,
} from "@dicehall/core/indexer/indexerWire.ts";
import { currentSettings } from "../settings.ts";
import {
  ANALYSED_JOIN,
  createAnalysisTables,
  finalizedBlock,
  quote,
  startAnalyser,
  type Sql,
} from "./analysis/analyser.ts";

const { boardVersion, game, hallLog, playerGame, playerTokenTotal, tokenSeen } = schema;
const settings = currentSettings();

/**
 * Raw SQL on the index's database: Ponder's read-only connection (PGlite in-process, or its
 * read-only Postgres pool), and for the analysis tables a writer (the same PGlite, or a small pool
 * of our own on Postgres). Every statement names the schema Ponder writes.
 */
const read = (db as unknown as { $client: Sql }).$client;
const schemaName = (async () => {
  const { rows } = await read.query<{ schema: string }>("select current_schema() as schema");
  return rows[0].schema;
})();

// INDEXER_ANALYSIS_THREADS=0 turns the analysis off (its endpoints then answer 404).
const analyser = schemaName.then(async (schema) => {
  const write: Sql = settings.databaseUrl
    ? new pg.Pool({ connectionString: settings.databaseUrl, max: 2 })
    : read;
  await createAnalysisTables(write, schema);
  if (settings.analysisThreads === 0) return null;
  return startAnalyser({
    read,
    write,
    schema,
    cacheDir:
      settings.coachCacheDir ??
      join(fileURLToPath(new URL("../../", import.meta.url)), ".ponder", "coach"),
    threads: settings.analysisThreads,
    pollMs: settings.local ? 200 : 1_000,
    log: (line) => console.warn(line),
  });
});
/** The schema, quoted, once the analysis tables exist. */
const S = analyser.then(() => schemaName).then(quote);
analyser.catch((error) => console.error(`analysis did not start: ${error}`));

const app = new Hono();
// The app is served from another origin (the dev server, a static host).
app.use("/*", cors());
// Ponder's SQL-over-HTTP endpoint, read-only, for anyone who wants more than the routes below.
app.use("/sql/*", client({ db, schema }));

app.onError((err, c) => {
  if (err instanceof BadQueryError) return c.json({ error: err.message }, 400);
  console.error(err);
  return c.json({ error: "the indexer failed to answer; see its log" }, 500);
});

app.get("/api/status", async (c) => {
  const body: WireStatus = {
    version: INDEXER_API_VERSION,
    chainId: settings.chainId,
    hall: settings.hall,
    ...(await progress()),
  };
  return c.json(body);
});

app.get("/api/analysis", async (c) => {
  const running = await analyser;
  const s = await S;
  const { rows } = await read.query<{ n: number; folded: number }>(
    `select count(*)::int as n, (count(*) filter (where a.folded))::int as folded
     from ${s}.game_analysis a ${ANALYSED_JOIN(s)} where a.error is null`,
  );
  const { games, busyMs } = running?.stats() ?? { games: 0, busyMs: 0 };
  const body: WireAnalysisStatus = {
    analysed: rows[0].n,
    folded: rows[0].folded,
    finalBlock: (await finalizedBlock(read, await schemaName))?.toString() ?? null,
    threads: running ? settings.analysisThreads : 0,
    games,
    workerSeconds: busyMs / 1000,
  };
  return c.json(body);
});

/**
 * How far indexing has got, from Ponder's own bookkeeping: the latest checkpoint starts with the
 * block's time (10 digits), then the chain id (16) and the block number (16).
 */
async function progress(): Promise<{
  block: string | null;
  timestamp: number | null;
  ready: boolean;
}> {
  const result = (await db.execute(
    sql`select latest_checkpoint as checkpoint from _ponder_checkpoint`,
  )) as unknown as { rows: { checkpoint: string }[] } | { checkpoint: string }[];
  const rows = Array.isArray(result) ? result : result.rows;
  const meta = (await db.execute(
    sql`select value from _ponder_meta where key = 'app'`,
  )) as unknown as { rows: { value: { is_ready: number } }[] } | { value: { is_ready: number } }[];
  const metaRows = Array.isArray(meta) ? meta : meta.rows;
  const checkpoint = rows[0]?.checkpoint;
  return {
    block: checkpoint ? BigInt(checkpoint.slice(26, 42)).toString() : null,
    timestamp: checkpoint ? Number(checkpoint.slice(0, 10)) : null,
    ready: metaRows[0]?.value?.is_ready === 1,
  };
}

/** One player's sums in one token (see LeaderboardSums), as the sums tables hold them. */
type SumsRow = Omit<typeof playerTokenTotal.$inferSelect, "id">;

type Query = ReturnType<typeof parseLeaderboardQuery>;
const SECONDS_PER_DAY = 86_400;

/** A statement's filters as SQL text and its parameters ($1, $2, … in the order added). */
class Where {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];
  /** `clause` with one `?` for `value`. */
  add(clause: string, value: unknown): this {
    this.params.push(value);
    this.clauses.push(clause.replace("?", `$${this.params.length}`));
    return this;
  }
  toString(): string {
    return this.clauses.length ? `where ${this.clauses.join(" and ")}` : "";
  }
}

/** SumsRow as the statements below select it: amounts as text (they exceed int8). */
interface SumsText extends Omit<SumsRow, "points" | "staked" | "net" | "lastBlock"> {
  points: string;
  staked: string;
  net: string;
  last_block: string;
}

/**
 * Runs a statement that selects SumsRow's columns. Plain rows on the raw pool: at 2 000 players
 * they cost a third of what one JSON value of them did (json_agg in the database, then parsing).
 */
async function sumsOf(text: string, where: Where): Promise<SumsRow[]> {
  const { rows } = await read.query<SumsText>(text, where.params);
  return rows.map((r) => ({
    player: r.player,
    token: r.token,
    games: r.games,
    wins: r.wins,
    forfeits: r.forfeits,
    best: r.best,
    points: BigInt(r.points),
    completed: r.completed,
    yahtzees: r.yahtzees,
    staked: BigInt(r.staked),
    net: BigInt(r.net),
    lastBlock: BigInt(r.last_block),
  }));
}

/**
 * The query's rule set and token filters on a table's `rule_set` and `token` columns (`prefix`
 * names the table's alias: "g."); `ruleSet` false where the table has no rule set.
 */
function filters(query: Query, { prefix = "", ruleSet = true } = {}): Where {
  const where = new Where();
  if (query.ruleSet !== null && ruleSet) where.add(`${prefix}rule_set = ?`, query.ruleSet);
  if (query.token !== null) where.add(`${prefix}token = ?`, query.token);
  return where;
}

/** Rows of a running-totals table under the rule set and token filters. */
async function sumsRows(table: "player_token_total" | "player_total", query: Query) {
  const where = filters(query, { ruleSet: table === "player_total" });
  return sumsOf(
    `select player, token, games, wins, forfeits, best, points::text as points, completed,
       yahtzees, staked::text as staked, net::text as net, last_block::text as last_block
     from ${await S}.${table} ${where}`,
    where,
  );
}

/**
 * The daily sums after `firstDay`, summed per player and token by SQL: one row each however many
 * days and rule sets the period spans.
 */
async function sumsOfDays(query: Query, firstDay: number): Promise<SumsRow[]> {
  const where = filters(query).add("day > ?", firstDay);
  return sumsOf(
    `select player, token, sum(games)::int as games, sum(wins)::int as wins,
       sum(forfeits)::int as forfeits, max(best) as best, sum(points)::text as points,
       sum(completed)::int as completed, sum(yahtzees)::int as yahtzees,
       sum(staked)::text as staked, sum(net)::text as net, max(last_block)::text as last_block
     from ${await S}.player_day ${where} group by player, token`,
    where,
  );
}

/**
 * The games finished in a block range or time window, summed per player and token by SQL; `until`
 * (seconds, exclusive) bounds the window's end.
 */
async function sumsOfGames(query: Query, until: number | null = null): Promise<SumsRow[]> {
  const where = filters(query);
  if (query.fromBlock !== null) where.add("finished_block >= ?", query.fromBlock.toString());
  if (query.toBlock !== null) where.add("finished_block <= ?", query.toBlock.toString());
  if (query.since !== null) where.add("finished_at >= ?", query.since);
  if (until !== null) where.add("finished_at < ?", until);
  return sumsOf(
    `select player, token, count(*)::int as games, sum(won)::int as wins,
       sum(forfeited)::int as forfeits, max(total) as best, coalesce(sum(total), 0)::text as points,
       count(total)::int as completed, sum(yahtzees)::int as yahtzees,
       sum(staked)::text as staked, sum(net)::text as net, max(finished_block)::text as last_block
     from ${await S}.player_game ${where} group by player, token`,
    where,
  );
}

/**
 * The sums the query asks for, read where they cost least: all time from the running totals (one
 * row per player and token, or per rule set too); a period from its whole days plus the games of
 * the part of its first day; a block range from its games.
 */
async function leaderboardSums(query: Query): Promise<SumsRow[]> {
  if (query.fromBlock !== null || query.toBlock !== null) return sumsOfGames(query);
  if (query.since === null) {
    return sumsRows(query.ruleSet === null ? "player_token_total" : "player_total", query);
  }
  const firstDay = Math.floor(query.since / SECONDS_PER_DAY);
  const [days, firstDayGames] = await Promise.all([
    sumsOfDays(query, firstDay),
    sumsOfGames(query, (firstDay + 1) * SECONDS_PER_DAY),
  ]);
  return [...days, ...firstDayGames];
}

/**
 * The garbage collector's recent pauses in this process (performance.now() times), so that a
 * request's Server-Timing can say how much of it the collector took (the benchmark reads it).
 */
const gcPauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcPauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }
  if (gcPauses.length > 512) gcPauses.splice(0, gcPauses.length - 256);
}).observe({ entryTypes: ["gc"] });

/** Milliseconds of garbage collection between `from` and now. */
function gcSince(from: number): number {
  const now = performance.now();
  let ms = 0;
  for (const pause of gcPauses) {
    if (pause.end > from) ms += Math.min(pause.end, now) - Math.max(pause.start, from);
  }
  return ms;
}

/** How long each part of computing a board took (ms): the parts that run side by side overlap. */
interface BoardTimings {
  sums: number;
  ratings: number;
  accuracy: number;
  sort: number;
}

/** A sorted board and the token list, for one filter and sort at one board version. */
interface Board {
  version: string;
  sorted: LeaderboardRow[];
  skill: Map<string, WireSkill>;
  tokens: string[];
}

/**
 * Sorted boards by filter and sort: the board only changes when a game finishes (or a reorg
 * takes one back), so pages, the viewer's rank and repeat visits reuse the sort. A request with
 * `Cache-Control: no-cache` computes afresh (the benchmark's cold series).
 */
const boards = new Map<string, Board>();
const BOARDS_KEPT = 64;

async function currentVersion(): Promise<string> {
  const [v] = await db.select().from(boardVersion).where(eq(boardVersion.id, 1));
  // The skill columns change as the analyser (in this process) writes: its count is part of it.
  const analysed = (await analyser)?.stats().games ?? 0;
  return v ? `${v.games}:${v.lastBlock}:${v.lastHash}:${analysed}` : "empty";
}

interface AccuracySums {
  player: string;
  games: number;
  lost: number;
  best: number;
  decisions: number;
}

/**
 * Every player's analysed games under the query's filters, summed. Games whose finish is final are
 * read from the analyser's running sums (accuracy_total; a period from accuracy_day's whole days
 * plus the games of its first day), the few others by joining their analyses to the index's games
 * (analysis/analyser.ts, "folded"); a block range joins them all.
 */
async function accuracyOf(s: string, query: Query): Promise<Map<string, AccuracySums>> {
  const SUMMED = `sum(games)::int as games, sum(points_lost)::float8 as lost,
    sum(best_moves)::int as best, sum(decisions)::int as decisions`;
  const COUNTED = `count(*)::int as games, sum(a.points_lost)::float8 as lost,
    sum(a.best_moves)::int as best, sum(a.decisions)::int as decisions`;
  /** Analyses joined to the index's games (folded or not, or all when null), under `where`. */
  const joined = (folded: boolean | null, where: Where) => {
    const fold =
      folded === null
        ? ""
        : `join ${s}.game_analysis ga on ga.game_id = a.game_id
             and ga.finished_hash = a.finished_hash and ${folded ? "" : "not "}ga.folded`;
    return read.query<AccuracySums>(
      `select a.player, ${COUNTED} from ${s}.player_analysis a ${ANALYSED_JOIN(s)} ${fold}
       ${where} group by a.player`,
      where.params,
    );
  };
  const ofGames = () => {
    const where = filters(query, { prefix: "g." });
    if (query.since !== null) where.add("g.finished_at >= ?", query.since);
    return where;
  };
  const summed = (table: string, where: Where) =>
    read.query<AccuracySums>(
      `select player, ${SUMMED} from ${s}.${table} ${where} group by player`,
      where.params,
    );

  let reads: Promise<{ rows: AccuracySums[] }>[];
  if (query.fromBlock !== null || query.toBlock !== null) {
    const where = ofGames();
    if (query.fromBlock !== null) where.add("g.finished_block >= ?", query.fromBlock.toString());
    if (query.toBlock !== null) where.add("g.finished_block <= ?", query.toBlock.toString());
    reads = [joined(null, where)];
  } else if (query.since === null) {
    reads = [summed("accuracy_total", filters(query)), joined(false, ofGames())];
  } else {
    const firstDay = Math.floor(query.since / SECONDS_PER_DAY);
    reads = [
      summed("accuracy_day", filters(query).add("day > ?", firstDay)),
      // The folded games of the period's first day, from its start.
      joined(true, ofGames().add("g.finished_at < ?", (firstDay + 1) * SECONDS_PER_DAY)),
      joined(false, ofGames()),
    ];
  }
  const sums = new Map<string, AccuracySums>();
  for (const { rows } of await Promise.all(reads)) {
    for (const r of rows) {
      const seen = sums.get(r.player);
      sums.set(
        r.player,
        seen
          ? {
              player: r.player,
              games: seen.games + r.games,
              lost: seen.lost + r.lost,
              best: seen.best + r.best,
              decisions: seen.decisions + r.decisions,
            }
          : r,
      );
    }
  }
  return sums;
}

/** Every player's skill under the query's filters (lower-case player → WireSkill). */
async function skillOf(query: Query, timings: BoardTimings): Promise<Map<string, WireSkill>> {
  const s = await S;
  const started = performance.now();
  const timed = <T>(part: "ratings" | "accuracy", p: Promise<T>) =>
    p.then((value) => {
      timings[part] = performance.now() - started;
      return value;
    });
  const ratingsRead =
    query.ruleSet !== null
      ? read.query<{ player: string; ordinal: number; games: number }>(
          `select player, ordinal, games from ${s}.player_rating where rule_set = $1`,
          [query.ruleSet],
        )
      : // Each player's best rule set: a hash join, not a sort of every rating by player.
        read.query<{ player: string; ordinal: number; games: number }>(
          `select r.player, r.ordinal, r.games from ${s}.player_rating r
           join (select player, max(ordinal) as best from ${s}.player_rating group by player) b
             on b.player = r.player and r.ordinal = b.best`,
        );
  const [ratings, accuracy] = await Promise.all([
    timed("ratings", ratingsRead),
    timed("accuracy", accuracyOf(s, query)),
  ]);
  const skill = new Map<string, WireSkill>();
  const of = (player: string) => {
    let entry = skill.get(player);
    if (!entry) {
      entry = { rating: null, ratedGames: 0, analysedGames: 0, lossPerGame: null, bestShare: null };
      skill.set(player, entry);
    }
    return entry;
  };
  for (const r of ratings.rows) {
    const entry = of(r.player);
    // Two rule sets at the same best rating: the one with more games.
    if (entry.rating === r.ordinal && entry.ratedGames >= r.games) continue;
    Object.assign(entry, { rating: r.ordinal, ratedGames: r.games });
  }
  for (const r of accuracy.values()) {
    Object.assign(of(r.player), {
      analysedGames: r.games,
      lossPerGame: r.lost / r.games,
      bestShare: r.decisions ? r.best / r.decisions : null,
    });
  }
  return skill;
}

const NO_SKILL: WireSkill = {
  rating: null,
  ratedGames: 0,
  analysedGames: 0,
  lossPerGame: null,
  bestShare: null,
};

async function computeBoard(query: Query, version: string, timings: BoardTimings): Promise<Board> {
  const byPlayer = new Map<string, LeaderboardSums[]>();
  // The skill columns' queries run beside the sums'.
  const started = performance.now();
  const skillRead = skillOf(query, timings);
  skillRead.catch(() => {});
  const sums = await leaderboardSums(query);
  timings.sums = performance.now() - started;
  for (const row of sums) {
    const list = byPlayer.get(row.player) ?? [];
    list.push({
      token: row.token,
      games: row.games,
      wins: row.wins,
      forfeits: row.forfeits,
      best: row.best,
      points: Number(row.points),
      completed: row.completed,
      yahtzees: row.yahtzees,
      staked: row.staked,
      net: row.net,
      lastBlock: row.lastBlock,
    });
    byPlayer.set(row.player, list);
  }
  // Lower-case players sort the same (the tie-break ignores case); the page is checksummed below.
  const rows = [...byPlayer].map(([player, sums]) => rowFromSums(player as Address, sums));
  const skill = await skillRead;
  const sortStarted = performance.now();
  let sorted: LeaderboardRow[];
  if (isSkillSortKey(query.sort)) {
    // By the skill number (players without one last), ties as the default board.
    const key = query.sort;
    const sign = query.direction === "asc" ? 1 : -1;
    const value = (r: LeaderboardRow) => skill.get(r.player.toLowerCase())?.[key] ?? null;
    sorted = sortLeaderboard(rows).sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return sign * (x - y);
    });
  } else {
    sorted = sortLeaderboard(rows, {
      key: query.sort,
      direction: query.direction,
      token: query.sortToken,
    });
  }
  timings.sort = performance.now() - sortStarted;
  const tokens = (await db.select().from(tokenSeen)).map((t) => t.token as string).sort();
  return { version, sorted, tokens, skill };
}

const checksummed = (row: LeaderboardRow) => rowToWire({ ...row, player: getAddress(row.player) });

app.get("/api/leaderboard", async (c) => {
  const started = performance.now();
  const query = parseLeaderboardQuery(new URL(c.req.url).searchParams);
  const key = JSON.stringify([
    query.ruleSet,
    query.token,
    query.fromBlock?.toString(),
    query.toBlock?.toString(),
    query.since,
    query.sort,
    query.direction,
    query.sortToken,
  ]);
  const version = await currentVersion();
  const versionMs = performance.now() - started;
  const timings: BoardTimings = { sums: 0, ratings: 0, accuracy: 0, sort: 0 };
  let board = boards.get(key);
  const fresh = c.req.header("cache-control")?.includes("no-cache") ?? false;
  const hit = board !== undefined && board.version === version && !fresh;
  if (hit) {
    boards.delete(key);
  } else {
    board = await computeBoard(query, version, timings);
    if (boards.size >= BOARDS_KEPT) boards.delete(boards.keys().next().value!);
  }
  boards.set(key, board!);
  const { sorted, tokens, skill } = board!;
  const meAt = query.me === null ? -1 : sorted.findIndex((r) => r.player === query.me);
  const page = sorted.slice(query.offset, query.offset + query.limit);
  const body: WireLeaderboard = {
    rows: page.map(checksummed),
    skill: page.map((r) => skill.get(r.player.toLowerCase()) ?? NO_SKILL),
    total: sorted.length,
    tokens,
    me:
      meAt < 0
        ? null
        : {
            rank: meAt + 1,
            row: checksummed(sorted[meAt]),
            skill: skill.get(sorted[meAt].player.toLowerCase()) ?? NO_SKILL,
          },
  };
  // The whole request, then its parts: the board's version, the sums, the skill columns' two
  // reads (beside the sums), the sort, and the garbage collector's pauses meanwhile.
  const dur = (ms: number) => ms.toFixed(1);
  c.header(
    "Server-Timing",
    [
      `board;desc="${hit ? "cached" : "computed"}";dur=${dur(performance.now() - started)}`,
      `version;dur=${dur(versionMs)}`,
      ...(hit ? [] : Object.entries(timings).map(([part, ms]) => `${part};dur=${dur(ms)}`)),
      `gc;dur=${dur(gcSince(started))}`,
    ].join(", "),
  );
  return c.json(body);
});

app.get("/api/games", async (c) => {
  const { player, offset, limit } = parseGamesQuery(new URL(c.req.url).searchParams);
  const finished = eq(game.status, "finished");
  const filter = player
    ? and(
        finished,
        sql`${game.id} in (select ${playerGame.gameId} from ${playerGame} where ${playerGame.player} = ${player})`,
      )
    : finished;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(game).where(filter).orderBy(desc(game.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(game).where(filter),
  ]);
  const body: WireGames = {
    total,
    games: rows.map((g) =>
      gameToWire({
        gameId: g.id,
        blockNumber: g.finishedBlock!,
        timestamp: Number(g.finishedAt!),
        ruleSet: g.ruleSet,
        token: getAddress(g.token),
        bet: g.bet,
        players: g.players!.map((p) => getAddress(p)),
        totals: g.totals!,
        winners: g.winners!.map((p) => getAddress(p)),
        forfeited: g.forfeited.map((p) => getAddress(p)),
        payoutEach: g.payoutEach!,
        houseFee: g.houseFee!,
      }),
    ),
  };
  return c.json(body);
});

app.get("/api/games/:id/logs", async (c) => {
  const raw = c.req.param("id");
  if (!/^\d{1,30}$/.test(raw)) throw new BadQueryError("the game id must be a number");
  const rows = await db
    .select()
    .from(hallLog)
    .where(eq(hallLog.gameId, BigInt(raw)))
    .orderBy(asc(hallLog.blockNumber), asc(hallLog.logIndex));
  const body: WireGameLogs = {
    logs: rows.map((r) => ({
      address: settings.hall,
      topics: r.topics as [`0x${string}`, ...`0x${string}`[]],
      data: r.data,
      blockNumber: numberToHex(r.blockNumber),
      blockHash: r.blockHash,
      logIndex: numberToHex(r.logIndex),
      transactionIndex: numberToHex(r.transactionIndex),
      transactionHash: r.transactionHash,
      removed: false,
    })),
  };
  return c.json(body);
});

/** Full reviews computed lately, by game and finishing block (the page's repeat visits). */
const reviews = new Map<string, WireGameAnalysis["review"]>();
const REVIEWS_KEPT = 128;

app.get("/api/games/:id/analysis", async (c) => {
  const raw = c.req.param("id");
  if (!/^\d{1,30}$/.test(raw)) throw new BadQueryError("the game id must be a number");
  const s = await S;
  const { rows } = await read.query<{
    seat: number;
    player: string;
    rule_set: number;
    decisions: number;
    best_moves: number;
    points_lost: number;
    score: number;
    mistake: WireAccuracyPoint["mistake"];
    hash: string;
  }>(
    `select a.seat, a.player, a.rule_set, a.decisions, a.best_moves, a.points_lost, a.score,
       a.mistake, g.finished_hash as hash
     from ${s}.player_analysis a ${ANALYSED_JOIN(s)}
     where a.game_id = $1 order by a.seat`,
    [raw],
  );
  if (rows.length === 0) {
    // Not an error (the app asks right after a game ends): it analyses the game itself then.
    const body: WireGameAnalysis = {
      gameId: raw,
      analysed: false,
      ruleSet: null,
      players: [],
      review: null,
    };
    return c.json(body);
  }
  const key = `${raw}:${rows[0].hash}`;
  let review = reviews.get(key);
  if (review === undefined) {
    review = (await (await analyser)?.review(BigInt(raw))) ?? null;
    if (reviews.size >= REVIEWS_KEPT) reviews.delete(reviews.keys().next().value!);
    reviews.set(key, review);
  }
  const body: WireGameAnalysis = {
    gameId: raw,
    analysed: true,
    ruleSet: rows[0].rule_set,
    players: rows.map((r) => ({
      player: getAddress(r.player),
      seat: r.seat,
      decisions: r.decisions,
      bestMoves: r.best_moves,
      pointsLost: r.points_lost,
      score: r.score,
      mistake: r.mistake,
    })),
    review,
  };
  return c.json(body);
});

/** How many rating changes and analysed games a player page carries at most. */
const HISTORY_KEPT = 500;

app.get("/api/players/:address", async (c) => {
  const raw = c.req.param("address");
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new BadQueryError("the player must be an address");
  const player = raw.toLowerCase();
  const s = await S;
  type Point = {
    game_id: string;
    rule_set: number;
    at: string;
    points_lost: number;
    decisions: number;
    best_moves: number;
    mistake: WireAccuracyPoint["mistake"];
  };
  const [ratings, history, totals, accuracy, mistakes] = await Promise.all([
    read.query<{ rule_set: number; ordinal: number; mu: number; sigma: number; games: number }>(
      `select rule_set, ordinal, mu, sigma, games from ${s}.player_rating where player = $1
       order by rule_set`,
      [player],
    ),
    read.query<{
      rule_set: number;
      game_id: string;
      at: string;
      ordinal: number;
      mu: number;
      sigma: number;
    }>(
      `select * from (select rule_set, game_id::text as game_id, finished_at::text as at, ordinal,
         mu, sigma, finished_block from ${s}.rating_change where player = $1
         order by finished_block desc, game_id desc limit ${HISTORY_KEPT}) r
       order by finished_block, game_id`,
      [player],
    ),
    read.query<{
      token: string;
      games: number;
      wins: number;
      forfeits: number;
      net: string;
      staked: string;
    }>(
      `select token, games, wins, forfeits, net::text as net, staked::text as staked
       from ${s}.player_token_total where player = $1`,
      [player],
    ),
    read.query<Point>(
      `select * from (select a.game_id::text as game_id, a.rule_set, g.finished_at::text as at,
         a.points_lost, a.decisions, a.best_moves, a.mistake, g.finished_block
         from ${s}.player_analysis a ${ANALYSED_JOIN(s)} where a.player = $1
         order by g.finished_block desc, a.game_id desc limit ${HISTORY_KEPT}) r
       order by finished_block, game_id`,
      [player],
    ),
    read.query<Point>(
      `select a.game_id::text as game_id, a.rule_set, g.finished_at::text as at, a.points_lost,
         a.decisions, a.best_moves, a.mistake
       from ${s}.player_analysis a ${ANALYSED_JOIN(s)}
       where a.player = $1 and a.mistake_loss is not null
       order by a.mistake_loss desc, a.game_id desc limit 10`,
      [player],
    ),
  ]);
  const point = (r: Point): WireAccuracyPoint => ({
    gameId: r.game_id,
    ruleSet: r.rule_set,
    timestamp: Number(r.at),
    pointsLost: r.points_lost,
    decisions: r.decisions,
    bestMoves: r.best_moves,
    mistake: r.mistake,
  });
  const body: WirePlayer = {
    player: getAddress(player),
    ratings: ratings.rows.map((r) => ({
      ruleSet: r.rule_set,
      ordinal: r.ordinal,
      mu: r.mu,
      sigma: r.sigma,
      games: r.games,
      history: history.rows
        .filter((h) => h.rule_set === r.rule_set)
        .map((h) => ({
          gameId: h.game_id,
          timestamp: Number(h.at),
          ordinal: h.ordinal,
          mu: h.mu,
          sigma: h.sigma,
        })),
    })),
    games: totals.rows.reduce((n, t) => n + t.games, 0),
    wins: totals.rows.reduce((n, t) => n + t.wins, 0),
    forfeits: totals.rows.reduce((n, t) => n + t.forfeits, 0),
    net: Object.fromEntries(totals.rows.map((t) => [t.token, t.net])),
    staked: Object.fromEntries(totals.rows.map((t) => [t.token, t.staked])),
    accuracy: accuracy.rows.map(point),
    mistakes: mistakes.rows.map(point),
  };
  return c.json(body);
});

export default app;

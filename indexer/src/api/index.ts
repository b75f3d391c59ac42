import { Hono } from "hono";
import { cors } from "hono/cors";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { and, asc, count, desc, eq, inArray, sql } from "ponder";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { getAddress, numberToHex } from "viem";
import type { LeaderboardRow } from "@dicehall/core/leaderboard/leaderboard.ts";
import {
  BadQueryError,
  INDEXER_API_VERSION,
  gameToWire,
  parseGamesQuery,
  parseLeaderboardQuery,
  rowToWire,
  type WireAccuracyPoint,
  type WireAnalysisStatus,
  type WireGameAnalysis,
  type WireGameLogs,
  type WirePlayer,
  type WireGames,
  type WireLeaderboard,
  type WireStatus,
} from "@dicehall/core/indexer/indexerWire.ts";
import { currentSettings } from "../settings.ts";
import { boardPage, type BoardSql } from "./board.ts";
import { accuracyOf } from "@dicehall/core/game/gameAnalysis.ts";
import { matchGameKey } from "@dicehall/core/game/match.ts";
import {
  ANALYSED_JOIN,
  createAnalysisTables,
  finalizedBlock,
  quote,
  startAnalyser,
  type Sql,
} from "./analysis/analyser.ts";
import { rateLimit } from "./limits.ts";
import { pushRoutes } from "./push/routes.ts";
import { startPush } from "./push/start.ts";

const { boardVersion, game, hallLog, matchGame, playerGame, tokenSeen } = schema;
const settings = currentSettings();

/**
 * Raw SQL on the index's database: Ponder's read-only connection (PGlite in-process, or its
 * read-only Postgres pool), and for the analysis tables a writer (the same PGlite, or a small pool
 * of our own on Postgres). Every statement names the schema Ponder writes.
 */
const read = (db as unknown as { $client: Sql }).$client;
/** The board's statement runs prepared on Postgres (Ponder's read-only pool is node-postgres). */
const board: BoardSql = settings.databaseUrl
  ? { prepare: true, sql: read as unknown as pg.Pool }
  : { prepare: false, sql: read };
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

// The hall's Web Pushes (src/api/push/): a notifier beside the analyser, and its routes.
const push = schemaName.then((schema) => startPush(settings, read, schema));
push.catch((error) => console.error(`push did not start: ${error}`));

const app = new Hono();
// The app is served from another origin (the dev server, a static host).
app.use("/*", cors());
// Every route is counted per client IP; what may set the coach or the board's statement to work
// (a game's analysis, a board asked afresh) costs five reads.
app.use(
  "/api/*",
  rateLimit({
    perMinute: settings.rateLimit,
    cost: (c) =>
      /^\/api\/games\/\d+\/analysis$/.test(c.req.path) ||
      (c.req.path === "/api/leaderboard" && c.req.header("cache-control")?.includes("no-cache"))
        ? 5
        : 1,
  }),
);
// Numbers past what any page or time can be are refused here, before a statement overflows.
app.use("/api/*", async (c, next) => {
  const params = new URL(c.req.url).searchParams;
  for (const [name, max] of [
    ["offset", 1_000_000],
    ["since", 4_102_444_800],
  ] as const) {
    const raw = params.get(name);
    if (raw && /^\d+$/.test(raw) && Number(raw) > max) {
      throw new BadQueryError(`${name} must be a whole number up to ${max}, not "${raw}"`);
    }
  }
  await next();
});
app.route("/", pushRoutes(push.catch(() => null)));
// No SQL over HTTP (Ponder's /sql/*): one query could read the push subscriptions or hold the
// index's database for minutes. The routes below are all the index serves.

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

/** A page of the board at one board version, as the API answered it. */
interface KeptPage {
  version: string;
  body: WireLeaderboard;
}

/**
 * Pages answered lately, by their whole query: the board only changes when a game finishes (or a
 * reorg takes one back, or the analyser adds a game's accuracy), so repeat visits, the viewer's
 * rank and the next visitor reuse the page until then. A request with `Cache-Control: no-cache`
 * computes afresh (the benchmark's cold series).
 */
const pages = new Map<string, KeptPage>();
const PAGES_KEPT = 256;

async function currentVersion(): Promise<string> {
  const [v] = await db.select().from(boardVersion).where(eq(boardVersion.id, 1));
  // The skill columns change as the analyser (in this process) writes: its count is part of it.
  const analysed = (await analyser)?.stats().games ?? 0;
  return v ? `${v.games}:${v.lastBlock}:${v.lastHash}:${analysed}` : "empty";
}

const checksummed = (row: LeaderboardRow) => rowToWire({ ...row, player: getAddress(row.player) });

app.get("/api/leaderboard", async (c) => {
  const started = performance.now();
  const query = parseLeaderboardQuery(new URL(c.req.url).searchParams);
  const key = JSON.stringify(query, (_, v) => (typeof v === "bigint" ? v.toString() : v));
  const version = await currentVersion();
  const versionMs = performance.now() - started;
  let kept = pages.get(key);
  const fresh = c.req.header("cache-control")?.includes("no-cache") ?? false;
  const hit = kept !== undefined && kept.version === version && !fresh;
  /** The computed page's parts (ms): the board statement, and shaping its rows (with the tokens). */
  const parts = { query: 0, rows: 0 };
  if (hit) {
    pages.delete(key);
  } else {
    const queried = performance.now();
    const [page, tokens] = await Promise.all([
      boardPage(board, await S, query),
      db.select().from(tokenSeen),
    ]);
    const shaped = performance.now();
    parts.query = shaped - queried;
    const body: WireLeaderboard = {
      rows: page.rows.map(checksummed),
      skill: page.skill,
      total: page.total,
      tokens: tokens.map((t) => t.token as string).sort(),
      me: page.me && { rank: page.me.rank, row: checksummed(page.me.row), skill: page.me.skill },
    };
    parts.rows = performance.now() - shaped;
    kept = { version, body };
    if (pages.size >= PAGES_KEPT) pages.delete(pages.keys().next().value!);
  }
  pages.set(key, kept!);
  // The whole request, then its parts: the board's version, the board statement and the shaping
  // of its rows, and the garbage collector's pauses meanwhile.
  const dur = (ms: number) => ms.toFixed(1);
  c.header(
    "Server-Timing",
    [
      `board;desc="${hit ? "cached" : "computed"}";dur=${dur(performance.now() - started)}`,
      `version;dur=${dur(versionMs)}`,
      ...(hit ? [] : Object.entries(parts).map(([part, ms]) => `${part};dur=${dur(ms)}`)),
      `gc;dur=${dur(gcSince(started))}`,
    ].join(", "),
  );
  return c.json(kept!.body);
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
  // A match shows its standing game by game: its games' rows, for the matches on this page.
  const matchIds = rows.filter((g) => g.games > 1).map((g) => g.id);
  const matchRows = matchIds.length
    ? await db
        .select()
        .from(matchGame)
        .where(inArray(matchGame.gameId, matchIds))
        .orderBy(asc(matchGame.gameId), asc(matchGame.game))
    : [];
  const gamesOf = (id: bigint) => {
    const mine = matchRows.filter((m) => m.gameId === id);
    return mine.length === 0
      ? {}
      : {
          match: mine.map((m) => ({
            game: m.game,
            players: m.players.map((p) => getAddress(p)),
            totals: m.totals,
            winners: m.winners.map((p) => getAddress(p)),
          })),
        };
  };
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
        ...gamesOf(g.id),
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
  const given = c.req.param("id");
  if (!/^\d{1,30}$/.test(given)) throw new BadQueryError("the game id must be a number");
  // One game, one cache entry: `0001` is game 1.
  const raw = BigInt(given).toString();
  const gameParam = c.req.query("game");
  if (gameParam !== undefined) {
    if (!/^(10|[1-9])$/.test(gameParam)) throw new BadQueryError("the game must be 1 to 10");
    return c.json(await matchGameAnalysis(BigInt(raw), Number(gameParam)));
  }
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
  // Whether the coach ran for this request (the benchmark and the tests read it).
  c.header("Server-Timing", `review;desc="${review === undefined ? "computed" : "cached"}"`);
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

/**
 * One game of a match (issue 33), analysed as a game of its own: the coach's review of that game
 * from the match's logs, and each player's numbers from it, in that game's turn order. Computed
 * afresh (and kept like the other reviews); the tables hold the match's numbers added up.
 */
async function matchGameAnalysis(gameId: bigint, number: number): Promise<WireGameAnalysis> {
  const none: WireGameAnalysis = {
    gameId: matchGameKey(gameId, number, 2),
    analysed: false,
    ruleSet: null,
    players: [],
    review: null,
  };
  const [row] = await db
    .select()
    .from(matchGame)
    .where(and(eq(matchGame.gameId, gameId), eq(matchGame.game, number)));
  // A game of a match can be reviewed as soon as it ends, before the match does.
  if (!row) return none;
  const key = `${none.gameId}:${row.finishedBlock}`;
  let review = reviews.get(key);
  if (review === undefined) {
    review = (await (await analyser)?.review(gameId, number)) ?? null;
    if (reviews.size >= REVIEWS_KEPT) reviews.delete(reviews.keys().next().value!);
    reviews.set(key, review);
  }
  if (!review) return none;
  const players = accuracyOf(
    review,
    row.players.map((p) => getAddress(p)),
  );
  return {
    ...none,
    analysed: true,
    ruleSet: row.ruleSet,
    players: players.map((p, seat) => ({ ...p, seat })),
    review,
  };
}

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
  const [ratings, history, totals, accuracy, mistakes, matches] = await Promise.all([
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
      // A game of a match is named `12.3` (its change's id before the player), a game `12`.
      `select * from (select rule_set, split_part(id, ':', 1) as game_id, finished_at::text as at,
         ordinal, mu, sigma, finished_block, game_id as match_id, game from ${s}.rating_change
         where player = $1
         order by finished_block desc, match_id desc, game desc limit ${HISTORY_KEPT}) r
       order by finished_block, match_id, game`,
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
    read.query<{
      game_id: string;
      rule_set: number;
      token: string;
      at: string;
      games: number;
      won: boolean;
      results: { game: number; total: string; won: boolean }[];
    }>(
      `select g.id::text as game_id, g.rule_set, g.token, g.finished_at::text as at, g.games,
         $1 = any(g.winners) as won,
         coalesce((select json_agg(json_build_object(
             'game', m.game,
             'total', (m.totals[array_position(m.players, $1)])::text,
             'won', $1 = any(m.winners)) order by m.game)
           from ${s}.match_game m where m.game_id = g.id and $1 = any(m.players)), '[]') as results
       from ${s}.game g
       where g.games > 1 and g.status = 'finished' and $1 = any(g.players)
       order by g.finished_block desc, g.id desc limit 50`,
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
    matches: matches.rows.map((m) => ({
      gameId: m.game_id,
      ruleSet: m.rule_set,
      token: getAddress(m.token),
      timestamp: Number(m.at),
      games: m.games,
      won: m.won,
      results: m.results,
    })),
  };
  return c.json(body);
});

export default app;

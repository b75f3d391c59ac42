import { Hono } from "hono";
import { cors } from "hono/cors";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { and, asc, client, count, desc, eq, gte, lte, sql } from "ponder";
import { getAddress, numberToHex } from "viem";
import {
  rowFromSums,
  sortLeaderboard,
  type LeaderboardSums,
} from "../../../web/src/lib/leaderboard.ts";
import {
  BadQueryError,
  INDEXER_API_VERSION,
  gameToWire,
  parseGamesQuery,
  parseLeaderboardQuery,
  rowToWire,
  type WireGameLogs,
  type WireGames,
  type WireLeaderboard,
  type WireStatus,
} from "../../../web/src/lib/indexerWire.ts";
import { currentSettings } from "../settings.ts";

const { playerGame, playerTotal, game, hallLog } = schema;
const settings = currentSettings();

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

/** One player's sums in one token as SQL returns them (see LeaderboardSums). */
interface Sums {
  player: string;
  token: string;
  games: number;
  wins: number;
  forfeits: number;
  best: number | null;
  points: string | null;
  completed: number;
  yahtzees: number;
  staked: string;
  net: string;
  lastBlock: string;
}

/** Without a period: the running totals, a few rows per player. */
function totalsByToken(ruleSet: number | null, token: string | null): Promise<Sums[]> {
  const where = [
    ...(ruleSet === null ? [] : [eq(playerTotal.ruleSet, ruleSet)]),
    ...(token === null ? [] : [eq(playerTotal.token, token as `0x${string}`)]),
  ];
  return db
    .select({
      player: playerTotal.player,
      token: playerTotal.token,
      games: sql<number>`sum(${playerTotal.games})::int`,
      wins: sql<number>`sum(${playerTotal.wins})::int`,
      forfeits: sql<number>`sum(${playerTotal.forfeits})::int`,
      best: sql<number | null>`max(${playerTotal.best})`,
      points: sql<string | null>`sum(${playerTotal.points})::text`,
      completed: sql<number>`sum(${playerTotal.completed})::int`,
      yahtzees: sql<number>`sum(${playerTotal.yahtzees})::int`,
      staked: sql<string>`sum(${playerTotal.staked})::text`,
      net: sql<string>`sum(${playerTotal.net})::text`,
      lastBlock: sql<string>`max(${playerTotal.lastBlock})::text`,
    })
    .from(playerTotal)
    .where(where.length ? and(...where) : undefined)
    .groupBy(playerTotal.player, playerTotal.token);
}

/** With a period or block range: the games in it, one row per player and game. */
function sumsOfGames(query: ReturnType<typeof parseLeaderboardQuery>): Promise<Sums[]> {
  const where: ReturnType<typeof eq>[] = [];
  if (query.ruleSet !== null) where.push(eq(playerGame.ruleSet, query.ruleSet));
  if (query.token !== null) where.push(eq(playerGame.token, query.token));
  if (query.fromBlock !== null) where.push(gte(playerGame.finishedBlock, query.fromBlock));
  if (query.toBlock !== null) where.push(lte(playerGame.finishedBlock, query.toBlock));
  if (query.since !== null) where.push(gte(playerGame.finishedAt, BigInt(query.since)));
  return db
    .select({
      player: playerGame.player,
      token: playerGame.token,
      games: sql<number>`count(*)::int`,
      wins: sql<number>`sum(${playerGame.won})::int`,
      forfeits: sql<number>`sum(${playerGame.forfeited})::int`,
      best: sql<number | null>`max(${playerGame.total})`,
      points: sql<string | null>`sum(${playerGame.total})::text`,
      completed: sql<number>`count(${playerGame.total})::int`,
      yahtzees: sql<number>`sum(${playerGame.yahtzees})::int`,
      staked: sql<string>`sum(${playerGame.staked})::text`,
      net: sql<string>`sum(${playerGame.net})::text`,
      lastBlock: sql<string>`max(${playerGame.finishedBlock})::text`,
    })
    .from(playerGame)
    .where(where.length ? and(...where) : undefined)
    .groupBy(playerGame.player, playerGame.token);
}

app.get("/api/leaderboard", async (c) => {
  const query = parseLeaderboardQuery(new URL(c.req.url).searchParams);
  const rawSums =
    query.fromBlock === null && query.toBlock === null && query.since === null
      ? await totalsByToken(query.ruleSet, query.token)
      : await sumsOfGames(query);
  const byPlayer = new Map<string, LeaderboardSums[]>();
  for (const { player, ...sums } of rawSums) {
    const list = byPlayer.get(player) ?? [];
    list.push({
      ...sums,
      points: Number(sums.points ?? 0),
      staked: BigInt(sums.staked),
      net: BigInt(sums.net),
      lastBlock: BigInt(sums.lastBlock),
    });
    byPlayer.set(player, list);
  }
  const rows = [...byPlayer].map(([player, sums]) => rowFromSums(getAddress(player), sums));
  const sorted = sortLeaderboard(rows, {
    key: query.sort,
    direction: query.direction,
    token: query.sortToken,
  });
  const tokens = await db.selectDistinct({ token: playerTotal.token }).from(playerTotal);
  const meAt =
    query.me === null ? -1 : sorted.findIndex((r) => r.player.toLowerCase() === query.me);
  const body: WireLeaderboard = {
    rows: sorted.slice(query.offset, query.offset + query.limit).map(rowToWire),
    total: sorted.length,
    tokens: tokens.map((t) => t.token).sort(),
    me: meAt < 0 ? null : { rank: meAt + 1, row: rowToWire(sorted[meAt]) },
  };
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

export default app;

// A long history written straight into an index's database, for the indexer benchmark at sizes a
// chain here cannot play (a local chain finishes ~20 games a second; 100 000 games would take
// hours, and indexing their ~20 million logs hours more). Games are played off chain by bots of
// set skill (scripts/lib/seedGames.ts, on worker threads), and each game's rows are the ones the
// indexer writes for it: the same functions make them (core/indexer/gameRows.ts, the leaderboard
// fold, the ratings, the coach's analysis); only the writing is SQL instead of Ponder.
// test/seedIndex.test.ts holds the two writers together on games a chain played.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Hex } from "viem";
import { addSums, ratingRows, sumsColumns, type SumsRow } from "@dicehall/core/indexer/gameRows.ts";
import type { LeaderboardSums } from "@dicehall/core/leaderboard/leaderboard.ts";
import { initialRating, rateGame, type Rating } from "@dicehall/core/ratings/ratings.ts";
import { foldFinalAnalyses } from "../../indexer/src/api/analysis/analyser.ts";
import { jsonRow, type HistorySpec, type SeededGame } from "./seedGames.ts";

/** What the seeder needs of a database: PGlite and node-postgres both answer this. */
export interface Sql {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/** The tables a game's own rows go to, and those written once at the end from running folds. */
const GAME_TABLES = [
  "hall_log",
  "game",
  "player_game",
  "rating_change",
  "player_analysis",
  "game_analysis",
] as const;
const FOLD_TABLES = ["player_token_total", "player_total", "player_day", "player_rating"] as const;
/** Ponder's tables among them (the analysis tables are the API's own). */
const PONDER_TABLES = [
  ...GAME_TABLES.filter((t) => t !== "player_analysis" && t !== "game_analysis"),
  ...FOLD_TABLES,
  "board_version",
  "token_seen",
];

export interface SeedOptions extends HistorySpec {
  sql: Sql;
  /** The database schema of the index's tables. */
  schema: string;
  games: number;
  /** Where the coach's tables are cached (the indexer's cache). */
  cacheDir: string;
  /** Worker threads that play and analyse (default: one per core). */
  threads?: number;
  onProgress?: (done: number, of: number) => void;
}

export interface WriteResult {
  games: number;
  players: number;
  logs: number;
  rows: Record<string, number>;
  /** Time spent playing the games (bots choose with the coach's tables), summed over threads. */
  playSeconds: number;
  /** Time spent in the coach's analysis of the games, summed over threads. */
  analysisSeconds: number;
  /** Everything, writing included. */
  seconds: number;
  /** The last game's finishing block. */
  last: { block: bigint; hash: Hex } | null;
  /** Every token a game was played for (lower-case). */
  tokens: string[];
}

export interface SeedResult extends WriteResult {
  threads: number;
  firstGameId: bigint;
}

/** Inserts rows into a table by its own row type: one statement, whatever the columns. */
async function insertRows(sql: Sql, schema: string, table: string, rows: object[]) {
  if (rows.length === 0) return;
  const t = `"${schema}"."${table}"`;
  await sql.query(
    `insert into ${t} select * from jsonb_populate_recordset(null::${t}, $1::jsonb)`,
    [JSON.stringify(rows)],
  );
}

/**
 * Writes finished games into an index, in the order they finished: each game's own rows as it
 * comes, then the running sums and the ratings, folded game by game as the handlers fold them.
 */
export async function writeGames(
  sql: Sql,
  schema: string,
  games: AsyncIterable<SeededGame> | Iterable<SeededGame>,
  onProgress?: (done: number) => void,
): Promise<WriteResult> {
  const started = performance.now();
  const pending = new Map<string, object[]>(GAME_TABLES.map((t) => [t, []]));
  const rows: Record<string, number> = {};
  const flush = async () => {
    for (const [table, list] of pending) {
      await insertRows(sql, schema, table, list);
      rows[table] = (rows[table] ?? 0) + list.length;
      list.length = 0;
    }
  };
  const sums = {
    player_token_total: new Map<string, Record<string, unknown>>(),
    player_total: new Map<string, Record<string, unknown>>(),
    player_day: new Map<string, Record<string, unknown>>(),
  };
  const addTo = (
    map: Map<string, Record<string, unknown>>,
    id: string,
    first: object,
    one: LeaderboardSums,
  ) => {
    const row = map.get(id);
    map.set(id, row ? { ...row, ...addSums(row as unknown as SumsRow, one) } : { id, ...first });
  };
  const ratings = new Map<string, Rating>();
  const ratingById = new Map<string, object>();
  const tokens = new Set<string>();
  let count = 0;
  let logs = 0;
  let playMs = 0;
  let analysisMs = 0;
  let last: WriteResult["last"] = null;

  for await (const g of games) {
    pending.get("hall_log")!.push(...g.hallLogs);
    pending.get("game")!.push(g.game);
    for (const { row, sums: one, keys } of g.results) {
      pending.get("player_game")!.push(jsonRow(row));
      const first = sumsColumns(row.player, one);
      addTo(sums.player_token_total, keys.tokenTotal, first, one);
      addTo(sums.player_total, keys.ruleSetTotal, { ruleSet: row.ruleSet, ...first }, one);
      addTo(
        sums.player_day,
        keys.day,
        { ruleSet: row.ruleSet, day: keys.dayNumber, ...first },
        one,
      );
    }
    const key = (p: string) => `${g.rated.ruleSet}:${p}`;
    rateGame(g.rated, (p) => ratings.get(key(p)) ?? initialRating())?.forEach((rating, seat) => {
      const player = g.rated.players[seat];
      ratings.set(key(player), rating);
      const { rating: current, change } = ratingRows(g.rated, player, rating);
      ratingById.set(current.id, current);
      pending.get("rating_change")!.push(jsonRow(change));
    });
    pending.get("player_analysis")!.push(...g.analysis.players);
    pending.get("game_analysis")!.push(g.analysis.game);
    tokens.add(String(g.game.token));
    last = { block: g.rated.finishedBlock, hash: g.game.finished_hash as Hex };
    count += 1;
    logs += g.logs;
    playMs += g.playMs;
    analysisMs += g.analysisMs;
    if (pending.get("hall_log")!.length >= 20_000 || pending.get("game")!.length >= 500) {
      await flush();
      onProgress?.(count);
    }
  }
  await flush();
  for (const table of FOLD_TABLES) {
    const list = [...(table === "player_rating" ? ratingById : sums[table]).values()].map(jsonRow);
    for (let at = 0; at < list.length; at += 5_000) {
      await insertRows(sql, schema, table, list.slice(at, at + 5_000));
    }
    rows[table] = list.length;
  }
  onProgress?.(count);
  return {
    games: count,
    players: new Set([...sums.player_token_total.values()].map((r) => r.player)).size,
    logs,
    rows,
    playSeconds: playMs / 1000,
    analysisSeconds: analysisMs / 1000,
    seconds: (performance.now() - started) / 1000,
    last,
    tokens: [...tokens],
  };
}

/** Games handed to a worker at a time. */
const CHUNK = 50;

/**
 * The history's games, played and analysed on worker threads (scripts/lib/seedWorker.ts), in
 * game order: chunks go out in order, come back in any order, and are yielded in order.
 */
async function* playHistory(
  spec: HistorySpec,
  games: number,
  cacheDir: string,
  threads: number,
): AsyncGenerator<SeededGame> {
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(new URL("./seedWorker.ts", import.meta.url), {
        execArgv: ["--import", "tsx"],
        workerData: { spec, cacheDir },
      }),
  );
  try {
    const done = new Map<number, SeededGame[]>();
    let nextToSend = 0;
    let nextToTake = 0;
    let wake: (() => void) | null = null;
    let failure: Error | null = null;
    const send = (worker: Worker) => {
      if (nextToSend >= games) return;
      const from = nextToSend;
      nextToSend = Math.min(games, from + CHUNK);
      worker.postMessage({ from, to: nextToSend });
    };
    for (const worker of workers) {
      worker.on("message", (chunk: SeededGame[]) => {
        done.set(chunk[0].index, chunk);
        send(worker);
        wake?.();
      });
      worker.on("error", (error: Error) => {
        failure = error;
        wake?.();
      });
      // Two chunks each, so that a worker never waits for the writer.
      send(worker);
      send(worker);
    }
    while (nextToTake < games) {
      const chunk = done.get(nextToTake);
      if (!chunk) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      done.delete(nextToTake);
      nextToTake += chunk.length;
      yield* chunk;
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Runs `write` on an index that Ponder has stopped writing: its triggers (which record changes
 * for reorgs) off meanwhile; the board's version and the token list brought up to date after. The
 * games written must be new to the index, and so must their players' running rows.
 */
export async function intoStoppedIndex(
  sql: Sql,
  schema: string,
  write: () => Promise<WriteResult>,
): Promise<WriteResult> {
  for (const t of PONDER_TABLES) {
    await sql.query(`alter table "${schema}"."${t}" disable trigger user`);
  }
  try {
    const result = await write();
    if (result.last) {
      await sql.query(
        `insert into "${schema}".board_version (id, games, last_block, last_hash)
         values (1, $1, $2, $3) on conflict (id) do update set games = board_version.games + $1,
         last_block = greatest(board_version.last_block, $2::numeric),
         last_hash = case when board_version.last_block > $2::numeric then board_version.last_hash
           else $3 end`,
        [result.games, result.last.block.toString(), result.last.hash],
      );
    }
    // Every game written is final: its analysis goes into the running sums as the analyser's
    // loop would put it once Ponder calls its block final.
    if (result.last) await foldFinalAnalyses(sql, schema, result.last.block);
    for (const token of result.tokens) {
      await sql.query(
        `insert into "${schema}".token_seen (token) values ($1) on conflict do nothing`,
        [token],
      );
    }
    await sql.query(`analyze`);
    return result;
  } finally {
    for (const t of PONDER_TABLES) {
      await sql.query(`alter table "${schema}"."${t}" enable trigger user`);
    }
  }
}

/** A history of `games` games played by bots, written into a stopped index. */
export async function seedStoppedIndex(options: SeedOptions): Promise<SeedResult> {
  const { sql, schema, games, onProgress, cacheDir, threads: asked, ...spec } = options;
  const threads = Math.max(1, asked ?? availableParallelism());
  const result = await intoStoppedIndex(sql, schema, () =>
    writeGames(sql, schema, playHistory(spec, games, cacheDir, threads), (done) =>
      onProgress?.(done, games),
    ),
  );
  return { ...result, threads, firstGameId: spec.firstGameId };
}

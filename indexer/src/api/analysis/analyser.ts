import { Worker } from "node:worker_threads";
import type { RpcLog } from "viem";
import type { GameReview } from "@dicehall/core/coach/analyse.ts";
import type { PlayerAccuracy } from "@dicehall/core/game/gameAnalysis.ts";
import { analysisRows, rpcLogOfRow, type HallLogRow } from "@dicehall/core/indexer/gameRows.ts";
import type { AnalysisReply, AnalysisRequest } from "./protocol.ts";

/**
 * Every finished game analysed by the coach, off the indexing path: this loop runs in the API's
 * process, finds finished games (Ponder's `game` table) that have no analysis yet, reads their logs
 * (`hall_log`), has worker threads run the coach on them (worker.ts), and writes the numbers to
 * two tables of its own in the index's database, beside Ponder's:
 *
 * - game_analysis: one row per analysed game, keyed by game id AND the hash of the block that
 *   finished it (null error: analysed; else why the coach could not follow it);
 * - player_analysis: one row per player of such a game (points lost, best moves, the biggest
 *   mistake), same key plus the seat.
 *
 * Ponder reverts its own tables on a reorg, not these; so every read joins them to the `game` row
 * with the same finishing block hash (see ANALYSED_JOIN): a game a reorg took back, or replaced by
 * another under the same id, has no analysis until the new one is analysed. Rows of a game whose
 * finish is no longer in the index are deleted as the loop meets them; a re-index keeps the rows
 * of the games it finds again (same block hash), so nothing is analysed twice.
 *
 * The leaderboard's accuracy columns sum every player's analyses: a join of hundreds of thousands
 * of rows at 100 000 games, too slow for a board computed afresh. So once a game's finish is final
 * (Ponder's finalized checkpoint: no reorg can take it back), its numbers are folded into running
 * sums per player, rule set and token (accuracy_total) and per UTC day too (accuracy_day), and its
 * game_analysis row marked folded; a board reads the sums, plus the join for the few games not yet
 * folded (see foldFinalAnalyses and the API's skillOf).
 */

/** What the analyser needs of a database: PGlite and node-postgres both answer this. */
export interface Sql {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface AnalyserOptions {
  read: Sql;
  write: Sql;
  /** The database schema of Ponder's tables (quoted into every statement). */
  schema: string;
  /** Where the worker keeps the coach's tables between runs. */
  cacheDir: string;
  threads: number;
  /** How often to look for newly finished games (ms). */
  pollMs: number;
  /** Games per batch. */
  batch?: number;
  log?: (line: string) => void;
}

export interface Analyser {
  /** The full review of a finished game, computed afresh from its logs (the analysis page). */
  review(gameId: bigint, game?: number): Promise<GameReview | null>;
  /** Games analysed by this process so far, and the time its batches spent in the workers. */
  stats(): { games: number; busyMs: number };
  stop(): Promise<void>;
}

interface Job {
  resolve: (reply: AnalysisReply) => void;
}

/** The worker threads, each with its own tables; jobs go to the least busy. */
class Pool {
  private workers: { worker: Worker; jobs: Map<number, Job> }[] = [];
  private nextId = 1;

  constructor(threads: number, cacheDir: string, log: (line: string) => void) {
    for (let i = 0; i < threads; i++) {
      // The worker imports core/ as TypeScript: tsx reads it (Node's own type stripping does not
      // cover every construct core uses).
      const worker = new Worker(new URL("./worker.ts", import.meta.url), {
        execArgv: ["--import", "tsx"],
        workerData: { cacheDir },
        name: `coach-${i}`,
      });
      const slot = { worker, jobs: new Map<number, Job>() };
      worker.on("message", (reply: AnalysisReply) => {
        const job = slot.jobs.get(reply.id);
        slot.jobs.delete(reply.id);
        job?.resolve(reply);
      });
      worker.on("error", (error: Error) => {
        log(`analysis: a coach worker failed: ${error.message}`);
        for (const [id, job] of slot.jobs) job.resolve({ id, ok: false, error: error.message });
        slot.jobs.clear();
      });
      worker.unref();
      this.workers.push(slot);
    }
  }

  run(request: Omit<AnalysisRequest, "id">): Promise<AnalysisReply> {
    const slot = this.workers.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve) => {
      slot.jobs.set(id, { resolve });
      slot.worker.postMessage({ ...request, id } satisfies AnalysisRequest);
    });
  }

  async stop() {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/** The analysis tables, created if missing (they live beside Ponder's, which never touches them). */
function ddl(s: string): string[] {
  return [
    `create table if not exists ${s}.game_analysis (
      game_id numeric(78,0) not null,
      finished_hash text not null,
      rule_set integer not null,
      analysed_at bigint not null,
      error text,
      primary key (game_id, finished_hash))`,
    `create table if not exists ${s}.player_analysis (
      game_id numeric(78,0) not null,
      finished_hash text not null,
      seat integer not null,
      player text not null,
      rule_set integer not null,
      decisions integer not null,
      best_moves integer not null,
      points_lost double precision not null,
      score integer not null,
      mistake_loss double precision,
      mistake jsonb,
      primary key (game_id, finished_hash, seat))`,
    `create index if not exists player_analysis_player on ${s}.player_analysis (player)`,
    // Folded: the game's finish is final (no reorg can take it back), so its players' numbers
    // are added to the sums below and read from there.
    `alter table ${s}.game_analysis add column if not exists folded boolean not null default false`,
    `create index if not exists game_analysis_unfolded on ${s}.game_analysis (game_id)
      where not folded`,
    `create table if not exists ${s}.accuracy_total (
      player text not null,
      rule_set integer not null,
      token text not null,
      games integer not null,
      points_lost double precision not null,
      best_moves integer not null,
      decisions integer not null,
      primary key (player, rule_set, token))`,
    `create table if not exists ${s}.accuracy_day (
      player text not null,
      rule_set integer not null,
      token text not null,
      day integer not null,
      games integer not null,
      points_lost double precision not null,
      best_moves integer not null,
      decisions integer not null,
      primary key (player, rule_set, token, day))`,
    `create index if not exists accuracy_day_day on ${s}.accuracy_day (day)`,
  ];
}

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the analysis tables if missing (whether or not this process analyses). */
export async function createAnalysisTables(write: Sql, schema: string): Promise<void> {
  for (const statement of ddl(quote(schema))) await write.query(statement);
}

/**
 * The join that keeps only analyses of games the index still has, finished in the same block:
 * `a` is player_analysis (or game_analysis), `g` Ponder's game table.
 */
export const ANALYSED_JOIN = (s: string, a = "a", g = "g") =>
  `join ${s}.game ${g} on ${g}.id = ${a}.game_id and ${g}.finished_hash = ${a}.finished_hash`;

/** The analysis tables' columns and their types (see ddl), in the order unnest takes them. */
const PLAYER_ANALYSIS_TYPES = {
  game_id: "numeric",
  finished_hash: "text",
  seat: "int",
  player: "text",
  rule_set: "int",
  decisions: "int",
  best_moves: "int",
  points_lost: "float8",
  score: "int",
  mistake_loss: "float8",
  mistake: "jsonb",
};
const GAME_ANALYSIS_TYPES = {
  game_id: "numeric",
  finished_hash: "text",
  rule_set: "int",
  analysed_at: "int8",
  error: "text",
};

/**
 * Folds the analyses of games finished at or before `finalBlock` (final: no reorg can take them
 * back) into accuracy_total and accuracy_day, and marks them folded: one statement, so a game is
 * counted once or not at all. How many games it folded.
 */
export async function foldFinalAnalyses(
  write: Sql,
  schema: string,
  finalBlock: bigint,
): Promise<number> {
  const s = quote(schema);
  const sums = `games = t.games + excluded.games, points_lost = t.points_lost + excluded.points_lost,
    best_moves = t.best_moves + excluded.best_moves, decisions = t.decisions + excluded.decisions`;
  const { rows } = await write.query<{ games: number }>(
    `with ready as (
       update ${s}.game_analysis a set folded = true
       from ${s}.game g
       where not a.folded and a.error is null and g.id = a.game_id
         and g.finished_hash = a.finished_hash and g.finished_block <= $1::numeric
       returning a.game_id, a.finished_hash, g.token, floor(g.finished_at / 86400)::int as day
     ), played as (
       select p.player, p.rule_set, r.token, r.day, count(*)::int as games,
         sum(p.points_lost) as points_lost, sum(p.best_moves)::int as best_moves,
         sum(p.decisions)::int as decisions
       from ${s}.player_analysis p
       join ready r on r.game_id = p.game_id and r.finished_hash = p.finished_hash
       group by p.player, p.rule_set, r.token, r.day
     ), totals as (
       insert into ${s}.accuracy_total as t
         (player, rule_set, token, games, points_lost, best_moves, decisions)
       select player, rule_set, token, sum(games)::int, sum(points_lost), sum(best_moves)::int,
         sum(decisions)::int
       from played group by player, rule_set, token
       on conflict (player, rule_set, token) do update set ${sums}
     ), days as (
       insert into ${s}.accuracy_day as t
         (player, rule_set, token, day, games, points_lost, best_moves, decisions)
       select player, rule_set, token, day, games, points_lost, best_moves, decisions from played
       on conflict (player, rule_set, token, day) do update set ${sums}
     )
     select count(*)::int as games from ready`,
    [finalBlock.toString()],
  );
  return rows[0]?.games ?? 0;
}

/** The block of Ponder's finalized checkpoint (block time, chain id, then the block number). */
export async function finalizedBlock(read: Sql, schema: string): Promise<bigint | null> {
  const { rows } = await read.query<{ checkpoint: string }>(
    `select finalized_checkpoint as checkpoint from ${quote(schema)}._ponder_checkpoint`,
  );
  const checkpoint = rows[0]?.checkpoint;
  return checkpoint ? BigInt(checkpoint.slice(26, 42)) : null;
}

interface PendingRow {
  id: string;
  hash: string;
  rule_set: number;
}

interface LogRow extends HallLogRow {
  game_id: string;
}

export async function startAnalyser(options: AnalyserOptions): Promise<Analyser> {
  const { read, write, pollMs } = options;
  const log = options.log ?? (() => {});
  const batch = options.batch ?? 64;
  const s = quote(options.schema);
  await createAnalysisTables(write, options.schema);
  const pool = new Pool(options.threads, options.cacheDir, log);
  let stopped = false;
  let games = 0;
  let busyMs = 0;

  async function logsOf(ids: string[]): Promise<Map<string, RpcLog[]>> {
    const { rows } = await read.query<LogRow>(
      `select game_id::text as game_id, topics, data, block_number::text as block_number,
        block_hash, log_index, transaction_index, transaction_hash
       from ${s}.hall_log where game_id = any($1::numeric[])
       order by game_id, block_number, log_index`,
      [ids],
    );
    const byGame = new Map<string, RpcLog[]>();
    for (const r of rows) {
      const list = byGame.get(r.game_id) ?? [];
      list.push(rpcLogOfRow(r, "0x0000000000000000000000000000000000000000"));
      byGame.set(r.game_id, list);
    }
    return byGame;
  }

  /** One batch of finished games without an analysis; how many there were. */
  async function step(): Promise<number> {
    const { rows } = await read.query<PendingRow>(
      `select g.id::text as id, g.finished_hash as hash, g.rule_set from ${s}.game g
       where g.status = 'finished' and g.finished_hash is not null and not exists (
         select 1 from ${s}.game_analysis a
         where a.game_id = g.id and a.finished_hash = g.finished_hash)
       order by g.finished_block, g.id limit ${batch}`,
    );
    if (rows.length === 0) return 0;
    const logs = await logsOf(rows.map((r) => r.id));
    const started = performance.now();
    const replies = await Promise.all(
      rows.map((r) => pool.run({ gameId: r.id, logs: logs.get(r.id) ?? [], review: false })),
    );
    busyMs += performance.now() - started;
    const players: Record<string, unknown>[] = [];
    const done: Record<string, unknown>[] = [];
    replies.forEach((reply, i) => {
      const row = rows[i];
      let error: string | null = null;
      let accuracy: PlayerAccuracy[] | null = null;
      if (!reply.ok) error = reply.error;
      else if (!reply.analysed) error = "the coach cannot follow this game's moves";
      else accuracy = reply.analysed.players;
      const game = { gameId: row.id, finishedHash: row.hash, ruleSet: row.rule_set };
      const analysed = analysisRows(game, accuracy, error, Date.now());
      players.push(...analysed.players);
      done.push(analysed.game);
      if (error) log(`analysis: game ${row.id}: ${error}`);
    });
    // The players first, the game's row last: a game row means its players are all there.
    await insert("player_analysis", PLAYER_ANALYSIS_TYPES, players);
    await insert("game_analysis", GAME_ANALYSIS_TYPES, done);
    // What a reorg left behind: analyses of games whose finish the index no longer has.
    await write.query(
      `delete from ${s}.player_analysis a where a.game_id = any($1::numeric[]) and not exists (
         select 1 from ${s}.game g where g.id = a.game_id and g.finished_hash = a.finished_hash)`,
      [rows.map((r) => r.id)],
    );
    await write.query(
      `delete from ${s}.game_analysis a where a.game_id = any($1::numeric[]) and not exists (
         select 1 from ${s}.game g where g.id = a.game_id and g.finished_hash = a.finished_hash)`,
      [rows.map((r) => r.id)],
    );
    games += rows.length;
    return rows.length;
  }

  /** One multi-row insert from column arrays (unnest), so a batch is one statement. */
  async function insert(
    table: string,
    types: Record<string, string>,
    rows: Record<string, unknown>[],
  ) {
    if (rows.length === 0) return;
    const columns = Object.keys(types);
    const arrays = columns.map((c) =>
      rows.map((r) => (types[c] === "jsonb" && r[c] != null ? JSON.stringify(r[c]) : r[c])),
    );
    const unnest = columns.map((c, i) => `$${i + 1}::${types[c]}[]`).join(", ");
    await write.query(
      `insert into ${s}.${table} (${columns.join(", ")}) select * from unnest(${unnest})
       on conflict do nothing`,
      arrays,
    );
  }

  let lastVersion = "";
  let foldedAt: { block: bigint | null; games: number } = { block: null, games: 0 };
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    if (stopped) return;
    try {
      const { rows } = await read.query<{ v: string }>(
        `select games::text || ':' || last_hash as v from ${s}.board_version where id = 1`,
      );
      const version = rows[0]?.v ?? "";
      if (version !== lastVersion) {
        let n: number;
        do {
          n = await step();
        } while (n === batch && !stopped);
        lastVersion = version;
      }
      // Whenever the final block moved or new analyses came (a backfill's games are final
      // before they are analysed).
      const final = await finalizedBlock(read, options.schema);
      if (final !== null && (final !== foldedAt.block || games !== foldedAt.games)) {
        const analysed = games;
        await foldFinalAnalyses(write, options.schema, final);
        foldedAt = { block: final, games: analysed };
      }
    } catch (error) {
      // The database is busy or closing (a restart, a shutdown): try again on the next tick.
      if (!stopped) log(`analysis: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) timer = setTimeout(loop, pollMs);
  };
  timer = setTimeout(loop, 0);

  return {
    async review(gameId, game) {
      const logs = await logsOf([gameId.toString()]);
      const reply = await pool.run({
        gameId: gameId.toString(),
        logs: logs.get(gameId.toString()) ?? [],
        review: true,
        game,
      });
      return reply.ok && reply.analysed ? reply.analysed.review : null;
    },
    stats: () => ({ games, busyMs }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pool.stop();
    },
  };
}

import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PGlite } from "@electric-sql/pglite";

import { decodeLogs } from "@dicehall/core/events/hallEvents.ts";
import { analyseGameLogs } from "@dicehall/core/game/gameAnalysis.ts";
import { rpcLogOfRow, type HallLogRow } from "@dicehall/core/indexer/gameRows.ts";
import { clients, mineEmptyBlocks } from "../scripts/lib/chain.ts";
import { ROOT } from "../scripts/lib/deployments.ts";
import { stackIndexer, startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { fillGames } from "../scripts/lib/fillGames.ts";
import { INDEXER_ROOT, INDEXER_SCHEMA, startIndexer } from "../scripts/lib/indexer.ts";
import { coachTables, rowsOfGame, type SeededGame } from "../scripts/lib/seedGames.ts";
import { intoStoppedIndex, writeGames } from "../scripts/lib/seedIndex.ts";

// The indexer benchmark's seeder (scripts/lib/seedIndex.ts) writes a history straight into an
// index's database, with SQL instead of Ponder. Its figures stand for the indexer's only if its
// rows are the indexer's own: here Ponder indexes games a chain played, the seeder writes the same
// games again into the emptied tables, and every row must come out the same.

/** The tables a finished game writes to, each with the columns that order its rows. */
const TABLES: Record<string, string> = {
  hall_log: "game_id, block_number, log_index",
  game: "id",
  player_game: "id",
  player_token_total: "id",
  player_total: "id",
  player_day: "id",
  player_rating: "id",
  rating_change: "id",
  board_version: "id",
  token_seen: "token",
  game_analysis: "game_id, finished_hash",
  player_analysis: "game_id, finished_hash, seat",
  accuracy_total: "player, rule_set, token",
  accuracy_day: "player, rule_set, token, day",
};
/** What is the writer's own and may differ: Ponder's event id, the time of the analysis. */
const OWN_COLUMNS = new Set(["hall_log.id", "game_analysis.analysed_at"]);

const S = `"${INDEXER_SCHEMA}"`;

async function snapshot(db: PGlite): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const where = table === "hall_log" ? "where game_id is not null" : "";
    const { rows } = await db.query<Record<string, unknown>>(
      `select * from ${S}.${table} ${where} order by ${order}`,
    );
    // Sums of doubles may differ in their last bits with the order they were added in.
    const value = (v: unknown) =>
      typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v;
    out[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([c]) => !OWN_COLUMNS.has(`${table}.${c}`))
          .map(([c, v]) => [c, value(v)]),
      ),
    );
  }
  return out;
}

describe("the benchmark's seeder", { timeout: 10 * 60_000 }, () => {
  let stack: DevStack | undefined;
  const dataDir = join(ROOT, ".dev", `seed-test-${process.pid}`);
  const GAMES = 8;

  before(async () => {
    stack = await startDevStack({
      rpcPort: 0,
      web: false,
      keeper: false,
      deploymentId: `devstack-seed-${process.pid}`,
      deploymentsFile: null,
    });
    const { publicClient, wallet } = clients(stack.rpcUrl);
    await fillGames({
      publicClient,
      wallet: wallet(stack.accounts[0]),
      diceHall: stack.addresses.diceHall,
      mockEntropy: stack.addresses.mockEntropy,
      testToken: stack.addresses.testToken,
      games: GAMES,
      seats: 6,
      seed: 11n,
    });
    // Past the blocks Ponder treats as not yet final, so its backfill writes every game.
    await mineEmptyBlocks(publicClient, 40);
    const head = await publicClient.getBlockNumber({ cacheTime: 0 });
    const indexer = await startIndexer({
      port: 0,
      ...stackIndexer(stack),
      dataDir,
    });
    try {
      await indexer.waitForBlock(head, 120_000);
      // Analysed, and (the games being final) folded into the running sums.
      await indexer.waitForAnalysis(GAMES, 120_000);
    } finally {
      await indexer.stop();
    }
  });

  after(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes the rows the indexer writes for the same games, analysis included", async () => {
    const db = new PGlite(dataDir);
    try {
      const indexed = await snapshot(db);
      assert.equal(indexed.game.length, GAMES);
      assert.ok(indexed.player_analysis.length >= 2 * GAMES);
      assert.ok(indexed.accuracy_total.length > 0);

      // The games as the seeder takes them: logs in chain order, the block each was played in.
      const { publicClient } = clients(stack!.rpcUrl);
      const { rows: logRows } = await db.query<
        HallLogRow & { game_id: string }
      >(`select * from ${S}.hall_log where game_id is not null
          order by block_number, log_index`);
      const byGame = new Map<string, typeof logRows>();
      for (const r of logRows) byGame.set(r.game_id, [...(byGame.get(r.game_id) ?? []), r]);
      const tableOf = coachTables(join(INDEXER_ROOT, ".ponder", "coach"));
      const games: SeededGame[] = [];
      for (const [id, rows] of byGame) {
        const raw = rows.map((r) => rpcLogOfRow(r, stack!.addresses.diceHall));
        const logs = decodeLogs(raw);
        const number = BigInt(rows[0].block_number);
        assert.ok(
          rows.every((r) => BigInt(r.block_number) === number),
          "a filler game is one transaction",
        );
        const { timestamp } = await publicClient.getBlock({ blockNumber: number });
        const block = {
          number,
          hash: rows[0].block_hash,
          timestamp,
          transactionHash: rows[0].transaction_hash,
          transactionIndex: rows[0].transaction_index,
        };
        const analysed = analyseGameLogs(BigInt(id), logs, tableOf);
        games.push({
          index: games.length,
          ...rowsOfGame(stack!.addresses.diceHall, logs, block, analysed),
          playMs: 0,
          analysisMs: 0,
        });
      }

      // Emptied and written with Ponder's triggers off, as the benchmark writes.
      const written = await intoStoppedIndex(db, INDEXER_SCHEMA, async () => {
        for (const table of Object.keys(TABLES)) {
          const where = table === "hall_log" ? "where game_id is not null" : "";
          await db.query(`delete from ${S}.${table} ${where}`);
        }
        return writeGames(db, INDEXER_SCHEMA, games);
      });
      assert.equal(written.games, GAMES);

      const seeded = await snapshot(db);
      for (const table of Object.keys(TABLES)) {
        assert.deepEqual(seeded[table], indexed[table], `${table}: the seeder's rows differ`);
      }
    } finally {
      await db.close();
    }
  });
});

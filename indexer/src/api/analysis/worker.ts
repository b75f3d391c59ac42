import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { RpcLog } from "viem";
import { buildTable, type SolverTable } from "@dicehall/core/coach/solver.ts";
import { deserialiseTable, serialiseTable } from "@dicehall/core/coach/serialise.ts";
import { TABLE_FORMAT } from "@dicehall/core/coach/store.ts";
import { decodeLogs } from "@dicehall/core/events/hallEvents.ts";
import { analyseGameLogs, analyseMatchLogs } from "@dicehall/core/game/gameAnalysis.ts";
import { foldGame } from "@dicehall/core/game/gameState.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { AnalysisReply, AnalysisRequest } from "./protocol.ts";

/**
 * The coach in a worker thread of the indexer (see analyser.ts): the CPU work of analysis never
 * runs on the thread that indexes or answers HTTP. Each rule set's table is read from the disk
 * cache, or built once (seconds) and written there; the cache is git-ignored and never shipped.
 */

const { cacheDir } = workerData as { cacheDir: string };
const tables = new Map<RuleSetId, SolverTable>();

/** The table of a rule set: in memory, else from the disk cache, else built and cached. */
function tableOf(ruleSet: RuleSetId): SolverTable {
  let table = tables.get(ruleSet);
  if (table) return table;
  const file = join(cacheDir, `coach-${TABLE_FORMAT}-${ruleSet}.bin`);
  try {
    table = deserialiseTable(readFileSync(file));
  } catch {
    table = buildTable(ruleSet);
    // Read back from its float32 bytes, as the app's worker does (so both give the same numbers).
    const bytes = serialiseTable(table);
    table = deserialiseTable(bytes);
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(`${file}.${process.pid}.tmp`, bytes);
      renameSync(`${file}.${process.pid}.tmp`, file);
    } catch {
      // A read-only disk: build again next start.
    }
  }
  tables.set(ruleSet, table);
  return table;
}

function handle(request: AnalysisRequest): AnalysisReply {
  try {
    const logs = decodeLogs(request.logs as RpcLog[]);
    const gameId = BigInt(request.gameId);
    if (!request.game && foldGame(gameId, logs).match.length > 1) {
      // A match: its games' numbers added up, one row per player (the board's accuracy).
      const match = analyseMatchLogs(gameId, logs, tableOf);
      if (!match) return { id: request.id, ok: true, analysed: null };
      return {
        id: request.id,
        ok: true,
        analysed: { ruleSet: match.ruleSet, players: match.players, review: null },
      };
    }
    const analysed = analyseGameLogs(gameId, logs, tableOf, request.game);
    if (!analysed) return { id: request.id, ok: true, analysed: null };
    const review = request.review ? analysed.review : null;
    return { id: request.id, ok: true, analysed: { ...analysed, review } };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

parentPort!.on("message", (request: AnalysisRequest) => {
  parentPort!.postMessage(handle(request));
});

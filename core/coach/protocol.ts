import type { RuleSetId } from "../rules/ruleSets.ts";
import type { Sheet } from "../rules/sheet.ts";
import { adviseBox, adviseKeep, coachTurnAction, positionValue } from "./advise.ts";
import { analyseGame, type GameRecord } from "./analyse.ts";
import { deserialiseTable, serialiseTable } from "./serialise.ts";
import { buildTable, type SolverTable } from "./solver.ts";
import { loadStoredTable, storeTable } from "./store.ts";

/**
 * The coach's messages, as a worker answers them (worker.ts), kept apart from the worker global so
 * that tests drive them in Node. Every request carries an id that its replies repeat.
 */
export type CoachRequest =
  /** Make a rule set's table ready: from IndexedDB if stored (and `useStore`), else built (and stored). */
  | { id: number; type: "open"; ruleSet: RuleSetId; useStore?: boolean }
  /** Build a table afresh, whatever is stored. */
  | { id: number; type: "build"; ruleSet: RuleSetId }
  /** Load a table from bytes (a shipped file). */
  | { id: number; type: "load"; bytes: ArrayBuffer | Uint8Array }
  /** The bytes of a ready table (float32 unless width 8). */
  | { id: number; type: "serialise"; ruleSet: RuleSetId; width?: 4 | 8 }
  | { id: number; type: "position"; sheet: Sheet }
  | { id: number; type: "adviseKeep"; sheet: Sheet; dice: number[]; rollsUsed: number }
  | { id: number; type: "adviseBox"; sheet: Sheet; dice: number[] }
  | { id: number; type: "action"; sheet: Sheet; dice: number[]; rollsUsed: number }
  | { id: number; type: "analyse"; game: GameRecord };

export type CoachReply =
  | { id: number; type: "progress"; ruleSet: RuleSetId; done: number }
  | {
      id: number;
      type: "ready";
      ruleSet: RuleSetId;
      startValue: number;
      source: "built" | "stored" | "loaded" | "memory";
      ms: number;
    }
  | { id: number; type: "bytes"; ruleSet: RuleSetId; bytes: ArrayBuffer }
  | { id: number; type: "result"; result: unknown; ms: number }
  | { id: number; type: "error"; message: string };

export type Post = (reply: CoachReply, transfer?: ArrayBuffer[]) => void;

export interface CoachHandlerOptions {
  /** IndexedDB, where the host has one (a worker or page); absent in Node. */
  indexedDB?: IDBFactory;
  now?: () => number;
}

/** A message handler over its own tables. Resolves when the request is answered. */
export function createCoach(
  post: Post,
  options: CoachHandlerOptions = {},
): (request: CoachRequest) => Promise<void> {
  const tables = new Map<RuleSetId, SolverTable>();
  const now = options.now ?? (() => performance.now());

  const tableFor = (ruleSet: RuleSetId): SolverTable => {
    const table = tables.get(ruleSet);
    if (!table) throw new Error(`The coach has no table for rule set ${ruleSet} yet.`);
    return table;
  };

  const build = (id: number, ruleSet: RuleSetId): SolverTable => {
    const table = buildTable(ruleSet, {
      onProgress: (done) => post({ id, type: "progress", ruleSet, done }),
    });
    tables.set(ruleSet, table);
    return table;
  };

  return async (request) => {
    const { id } = request;
    const started = now();
    try {
      switch (request.type) {
        case "open": {
          let table = tables.get(request.ruleSet);
          let source: "built" | "stored" | "memory" = "memory";
          const idb = request.useStore === false ? undefined : options.indexedDB;
          if (!table && idb) {
            const bytes = await loadStoredTable(idb, request.ruleSet).catch(() => null);
            if (bytes) {
              table = deserialiseTable(bytes);
              tables.set(request.ruleSet, table);
              source = "stored";
            }
          }
          if (!table) {
            table = build(id, request.ruleSet);
            source = "built";
            if (idb)
              await storeTable(idb, request.ruleSet, serialiseTable(table)).catch(() => undefined);
          }
          const ms = now() - started;
          post({
            id,
            type: "ready",
            ruleSet: table.ruleSet,
            startValue: table.startValue,
            source,
            ms,
          });
          return;
        }
        case "build": {
          const table = build(id, request.ruleSet);
          const ms = now() - started;
          post({
            id,
            type: "ready",
            ruleSet: table.ruleSet,
            startValue: table.startValue,
            source: "built",
            ms,
          });
          return;
        }
        case "load": {
          const table = deserialiseTable(request.bytes);
          tables.set(table.ruleSet, table);
          const ms = now() - started;
          post({
            id,
            type: "ready",
            ruleSet: table.ruleSet,
            startValue: table.startValue,
            source: "loaded",
            ms,
          });
          return;
        }
        case "serialise": {
          const bytes = serialiseTable(tableFor(request.ruleSet), request.width ?? 4);
          const buffer = bytes.buffer as ArrayBuffer;
          post({ id, type: "bytes", ruleSet: request.ruleSet, bytes: buffer }, [buffer]);
          return;
        }
        default: {
          const result = answer(request, tableFor);
          post({ id, type: "result", result, ms: now() - started });
        }
      }
    } catch (error) {
      post({ id, type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  };
}

function answer(
  request: Exclude<CoachRequest, { type: "open" | "build" | "load" | "serialise" }>,
  tableFor: (ruleSet: RuleSetId) => SolverTable,
): unknown {
  switch (request.type) {
    case "position":
      return positionValue(tableFor(request.sheet.ruleSet), request.sheet);
    case "adviseKeep":
      return adviseKeep(
        tableFor(request.sheet.ruleSet),
        request.sheet,
        request.dice,
        request.rollsUsed,
      );
    case "adviseBox":
      return adviseBox(tableFor(request.sheet.ruleSet), request.sheet, request.dice);
    case "action":
      return coachTurnAction(
        tableFor(request.sheet.ruleSet),
        request.sheet,
        request.dice,
        request.rollsUsed,
      );
    case "analyse":
      return analyseGame(tableFor(request.game.ruleSet), request.game);
  }
}

import type { RuleSetId } from "../rules/ruleSets.ts";

/**
 * Tables kept in IndexedDB (in a worker or a page), so the build runs once per browser. Keyed by
 * rule set and format, so a new solver version does not read an old table.
 */

const DB = "dicehall-coach";
const STORE = "tables";
export const TABLE_FORMAT = "v1-f32";

function open(idb: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = idb.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const keyOf = (ruleSet: RuleSetId): string => `${TABLE_FORMAT}/${ruleSet}`;

function run<T>(
  idb: IDBFactory,
  mode: IDBTransactionMode,
  act: (s: IDBObjectStore) => IDBRequest,
): Promise<T> {
  return open(idb).then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const request = act(tx.objectStore(STORE));
        tx.oncomplete = () => {
          db.close();
          resolve(request.result as T);
        };
        tx.onerror = () => {
          db.close();
          reject(tx.error);
        };
      }),
  );
}

/** The stored table bytes of a rule set, or null. */
export async function loadStoredTable(
  idb: IDBFactory,
  ruleSet: RuleSetId,
): Promise<Uint8Array | null> {
  const value = await run<ArrayBuffer | undefined>(idb, "readonly", (s) => s.get(keyOf(ruleSet)));
  return value ? new Uint8Array(value) : null;
}

export async function storeTable(
  idb: IDBFactory,
  ruleSet: RuleSetId,
  bytes: Uint8Array,
): Promise<void> {
  const copy = bytes.slice().buffer;
  await run(idb, "readwrite", (s) => s.put(copy, keyOf(ruleSet)));
}

import type { Address, Client, Hex } from "viem";
import { getBlock, getBlockNumber } from "viem/actions";
import {
  eventSelector,
  fetchLogs,
  mergeLogs,
  type HallEventName,
  type HallLog,
  type HallLogOf,
} from "@dicehall/core/events/hallEvents.ts";
import { queryKeys } from "./queryKeys.ts";

/**
 * Event logs kept in the browser (IndexedDB), one stream per chain + contract + event, with the
 * last block fetched, so a revisit asks the node only for the blocks after it. Logs are written
 * as append-only chunks (one per fetch, compacted now and then) because one record holding every
 * log would be rewritten whole on each visit.
 *
 * A stream also remembers the hash of its last block: if that block is gone (a local node that
 * restarted, a reorg deeper than the confirmations kept back) the stream starts over.
 */

const DB_NAME = "dicehall-logs";
const DB_VERSION = 1;
const STREAMS = "streams";
const CHUNKS = "chunks";
/** Past this many chunks a stream is rewritten as one. */
const MAX_CHUNKS = 24;

export interface StreamState {
  /** Every block up to here has been fetched and stored. */
  syncedTo: bigint;
  /** Hash of block `syncedTo`, to notice a chain that changed under the cache. */
  syncedHash: Hex | null;
}

export interface CachedStream<L extends HallLog = HallLog> extends StreamState {
  logs: L[];
}

/** Where streams live: IndexedDB in the browser, memory in tests and when IndexedDB is missing. */
export interface LogStore {
  read(stream: string): Promise<CachedStream | undefined>;
  /** Adds `logs` (all after the stream's last block) and moves the stream to `state`. */
  append(stream: string, logs: readonly HallLog[], state: StreamState): Promise<void>;
  clear(stream: string): Promise<void>;
}

/** `31337:0xabc…:GameFinished`; `variant` names a filtered stream ("Scored:yahtzees"). */
export function streamKey(
  chainId: number,
  contract: Address,
  eventName: HallEventName,
  variant?: string,
): string {
  return `${chainId}:${contract.toLowerCase()}:${eventName}${variant ? `:${variant}` : ""}`;
}

// ------------------------------------------------------------------ stores

export function memoryLogStore(): LogStore {
  const streams = new Map<string, CachedStream>();
  return {
    async read(stream) {
      const s = streams.get(stream);
      return s && { ...s, logs: [...s.logs] };
    },
    async append(stream, logs, state) {
      const previous = streams.get(stream)?.logs ?? [];
      streams.set(stream, { ...state, logs: [...previous, ...logs] });
    },
    async clear(stream) {
      streams.delete(stream);
    },
  };
}

interface StreamRecord {
  stream: string;
  syncedTo: string;
  syncedHash: Hex | null;
  chunks: number;
}

interface ChunkRecord {
  stream: string;
  /** The first block the chunk covers; with `stream`, the record's key. */
  fromBlock: number;
  logs: HallLog[];
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STREAMS))
        db.createObjectStore(STREAMS, { keyPath: "stream" });
      if (!db.objectStoreNames.contains(CHUNKS))
        db.createObjectStore(CHUNKS, { keyPath: ["stream", "fromBlock"] });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("The log cache is blocked by another tab."));
  });
}

const chunkRange = (stream: string) => IDBKeyRange.bound([stream, -Infinity], [stream, Infinity]);

/**
 * IndexedDB-backed streams. Values hold bigints, which the structured clone that IndexedDB
 * uses keeps as they are. Falls back to memory when IndexedDB cannot be opened (private modes).
 */
export function indexedDbLogStore(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): LogStore {
  if (!factory) return memoryLogStore();
  let db: Promise<IDBDatabase | null> | null = null;
  const fallback = memoryLogStore();
  const database = () =>
    (db ??= openDb(factory).catch((error: unknown) => {
      console.warn("Log cache unavailable; logs are kept in memory only.", error);
      return null;
    }));

  return {
    async read(stream) {
      const idb = await database();
      if (!idb) return fallback.read(stream);
      const tx = idb.transaction([STREAMS, CHUNKS], "readonly");
      const [record, chunks] = await Promise.all([
        result(tx.objectStore(STREAMS).get(stream) as IDBRequest<StreamRecord | undefined>),
        result(tx.objectStore(CHUNKS).getAll(chunkRange(stream)) as IDBRequest<ChunkRecord[]>),
      ]);
      if (!record) return undefined;
      const logs = chunks.length === 1 ? chunks[0].logs : chunks.flatMap((c) => c.logs);
      return { logs, syncedTo: BigInt(record.syncedTo), syncedHash: record.syncedHash };
    },

    async append(stream, logs, state) {
      const idb = await database();
      if (!idb) return fallback.append(stream, logs, state);
      const tx = idb.transaction([STREAMS, CHUNKS], "readwrite");
      const streams = tx.objectStore(STREAMS);
      const chunks = tx.objectStore(CHUNKS);
      const record = await result(streams.get(stream) as IDBRequest<StreamRecord | undefined>);
      let count = record?.chunks ?? 0;
      if (logs.length > 0) {
        if (count + 1 > MAX_CHUNKS) {
          const all = await result(chunks.getAll(chunkRange(stream)) as IDBRequest<ChunkRecord[]>);
          chunks.delete(chunkRange(stream));
          const merged = [...all.flatMap((c) => c.logs), ...logs];
          chunks.put({
            stream,
            fromBlock: Number(merged[0].blockNumber),
            logs: merged,
          } satisfies ChunkRecord);
          count = 1;
        } else {
          chunks.put({
            stream,
            fromBlock: Number(logs[0].blockNumber),
            logs: [...logs],
          } satisfies ChunkRecord);
          count += 1;
        }
      }
      streams.put({
        stream,
        syncedTo: state.syncedTo.toString(),
        syncedHash: state.syncedHash,
        chunks: count,
      } satisfies StreamRecord);
      await committed(tx);
    },

    async clear(stream) {
      const idb = await database();
      if (!idb) return fallback.clear(stream);
      const tx = idb.transaction([STREAMS, CHUNKS], "readwrite");
      tx.objectStore(STREAMS).delete(stream);
      tx.objectStore(CHUNKS).delete(chunkRange(stream));
      await committed(tx);
    },
  };
}

let shared: LogStore | null = null;
/** The app's one store (lazily opened). */
export function logStore(): LogStore {
  return (shared ??= indexedDbLogStore());
}

// ------------------------------------------------------------------ sync

export interface SyncOptions<N extends HallEventName> {
  client: Client;
  store: LogStore;
  chainId: number;
  address: Address;
  eventName: N;
  /** Topics after the event selector (indexed arguments), null = any. */
  topics?: (Hex | Hex[] | null)[];
  /** Only logs that pass are stored (and returned); names the stream with `variant`. */
  keep?: (log: HallLogOf<N>) => boolean;
  variant?: string;
  /** Nothing of ours exists before this block. */
  fromBlock: bigint;
  /** The chain head; read from the node when absent. */
  head?: bigint;
  /**
   * Blocks near the head that may still reorg: fetched every time and never stored. 0 on the
   * local node; a few on public chains.
   */
  confirmations?: bigint;
  /** Block range per eth_getLogs call (the backfill's bound). */
  range?: bigint;
  /** Reads a block's hash; pass one memoized function to let several streams share the reads. */
  hashOf?: (blockNumber: bigint) => Promise<Hex | null>;
}

export interface SyncResult<L extends HallLog> {
  logs: L[];
  syncedTo: bigint;
  /** The blocks asked from the node in this call (stored part and unconfirmed tail). */
  fetched: { from: bigint; to: bigint }[];
}

async function blockHash(client: Client, blockNumber: bigint): Promise<Hex | null> {
  try {
    return (await getBlock(client, { blockNumber })).hash ?? null;
  } catch {
    return null;
  }
}

/** One hash read per block, however many streams ask (for syncs that run together). */
export function sharedBlockHashes(client: Client): (blockNumber: bigint) => Promise<Hex | null> {
  const seen = new Map<bigint, Promise<Hex | null>>();
  return (blockNumber) => {
    let hash = seen.get(blockNumber);
    if (!hash) seen.set(blockNumber, (hash = blockHash(client, blockNumber)));
    return hash;
  };
}

/**
 * Brings one stream up to the head: reads what is stored, checks it is still on this chain,
 * fetches only the blocks after it (in bounded ranges, through `fetchLogs`), stores them, and
 * returns every log of the stream.
 */
export async function syncEventLogs<N extends HallEventName>(
  options: SyncOptions<N>,
): Promise<SyncResult<HallLogOf<N>>> {
  const { client, store, chainId, address, eventName, fromBlock, range } = options;
  const hashOf = options.hashOf ?? ((block: bigint) => blockHash(client, block));
  const confirmations = options.confirmations ?? 0n;
  const key = streamKey(chainId, address, eventName, options.variant);
  const filter = { address, topics: [eventSelector(eventName), ...(options.topics ?? [])] };
  const keep = (logs: HallLog[]) =>
    (options.keep ? logs.filter((l) => options.keep!(l as HallLogOf<N>)) : logs) as HallLogOf<N>[];

  const head = options.head ?? (await getBlockNumber(client, { cacheTime: 0 }));
  let cached = await store.read(key);
  if (cached) {
    const gone =
      cached.syncedTo > head ||
      (cached.syncedHash !== null && (await hashOf(cached.syncedTo)) !== cached.syncedHash);
    if (gone) {
      await store.clear(key);
      cached = undefined;
    }
  }

  const fetched: { from: bigint; to: bigint }[] = [];
  const safe = head - confirmations;
  const start = cached ? cached.syncedTo + 1n : fromBlock;
  let stored = (cached?.logs ?? []) as HallLogOf<N>[];
  let syncedTo = cached?.syncedTo ?? fromBlock - 1n;

  if (start <= safe) {
    const fresh = keep(await fetchLogs(client, filter, start, safe, range));
    fetched.push({ from: start, to: safe });
    await store.append(key, fresh, { syncedTo: safe, syncedHash: await hashOf(safe) });
    stored = mergeLogs(stored, fresh);
    syncedTo = safe;
  }

  // The unconfirmed tail (empty when confirmations is 0) is read every time and never stored.
  const tailFrom = syncedTo + 1n;
  if (tailFrom <= head) {
    const tail = keep(await fetchLogs(client, filter, tailFrom, head, range));
    fetched.push({ from: tailFrom, to: head });
    return { logs: mergeLogs(stored, tail), syncedTo, fetched };
  }
  return { logs: stored, syncedTo, fetched };
}

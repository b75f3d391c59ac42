// The indexer (indexer/, a Ponder app) as a child process of the dev stack, the tests and the
// benchmark: Ponder is a CLI with its own process-wide state, so it cannot share our process.
// scripts/lib/orphanGuard.mjs ends it if we die without stopping it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import type { Address } from "viem";
import type { WireAnalysisStatus, WireStatus } from "@dicehall/core/indexer/indexerWire.ts";
import { LOCAL_CHAIN_ID, ROOT } from "./deployments.ts";
import { freePort } from "./ports.ts";

export const INDEXER_ROOT = join(ROOT, "indexer");
export const DEFAULT_INDEXER_PORT = 42069;
/** Ponder's database schema for the local indexer (production picks its own, see OPERATORS.md). */
export const INDEXER_SCHEMA = "dicehall";

export interface IndexerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  rpcUrl: string;
  chainId: number;
  hall: Address;
  startBlock: bigint | number;
  /** Where PGlite keeps its files; emptied first, since the chain it described is gone. */
  dataDir: string;
  /** Remove dataDir when stopped (tests). */
  removeOnStop?: boolean;
  /**
   * Keep what dataDir (or the Postgres schema) holds: Ponder then resumes an index it wrote before
   * (its crash recovery), as a production restart does. Default: start afresh.
   */
  resume?: boolean;
  /**
   * Postgres instead of PGlite (dataDir is then unused), and the database schema to write:
   * production's setup, which the tests also run when given a database.
   */
  postgres?: { url: string; schema: string };
  /** How long the backfill may take before start gives up (default 120 s). */
  readyTimeoutMs?: number;
  /** Ponder's own warnings and errors, and our progress lines. */
  log?: (line: string) => void;
  /** Extra environment (e.g. INDEXER_POLLING_MS). */
  env?: Record<string, string>;
  /**
   * Serve the API only (`ponder serve`) from an index another indexer writes into `postgres`:
   * a read replica, with no indexing and no analysis of its own (its /api/analysis answers 404).
   */
  serve?: boolean;
}

export interface Indexer {
  url: string;
  /** The Ponder process. */
  pid: number;
  status(): Promise<WireStatus>;
  /** Resolves once the indexer has processed `block` (and everything before it). */
  waitForBlock(block: bigint, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once the analyser has analysed `games` games and folded as many into its running sums
   * (games all final by then); fails if the indexer runs without analysis. `onProgress` hears the
   * counts every 30 s.
   */
  waitForAnalysis(
    games: number,
    timeoutMs?: number,
    onProgress?: (status: WireAnalysisStatus) => void,
  ): Promise<WireAnalysisStatus>;
  stop(): Promise<void>;
}

export class IndexerStartError extends Error {}

/**
 * Ponder warns "No new block received within expected time" every 30 s while no block comes. The
 * dev stack's node makes a block every 2 s, but one started with blocks on transactions only
 * (`blockIntervalMs: 0`), or a node paused in a debugger, would fill the stack's log with it. A filter for the indexer's lines that lets it through once, with why it is harmless;
 * every other line passes.
 */
export function quietIdleChain(): (line: string) => string | null {
  let warned = false;
  return (line) => {
    if (!/No new block received within expected time/.test(line)) return line;
    if (warned) return null;
    warned = true;
    return `${line} (said once: harmless on a local chain, which may go a while without blocks)`;
  };
}

/**
 * Drops what Ponder's sync store (the `ponder_sync` schema, shared by every indexer on a Postgres
 * database) holds of the local chain. A local chain is new at every start, but with the same id:
 * even with its cache off, Ponder writes the blocks and logs it fetches there and reads a range's
 * events back from there, so an earlier chain's logs at the same heights would be indexed as this
 * one's. (PGlite's sync store is in the data directory, which a fresh start empties.)
 */
export async function forgetLocalChain(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string }>(
      `select table_name as table from information_schema.columns
       where table_schema = 'ponder_sync' and column_name = 'chain_id'`,
    );
    for (const { table } of rows) {
      await client.query(`delete from ponder_sync."${table}" where chain_id = $1`, [
        LOCAL_CHAIN_ID,
      ]);
    }
  } finally {
    await client.end();
  }
}

/** Ponder's CLI, beside its entry point (the package exports no other path). */
const ponderBin = (): string =>
  fileURLToPath(new URL("./bin/ponder.js", import.meta.resolve("ponder")));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startIndexer(options: IndexerOptions): Promise<Indexer> {
  const host = options.host ?? "127.0.0.1";
  const port =
    options.port === 0 || options.port === undefined ? await freePort(host) : options.port;
  const log = options.log ?? (() => {});
  const url = `http://${host}:${port}`;

  if (options.serve && !options.postgres) {
    throw new IndexerStartError("a serving replica needs the Postgres database of an indexer");
  }
  const fresh = !options.resume && !options.serve;
  if (options.postgres && fresh && options.chainId === LOCAL_CHAIN_ID) {
    await forgetLocalChain(options.postgres.url);
  }
  if (!options.postgres && fresh) {
    rmSync(options.dataDir, { recursive: true, force: true });
    mkdirSync(options.dataDir, { recursive: true });
  }

  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      pathToFileURL(join(import.meta.dirname, "orphanGuard.mjs")).href,
      ponderBin(),
      options.serve ? "serve" : "start",
      "--root",
      INDEXER_ROOT,
      "--schema",
      options.postgres?.schema ?? INDEXER_SCHEMA,
      "--port",
      String(port),
      "--hostname",
      host,
      "--log-level",
      "warn",
    ],
    {
      cwd: INDEXER_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...options.env,
        // A replica analyses nothing and sends no pushes: the indexer it reads from does.
        ...(options.serve ? { INDEXER_ANALYSIS_THREADS: "0", INDEXER_PUSH: "0" } : {}),
        INDEXER_CHAIN_ID: String(options.chainId),
        INDEXER_RPC_URL: options.rpcUrl,
        DICEHALL_ADDRESS: options.hall,
        DICEHALL_START_BLOCK: String(options.startBlock),
        INDEXER_PGLITE_DIR: options.dataDir,
        // Never Postgres by accident from the operator's shell: only when asked for.
        DATABASE_URL: options.postgres?.url ?? "",
        DATABASE_PRIVATE_URL: "",
        PONDER_TELEMETRY_DISABLED: "true",
        NO_COLOR: "1",
      },
    },
  );

  // The last lines Ponder printed, for an error that says why it stopped.
  const tail: string[] = [];
  const idle = quietIdleChain();
  const onOutput = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      const shown = /^\s+at /.test(line) ? null : idle(line.trimEnd());
      if (shown !== null) log(shown);
    }
  };
  child.stdout!.on("data", onOutput);
  child.stderr!.on("data", onOutput);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stopping = false;
  let ready = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      // After it served: say so, since the app now reads the chain itself.
      if (ready && !stopping) {
        log(
          `stopped on its own (${signal ?? `exit code ${code}`}); the app falls back to reading ` +
            "the chain. Its last lines are above.",
        );
      }
      resolve();
    }),
  );
  const whyStopped = () =>
    `the indexer stopped (${exited?.signal ?? `exit code ${exited?.code}`}); its last lines:\n` +
    tail.join("\n");

  const fetchJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };

  const stop = async () => {
    stopping = true;
    if (!exited) {
      child.kill("SIGTERM");
      const killed = await Promise.race([
        exitedPromise.then(() => true),
        sleep(8_000).then(() => false),
      ]);
      if (!killed) {
        child.kill("SIGKILL");
        await exitedPromise;
      }
    }
    if (options.removeOnStop && !options.postgres) {
      rmSync(options.dataDir, { recursive: true, force: true });
    }
  };

  const status = () => fetchJson<WireStatus>("/api/status");

  const waitFor = async (what: string, timeoutMs: number, done: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exited) throw new IndexerStartError(whyStopped());
      if (await done().catch(() => false)) return;
      if (Date.now() > deadline) {
        throw new IndexerStartError(
          `the indexer at ${url} did not ${what} within ${timeoutMs / 1000} s`,
        );
      }
      await sleep(200);
    }
  };

  try {
    await waitFor("finish its backfill", options.readyTimeoutMs ?? 120_000, async () => {
      const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5_000) });
      return res.status === 200;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  ready = true;

  return {
    url,
    pid: child.pid!,
    status,
    waitForBlock: (block, timeoutMs = 60_000) =>
      waitFor(`reach block ${block}`, timeoutMs, async () => {
        const s = await status();
        return s.block !== null && BigInt(s.block) >= block;
      }),
    waitForAnalysis: async (games, timeoutMs = 120_000, onProgress) => {
      let last: WireAnalysisStatus | undefined;
      let reported = Date.now();
      await waitFor(`analyse and fold ${games} games`, timeoutMs, async () => {
        last = await fetchJson<WireAnalysisStatus>("/api/analysis");
        if (onProgress && Date.now() - reported > 30_000) {
          reported = Date.now();
          onProgress(last);
        }
        return !last.threads || (last.analysed >= games && last.folded >= games);
      });
      if (!last!.threads) throw new IndexerStartError(`the indexer at ${url} runs no analysis`);
      return last!;
    },
    stop,
  };
}

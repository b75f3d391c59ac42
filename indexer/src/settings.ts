import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getAddress, isAddress, type Address } from "viem";

/**
 * The indexer's settings from the environment, checked, with errors an operator can act on.
 * Kept apart from ponder.config.ts so that tests can read them without starting Ponder.
 */

/** Chains with an Ignition parameter file, plus the local one. */
export const CHAIN_NAMES: Record<number, string> = {
  31337: "local",
  8453: "base",
  84532: "baseSepolia",
  42161: "arbitrumOne",
  421614: "arbitrumSepolia",
};

import { LOCAL_CHAIN_ID } from "@dicehall/core/contract/deployments.ts";

export { LOCAL_CHAIN_ID };

export const DEPLOYMENTS_FILE = fileURLToPath(
  new URL("../../core/generated/deployments.json", import.meta.url),
);

export interface IndexerSettings {
  chainId: number;
  chainName: string;
  local: boolean;
  rpcUrl: string;
  hall: Address;
  startBlock: number;
  databaseUrl: string | undefined;
  pgliteDir: string;
  pollingMs: number;
  logRange: number | undefined;
  /** Where the coach's tables are cached on disk (default indexer/.ponder/coach, git-ignored). */
  coachCacheDir: string | undefined;
  /** Worker threads that analyse finished games (each holds the tables it has used); 0: none. */
  analysisThreads: number;
  /**
   * Requests one client IP may make of the API a minute (0: no limit). 600 by default off the
   * local chain; none on it, where the dev stack, its benchmarks and its browser tests all come
   * from 127.0.0.1.
   */
  rateLimit: number;
}

export class IndexerSettingsError extends Error {}

function integer(env: Record<string, string | undefined>, name: string, fallback?: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") {
    if (fallback === undefined) throw new IndexerSettingsError(`indexer: set ${name}`);
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new IndexerSettingsError(`indexer: ${name} must be a whole number >= 0, not "${raw}"`);
  }
  return value;
}

export function indexerSettings(
  env: Record<string, string | undefined>,
  readFile: (path: string) => string,
): IndexerSettings {
  const chainId = integer(env, "INDEXER_CHAIN_ID", LOCAL_CHAIN_ID);
  const local = chainId === LOCAL_CHAIN_ID;
  const rpcUrl = env.INDEXER_RPC_URL || (local ? "http://127.0.0.1:8545" : "");
  if (!rpcUrl) {
    throw new IndexerSettingsError(
      `indexer: set INDEXER_RPC_URL to an RPC endpoint of chain ${chainId}`,
    );
  }

  let hall = env.DICEHALL_ADDRESS;
  let startBlock = env.DICEHALL_START_BLOCK;
  if (!hall) {
    let deployments: Record<string, { diceHall?: string; deploymentBlock?: number | string }>;
    try {
      deployments = JSON.parse(readFile(env.DEPLOYMENTS_FILE || DEPLOYMENTS_FILE));
    } catch {
      throw new IndexerSettingsError(
        "indexer: no DICEHALL_ADDRESS and no deployments file to read it from " +
          "(run `npm run dev`, or export-deployments after a deploy)",
      );
    }
    const entry = deployments[String(chainId)];
    if (!entry?.diceHall) {
      throw new IndexerSettingsError(
        `indexer: the deployments file has no DiceHall on chain ${chainId}; set DICEHALL_ADDRESS`,
      );
    }
    hall = entry.diceHall;
    startBlock ??= String(entry.deploymentBlock ?? 0);
  }
  if (!isAddress(hall)) {
    throw new IndexerSettingsError(`indexer: DICEHALL_ADDRESS is not an address: "${hall}"`);
  }
  if (startBlock === undefined) {
    throw new IndexerSettingsError(
      "indexer: set DICEHALL_START_BLOCK to the deployment block with DICEHALL_ADDRESS",
    );
  }

  return {
    chainId,
    chainName: CHAIN_NAMES[chainId] ?? `chain${chainId}`,
    local,
    rpcUrl,
    hall: getAddress(hall),
    startBlock: integer({ DICEHALL_START_BLOCK: startBlock }, "DICEHALL_START_BLOCK"),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: env.INDEXER_PGLITE_DIR || ".ponder/pglite",
    pollingMs: integer(env, "INDEXER_POLLING_MS", local ? 250 : 1_000),
    // A local chain answers any range, however many logs: a busy stretch of the benchmark's chain
    // is ~200 logs a block, so 100 blocks stay near 15 MB an answer. Public RPCs say their limit
    // in their errors, which Ponder reads.
    logRange: env.INDEXER_LOG_RANGE ? integer(env, "INDEXER_LOG_RANGE") : local ? 100 : undefined,
    coachCacheDir: env.INDEXER_COACH_CACHE || undefined,
    analysisThreads: integer(env, "INDEXER_ANALYSIS_THREADS", 1),
    rateLimit: integer(env, "INDEXER_RATE_LIMIT", local ? 0 : 600),
  };
}

let current: IndexerSettings | undefined;

/** This process's settings, read once (the config and the API read the same ones). */
export function currentSettings(): IndexerSettings {
  current ??= indexerSettings(process.env, (path) => readFileSync(path, "utf8"));
  return current;
}

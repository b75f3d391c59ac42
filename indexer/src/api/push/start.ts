import { GAME_STATUS } from "@dicehall/core/contract/gameStatus.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createPublicClient, http, type Address } from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { quote, type Sql } from "../analysis/analyser.ts";
import type { IndexerSettings } from "../../settings.ts";
import { pushHostsOf, type EndpointPolicy } from "./endpoint.ts";
import { startNotifier, type Notifier, type ReadClock } from "./notifier.ts";
import { proofChecker } from "./proof.ts";
import { DEFAULT_PUSH_LIMITS, type PushApi, type PushLimits } from "./routes.ts";
import { createPushTables } from "./store.ts";
import { vapidKeys } from "./vapid.ts";

/**
 * The pushes in the API's process: the tables, the VAPID keys, the notifier's loops and what the
 * routes need. Null when this indexer sends none (no keys off the local chain, INDEXER_PUSH=0, or a
 * read replica, which the indexer it reads from notifies for).
 */
export async function startPush(
  settings: IndexerSettings,
  read: Sql,
  schema: string,
  env: Record<string, string | undefined> = process.env,
): Promise<(PushApi & { notifier: Notifier }) | null> {
  if (env.INDEXER_PUSH === "0") return null;
  const keys = vapidKeys(
    env,
    settings.local,
    join(fileURLToPath(new URL("../../../", import.meta.url)), ".ponder", "vapid.json"),
  );
  if (!keys) {
    console.warn("push: no PUSH_VAPID_PUBLIC_KEY / PUSH_VAPID_PRIVATE_KEY: no notifications");
    return null;
  }
  const write: Sql = settings.databaseUrl
    ? new pg.Pool({ connectionString: settings.databaseUrl, max: 2 })
    : read;
  const s = quote(schema);
  await createPushTables(write, s);
  const client = createPublicClient({ transport: http(settings.rpcUrl) });
  const endpoints: EndpointPolicy = { hosts: pushHostsOf(env), local: settings.local };
  const hall: Address = settings.hall;
  const readClock: ReadClock = async (gameId) => {
    const view = await client.readContract({
      address: hall,
      abi: diceHallAbi,
      functionName: "getGame",
      args: [gameId],
    });
    // Status 2: running (core's STATUS_NAMES).
    if (view.status !== GAME_STATUS.Running) return null;
    const deadlineMs =
      view.entropyAttempts === 0
        ? view.deadline > 0n
          ? Number(view.deadline) * 1000
          : null
        : Number(view.callOffAt) * 1000;
    return {
      deadlineMs,
      moveTimeoutMs: Number(view.config.moveTimeout) * 1000,
      retryAtMs: view.entropyAttempts > 0 && view.retryAt > 0n ? Number(view.retryAt) * 1000 : null,
      entropyAttempts: view.entropyAttempts,
      pendingSequence: view.pendingSequence,
      requestedAtMs: Number(view.rollRequestedAt) * 1000,
    };
  };
  // The chain's clock: the head block's time. The clock push compares a deadline with the head's
  // time run on by the wall clock since it was read (a local chain's time can be moved ahead of the
  // wall's); the timeout push waits for a block whose own time is past the deadline, since a claim
  // reverts before one is mined.
  let head = { chainMs: 0, readAt: 0 };
  const readHead = async () => {
    const block = await client.getBlock();
    head = { chainMs: Number(block.timestamp) * 1000, readAt: Date.now() };
    return head.chainMs;
  };
  const chainNow = async () => {
    if (Date.now() - head.readAt > 5_000) await readHead();
    return Math.max(Date.now(), head.chainMs + (Date.now() - head.readAt));
  };
  const notifier = await startNotifier({
    read,
    write,
    schema,
    hall,
    vapid: keys,
    pollMs: settings.local ? 200 : 1_000,
    clockPollMs: settings.local ? 2_000 : 15_000,
    readClock,
    chainNow,
    blockTime: readHead,
    endpoints,
    log: (line) => console.warn(line),
  });
  return {
    read,
    write,
    s,
    limits: pushLimitsOf(env),
    publicKey: keys.publicKey,
    hall,
    chainId: settings.chainId,
    checkProof: proofChecker(client, hall),
    endpoints,
    notifier,
  };
}

/** The subscription limits, each an operator's to change (OPERATORS.md). */
export function pushLimitsOf(env: Record<string, string | undefined>): PushLimits {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`push: ${name} must be a whole number >= 1, not "${raw}"`);
    }
    return value;
  };
  return {
    perAddress: read("PUSH_LIMIT_PER_ADDRESS", DEFAULT_PUSH_LIMITS.perAddress),
    perIp: read("PUSH_LIMIT_PER_IP", DEFAULT_PUSH_LIMITS.perIp),
    overall: read("PUSH_LIMIT_OVERALL", DEFAULT_PUSH_LIMITS.overall),
    subscriptions: read("PUSH_MAX_SUBSCRIPTIONS", DEFAULT_PUSH_LIMITS.subscriptions),
  };
}

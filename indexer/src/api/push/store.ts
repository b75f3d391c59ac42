import type { Sql } from "../analysis/analyser.ts";
import { isPushKind, PUSH_KINDS, type PushKind } from "@dicehall/core/notify/pushKinds.ts";

/**
 * The notifier's tables, beside Ponder's in the index's database (Ponder never touches them, so a
 * re-index keeps them, as it keeps the analyser's):
 *
 * - push_subscription: one row per browser that asked for pushes: the push service's endpoint
 *   (its key), the player's address (lower-case, no signature: only public events are ever sent),
 *   the two public keys the browser made for the payload's encryption (RFC 8291), the kinds the
 *   player picked, when it was made. Deleted by the player ("Turn off"), or when the push service
 *   answers 404/410 (the browser dropped it).
 * - push_sent: the key of every push sent (core/notify/pushes.ts: the moment, the kind, the
 *   player), so a block read again after a restart or a reorg never sends the same push twice.
 * - push_cursor: the last hall_log row (Ponder's event id, in chain order) the notifier has read.
 */
function ddl(s: string): string[] {
  return [
    `create table if not exists ${s}.push_subscription (
      endpoint text primary key,
      address text not null,
      p256dh text not null,
      auth text not null,
      kinds text[] not null,
      created_at bigint not null)`,
    `create index if not exists push_subscription_address on ${s}.push_subscription (address)`,
    `create table if not exists ${s}.push_sent (
      key text primary key,
      sent_at bigint not null)`,
    `create table if not exists ${s}.push_cursor (
      id integer primary key,
      log_id text not null)`,
  ];
}

export async function createPushTables(write: Sql, s: string): Promise<void> {
  for (const statement of ddl(s)) await write.query(statement);
}

export interface StoredSubscription {
  endpoint: string;
  address: string;
  p256dh: string;
  auth: string;
  kinds: PushKind[];
}

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()), checked. */
export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** How many browsers one address may have subscribed; a new one replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_ADDRESS = 5;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export function parseSubscription(body: unknown): SubscriptionInput | null {
  if (typeof body !== "object" || body === null) return null;
  const { endpoint, keys } = body as { endpoint?: unknown; keys?: unknown };
  if (typeof endpoint !== "string" || endpoint.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (typeof keys !== "object" || keys === null) return null;
  const { p256dh, auth } = keys as { p256dh?: unknown; auth?: unknown };
  if (typeof p256dh !== "string" || typeof auth !== "string") return null;
  if (!BASE64URL.test(p256dh) || !BASE64URL.test(auth) || p256dh.length > 200 || auth.length > 64) {
    return null;
  }
  return { endpoint, keys: { p256dh, auth } };
}

export function parseKinds(body: unknown): PushKind[] | null {
  if (body === undefined) return [...PUSH_KINDS];
  if (!Array.isArray(body) || !body.every(isPushKind)) return null;
  return [...new Set(body)];
}

export async function saveSubscription(
  write: Sql,
  s: string,
  address: string,
  subscription: SubscriptionInput,
  kinds: PushKind[],
  nowMs: number,
): Promise<void> {
  const who = address.toLowerCase();
  await write.query(
    `insert into ${s}.push_subscription (endpoint, address, p256dh, auth, kinds, created_at)
     values ($1, $2, $3, $4, $5::text[], $6)
     on conflict (endpoint) do update set address = excluded.address, p256dh = excluded.p256dh,
       auth = excluded.auth, kinds = excluded.kinds`,
    [subscription.endpoint, who, subscription.keys.p256dh, subscription.keys.auth, kinds, nowMs],
  );
  await write.query(
    `delete from ${s}.push_subscription where address = $1 and endpoint not in (
       select endpoint from ${s}.push_subscription where address = $1
       order by created_at desc, endpoint limit ${MAX_SUBSCRIPTIONS_PER_ADDRESS})`,
    [who],
  );
}

export async function deleteSubscription(write: Sql, s: string, endpoint: string): Promise<number> {
  const { rows } = await write.query<{ endpoint: string }>(
    `delete from ${s}.push_subscription where endpoint = $1 returning endpoint`,
    [endpoint],
  );
  return rows.length;
}

export async function subscriptionOf(
  read: Sql,
  s: string,
  endpoint: string,
): Promise<StoredSubscription | null> {
  const { rows } = await read.query<StoredSubscription>(
    `select endpoint, address, p256dh, auth, kinds from ${s}.push_subscription
     where endpoint = $1`,
    [endpoint],
  );
  return rows[0] ?? null;
}

/** Every subscription of these addresses (lower-case). */
export async function subscriptionsOf(
  read: Sql,
  s: string,
  addresses: string[],
): Promise<StoredSubscription[]> {
  if (addresses.length === 0) return [];
  const { rows } = await read.query<StoredSubscription>(
    `select endpoint, address, p256dh, auth, kinds from ${s}.push_subscription
     where address = any($1::text[])`,
    [addresses],
  );
  return rows;
}

/** Records these keys as sent; returns those that were not already (the ones to send). */
export async function claimKeys(
  write: Sql,
  s: string,
  keys: string[],
  nowMs: number,
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await write.query<{ key: string }>(
    `insert into ${s}.push_sent (key, sent_at) select k, $2 from unnest($1::text[]) as k
     on conflict (key) do nothing returning key`,
    [keys, nowMs],
  );
  return new Set(rows.map((r) => r.key));
}

/** Sent keys older than this are forgotten: a game's moments are long past by then. */
export const SENT_KEPT_MS = 30 * 24 * 3600_000;

export async function forgetOldKeys(write: Sql, s: string, nowMs: number): Promise<void> {
  await write.query(`delete from ${s}.push_sent where sent_at < $1`, [nowMs - SENT_KEPT_MS]);
}

export async function readCursor(read: Sql, s: string): Promise<string | null> {
  const { rows } = await read.query<{ log_id: string }>(
    `select log_id from ${s}.push_cursor where id = 1`,
  );
  return rows[0]?.log_id ?? null;
}

export async function writeCursor(write: Sql, s: string, logId: string): Promise<void> {
  await write.query(
    `insert into ${s}.push_cursor (id, log_id) values (1, $1)
     on conflict (id) do update set log_id = excluded.log_id`,
    [logId],
  );
}

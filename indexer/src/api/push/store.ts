import { createECDH } from "node:crypto";
import type { Sql } from "../analysis/analyser.ts";
import { isPushKind, PUSH_KINDS, type PushKind } from "@dicehall/core/notify/pushKinds.ts";

/**
 * The notifier's tables, beside Ponder's in the index's database (Ponder never touches them, so a
 * re-index keeps them, as it keeps the analyser's):
 *
 * - push_subscription: one row per browser that asked for pushes: the push service's endpoint
 *   (its key), the player's address (lower-case, stored only with the proof that the sender speaks
 *   for it: routes.ts), the browser's public key and auth secret for the payload's encryption
 *   (RFC 8291), the kinds the player picked, when it was made, and the sends that failed in a row.
 *   Deleted by the player ("Turn off"), when the push service answers 404/410 (the browser dropped
 *   it), or after MAX_FAILURES failed sends in a row.
 * - push_sent: the key of every push sent (core/notify/pushes.ts: the moment, the kind, the
 *   player), so a block read again after a restart or a reorg never sends the same push twice.
 * - push_cursor: the last hall_log row (Ponder's event id, in chain order) the notifier has read.
 * - push_limit: requests counted per minute and bucket (an IP, an address, all), so that the limits
 *   on subscribing hold across every API process that shares the database.
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
    `alter table ${s}.push_subscription add column if not exists failures integer not null default 0`,
    `create index if not exists push_subscription_address on ${s}.push_subscription (address)`,
    `create table if not exists ${s}.push_sent (
      key text primary key,
      sent_at bigint not null)`,
    `create table if not exists ${s}.push_cursor (
      id integer primary key,
      log_id text not null)`,
    `create table if not exists ${s}.push_limit (
      bucket text not null,
      minute bigint not null,
      n integer not null,
      primary key (bucket, minute))`,
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
  /** Sends that failed in a row. */
  failures: number;
}

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()), checked. */
export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** How many browsers one address may have subscribed; a new one replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_ADDRESS = 5;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Sends that may fail in a row (timeouts, refusals, 5xx) before a subscription is dropped. */
export const MAX_FAILURES = 3;

/** Whether `p256dh` is a point on P-256 (RFC 8291's uncompressed 65 bytes). */
function isP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    // ECDH refuses a public key that is not on the curve.
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    ecdh.computeSecret(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A browser's subscription, checked; a reason in words when it is not one. The endpoint's host is
 * endpoint.ts's to judge.
 */
export function parseSubscription(body: unknown): SubscriptionInput | string {
  if (typeof body !== "object" || body === null) return "not a push subscription";
  const { endpoint, keys } = body as { endpoint?: unknown; keys?: unknown };
  if (typeof endpoint !== "string" || endpoint.length > 1024) {
    return "endpoint: a URL of at most 1024 characters";
  }
  if (typeof keys !== "object" || keys === null) return "keys: p256dh and auth";
  const { p256dh, auth } = keys as { p256dh?: unknown; auth?: unknown };
  if (typeof p256dh !== "string" || !BASE64URL.test(p256dh) || p256dh.length > 100) {
    return "keys.p256dh: base64url";
  }
  if (typeof auth !== "string" || !BASE64URL.test(auth) || auth.length > 32) {
    return "keys.auth: base64url";
  }
  if (!isP256Point(Buffer.from(p256dh, "base64url"))) {
    return "keys.p256dh: not a P-256 public key";
  }
  if (Buffer.from(auth, "base64url").length !== 16) return "keys.auth: not 16 bytes";
  return { endpoint, keys: { p256dh, auth } };
}

export function parseKinds(body: unknown): PushKind[] | null {
  if (body === undefined) return [...PUSH_KINDS];
  if (!Array.isArray(body) || body.length > PUSH_KINDS.length || !body.every(isPushKind))
    return null;
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
       auth = excluded.auth, kinds = excluded.kinds, failures = 0`,
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
    `select endpoint, address, p256dh, auth, kinds, failures from ${s}.push_subscription
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
    `select endpoint, address, p256dh, auth, kinds, failures from ${s}.push_subscription
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

/** How many subscriptions the index holds. */
export async function subscriptionCount(read: Sql, s: string): Promise<number> {
  const { rows } = await read.query<{ n: number }>(
    `select count(*)::int as n from ${s}.push_subscription`,
  );
  return rows[0].n;
}

/**
 * A failed send: counts it, and drops the subscription at MAX_FAILURES in a row. True when dropped.
 */
export async function recordFailure(write: Sql, s: string, endpoint: string): Promise<boolean> {
  const { rows } = await write.query<{ failures: number }>(
    `update ${s}.push_subscription set failures = failures + 1 where endpoint = $1
     returning failures`,
    [endpoint],
  );
  if ((rows[0]?.failures ?? 0) < MAX_FAILURES) return false;
  await deleteSubscription(write, s, endpoint);
  return true;
}

export async function recordSuccess(write: Sql, s: string, endpoint: string): Promise<void> {
  await write.query(
    `update ${s}.push_subscription set failures = 0 where endpoint = $1 and failures > 0`,
    [endpoint],
  );
}

/**
 * Counts one request in each bucket for this minute and returns the counts after it (the database
 * is shared by every API process, so a limit holds across them). Minutes before the last are
 * deleted as it goes, so the table holds two minutes of buckets at most.
 */
let purgedBefore = 0;

export async function countRequest(
  write: Sql,
  s: string,
  buckets: string[],
  nowMs: number,
): Promise<number[]> {
  const minute = Math.floor(nowMs / 60_000);
  const { rows } = await write.query<{ bucket: string; n: number }>(
    `insert into ${s}.push_limit (bucket, minute, n) select b, $2, 1 from unnest($1::text[]) as b
     on conflict (bucket, minute) do update set n = ${s}.push_limit.n + 1
     returning bucket, n`,
    [buckets, minute],
  );
  if (purgedBefore !== minute - 1) {
    purgedBefore = minute - 1;
    await write.query(`delete from ${s}.push_limit where minute < $1`, [minute - 1]);
  }
  const of = new Map(rows.map((r) => [r.bucket, r.n]));
  return buckets.map((b) => of.get(b) ?? 0);
}

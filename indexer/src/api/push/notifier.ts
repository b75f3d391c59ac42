import type { Agent } from "node:https";
import type { Address, RpcLog } from "viem";
import webpush from "web-push";
import { decodeLogs } from "@dicehall/core/events/hallEvents.ts";
import { foldGame, type GameState } from "@dicehall/core/game/gameState.ts";
import { rpcLogOfRow, type HallLogRow } from "@dicehall/core/indexer/gameRows.ts";
import {
  clockPushes,
  eventPushes,
  type ClockView,
  type PushMessage,
} from "@dicehall/core/notify/pushes.ts";
import { quote, type Sql } from "../analysis/analyser.ts";
import {
  claimKeys,
  createPushTables,
  deleteSubscription,
  forgetOldKeys,
  readCursor,
  subscriptionsOf,
  writeCursor,
  type StoredSubscription,
} from "./store.ts";

/**
 * The hall's Web Pushes, off the indexing path: like the analyser, a loop in the API's process
 * that reads what Ponder has indexed (hall_log, in chain order, after a cursor of its own), folds
 * each game that moved (core's fold), asks core/notify/pushes.ts what that owes its players, and
 * sends each owed push, once (push_sent), to every browser its player subscribed with the kind
 * picked. A second, slower loop asks the chain for the clocks of the running games that have a
 * subscribed player (the clock, timeout and stalled-roll pushes: time, not events, makes them).
 *
 * Reorgs: Ponder deletes a reorged block's rows. If the cursor's own row is gone and it is not
 * final, the notifier reads again from Ponder's finalized checkpoint; the keys name moments, not
 * blocks, so the moves it meets again send nothing twice, and a move the new chain replaced sends
 * its own push. Restart: the cursor is in the database; a first start begins at the index's head
 * (no pushes for the past).
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: contact for the push services (RFC 8292). */
  subject: string;
}

/** One push request as it leaves (web-push's shape), and the push service's answer. */
export type SendPush = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  options: webpush.RequestOptions,
) => Promise<{ statusCode: number }>;

/** A running game's clock from the chain (DiceHall.getGame), or null if it no longer runs. */
export type ReadClock = (
  gameId: bigint,
) => Promise<Omit<ClockView, "state" | "gameId" | "nowMs"> | null>;

export interface NotifierOptions {
  read: Sql;
  write: Sql;
  schema: string;
  hall: Address;
  vapid: VapidKeys;
  /** How often to look for newly indexed logs (ms); 0: only when `step` is called (tests). */
  pollMs: number;
  /** How often to read the running games' clocks (ms); needs `readClock`. */
  clockPollMs?: number;
  readClock?: ReadClock;
  /** The chain's time now (ms): the clock pushes compare deadlines with it. */
  chainNow?: () => Promise<number>;
  /** The request (web-push's sendNotification by default). */
  send?: SendPush;
  /** Pushes one address may receive a minute (all its browsers count once per push). */
  perMinute?: number;
  /** The HTTPS agent the requests go through (a test's push service trusts its own certificate). */
  agent?: Agent;
  /** Called as each push request leaves (the bench's timer). */
  onSend?: (push: PushMessage, endpoint: string) => void;
  log?: (line: string) => void;
}

export interface NotifierStats {
  /** Push requests sent, answered 2xx. */
  sent: number;
  /** Subscriptions dropped because the push service said the browser is gone (404/410). */
  dropped: number;
  /** Pushes held back by the per-address limit. */
  limited: number;
  failed: number;
}

export interface Notifier {
  /** Reads newly indexed logs once and sends what they owe; how many logs it read. */
  step(): Promise<number>;
  /** Reads the running games' clocks once and sends what they owe. */
  clockStep(): Promise<void>;
  stats(): NotifierStats;
  stop(): Promise<void>;
}

interface LogRow extends HallLogRow {
  id: string;
  game_id: string;
}

const LOGS_PER_STEP = 2_000;
/** Requests in flight at once: a push service answers in tens of ms, so 1 000 take a second. */
const SENDING = 64;
/** A push waits a day for a browser that is offline, then the push service may drop it. */
const TTL_SECONDS = 24 * 3600;

export async function startNotifier(options: NotifierOptions): Promise<Notifier> {
  const { read, write, hall, vapid } = options;
  const s = quote(options.schema);
  const log = options.log ?? (() => {});
  const send: SendPush =
    options.send ??
    ((subscription, payload, requestOptions) =>
      webpush.sendNotification(subscription, payload, requestOptions));
  const perMinute = options.perMinute ?? 30;
  await createPushTables(write, s);
  const stats: NotifierStats = { sent: 0, dropped: 0, limited: 0, failed: 0 };
  /** Each running game's fold as last read, with the id of its latest log. */
  const games = new Map<string, { last: string; state: GameState }>();
  /** Per address, the times of its pushes in the last minute. */
  const recent = new Map<string, number[]>();
  let stopped = false;

  function allowed(address: string, now: number): boolean {
    const times = (recent.get(address) ?? []).filter((t) => now - t < 60_000);
    if (times.length >= perMinute) {
      recent.set(address, times);
      return false;
    }
    times.push(now);
    recent.set(address, times);
    return true;
  }

  async function foldGames(ids: string[]): Promise<Map<string, GameState>> {
    const { rows } = await read.query<LogRow>(
      `select id, game_id::text as game_id, topics, data, block_number::text as block_number,
        block_hash, log_index, transaction_index, transaction_hash
       from ${s}.hall_log where game_id = any($1::numeric[])
       order by game_id, block_number, log_index`,
      [ids],
    );
    const byGame = new Map<string, { last: string; logs: RpcLog[] }>();
    for (const r of rows) {
      const entry = byGame.get(r.game_id) ?? { last: "", logs: [] };
      entry.logs.push(rpcLogOfRow(r, hall));
      if (r.id > entry.last) entry.last = r.id;
      byGame.set(r.game_id, entry);
    }
    const out = new Map<string, GameState>();
    for (const [id, { last, logs }] of byGame) {
      const state = foldGame(BigInt(id), decodeLogs(logs));
      // Only running games are read again (their clocks): the others leave the cache.
      if (state.status === "running") games.set(id, { last, state });
      else games.delete(id);
      out.set(id, state);
    }
    return out;
  }

  /** The finished games of a new lobby's creator that it may replay (newest few). */
  async function finishedOfCreator(lobby: GameState): Promise<GameState[]> {
    if (!lobby.creator) return [];
    const { rows } = await read.query<{ id: string }>(
      `select id::text as id from ${s}.game
       where status = 'finished' and id < $2::numeric
         and exists (select 1 from unnest(players) p where lower(p) = $1)
       order by id desc limit 3`,
      [lobby.creator.toLowerCase(), lobby.gameId.toString()],
    );
    if (rows.length === 0) return [];
    return [...(await foldGames(rows.map((r) => r.id))).values()];
  }

  /** Sends the owed pushes to their players' browsers, each key once. */
  async function deliver(pushes: PushMessage[]): Promise<void> {
    if (pushes.length === 0) return;
    const subscriptions = await subscriptionsOf(read, s, [...new Set(pushes.map((p) => p.to))]);
    if (subscriptions.length === 0) return;
    const byAddress = new Map<string, StoredSubscription[]>();
    for (const sub of subscriptions) {
      byAddress.set(sub.address, [...(byAddress.get(sub.address) ?? []), sub]);
    }
    const wanted = pushes.filter((p) =>
      (byAddress.get(p.to) ?? []).some((sub) => sub.kinds.includes(p.kind)),
    );
    const fresh = await claimKeys(
      write,
      s,
      wanted.map((p) => p.key),
      Date.now(),
    );
    const jobs: { push: PushMessage; sub: StoredSubscription }[] = [];
    const now = Date.now();
    for (const push of wanted) {
      if (!fresh.has(push.key)) continue;
      if (!allowed(push.to, now)) {
        stats.limited++;
        continue;
      }
      for (const sub of byAddress.get(push.to) ?? []) {
        if (sub.kinds.includes(push.kind)) jobs.push({ push, sub });
      }
    }
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { push, sub } = jobs[next++];
        await sendOne(push, sub);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SENDING, jobs.length) }, worker));
  }

  async function sendOne(push: PushMessage, sub: StoredSubscription): Promise<void> {
    const payload = JSON.stringify({
      title: push.title,
      body: push.body,
      url: push.url,
      tag: push.tag,
      kind: push.kind,
    });
    options.onSend?.(push, sub.endpoint);
    try {
      await send(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        payload,
        {
          vapidDetails: vapid,
          ...(options.agent ? { agent: options.agent } : {}),
          TTL: TTL_SECONDS,
          urgency: push.kind === "finished" || push.kind === "rematch" ? "normal" : "high",
          // The push service keeps only the newest undelivered push of a topic (a table's kind).
          topic: `${push.tag}-${push.kind}`.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
        },
      );
      stats.sent++;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        await deleteSubscription(write, s, sub.endpoint);
        stats.dropped++;
        log(`push: ${sub.endpoint.slice(0, 60)}… is gone (${status}): subscription dropped`);
      } else {
        stats.failed++;
        log(`push: a request failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  async function finalCheckpoint(): Promise<string | null> {
    const { rows } = await read.query<{ checkpoint: string }>(
      `select finalized_checkpoint as checkpoint from ${s}._ponder_checkpoint`,
    );
    return rows[0]?.checkpoint ?? null;
  }

  async function step(): Promise<number> {
    let cursor = await readCursor(read, s);
    if (cursor === null) {
      // A first start: the past is not news.
      const { rows } = await read.query<{ id: string | null }>(
        `select max(id) as id from ${s}.hall_log`,
      );
      await writeCursor(write, s, rows[0]?.id ?? "");
      return 0;
    }
    if (cursor !== "") {
      const { rows } = await read.query<{ id: string }>(
        `select id from ${s}.hall_log where id = $1`,
        [cursor],
      );
      const final = await finalCheckpoint();
      if (rows.length === 0 && (final === null || cursor > final)) {
        // A reorg took the cursor's block: read again from what is final.
        log(`push: the block of the last log read was reorged; reading again from the final one`);
        cursor = final ?? "";
        games.clear();
      }
    }
    const { rows } = await read.query<{ id: string; game_id: string | null }>(
      `select id, game_id::text as game_id from ${s}.hall_log where id > $1
       order by id limit ${LOGS_PER_STEP}`,
      [cursor],
    );
    if (rows.length === 0) return 0;
    const touched = [...new Set(rows.flatMap((r) => (r.game_id ? [r.game_id] : [])))];
    const folded = await foldGames(touched);
    const pushes: PushMessage[] = [];
    for (const state of folded.values()) {
      const finishedOf = state.status === "open" ? await finishedOfCreator(state) : [];
      pushes.push(...eventPushes(state, finishedOf));
    }
    await deliver(pushes);
    await writeCursor(write, s, rows[rows.length - 1].id);
    return rows.length;
  }

  async function clockStep(): Promise<void> {
    if (!options.readClock || !options.chainNow) return;
    const { rows } = await read.query<{ id: string }>(
      `select id::text as id from ${s}.game where status = 'running'`,
    );
    if (rows.length === 0) return;
    const unknown = rows.map((r) => r.id).filter((id) => !games.has(id));
    if (unknown.length > 0) await foldGames(unknown);
    const running = rows.flatMap((r) => {
      const g = games.get(r.id);
      return g && g.state.status === "running" ? [g.state] : [];
    });
    const players = [...new Set(running.flatMap((g) => g.players.map((p) => p.toLowerCase())))];
    const subscribed = new Set((await subscriptionsOf(read, s, players)).map((x) => x.address));
    const watched = running.filter((g) => g.players.some((p) => subscribed.has(p.toLowerCase())));
    if (watched.length === 0) return;
    const nowMs = await options.chainNow();
    const pushes: PushMessage[] = [];
    for (const state of watched) {
      const clock = await options.readClock(state.gameId);
      if (clock) pushes.push(...clockPushes({ ...clock, state, gameId: state.gameId, nowMs }));
    }
    await deliver(pushes);
  }

  let timer: NodeJS.Timeout | undefined;
  let clockTimer: NodeJS.Timeout | undefined;
  let lastForget = 0;
  const loop = async () => {
    if (stopped) return;
    try {
      while ((await step()) === LOGS_PER_STEP && !stopped);
      if (Date.now() - lastForget > 3600_000) {
        await forgetOldKeys(write, s, Date.now());
        lastForget = Date.now();
      }
    } catch (error) {
      if (!stopped) log(`push: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) timer = setTimeout(loop, options.pollMs);
  };
  const clockLoop = async () => {
    if (stopped) return;
    try {
      await clockStep();
    } catch (error) {
      if (!stopped) log(`push (clocks): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) clockTimer = setTimeout(clockLoop, options.clockPollMs);
  };
  if (options.pollMs > 0) timer = setTimeout(loop, 0);
  if (options.clockPollMs && options.readClock) clockTimer = setTimeout(clockLoop, 0);

  return {
    step,
    clockStep,
    stats: () => ({ ...stats }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(clockTimer);
    },
  };
}

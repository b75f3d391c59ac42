import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent, request as httpsRequest } from "node:https";
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
  checkEndpointUrl,
  DEFAULT_PUSH_HOSTS,
  guardedLookup,
  type EndpointPolicy,
} from "./endpoint.ts";
import {
  claimKeys,
  createPushTables,
  deleteSubscription,
  forgetOldKeys,
  readCursor,
  recordFailure,
  recordSuccess,
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
 * Sending (issue 42): every request has a deadline; requests go out through a bounded pool, one
 * at a time per endpoint (so a browser's pushes arrive in order) and never waited for by the
 * reading loop, so an endpoint that hangs or fails holds up nothing but its own queue. An endpoint
 * that failed its last send waits in a small lane of its own, so even many of them cannot fill
 * the pool; one that fails MAX_FAILURES times in a row is dropped, as is one the push service says
 * is gone (404/410). Each request's host is checked again as it leaves (endpoint.ts).
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
  /** The head block's own time (ms): a timeout is pushed only once it is past the deadline. */
  blockTime?: () => Promise<number>;
  /** Where sends may go (endpoint.ts); by default the browsers' push services only. */
  endpoints?: EndpointPolicy;
  /** A request's deadline (ms), from its start to the push service's answer. */
  sendTimeoutMs?: number;
  /** Pushes one address may receive a minute (all its browsers count once per push). */
  perMinute?: number;
  /** Trusted certificates beside the system's (a test's push service has its own). */
  ca?: string | Buffer;
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
  /** Subscriptions dropped after MAX_FAILURES failed sends in a row. */
  failing: number;
}

export interface Notifier {
  /** Reads newly indexed logs once and sends what they owe; how many logs it read. */
  step(): Promise<number>;
  /** Reads the running games' clocks once and sends what they owe. */
  clockStep(): Promise<void>;
  stats(): NotifierStats;
  /** Resolves once every push owed so far has been sent or has failed. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

interface LogRow extends HallLogRow {
  id: string;
  game_id: string;
}

const LOGS_PER_STEP = 2_000;
/** Requests in flight at once: a push service answers in tens of ms, so 1 000 take a second. */
const SENDING = 128;
/** Of them, for endpoints whose last send failed (they may hang until their deadline). */
const SUSPECT_SENDING = 16;
/** A push service answers in well under a second; one that takes this long is failing. */
const SEND_TIMEOUT_MS = 5_000;
/** Pushes waiting for one endpoint at most; past that the oldest are let go. */
const QUEUE_PER_ENDPOINT = 32;
/** A push waits a day for a browser that is offline, then the push service may drop it. */
const TTL_SECONDS = 24 * 3600;

export async function startNotifier(options: NotifierOptions): Promise<Notifier> {
  const { read, write, hall, vapid } = options;
  const s = quote(options.schema);
  const log = options.log ?? (() => {});
  const policy: EndpointPolicy = options.endpoints ?? { hosts: DEFAULT_PUSH_HOSTS, local: false };
  const timeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  const lookup = guardedLookup(policy);
  // Sockets are bounded by the pool, not per host: most browsers' endpoints share one host (FCM),
  // and one of them hanging must not take a socket another needs.
  const agents = {
    https: new Agent({
      keepAlive: true,
      maxSockets: SENDING + SUSPECT_SENDING,
      lookup,
      ...(options.ca ? { ca: options.ca } : {}),
    }),
    http: new HttpAgent({ keepAlive: true, maxSockets: SENDING + SUSPECT_SENDING, lookup }),
  };
  const perMinute = options.perMinute ?? 30;
  await createPushTables(write, s);
  const stats: NotifierStats = { sent: 0, dropped: 0, limited: 0, failed: 0, failing: 0 };
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
    for (const job of jobs) enqueue(job);
  }

  interface Job {
    push: PushMessage;
    sub: StoredSubscription;
  }
  /** Per endpoint, its pushes waiting, in the order owed. */
  const queues = new Map<string, Job[]>();
  /** Endpoints with a push waiting and none in flight: healthy ones, and those whose last failed. */
  const ready = { healthy: [] as string[], suspect: [] as string[] };
  const inFlight = { healthy: 0, suspect: 0 };
  const busy = new Set<string>();
  /** Endpoints whose last send failed (the database's count is the one that drops them). */
  const suspects = new Set<string>();
  let waiting: (() => void)[] = [];
  const laneOf = (endpoint: string) => (suspects.has(endpoint) ? "suspect" : "healthy");

  function enqueue(job: Job): void {
    const endpoint = job.sub.endpoint;
    if (job.sub.failures > 0) suspects.add(endpoint);
    const queue = queues.get(endpoint) ?? [];
    queue.push(job);
    if (queue.length > QUEUE_PER_ENDPOINT) queue.shift();
    queues.set(endpoint, queue);
    if (queue.length === 1 && !busy.has(endpoint)) ready[laneOf(endpoint)].push(endpoint);
    pump();
  }

  function pump(): void {
    for (const lane of ["healthy", "suspect"] as const) {
      const cap = lane === "healthy" ? SENDING : SUSPECT_SENDING;
      while (inFlight[lane] < cap && ready[lane].length > 0) {
        const endpoint = ready[lane].shift()!;
        const job = queues.get(endpoint)?.shift();
        if (!job) continue;
        busy.add(endpoint);
        inFlight[lane]++;
        void sendOne(job.push, job.sub).finally(() => {
          inFlight[lane]--;
          busy.delete(endpoint);
          const rest = queues.get(endpoint);
          if (rest && rest.length > 0) ready[laneOf(endpoint)].push(endpoint);
          else queues.delete(endpoint);
          pump();
        });
      }
    }
    if (inFlight.healthy + inFlight.suspect === 0 && queues.size === 0) {
      const done = waiting;
      waiting = [];
      for (const resolve of done) resolve();
    }
  }

  /** One request, with a deadline from its start to the answer's status; the status. */
  function post(
    sub: StoredSubscription,
    payload: string,
    headers: webpush.RequestOptions,
  ): Promise<number> {
    const url = checkEndpointUrl(sub.endpoint, policy);
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      payload,
      headers,
    );
    const secure = url.protocol === "https:";
    const attempt = () =>
      new Promise<number>((resolve, reject) => {
        const request = (secure ? httpsRequest : httpRequest)(
          url,
          {
            method: "POST",
            headers: details.headers,
            agent: secure ? agents.https : agents.http,
            signal: AbortSignal.timeout(timeoutMs),
          },
          (response) => {
            resolve(response.statusCode ?? 0);
            // The answer's body says nothing the status does not: read and let go.
            response.resume();
          },
        );
        request.on("error", (error: NodeJS.ErrnoException) =>
          reject(Object.assign(error, { reused: request.reusedSocket })),
        );
        request.end(details.body);
      });
    // A kept-alive socket the push service closed as the request left: sent again once, on a new
    // one (Node's advice for keep-alive); the endpoint did nothing wrong.
    return attempt().catch((error: NodeJS.ErrnoException & { reused?: boolean }) => {
      if (error.reused && error.code === "ECONNRESET") return attempt();
      throw error;
    });
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
    let status = 0;
    let reason = "";
    try {
      status = await post(sub, payload, {
        vapidDetails: vapid,
        TTL: TTL_SECONDS,
        urgency: push.kind === "finished" || push.kind === "rematch" ? "normal" : "high",
        // The push service keeps only the newest undelivered push of a topic (a table's kind).
        topic: `${push.tag}-${push.kind}`.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
      });
      reason = `answered ${status}`;
    } catch (error) {
      reason =
        error instanceof Error && error.name === "AbortError"
          ? `no answer within ${timeoutMs} ms`
          : error instanceof Error
            ? `${error.name}: ${error.message}`
            : String(error);
    }
    try {
      if (status >= 200 && status < 300) {
        stats.sent++;
        if (suspects.delete(sub.endpoint) || sub.failures > 0) {
          sub.failures = 0;
          await recordSuccess(write, s, sub.endpoint);
        }
      } else if (status === 404 || status === 410) {
        await deleteSubscription(write, s, sub.endpoint);
        forget(sub.endpoint);
        stats.dropped++;
        log(`push: ${sub.endpoint.slice(0, 60)}… is gone (${status}): subscription dropped`);
      } else {
        stats.failed++;
        suspects.add(sub.endpoint);
        if (await recordFailure(write, s, sub.endpoint)) {
          forget(sub.endpoint);
          stats.failing++;
          log(`push: ${sub.endpoint.slice(0, 60)}… failed (${reason}) again: subscription dropped`);
        } else {
          log(`push: a request to ${sub.endpoint.slice(0, 60)}… failed (${reason})`);
        }
      }
    } catch (error) {
      if (!stopped) log(`push: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** An endpoint dropped: what waits for it goes too. */
  function forget(endpoint: string): void {
    queues.delete(endpoint);
    suspects.delete(endpoint);
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
    const blockMs = options.blockTime ? await options.blockTime() : nowMs;
    const pushes: PushMessage[] = [];
    for (const state of watched) {
      const clock = await options.readClock(state.gameId);
      if (clock) {
        pushes.push(...clockPushes({ ...clock, state, gameId: state.gameId, nowMs, blockMs }));
      }
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
    idle: () =>
      inFlight.healthy + inFlight.suspect === 0 && queues.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push(resolve)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(clockTimer);
      queues.clear();
      agents.https.destroy();
      agents.http.destroy();
    },
  };
}

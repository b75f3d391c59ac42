import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { keccak256, numberToHex, toHex, type Address, type Hex } from "viem";
import webpush from "web-push";

import { encodeHallLog, type HallLog } from "@dicehall/core/events/hallEvents.ts";
import { playBotGame } from "@dicehall/core/game/botGame.ts";
import { foldGame } from "@dicehall/core/game/gameState.ts";
import { PUSH_KINDS } from "@dicehall/core/notify/pushKinds.ts";
import { eventPushes } from "@dicehall/core/notify/pushes.ts";
import { chooseTurnAction } from "@dicehall/core/rules/strategy.ts";
import type { Sql } from "../indexer/src/api/analysis/analyser.ts";
import { startNotifier, type Notifier } from "../indexer/src/api/push/notifier.ts";
import { createPushTables, saveSubscription } from "../indexer/src/api/push/store.ts";
import { startPushEndpoint, type PushEndpoint } from "../scripts/lib/pushService.ts";

// The notifier (indexer/src/api/push/) against a push service of our own that decrypts every
// payload with the keys of the browser it was sent to. A scripted game goes into an index's
// hall_log one log at a time, as Ponder would write it, and the notifier reads after each: the
// right pushes, in order, to the players only (a subscribed spectator gets none), each once across a
// restart and a reorg; a browser the push service says is gone (410) is dropped.

const HALL: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const A: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const C: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const SCHEMA = "dicehall";
/** Our push service listens on 127.0.0.1: the local chain's rule. */
const LOCAL = { hosts: [], local: true };
const S = `"${SCHEMA}"`;

/** Ponder's event id: the block's time first, so ids sort in chain order (see its checkpoints). */
const eventId = (time: bigint, block: bigint, logIndex: number) =>
  `${time.toString().padStart(10, "0")}${"31337".padStart(16, "0")}${block
    .toString()
    .padStart(16, "0")}${"0".padStart(16, "0")}5${String(logIndex).padStart(16, "0")}`;

interface Indexed {
  log: HallLog;
  id: string;
}

describe("the notifier", () => {
  let db: PGlite;
  let sql: Sql;
  let service: PushEndpoint;
  let notifier: Notifier;
  const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:test@dicehall.invalid" };
  const indexed: Indexed[] = [];

  const start = () =>
    startNotifier({
      read: sql,
      write: sql,
      schema: SCHEMA,
      hall: HALL,
      vapid,
      pollMs: 0,
      ca: service.ca,
      endpoints: LOCAL,
      // A scripted match moves faster than any table: no per-player cap here.
      perMinute: 1_000,
    });

  /** Reads what is new, and waits for its pushes to be sent. */
  const step = async (n: Notifier = notifier) => {
    const read = await n.step();
    await n.idle();
    return read;
  };

  /** Writes a log as the indexer's handler does (hall_log, and the game row's status). */
  async function index(log: HallLog, time: bigint, hash: Hex): Promise<string> {
    const { topics, data } = encodeHallLog(log);
    const gameId = (log.args as { gameId: bigint }).gameId;
    const id = eventId(time, log.blockNumber, log.logIndex);
    await sql.query(
      `insert into ${S}.hall_log (id, game_id, event_name, block_number, block_hash, log_index,
         transaction_index, transaction_hash, topics, data)
       values ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9)`,
      [
        id,
        gameId.toString(),
        log.eventName,
        log.blockNumber.toString(),
        hash,
        log.logIndex,
        keccak256(toHex(id)),
        topics,
        data,
      ],
    );
    indexed.push({ log, id });
    const state = foldGame(
      gameId,
      indexed.map((i) => i.log).filter((l) => (l.args as { gameId: bigint }).gameId === gameId),
    );
    await sql.query(
      `insert into ${S}.game (id, status, players) values ($1, $2, $3)
       on conflict (id) do update set status = excluded.status, players = excluded.players`,
      [gameId.toString(), state.status, state.result?.players.map((p) => p.toLowerCase()) ?? null],
    );
    return id;
  }

  const blockHash = (block: bigint, fork = 0) => keccak256(toHex(`block ${block} fork ${fork}`));
  const payloads = (name: string) =>
    service.received
      .filter((r) => r.name === name)
      .map((r) => r.payload as { title: string; body: string; url: string; kind: string });

  const game = playBotGame({
    gameId: 7n,
    ruleSet: 0,
    players: [A, B],
    choose: (_seat, sheet, dice, rollsUsed) =>
      chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
    reveal: (seq) => keccak256(toHex(`push test ${seq}`)),
  });
  const lastBlock = game.logs.at(-1)!.blockNumber;

  before(async () => {
    db = new PGlite();
    sql = db as unknown as Sql;
    await db.exec(`create schema ${S};
      create table ${S}.hall_log (id text primary key, game_id numeric(78,0), event_name text,
        block_number numeric(78,0), block_hash text, log_index integer, transaction_index integer,
        transaction_hash text, topics text[], data text);
      create table ${S}.game (id numeric(78,0) primary key, status text, players text[]);
      create table ${S}._ponder_checkpoint (finalized_checkpoint text);
      insert into ${S}._ponder_checkpoint values ('${eventId(0n, 0n, 0)}');`);
    service = await startPushEndpoint();
    await createPushTables(sql, S);
    const all = [...PUSH_KINDS];
    const save = (who: Address, name: string, kinds = all) =>
      saveSubscription(sql, S, who, service.subscribe(name), kinds, Date.now());
    await save(A, "a1");
    // B's second browser is gone: its push service answers 410.
    await save(
      B,
      "b1",
      all.filter((k) => k !== "finished"),
    );
    await save(B, "b2");
    service.answer("b2", 410);
    // C watches the table but has no seat.
    await save(C, "c1");
    notifier = await start();
    await step(); // the first start: the index is empty, the cursor at its head
  });

  after(async () => {
    await notifier?.stop();
    await service?.close();
    await db?.close();
  });

  it("sends each player the pushes of a scripted game, in order, and none to a spectator", async () => {
    for (const log of game.logs) {
      await index(log, log.blockNumber * 2n, blockHash(log.blockNumber));
      await step();
    }
    assert.deepEqual(service.rejected, []);
    const order = service.received.map((r) => `${r.name}:${(r.payload as { kind: string }).kind}`);
    const rounds = 13;
    const expected = ["a1:started", "b1:started"];
    for (let r = 0; r < rounds; r++) expected.push("a1:turn", "b1:turn");
    expected.push("a1:finished");
    assert.deepEqual(order, expected);
    assert.equal(payloads("c1").length, 0, "a spectator gets nothing");
    assert.ok(service.received.every((r) => r.vapidKey === vapid.publicKey));
    const a = payloads("a1");
    assert.equal(a[0].title, "Your table started");
    assert.equal(a[1].title, "Your turn");
    assert.equal(a[1].body, "Game #7: it's your move.");
    assert.ok(a.every((p) => p.url === "/games/7"));
    const [totalA, totalB] = game.totals;
    const last = a.at(-1)!;
    assert.equal(last.title, totalA > totalB ? "You won" : "Game over");
    assert.match(last.body, new RegExp(`Game #7 is over: .*${totalA} points`));
    assert.ok(service.received.every((r) => r.ttl === "86400"));
  });

  it("drops a subscription whose push service answers 410", async () => {
    const { rows } = await sql.query<{ endpoint: string }>(
      `select endpoint from ${S}.push_subscription where address = $1`,
      [B.toLowerCase()],
    );
    assert.deepEqual(
      rows.map((r) => r.endpoint.split("/").at(-1)),
      ["b1"],
    );
    assert.equal(notifier.stats().dropped, 1);
  });

  it("offers a rematch to the other players, and sends nothing twice after a restart", async () => {
    const before = service.received.length;
    const block = lastBlock + 5n;
    const rematch = {
      eventName: "GameCreated",
      args: {
        gameId: 8n,
        creator: A,
        token: "0x0000000000000000000000000000000000000000",
        bet: 1000n,
        seats: 2,
        ruleSet: 0,
        isPrivate: false,
      },
      blockNumber: block,
      logIndex: 0,
    } as HallLog;
    await index(rematch, block * 2n, blockHash(block));
    await step();
    assert.deepEqual(
      service.received
        .slice(before)
        .map((r) => `${r.name}:${(r.payload as { kind: string }).kind}`),
      ["b1:rematch"],
    );
    assert.equal(payloads("b1").at(-1)!.url, "/games/8");

    // A restart: a new notifier over the same database reads nothing new and sends nothing.
    await notifier.stop();
    notifier = await start();
    assert.equal(await step(), 0);
    // Even told to read the whole history again, every push it meets was sent already.
    await sql.query(`update ${S}.push_cursor set log_id = ''`);
    assert.ok((await step()) > 0);
    assert.equal(service.received.length, before + 1);
  });

  it("sends nothing twice across a reorg, and what the new chain adds once", async () => {
    const before = service.received.length;
    const reorged = indexed.at(-1)!;
    // Ponder reverts the reorged block's rows; the same lobby is mined again in another block.
    await sql.query(`delete from ${S}.hall_log where id = $1`, [reorged.id]);
    indexed.pop();
    const block = reorged.log.blockNumber;
    await index(reorged.log, block * 2n + 1n, blockHash(block, 1));
    await step();
    assert.equal(service.received.length, before, "the rematch is not offered again");
    // The new chain goes on: B joins, the table fills.
    await index(
      {
        eventName: "PlayerJoined",
        args: { gameId: 8n, player: B },
        blockNumber: block + 1n,
        logIndex: 0,
      } as HallLog,
      (block + 1n) * 2n + 1n,
      blockHash(block + 1n, 1),
    );
    await step();
    assert.deepEqual(
      service.received
        .slice(before)
        .map((r) => `${r.name}:${(r.payload as { kind: string }).kind}`),
      ["a1:started", "b1:started"],
    );
  });

  it("warns the player to move at 20 % of the clock, and the others when it runs out", async () => {
    const before = service.received.length;
    // Game 8: the order drawn, A to move, a one-hour clock.
    const block = indexed.at(-1)!.log.blockNumber + 1n;
    await index(
      {
        eventName: "GameStarted",
        args: { gameId: 8n, order: [A, B] },
        blockNumber: block,
        logIndex: 0,
      } as HallLog,
      block * 2n + 1n,
      blockHash(block, 1),
    );
    await step(); // A's turn
    let now = 1_000_000;
    const deadline = now + 3_600_000;
    // The head block's own time: the wall clock (and so `now`) may run ahead of it.
    let blockAt = now;
    const clocked = await startNotifier({
      read: sql,
      write: sql,
      schema: SCHEMA,
      hall: HALL,
      vapid,
      pollMs: 0,
      ca: service.ca,
      endpoints: LOCAL,
      chainNow: async () => now,
      blockTime: async () => blockAt,
      readClock: async () => ({
        deadlineMs: deadline,
        moveTimeoutMs: 3_600_000,
        retryAtMs: null,
        entropyAttempts: 0,
        pendingSequence: 0n,
        requestedAtMs: 0,
      }),
    });
    const clockStep = async () => {
      await clocked.clockStep();
      await clocked.idle();
    };
    await clockStep(); // an hour left: nothing
    now = deadline - 700_000; // 19 % left
    await clockStep();
    await clockStep(); // once
    now = deadline + 1_000;
    blockAt = deadline; // no block past the deadline yet: a claim would revert
    await clockStep();
    assert.equal(service.received.length, before + 2, "no timeout before a block is past it");
    blockAt = deadline + 1_000;
    await clockStep();
    await clocked.stop();
    const sent = service.received.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.name}:${(r.payload as { kind: string }).kind}`),
      ["a1:turn", "a1:clock", "b1:timeout"],
    );
    assert.equal(
      (sent[1].payload as { body: string }).body,
      "Game #8: about 12 min left to move, or you can be timed out.",
    );
    assert.equal(sent[0].urgency, "high");
  });

  it("pushes every kind in every game of a 3-game match, none twice, and the match's end as the hall scores it", async () => {
    const before = service.received.length;
    const start = indexed.at(-1)!.log.blockNumber + 10n;
    const match = playBotGame({
      gameId: 9n,
      ruleSet: 0,
      players: [A, B],
      games: 3,
      blocks: { start, each: true },
      choose: (_seat, sheet, dice, rollsUsed) =>
        chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
      reveal: (seq) => keccak256(toHex(`push match ${seq}`)),
    });
    for (const log of match.logs) {
      await index(log, log.blockNumber * 2n + 1n, blockHash(log.blockNumber, 1));
      await step();
    }
    assert.deepEqual(service.rejected, []);
    const sent = service.received.slice(before).map((r) => ({
      name: r.name,
      ...(r.payload as { kind: string; title: string; body: string; url: string }),
    }));
    assert.ok(sent.every((p) => p.url === "/games/9"));
    const count = (name: string, kind: string) =>
      sent.filter((p) => p.name === name && p.kind === kind).length;
    // A: every kind it picked in every game; B's browser did not pick "finished".
    assert.equal(count("a1", "started"), 3);
    assert.equal(count("a1", "turn"), 39);
    assert.equal(count("a1", "finished"), 3, "games 1 and 2, then the match");
    assert.equal(count("b1", "started"), 3);
    assert.equal(count("b1", "turn"), 39);
    assert.equal(count("b1", "finished"), 0);
    assert.equal(payloads("c1").length, 0);
    // Each game's turns carry its number in the match; nothing is sent twice.
    for (const game of [1, 2, 3]) {
      const turns = sent.filter(
        (p) => p.name === "a1" && p.kind === "turn" && p.title.endsWith(`Game ${game} of 3`),
      );
      assert.equal(turns.length, 13, `game ${game}'s turns`);
    }
    // Each browser hears each game start, in order; two browsers' sends run side by side, so the
    // order between them is not fixed.
    for (const name of ["a1", "b1"]) {
      assert.deepEqual(
        sent.filter((p) => p.name === name && p.kind === "started").map((p) => p.title),
        ["Your table started", "Game 2 of 3 started", "Game 3 of 3 started"],
        name,
      );
    }
    // The match's end: games won first, then points, from the logs' own game results.
    const ends = match.logs.filter((l) => l.eventName === "MatchGameFinished") as Extract<
      HallLog,
      { eventName: "MatchGameFinished" }
    >[];
    const wins = (p: Address) =>
      ends.filter((e) => e.args.winners.some((w) => w.toLowerCase() === p.toLowerCase())).length;
    const [pointsA, pointsB] = match.totals;
    const aAhead = wins(A) > wins(B) || (wins(A) === wins(B) && pointsA >= pointsB);
    const last = payloads("a1").at(-1)!;
    assert.equal(last.kind, "finished");
    assert.equal(last.title, aAhead ? "You won the match" : "Match over");
    const games = `${wins(A)} game${wins(A) === 1 ? "" : "s"} won and ${pointsA} points`;
    assert.ok(last.body.startsWith("Game #9, a match of 3 games, is over: "), last.body);
    assert.ok(last.body.includes(games), `${last.body} names ${games}`);
    const firstEnd = sent.find((p) => p.name === "a1" && p.kind === "finished")!;
    assert.equal(firstEnd.title, "Game 1 of 3 over");
  });

  it("delivers another player's pushes within 2 s while a subscriber's endpoint hangs, and drops the endpoint after 3 failures", async () => {
    // C's browser takes every request and never answers; A plays C at table 10.
    service.answer("c1", "hang");
    const hung = await startNotifier({
      read: sql,
      write: sql,
      schema: SCHEMA,
      hall: HALL,
      vapid,
      pollMs: 0,
      ca: service.ca,
      endpoints: LOCAL,
      perMinute: 1_000,
      sendTimeoutMs: 3_000,
    });
    const start = indexed.at(-1)!.log.blockNumber + 10n;
    const table10 = playBotGame({
      gameId: 10n,
      ruleSet: 0,
      players: [C, A],
      blocks: { start, each: true },
      choose: (_seat, sheet, dice, rollsUsed) =>
        chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
      reveal: (seq) => keccak256(toHex(`push hang ${seq}`)),
    });
    const toA = () => payloads("a1").filter((p) => p.url === "/games/10").length;
    // What A is owed after each log, by core's own decision, each key once.
    const owed = new Set<string>();
    const waits: number[] = [];
    for (let i = 0; i < table10.logs.length; i++) {
      const log = table10.logs[i];
      for (const push of eventPushes(foldGame(10n, table10.logs.slice(0, i + 1)))) {
        if (push.to === A.toLowerCase()) owed.add(push.key);
      }
      await index(log, log.blockNumber * 2n + 1n, blockHash(log.blockNumber, 1));
      const began = Date.now();
      await hung.step();
      while (toA() < owed.size && Date.now() - began < 2_000) {
        await new Promise((r) => setTimeout(r, 5));
      }
      waits.push(Date.now() - began);
      assert.equal(toA(), owed.size, `A's pushes after log ${i} (${log.eventName})`);
    }
    assert.ok(service.requests("c1") >= 1, "C's endpoint was sent to, and hung");
    assert.ok(
      Math.max(...waits) < 2_000,
      `every push to A within 2 s (max ${Math.max(...waits)} ms)`,
    );
    // C's queue runs out its deadlines one by one: after 3 in a row the subscription is gone.
    await hung.idle();
    const { rows } = await sql.query(
      `select 1 from ${S}.push_subscription where endpoint like '%/c1'`,
    );
    assert.equal(rows.length, 0);
    assert.equal(hung.stats().failing, 1);
    await hung.stop();
  });
});

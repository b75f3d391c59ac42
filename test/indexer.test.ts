import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { numberToHex, parseEther, type Address, type RpcLog } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { decodeLogs, uintTopic, type HallLog } from "@dicehall/core/events/hallEvents.ts";
import { buildTable, type SolverTable } from "@dicehall/core/coach/solver.ts";
import { deserialiseTable, serialiseTable } from "@dicehall/core/coach/serialise.ts";
import { TABLE_FORMAT } from "@dicehall/core/coach/store.ts";
import { analyseGameLogs, analyseMatchLogs } from "@dicehall/core/game/gameAnalysis.ts";
import { finishedGames } from "@dicehall/core/leaderboard/history.ts";
import { foldRatings, ratingKey, type RatedGame } from "@dicehall/core/ratings/ratings.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import {
  LEADERBOARD_EVENTS,
  foldLeaderboard,
  sortLeaderboard,
  tokensIn,
  type LeaderboardFilter,
  type LeaderboardLog,
  type LeaderboardSort,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import { firstBlockAtOrAfter } from "@dicehall/core/leaderboard/leaderboardPeriod.ts";
import {
  gameFromWire,
  leaderboardSearch,
  rowFromWire,
  type LeaderboardQuery,
  type WireAnalysisStatus,
  type WireGameAnalysis,
  type WireGameLogs,
  type WireGames,
  type WireLeaderboard,
  type WirePlayer,
  type WireSkill,
} from "@dicehall/core/indexer/indexerWire.ts";
import { INDEXER_ROOT } from "../scripts/lib/indexer.ts";
import { clients } from "../scripts/lib/chain.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { fillGames } from "../scripts/lib/fillGames.ts";
import { parseServerTiming } from "../scripts/lib/serverTiming.ts";
import {
  NATIVE,
  STATUS,
  advanceTime,
  claimTimeout,
  getGame,
  getSeat,
  joinGame,
  openGame,
  openMatch,
  revealNow,
  roll,
  score,
  table,
  type Table,
} from "../scripts/lib/table.ts";
import { boxOptions } from "@dicehall/core/rules/sheet.ts";

// The indexer (indexer/, Ponder) on a dev stack of its own, against what the app computes from
// the chain's logs in the browser: the same leaderboard under every filter, sort and page, the
// same finished games, the same logs of a game; and after a reorg (snapshot and revert on the
// local chain) nothing of the dropped blocks. On PGlite, as `npm run dev` runs it, and on Postgres,
// as production runs it, when INDEXER_TEST_DATABASE_URL names a database (.ci/run provides one).

const POSTGRES_URL = process.env.INDEXER_TEST_DATABASE_URL;

/**
 * The coach's tables for the test's own analysis: the float32 tables the indexer's worker keeps
 * in its disk cache (indexer/.ponder/coach) when it has written them, else built here and read back
 * from float32 bytes the same way; either way the numbers are those the index computed from.
 */
const tables = new Map<RuleSetId, SolverTable>();
function tableOf(ruleSet: RuleSetId): SolverTable {
  let table = tables.get(ruleSet);
  if (!table) {
    try {
      table = deserialiseTable(
        readFileSync(
          join(INDEXER_ROOT, ".ponder", "coach", `coach-${TABLE_FORMAT}-${ruleSet}.bin`),
        ),
      );
    } catch {
      table = deserialiseTable(serialiseTable(buildTable(ruleSet)));
    }
    tables.set(ruleSet, table);
  }
  return table;
}

/** The finished games in the order they finished, as the ratings fold takes them. */
function ratedGames(logs: readonly LeaderboardLog[]): RatedGame[] {
  const forfeits = new Map<bigint, string[]>();
  const games: RatedGame[] = [];
  // A match's games are rated one by one; who forfeited in an earlier game sat the next ones out.
  const matches = new Set<bigint>();
  const satOut = new Map<bigint, string[]>();
  for (const log of logs) {
    if (log.eventName === "PlayerForfeited") {
      forfeits.set(log.args.gameId, [...(forfeits.get(log.args.gameId) ?? []), log.args.player]);
    } else if (log.eventName === "MatchGameFinished") {
      matches.add(log.args.gameId);
      const out = satOut.get(log.args.gameId) ?? [];
      const seats = log.args.players.flatMap((p, i) => (out.includes(p) ? [] : [i]));
      games.push({
        ruleSet: ruleSetOf.get(log.args.gameId)!,
        players: seats.map((i) => log.args.players[i]),
        totals: seats.map((i) => log.args.totals[i]),
        winners: log.args.winners,
        forfeited: forfeits.get(log.args.gameId) ?? [],
      });
      satOut.set(log.args.gameId, forfeits.get(log.args.gameId) ?? []);
    } else if (log.eventName === "GameCreated") {
      ruleSetOf.set(log.args.gameId, log.args.ruleSet);
    } else if (log.eventName === "GameFinished") {
      if (matches.has(log.args.gameId)) continue;
      games.push({
        ruleSet: log.args.ruleSet,
        players: log.args.players,
        totals: log.args.totals,
        winners: log.args.winners,
        forfeited: forfeits.get(log.args.gameId) ?? [],
      });
    }
  }
  return games;
}

const ruleSetOf = new Map<bigint, number>();

/**
 * A whole 2-player match of `games` games on chain, move by move: each game's first roll (by the
 * creator) draws its order, then every turn rolls once and scores the first box the rules allow.
 */
async function playMatch(
  t: Table,
  players: [Address, Address],
  games: number,
  bet: bigint,
): Promise<bigint> {
  const gameId = await openMatch(
    t,
    players[0],
    { token: NATIVE, bet, seats: 2, ruleSet: 2, joinWindow: 3600, moveTimeout: 3600 },
    games,
  );
  await joinGame(t, players[1], gameId, NATIVE, bet);
  for (let game = 1; game <= games; game++) {
    const { sequence } = await roll(t, players[0], gameId, 0);
    await revealNow(t, sequence);
    for (;;) {
      const view = await getGame(t, gameId);
      if (view.status !== STATUS.Running || view.gameNumber !== game) break;
      const player = view.players[view.currentSeat];
      let seat = await getSeat(t, gameId, 2, player);
      if (seat.rollsUsed === 0) {
        const rolled = await roll(t, player, gameId, 0);
        await revealNow(t, rolled.sequence);
        seat = await getSeat(t, gameId, 2, player);
      }
      await score(t, player, gameId, boxOptions(seat.sheet, seat.dice)[0].box);
    }
  }
  assert.equal((await getGame(t, gameId)).status, STATUS.Finished);
  return gameId;
}

indexerSuite("PGlite");
indexerSuite("Postgres");

/**
 * A GET that is sent again once when the connection, not the server, failed: Node's fetch may reuse
 * a kept-alive socket the server is just closing ("other side closed"), which a loaded machine makes
 * likely. An HTTP error is never retried, and a server that is down fails the second try too.
 */
async function getOnce(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return await fetch(url);
  }
}

function indexerSuite(database: "PGlite" | "Postgres") {
  const skip =
    database === "Postgres" && !POSTGRES_URL
      ? "set INDEXER_TEST_DATABASE_URL=postgres://… to run it (.ci/run does)"
      : false;
  describe(`indexer on ${database}`, { timeout: 10 * 60_000, skip }, () => {
    let stack: DevStack | undefined;
    let t: Table;
    let filler: Address | undefined;
    // A schema of its own, dropped afterwards; Ponder refuses one written by other indexer code.
    const schema = `dicehall_test_${process.pid}_${Date.now()}`;

    before(async () => {
      stack = await startDevStack({
        rpcPort: 0,
        web: false,
        keeper: false,
        indexer: true,
        indexerPort: 0,
        indexerPostgres: database === "Postgres" ? { url: POSTGRES_URL!, schema } : undefined,
        deploymentId: `devstack-indexer-${database.toLowerCase()}-${process.pid}`,
        deploymentsFile: null,
      });
      t = table(stack.rpcUrl, stack.addresses.diceHall, stack.addresses.mockEntropy);
    });

    after(async () => {
      await stack?.stop();
      if (database === "Postgres") {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    });

    const api = async <T>(path: string): Promise<T> => {
      const res = await getOnce(`${stack!.indexerUrl}${path}`);
      assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
      return (await res.json()) as T;
    };

    /** Every hall log up to `head`, decoded as the app decodes what eth_getLogs returns. */
    async function chainLogs(head: bigint): Promise<HallLog[]> {
      const logs: HallLog[] = [];
      for (let from = BigInt(stack!.deployment.deploymentBlock); from <= head; from += 50n) {
        const to = from + 49n < head ? from + 49n : head;
        const raw = (await t.publicClient.request({
          method: "eth_getLogs",
          params: [
            {
              address: stack!.addresses.diceHall,
              fromBlock: numberToHex(from),
              toBlock: numberToHex(to),
            },
          ],
        })) as RpcLog[];
        logs.push(...decodeLogs(raw));
      }
      return logs;
    }

    /** Waits until the indexer has processed the chain's head, and returns that head. */
    async function synced(): Promise<bigint> {
      const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
      await stack!.indexer!.waitForBlock(head, 120_000);
      return head;
    }

    /** A two-seat game that ends when the player to move walks away: a forfeit on the board. */
    async function walkAway(creator: Address, other: Address, bet: bigint): Promise<bigint> {
      const gameId = await openGame(t, creator, {
        token: NATIVE,
        bet,
        seats: 2,
        ruleSet: 1,
        joinWindow: 3600,
        moveTimeout: 60,
      });
      await joinGame(t, other, gameId, NATIVE, bet);
      const { sequence } = await roll(t, creator, gameId, 0);
      await revealNow(t, sequence);
      await advanceTime(t, 61);
      await claimTimeout(t, creator, gameId);
      return gameId;
    }

    /** Everything the indexer serves, against the browser's fold of the same chain. */
    async function assertAgrees(head: bigint) {
      const logs = await chainLogs(head);
      const boardLogs = logs.filter((l) =>
        (LEADERBOARD_EVENTS as readonly string[]).includes(l.eventName),
      ) as LeaderboardLog[];
      const all = foldLeaderboard(boardLogs);
      assert.ok(all.length > 0, "no finished games to compare");

      // A block in the middle of the games, and its time, for the period filter.
      const finishedBlocks = boardLogs
        .filter((l) => l.eventName === "GameFinished")
        .map((l) => l.blockNumber);
      const middle = finishedBlocks[Math.floor(finishedBlocks.length / 2)];
      const middleTime = Number((await t.publicClient.getBlock({ blockNumber: middle })).timestamp);
      const blockTime = async (b: bigint) =>
        Number((await t.publicClient.getBlock({ blockNumber: b })).timestamp);
      const blockAt = (time: number) =>
        firstBlockAtOrAfter(time, BigInt(stack!.deployment.deploymentBlock), head, blockTime);
      const sinceBlock = await blockAt(middleTime);
      // Periods that start before the games: whole days from the daily sums, the first day's part
      // from the games (the games span days: see the first test).
      const firstTime = (await blockTime(finishedBlocks[0])) - 60;
      const firstBlock = await blockAt(firstTime);

      const ruleSets = [
        ...new Set(
          boardLogs.flatMap((l) => (l.eventName === "GameFinished" ? [l.args.ruleSet] : [])),
        ),
      ];
      const cases: { filter: LeaderboardFilter; query: LeaderboardQuery }[] = [
        { filter: {}, query: {} },
        ...ruleSets.map((ruleSet) => ({ filter: { ruleSet }, query: { ruleSet } })),
        { filter: { token: NATIVE }, query: { token: NATIVE } },
        {
          filter: { token: stack!.addresses.testToken },
          query: { token: stack!.addresses.testToken },
        },
        { filter: { fromBlock: middle }, query: { fromBlock: middle } },
        { filter: { toBlock: middle }, query: { toBlock: middle } },
        { filter: { fromBlock: sinceBlock }, query: { since: middleTime } },
        { filter: { fromBlock: firstBlock }, query: { since: firstTime } },
        {
          filter: { fromBlock: firstBlock, ruleSet: ruleSets[0] },
          query: { since: firstTime, ruleSet: ruleSets[0] },
        },
        {
          filter: { fromBlock: firstBlock, token: NATIVE },
          query: { since: firstTime, token: NATIVE },
        },
        {
          filter: { ruleSet: ruleSets[0], token: NATIVE },
          query: { ruleSet: ruleSets[0], token: NATIVE },
        },
      ];
      const sorts: LeaderboardSort[] = [
        { key: "wins", direction: "desc" },
        { key: "games", direction: "asc" },
        { key: "winRate", direction: "desc" },
        { key: "best", direction: "asc" },
        { key: "average", direction: "desc" },
        { key: "yahtzees", direction: "desc" },
        { key: "net", direction: "desc", token: NATIVE },
        { key: "player", direction: "asc" },
      ];
      for (const { filter, query } of cases) {
        for (const sort of sorts) {
          const expected = sortLeaderboard(foldLeaderboard(boardLogs, filter), sort);
          const got = await api<WireLeaderboard>(
            `/api/leaderboard?${leaderboardSearch({
              ...query,
              sort: sort.key,
              direction: sort.direction,
              sortToken: sort.token ?? null,
              limit: 500,
            })}`,
          );
          const what = `filter ${JSON.stringify(query, (_, v) => (typeof v === "bigint" ? `${v}` : v))} sort ${sort.key} ${sort.direction}`;
          assert.equal(got.total, expected.length, what);
          assert.deepEqual(got.rows.map(rowFromWire), expected, what);
        }
      }

      // Pages, and the viewer's rank wherever they are.
      const expected = sortLeaderboard(all);
      const me = expected[Math.min(3, expected.length - 1)].player;
      const page = await api<WireLeaderboard>(
        `/api/leaderboard?${leaderboardSearch({ offset: 2, limit: 3, me })}`,
      );
      assert.deepEqual(page.rows.map(rowFromWire), expected.slice(2, 5));
      assert.equal(page.total, expected.length);
      assert.equal(page.me?.rank, expected.indexOf(expected.find((r) => r.player === me)!) + 1);
      assert.deepEqual(
        rowFromWire(page.me!.row),
        expected.find((r) => r.player === me),
      );
      assert.deepEqual(page.tokens, tokensIn(all));

      // Finished games, all and one player's, newest first.
      const games = finishedGames(boardLogs);
      const served = await api<WireGames>("/api/games?limit=500");
      assert.equal(served.total, games.length);
      assert.deepEqual(
        served.games.map(gameFromWire).map(({ timestamp: _, ...g }) => g),
        games,
      );
      const player = expected[0].player;
      const mine = await api<WireGames>(`/api/games?player=${player}&limit=2&offset=1`);
      const theirs = games.filter((g) =>
        g.players.some((p) => p.toLowerCase() === player.toLowerCase()),
      );
      assert.equal(mine.total, theirs.length);
      assert.deepEqual(
        mine.games.map(gameFromWire).map(({ timestamp: _, ...g }) => g),
        theirs.slice(1, 3),
      );

      // Every game's log, as the replay reads it.
      const ids = [
        ...new Set(logs.flatMap((l) => ("gameId" in l.args ? [l.args.gameId as bigint] : []))),
      ];
      for (const id of ids) {
        const served = await api<WireGameLogs>(`/api/games/${id}/logs`);
        const own = logs.filter((l) => "gameId" in l.args && l.args.gameId === id);
        assert.deepEqual(decodeLogs(served.logs), own, `game ${id}`);
      }

      await assertSkill(logs, boardLogs, games);
      return { logs, games };
    }

    /**
     * Every finished game's analysis (once the analyser has got to it) against the coach run here
     * on the chain's logs; the ratings against core's fold of the same games; the player page.
     */
    async function assertSkill(
      logs: HallLog[],
      boardLogs: LeaderboardLog[],
      games: ReturnType<typeof finishedGames>,
    ) {
      type Loss = Map<string, { games: number; lost: number }>;
      const lossByPlayer: Loss = new Map();
      // The same for periods: from the middle game's finish on, and from a minute before the
      // first game's (the first games finish on a UTC afternoon: see the first test), read
      // partly from the day sums.
      const finishTime = async (game: (typeof games)[number]) =>
        Number((await t.publicClient.getBlock({ blockNumber: game.blockNumber })).timestamp);
      const times = await Promise.all(games.map(finishTime));
      const periods: { since: number; loss: Loss }[] = [];
      if (games.length) {
        periods.push({ since: times[games.length >> 1], loss: new Map() });
        periods.push({ since: Math.min(...times) - 60, loss: new Map() });
      }
      for (const [i, game] of games.entries()) {
        const finishedAt = times[i];
        const own = logs.filter((l) => "gameId" in l.args && l.args.gameId === game.gameId);
        // A match: its games' numbers as one game's, no review of the whole (each game has its own).
        const expected = game.match
          ? { ...analyseMatchLogs(game.gameId, own, tableOf)!, review: null }
          : analyseGameLogs(game.gameId, own, tableOf)!;
        assert.ok(expected, `game ${game.gameId} analysed here`);
        for (const { game: n } of game.match ?? []) {
          const one = analyseGameLogs(game.gameId, own, tableOf, n)!;
          const served = await api<WireGameAnalysis>(
            `/api/games/${game.gameId}/analysis?game=${n}`,
          );
          assert.ok(served.analysed, `game ${n} of match ${game.gameId} analysed`);
          assert.deepEqual(
            served.players,
            one.players.map((p, seat) => ({ ...p, seat })),
            `game ${n} of match ${game.gameId}`,
          );
          assert.deepEqual(served.review, JSON.parse(JSON.stringify(one.review)));
        }
        const path = `/api/games/${game.gameId}/analysis`;
        const deadline = Date.now() + 5 * 60_000;
        let got = await api<WireGameAnalysis>(path);
        while (!got.analysed && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          got = await api<WireGameAnalysis>(path);
        }
        assert.ok(got.analysed, `${path}: not analysed within 5 minutes`);
        assert.equal(got.ruleSet, expected.ruleSet);
        assert.deepEqual(
          got.players,
          expected.players.map((p, seat) => ({ ...p, seat })),
          `game ${game.gameId}`,
        );
        assert.deepEqual(got.review, JSON.parse(JSON.stringify(expected.review)));
        for (const p of expected.players) {
          const within = periods.filter((period) => finishedAt >= period.since);
          for (const sums of [lossByPlayer, ...within.map((period) => period.loss)]) {
            const entry = sums.get(p.player.toLowerCase()) ?? { games: 0, lost: 0 };
            sums.set(p.player.toLowerCase(), {
              games: entry.games + 1,
              lost: entry.lost + p.pointsLost,
            });
          }
        }
      }

      // Accuracy is read two ways below: from the sums of games already final (up to Ponder's
      // finalized block, 30 behind the head on the local chain), which the analyser folds on its
      // next look, and by a join for the games after those.
      let status = await api<WireAnalysisStatus>("/api/analysis");
      const finalGames = () =>
        games.filter((g) => g.blockNumber <= BigInt(status.finalBlock ?? -1)).length;
      for (let i = 0; status.folded !== finalGames() && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await api<WireAnalysisStatus>("/api/analysis");
      }
      assert.equal(status.analysed, games.length);
      assert.equal(status.folded, finalGames(), JSON.stringify(status));
      assert.equal(status.threads, 1);

      // Ratings per rule set, and accuracy, beside the leaderboard's rows.
      const ratings = foldRatings(ratedGames(boardLogs));
      const ruleSets = [...new Set(games.map((g) => g.ruleSet))];
      for (const ruleSet of ruleSets) {
        const board = await api<WireLeaderboard>(`/api/leaderboard?ruleSet=${ruleSet}&limit=500`);
        assert.equal(board.skill?.length, board.rows.length);
        board.rows.forEach((row, i) => {
          const rating = ratings.get(ratingKey(ruleSet, row.player));
          assert.equal(board.skill![i].rating, rating?.ordinal ?? null, `${row.player} ${ruleSet}`);
          assert.equal(board.skill![i].ratedGames, rating?.games ?? 0);
        });
      }
      const all = await api<WireLeaderboard>(`/api/leaderboard?limit=500&sort=lossPerGame&dir=asc`);
      // The viewer's pinned row, off the page, carries its skill too.
      const last = all.rows.at(-1)!;
      const pinned = await api<WireLeaderboard>(
        `/api/leaderboard?limit=1&sort=lossPerGame&dir=asc&me=${last.player}`,
      );
      assert.equal(pinned.me?.rank, all.rows.length);
      assert.deepEqual(pinned.me?.skill, all.skill!.at(-1));
      const losses = all.skill!.map((k) => k.lossPerGame);
      assert.deepEqual(
        losses,
        [...losses].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b)),
      );
      const agrees = (board: WireLeaderboard, sums: Loss) =>
        board.rows.forEach((row, i) => {
          const mine = sums.get(row.player.toLowerCase());
          assert.equal(board.skill![i].analysedGames, mine?.games ?? 0, row.player);
          if (mine) {
            assert.ok(Math.abs(board.skill![i].lossPerGame! - mine.lost / mine.games) < 1e-9);
          }
        });
      agrees(all, lossByPlayer);
      // Every skill sort, both ways: by the number, players without one last, ties as the default
      // board (the database sorts; this is the order the leaderboard page promises).
      const byDefault = sortLeaderboard(all.rows.map(rowFromWire)).map((r) => r.player);
      const skillOf = new Map<string, WireSkill>(
        all.rows.map((row, i) => [row.player, all.skill![i]]),
      );
      // A mean of floating-point sums: summed in another order on another board, it may differ
      // in the last bits.
      const rounded = (k: WireSkill | undefined) =>
        k && { ...k, lossPerGame: k.lossPerGame === null ? null : k.lossPerGame.toFixed(9) };
      for (const key of ["rating", "lossPerGame", "bestShare"] as const) {
        for (const dir of ["asc", "desc"] as const) {
          const sorted = await api<WireLeaderboard>(
            `/api/leaderboard?limit=500&sort=${key}&dir=${dir}`,
          );
          const value = (player: string) => skillOf.get(player)![key];
          const expected = [...byDefault].sort((a, b) => {
            const [x, y] = [value(a), value(b)];
            if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
            return dir === "asc" ? x - y : y - x;
          });
          assert.deepEqual(
            sorted.rows.map((r) => r.player),
            expected,
            `${key} ${dir}`,
          );
          assert.deepEqual(
            sorted.skill!.map(rounded),
            expected.map((player) => rounded(skillOf.get(player))),
          );
        }
      }
      for (const { since, loss } of periods) {
        agrees(await api<WireLeaderboard>(`/api/leaderboard?limit=500&since=${since}`), loss);
      }

      // One player's page: their ratings and history, totals, and analysed games.
      const top = all.rows[0];
      const page = await api<WirePlayer>(`/api/players/${top.player}`);
      assert.equal(page.player, top.player);
      assert.equal(page.games, rowFromWire(top).games);
      assert.equal(page.wins, rowFromWire(top).wins);
      for (const r of page.ratings) {
        const rating = ratings.get(ratingKey(r.ruleSet, top.player))!;
        assert.equal(r.ordinal, rating.ordinal);
        assert.equal(r.games, rating.games);
        assert.equal(r.history.length, rating.games);
        assert.equal(r.history.at(-1)!.ordinal, rating.ordinal);
      }
      // Ratings count every game of a match; the board counts the match once.
      assert.equal(
        page.ratings.reduce((n, r) => n + r.games, 0),
        games
          .filter((g) => g.players.some((p) => p === top.player))
          .reduce((n, g) => n + (g.match?.length ?? 1), 0),
      );
      assert.equal(page.accuracy.length, lossByPlayer.get(top.player.toLowerCase())?.games ?? 0);
      const worst = page.mistakes.map((m) => m.mistake!.loss);
      assert.deepEqual(
        worst,
        [...worst].sort((a, b) => b - a),
      );
    }

    it("serves what the browser folds from the chain: leaderboard, games and game logs", async () => {
      const s = stack!;
      const { publicClient, wallet } = clients(s.rpcUrl);
      const fill = (games: number, seed: bigint) =>
        fillGames({
          publicClient,
          wallet: wallet(s.accounts[0]),
          diceHall: s.addresses.diceHall,
          mockEntropy: s.addresses.mockEntropy,
          testToken: s.addresses.testToken,
          games,
          seed,
          seats: 8,
          filler,
        });
      // Two days apart, so that a period spans whole days and part of one; the first games on a
      // UTC afternoon, whose day a rounding (not a floor) of their time would put a day late.
      const now = Number((await publicClient.getBlock()).timestamp);
      const afternoon = Math.ceil((now - 15 * 3600) / 86_400) * 86_400 + 15 * 3600;
      if (afternoon > now) await advanceTime(t, afternoon - now);
      filler = (await fill(7, 1n)).filler;
      await advanceTime(t, 2 * 86_400);
      await fill(7, 2n);
      // Forfeits (a partial sheet is left out of best and average) and a cancelled lobby.
      // The largest bet the local hall allows: sums in wei beyond what an int8 holds.
      await walkAway(s.accounts[1], s.accounts[2], parseEther("10"));
      await walkAway(s.accounts[2], s.accounts[3], parseEther("0.002"));
      const lobby = await openGame(t, s.accounts[4], {
        token: NATIVE,
        bet: parseEther("0.002"),
        seats: 2,
        ruleSet: 0,
        joinWindow: 3600,
        moveTimeout: 60,
      });
      const cancel = await t.wallet(s.accounts[4]).writeContract({
        address: s.addresses.diceHall,
        abi: diceHallAbi,
        functionName: "cancelGame",
        args: [lobby],
      });
      await publicClient.waitForTransactionReceipt({ hash: cancel });

      // A match of 3 games for one stake: one game on the board, three rated and analysed.
      const matchId = await playMatch(t, [s.accounts[5], s.accounts[6]], 3, parseEther("0.002"));

      const head = await synced();
      const { games } = await assertAgrees(head);
      assert.equal(games.length, 17);
      assert.ok(games.some((g) => g.forfeited.length > 0));
      const match = games.find((g) => g.gameId === matchId)!;
      assert.deepEqual(
        match.match?.map((g) => g.game),
        [1, 2, 3],
        "the match's standing game by game is served",
      );
      // The player page lists the match, with their total and result in each game.
      const page = await api<WirePlayer>(`/api/players/${s.accounts[5]}`);
      const listed = page.matches?.find((m) => m.gameId === String(matchId));
      assert.ok(listed, "the match is on its player's page");
      assert.equal(listed.games, 3);
      assert.deepEqual(
        listed.results.map((r) => r.total),
        match.match!.map((g) =>
          String(
            g.totals[g.players.findIndex((p) => p.toLowerCase() === s.accounts[5].toLowerCase())],
          ),
        ),
      );
      assert.equal(
        listed.won,
        match.winners.some((w) => w.toLowerCase() === s.accounts[5].toLowerCase()),
      );
    });

    it("keeps a sorted board until a game finishes, and computes afresh when asked", async () => {
      const url = `${stack!.indexerUrl}/api/leaderboard?sort=yahtzees&limit=3`;
      const timing = async (headers: Record<string, string> = {}) =>
        parseServerTiming((await fetch(url, { headers })).headers.get("server-timing"));
      await timing();
      const cached = await timing();
      assert.equal(cached.get("board")?.desc, "cached");
      assert.deepEqual([...cached.keys()], ["board", "version", "gc"]);
      // Computed afresh, the header says where the time went (the benchmark reads it).
      const computed = await timing({ "cache-control": "no-cache" });
      assert.equal(computed.get("board")?.desc, "computed");
      assert.deepEqual([...computed.keys()], ["board", "version", "query", "rows", "gc"]);
      for (const part of ["query", "rows"]) {
        const ms = computed.get(part)!.ms;
        // (Shaping three rows can take under the header's 0.1 ms.)
        const least = part === "query" ? 0.1 : 0;
        assert.ok(ms >= least && ms <= computed.get("board")!.ms, `${part} took ${ms} ms`);
      }
      // (After new games and after a reorg, the other tests compare every board with the fold.)
    });

    it("answers bad queries with 400 and a reason", async () => {
      for (const path of [
        "/api/leaderboard?sort=luck",
        "/api/leaderboard?ruleSet=-1",
        "/api/leaderboard?limit=100000",
        "/api/leaderboard?token=0x12",
        "/api/games?player=bob",
        "/api/games/twelve/logs",
        "/api/games/twelve/analysis",
        "/api/players/bob",
        "/api/leaderboard?sort=luck",
      ]) {
        const res = await fetch(`${stack!.indexerUrl}${path}`);
        assert.equal(res.status, 400, path);
        const body = (await res.json()) as { error: string };
        assert.match(body.error, /must be/, path);
      }
    });

    it("serves no SQL, one cache entry per game whatever its spelling, and 400 for numbers out of range", async () => {
      const base = stack!.indexerUrl;
      // Ponder's SQL over HTTP is not mounted: no subscription can be read, no join run.
      const query = JSON.stringify({
        sql: "select endpoint, address, p256dh, auth from push_subscription",
        params: [],
      });
      for (const [method, path] of [
        ["GET", `/sql/db?sql=${encodeURIComponent(query)}`],
        ["POST", "/sql/db"],
        ["GET", "/sql/live"],
      ] as const) {
        const res = await fetch(`${base}${path}`, {
          method,
          ...(method === "POST"
            ? { body: query, headers: { "content-type": "application/json" } }
            : {}),
        });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.doesNotMatch(await res.text(), /p256dh|endpoint/);
      }
      // The analysis of `0001` is the analysis of `1`, from the same cache entry.
      const { games } = await api<WireGames>("/api/games?limit=1");
      const id = games[0].gameId;
      const deadline = Date.now() + 5 * 60_000;
      while (!(await api<WireGameAnalysis>(`/api/games/${id}/analysis`)).analysed) {
        assert.ok(Date.now() < deadline, `game ${id} not analysed within 5 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const plain = await getOnce(`${base}/api/games/${id}/analysis`);
      const padded = await getOnce(`${base}/api/games/000${id}/analysis`);
      assert.match(padded.headers.get("server-timing") ?? "", /review;desc="cached"/);
      const [a, b] = [
        (await plain.json()) as WireGameAnalysis,
        (await padded.json()) as WireGameAnalysis,
      ];
      assert.equal(b.gameId, id);
      assert.deepEqual(b, a);
      // Numbers past any page or time: a 400 with the reason, not an overflow's 500.
      for (const path of [
        "/api/games?offset=2147483647",
        "/api/leaderboard?offset=2147483647",
        "/api/leaderboard?since=9007199254740991",
      ]) {
        const res = await fetch(`${base}${path}`);
        assert.equal(res.status, 400, path);
        assert.match(
          ((await res.json()) as { error: string }).error,
          /must be a whole number up to/,
        );
      }
    });

    it("keeps nothing of blocks a reorg dropped", async () => {
      const s = stack!;
      const { publicClient, wallet } = clients(s.rpcUrl);
      const rpc = (method: string, params: unknown[] = []) =>
        publicClient.request({ method: method as never, params: params as never });
      const before = await synced();
      const boardBefore = await api<WireLeaderboard>("/api/leaderboard?limit=500");
      // One whole game by the test's filler; the seed decides how it goes.
      const oneGame = (seed: bigint) =>
        fillGames({
          publicClient,
          wallet: wallet(s.accounts[0]),
          diceHall: s.addresses.diceHall,
          mockEntropy: s.addresses.mockEntropy,
          games: 1,
          seed,
          filler,
        });
      const snapshot = (await rpc("evm_snapshot")) as string;

      // On the branch that will be dropped: a finished game and an open lobby.
      const phantom = await oneGame(99n);
      const lobby = await openGame(t, s.accounts[5], {
        token: NATIVE,
        bet: parseEther("0.002"),
        seats: 3,
        ruleSet: 2,
        joinWindow: 3600,
        moveTimeout: 60,
      });
      const droppedHead = await synced();
      const [phantomId] = phantom.gameIds;
      assert.equal(
        (await api<WireGames>("/api/games?limit=500")).total,
        (await finishedCount(before)) + 1,
      );
      assert.notDeepEqual(await api<WireLeaderboard>("/api/leaderboard?limit=500"), boardBefore);
      assert.ok((await api<WireGameLogs>(`/api/games/${lobby}/logs`)).logs.length > 0);

      // Back to the snapshot; the new branch has another game under the same id, and is longer.
      assert.equal(await rpc("evm_revert", [snapshot]), true);
      const replacement = await oneGame(7n);
      assert.equal(replacement.gameIds[0], phantomId);
      while ((await publicClient.getBlockNumber({ cacheTime: 0 })) <= droppedHead + 1n) {
        await rpc("evm_mine");
      }
      const head = await synced();

      await assertAgrees(head);
      assert.deepEqual((await api<WireGameLogs>(`/api/games/${lobby}/logs`)).logs, []);
      const replayed = await api<WireGameLogs>(`/api/games/${phantomId}/logs`);
      const onChain = (await chainLogs(head)).filter(
        (l) => "gameId" in l.args && l.args.gameId === phantomId,
      );
      assert.deepEqual(
        replayed.logs.map((l) => l.transactionHash),
        onChain.map((l) => l.transactionHash),
      );
      assert.ok(replayed.logs.every((l) => l.topics[1] === uintTopic(phantomId)));
    });

    /** Finished games on chain up to `head`. */
    async function finishedCount(head: bigint): Promise<number> {
      return finishedGames(
        (await chainLogs(head)).filter((l) =>
          (LEADERBOARD_EVENTS as readonly string[]).includes(l.eventName),
        ) as LeaderboardLog[],
      ).length;
    }
  });
}

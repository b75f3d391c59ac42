// `npm run bench:leaderboard`: times the leaderboard fold (core/leaderboard/leaderboard.ts) over a
// seeded synthetic history, the size a busy hall reaches, and prints a table. Target: the fold
// of 10 000 games in under 100 ms (median), so the browser can afford to fold on every visit.
//
// Flags: --games N (default 10000), --players P (distinct accounts, default 500), --runs R
// (default 9), --seed S (default 6).
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { getAddress, type Address } from "viem";

import {
  foldLeaderboard,
  sortLeaderboard,
  type LeaderboardLog,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import { ruleSet as ruleSetInfo } from "@dicehall/core/rules/ruleSets.ts";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "10000" },
    players: { type: "string", default: "500" },
    runs: { type: "string", default: "9" },
    seed: { type: "string", default: "6" },
  },
});
const gameCount = Number(values.games);
const playerCount = Number(values.players);
const runs = Number(values.runs);
const seed = Number(values.seed);

/** mulberry32: a small seeded PRNG, so every run folds the same history. */
function prng(s: number): () => number {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NATIVE = "0x0000000000000000000000000000000000000000" as Address;
const USD = getAddress("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512");

function synthesize(games: number, accounts: number, rand: () => number): LeaderboardLog[] {
  const pick = (n: number) => Math.floor(rand() * n);
  const people = Array.from({ length: accounts }, (_, i) =>
    getAddress(`0x${(i + 1).toString(16).padStart(40, "0")}`),
  );
  const logs: LeaderboardLog[] = [];
  let block = 100n;
  for (let g = 1; g <= games; g++) {
    const gameId = BigInt(g);
    const seats = 2 + pick(3);
    const rs = pick(4);
    const boxes = ruleSetInfo(rs).boxes.length;
    const token = rand() < 0.7 ? NATIVE : USD;
    const bet =
      token === NATIVE ? 10n ** 15n * BigInt(1 + pick(50)) : 10n ** 6n * BigInt(1 + pick(100));
    const players: Address[] = [];
    while (players.length < seats) {
      const p = people[pick(accounts)];
      if (!players.includes(p)) players.push(p);
    }
    let logIndex = 0;
    const at = () => ({ blockNumber: block, logIndex: logIndex++ });
    logs.push({
      eventName: "GameCreated",
      args: { gameId, creator: players[0], token, bet, seats, ruleSet: rs, isPrivate: false },
      ...at(),
    });
    block += 1n;
    const forfeiter = rand() < 0.05 ? players[pick(seats)] : null;
    const totals = players.map(() => 0n);
    for (let box = 0; box < boxes; box++) {
      for (let seat = 0; seat < seats; seat++) {
        if (players[seat] === forfeiter && box > boxes / 2) continue;
        const yahtzeeBox = rs === 1 ? 14 : 11;
        const points = box === yahtzeeBox ? (rand() < 0.3 ? 50n : 0n) : BigInt(pick(31));
        const bonus = rs === 0 && box !== yahtzeeBox && rand() < 0.01 ? 100n : 0n;
        totals[seat] += points + bonus;
        logs.push({
          eventName: "Scored",
          args: { gameId, player: players[seat], category: box, points, bonus },
          ...at(),
        });
        block += 1n;
      }
    }
    if (forfeiter)
      logs.push({ eventName: "PlayerForfeited", args: { gameId, player: forfeiter }, ...at() });
    let best = -1n;
    for (let seat = 0; seat < seats; seat++) {
      if (players[seat] !== forfeiter && totals[seat] > best) best = totals[seat];
    }
    const winners = players.filter((p, seat) => p !== forfeiter && totals[seat] === best);
    const pot = bet * BigInt(seats);
    const houseFee = (pot * 250n) / 10_000n;
    logs.push({
      eventName: "GameFinished",
      args: {
        gameId,
        token,
        ruleSet: rs,
        players,
        totals,
        winners,
        payoutEach: (pot - houseFee) / BigInt(winners.length),
        houseFee,
      },
      ...at(),
    });
    block += 1n;
  }
  return logs;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function time(fn: () => unknown): number[] {
  fn(); // warm-up: JIT and inline caches
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

const started = performance.now();
const logs = synthesize(gameCount, playerCount, prng(seed));
const generatedMs = performance.now() - started;
const counts = new Map<string, number>();
for (const log of logs) counts.set(log.eventName, (counts.get(log.eventName) ?? 0) + 1);

const fromBlock = logs[Math.floor(logs.length / 2)].blockNumber;
// What the browser folds: its log cache keeps only the Scored logs that can be Yahtzees.
const cached = logs.filter(
  (l) => l.eventName !== "Scored" || l.args.points === 50n || l.args.bonus > 0n,
);
const rows = foldLeaderboard(logs);
const cases: [string, () => unknown][] = [
  ["fold, all games", () => foldLeaderboard(logs)],
  ["fold, one rule set", () => foldLeaderboard(logs, { ruleSet: 0 })],
  ["fold, one token", () => foldLeaderboard(logs, { token: USD })],
  ["fold, second half (period)", () => foldLeaderboard(logs, { fromBlock })],
  [`fold, browser cache (${cached.length} logs)`, () => foldLeaderboard(cached)],
  ["sort rows by wins", () => sortLeaderboard(rows)],
  [
    "fold + sort by net (native)",
    () => sortLeaderboard(foldLeaderboard(logs), { key: "net", direction: "desc", token: NATIVE }),
  ],
];

console.log(
  `leaderboard bench: ${gameCount} games, ${playerCount} accounts, seed ${seed}, ${runs} runs each ` +
    `(${logs.length} logs: ${[...counts].map(([k, v]) => `${v} ${k}`).join(", ")}; generated in ${generatedMs.toFixed(0)} ms)`,
);
const table = cases.map(([name, fn]) => {
  const samples = time(fn);
  return {
    case: name,
    "median ms": Number(median(samples).toFixed(2)),
    "min ms": Number(Math.min(...samples).toFixed(2)),
    "max ms": Number(Math.max(...samples).toFixed(2)),
  };
});
console.table(table);
const foldMedian = table[0]["median ms"];
const target = 100;
console.log(
  `${foldMedian <= target ? "OK" : "SLOW"}: fold of ${gameCount} games, median ${foldMedian} ms (target < ${target} ms); ${rows.length} rows.`,
);
if (foldMedian > target) process.exitCode = 1;

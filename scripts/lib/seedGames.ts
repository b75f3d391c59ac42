// The seeded history's games, one at a time and independent of each other (scripts/lib/seedIndex.ts
// runs them on worker threads): bots of set skill play a whole game off chain, the coach analyses
// it, and out come the game's own rows as the indexer writes them. What crosses games (the running
// sums, the ratings) is folded by seedIndex.ts in game order.
import {
  getAddress,
  keccak256,
  numberToHex,
  stringToHex,
  type Address,
  type Hex,
  type RpcLog,
} from "viem";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adviseBox, adviseKeep } from "@dicehall/core/coach/advise.ts";
import { deserialiseTable } from "@dicehall/core/coach/serialise.ts";
import { TABLE_FORMAT } from "@dicehall/core/coach/store.ts";
import { seededRandom } from "@dicehall/core/coach/simulate.ts";
import { buildTable, type SolverTable } from "@dicehall/core/coach/solver.ts";
import { encodeHallLog, type HallLog, type HallLogOf } from "@dicehall/core/events/hallEvents.ts";
import { playBotGame } from "@dicehall/core/game/botGame.ts";
import { analyseGameLogs, type AnalysedGame } from "@dicehall/core/game/gameAnalysis.ts";
import { analysisRows, playerResults, type PlayerResult } from "@dicehall/core/indexer/gameRows.ts";
import { isYahtzeeScore, type LeaderboardLog } from "@dicehall/core/leaderboard/leaderboard.ts";
import type { RatedGame } from "@dicehall/core/ratings/ratings.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { Dice } from "@dicehall/core/rules/score.ts";
import type { Sheet } from "@dicehall/core/rules/sheet.ts";
import type { TurnAction } from "@dicehall/core/rules/strategy.ts";

export interface SeedToken {
  address: Address;
  /** Bets a table in this token is opened with (one picked per game). */
  bets: readonly bigint[];
  /** Share of the games played in this token (the shares add up to 1). */
  share: number;
}

/** What every game of a history shares: plain data, so it crosses to a worker thread. */
export interface HistorySpec {
  /** The hall the logs are from. */
  hall: Address;
  /** Game i (0-based) is `firstGameId + i`, finished in block `firstBlock + i`. */
  firstGameId: bigint;
  firstBlock: bigint;
  /** Block `firstBlock + i` is `firstTimestamp + i * blockSeconds` seconds. */
  firstTimestamp: bigint;
  blockSeconds: number;
  /** The pool the seats are drawn from, some busier than others. */
  players: number;
  tokens: readonly SeedToken[];
  houseFeeBps: number;
  /** Everything a game varies in follows from it and the game's index. */
  seed: number;
  /** Game i's rolls are numbered from `firstSequence + i * 256` (a game has at most 192). */
  firstSequence: bigint;
  /** Make the hall_log rows (~200 a game), as the indexer writes every log. */
  logs: boolean;
}

/** One seeded game's rows, and what the history's folds need of it. */
export interface SeededGame {
  index: number;
  hallLogs: Record<string, unknown>[];
  game: Record<string, unknown>;
  results: PlayerResult[];
  rated: RatedGame & { gameId: bigint; finishedBlock: bigint; finishedAt: bigint };
  analysis: ReturnType<typeof analysisRows>;
  logs: number;
  playMs: number;
  analysisMs: number;
}

/** The coach's table of each rule set: the indexer's disk cache, else built here (once each). */
export function coachTables(cacheDir: string): (ruleSet: RuleSetId) => SolverTable {
  const tables = new Map<RuleSetId, SolverTable>();
  return (ruleSet) => {
    let table = tables.get(ruleSet);
    if (!table) {
      try {
        table = deserialiseTable(
          readFileSync(join(cacheDir, `coach-${TABLE_FORMAT}-${ruleSet}.bin`)),
        );
      } catch {
        table = buildTable(ruleSet);
      }
      tables.set(ruleSet, table);
    }
    return table;
  };
}

/** A block's hash in the seeded history (no chain holds these blocks' contents). */
export const seededBlockHash = (block: bigint): Hex => keccak256(stringToHex(`seeded:${block}`));

const camelToSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  return value;
}

/** A row as JSON with the table's column names: bigints as text, keys in snake case. */
export function jsonRow(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[camelToSnake(key)] = jsonValue(value);
  return out;
}

/** The history's players: addresses, skill (share of the coach's own moves) and how much each plays. */
export function playerPool(spec: Pick<HistorySpec, "players" | "seed">) {
  const random = seededRandom(spec.seed);
  const addresses = Array.from({ length: spec.players }, (_, i) =>
    getAddress(keccak256(stringToHex(`seeded player ${spec.seed}:${i}`)).slice(0, 42)),
  );
  const skills = addresses.map(() => 0.55 + 0.43 * random());
  // A few regulars and a long tail, as a hall has.
  const activity = addresses.map(() => 1 / (1 + 20 * random() ** 2));
  const cumulative: number[] = [];
  activity.reduce((sum, a, i) => (cumulative[i] = sum + a), 0);
  const draw = (x: number) => {
    const target = x * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { addresses, skills, draw };
}

/**
 * A player of a set skill: the coach's own move with probability `skill`, else one of its next
 * three options at random (a plausible slip: a keep or a box the coach ranks lower).
 */
function skilledChooser(
  tableOf: (ruleSet: RuleSetId) => SolverTable,
  skill: number,
  random: () => number,
) {
  const pick = <T>(options: readonly T[]): T =>
    random() < skill || options.length === 1
      ? options[0]
      : options[1 + Math.floor(random() * Math.min(3, options.length - 1))];
  return (sheet: Sheet, dice: Dice | null, rollsUsed: number): TurnAction => {
    if (rollsUsed === 0 || dice === null) return { action: "roll", keepMask: 0 };
    const table = tableOf(sheet.ruleSet);
    if (rollsUsed < 3) {
      const keep = pick(adviseKeep(table, sheet, dice, rollsUsed));
      if (!keep.stop) return { action: "roll", keepMask: keep.keepMask };
    }
    return { action: "score", box: pick(adviseBox(table, sheet, dice)).box };
  };
}

/** 32 bytes from a seeded generator: the revealed number of a roll. */
function randomWord(random: () => number): Hex {
  let hex = "0x";
  for (let i = 0; i < 8; i++) {
    hex += Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  }
  return hex as Hex;
}

/** Game `index` of the history: played, analysed, and turned into its rows. */
export function seedGame(
  spec: HistorySpec,
  pool: ReturnType<typeof playerPool>,
  tableOf: (ruleSet: RuleSetId) => SolverTable,
  index: number,
): SeededGame {
  const random = seededRandom(
    (Math.imul(spec.seed, 0x9e3779b1) ^ Math.imul(index, 0x85ebca6b)) >>> 0,
  );
  const gameId = spec.firstGameId + BigInt(index);
  const blockNumber = spec.firstBlock + BigInt(index);
  const ruleSet = Math.floor(random() * 4) as RuleSetId;
  const seatCount = 2 + Math.floor(random() * 3);
  const seats: number[] = [];
  while (seats.length < seatCount) {
    const p = pool.draw(random());
    if (!seats.includes(p)) seats.push(p);
  }
  let tokenPick = random();
  const token = spec.tokens.find((t) => (tokenPick -= t.share) <= 0) ?? spec.tokens[0];
  const bet = token.bets[Math.floor(random() * token.bets.length)];
  // One game in twenty sees a player walk away.
  const forfeit =
    random() < 0.05
      ? { seat: Math.floor(random() * seatCount), afterRound: Math.floor(random() * 12) }
      : undefined;
  const choosers = seats.map((p) => skilledChooser(tableOf, pool.skills[p], random));

  const t0 = performance.now();
  const played = playBotGame({
    gameId,
    ruleSet,
    players: seats.map((p) => pool.addresses[p]),
    token: token.address,
    bet,
    houseFeeBps: spec.houseFeeBps,
    choose: (seat, sheet, dice, rollsUsed) => choosers[seat](sheet, dice, rollsUsed),
    reveal: () => randomWord(random),
    firstSequence: spec.firstSequence + BigInt(index) * 256n,
    forfeit,
    blocks: { start: blockNumber, each: false },
  });
  const t1 = performance.now();
  const analysed = analyseGameLogs(gameId, played.logs, tableOf);
  const t2 = performance.now();
  const block = {
    number: blockNumber,
    hash: seededBlockHash(blockNumber),
    timestamp: spec.firstTimestamp + BigInt(index * spec.blockSeconds),
    transactionHash: keccak256(stringToHex(`seeded tx:${blockNumber}`)),
    transactionIndex: 0,
  };
  const rows = rowsOfGame(spec.hall, played.logs, block, analysed, spec.logs);
  return { index, ...rows, playMs: t1 - t0, analysisMs: t2 - t1 };
}

/** The block a game was played in: one transaction, as the filler and the seeded history play. */
export interface GameBlock {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
  transactionHash: Hex;
  transactionIndex: number;
}

/**
 * A finished game's own rows, as the indexer's handlers write them for its logs (`logs` in chain
 * order, from GameCreated to GameFinished, all in `block`) and as the analyser writes its analysis.
 * With `withLogs` false, no hall_log rows.
 */
export function rowsOfGame(
  hall: Address,
  logs: readonly HallLog[],
  block: GameBlock,
  analysed: AnalysedGame | null,
  withLogs = true,
): Omit<SeededGame, "index" | "playMs" | "analysisMs"> {
  const finished = logs.at(-1) as HallLogOf<"GameFinished">;
  const created = logs[0] as HallLogOf<"GameCreated">;
  if (created.eventName !== "GameCreated" || finished.eventName !== "GameFinished") {
    throw new Error("rowsOfGame: a whole game runs from GameCreated to GameFinished");
  }
  const { gameId, ruleSet } = finished.args;
  const address = hall.toLowerCase() as Address;
  const raw = (log: HallLog): RpcLog => ({
    address,
    ...encodeHallLog(log),
    blockNumber: numberToHex(block.number),
    blockHash: block.hash,
    logIndex: numberToHex(log.logIndex),
    transactionIndex: numberToHex(block.transactionIndex),
    transactionHash: block.transactionHash,
    removed: false,
  });
  const hallLogs = withLogs
    ? logs.map((log) => {
        const { topics, data } = encodeHallLog(log);
        return {
          id: `seeded:${block.number.toString().padStart(16, "0")}:${log.logIndex.toString().padStart(6, "0")}`,
          game_id: gameId.toString(),
          event_name: log.eventName,
          block_number: block.number.toString(),
          block_hash: block.hash,
          log_index: log.logIndex,
          transaction_index: block.transactionIndex,
          transaction_hash: block.transactionHash,
          topics,
          data,
        };
      })
    : [];

  const lowerAll = (list: readonly string[]) => list.map((a) => a.toLowerCase() as Hex);
  const forfeited = lowerAll(
    logs
      .filter((l) => l.eventName === "PlayerForfeited")
      .map((l) => (l as HallLogOf<"PlayerForfeited">).args.player),
  );
  // What the handlers keep on the game row for the fold: the creation, Yahtzee scores, forfeits.
  const foldInput = logs.filter(
    (l) =>
      l.eventName === "GameCreated" ||
      l.eventName === "PlayerForfeited" ||
      (l.eventName === "Scored" && isYahtzeeScore(l.args)),
  );
  const f = finished.args;
  const c = created.args;
  const game = jsonRow({
    id: gameId,
    ruleSet,
    token: c.token.toLowerCase(),
    bet: c.bet,
    seats: c.seats,
    games: 1,
    creator: c.creator.toLowerCase(),
    createdBlock: block.number,
    status: "finished",
    foldInput: foldInput.map(raw),
    forfeited,
    finishedBlock: block.number,
    finishedHash: block.hash,
    finishedAt: block.timestamp,
    players: lowerAll(f.players),
    totals: [...f.totals],
    winners: lowerAll(f.winners),
    payoutEach: f.payoutEach,
    houseFee: f.houseFee,
  });
  const results = playerResults({
    gameId,
    ruleSet,
    token: f.token,
    finishedBlock: block.number,
    finishedAt: block.timestamp,
    logs: [...foldInput, finished] as LeaderboardLog[],
  });
  return {
    hallLogs,
    game,
    results,
    rated: {
      gameId,
      ruleSet,
      finishedBlock: block.number,
      finishedAt: block.timestamp,
      players: lowerAll(f.players),
      totals: f.totals,
      winners: f.winners,
      forfeited,
    },
    analysis: analysisRows(
      { gameId, finishedHash: block.hash, ruleSet },
      analysed?.players ?? null,
      analysed ? null : "the coach cannot follow this game's moves",
      Date.now(),
    ),
    logs: logs.length,
  };
}

import { ponder, type Event } from "ponder:registry";
import {
  boardVersion,
  game,
  hallLog,
  matchGame,
  playerDay,
  playerGame,
  playerRating,
  playerTokenTotal,
  playerTotal,
  ratingChange,
  tokenSeen,
} from "ponder:schema";
import { numberToHex, type RpcLog } from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { decodeLogs, GAME_EVENTS, type HallLogOf } from "@dicehall/core/events/hallEvents.ts";
import { isYahtzeeScore, type LeaderboardLog } from "@dicehall/core/leaderboard/leaderboard.ts";
import {
  addSums,
  playerResults,
  ratingRows,
  sumsColumns,
} from "@dicehall/core/indexer/gameRows.ts";
import { initialRating, rateGame, type Rating } from "@dicehall/core/ratings/ratings.ts";
import { matchGameKey } from "@dicehall/core/game/match.ts";

/**
 * Every DiceHall log goes into hall_log as it came. Games get a row each, and a finished game
 * is folded by the app's own leaderboard fold (core/leaderboard/leaderboard.ts) over that game's
 * logs: one player_game row per player, which the API sums.
 */

type AnyEvent = Event;

const gameEvents = new Set<string>(GAME_EVENTS);

/** Ponder hands a log's missing topics over as nulls. */
const topicsOf = (event: AnyEvent) =>
  (event.log.topics as (`0x${string}` | null)[]).filter((t): t is `0x${string}` => t !== null);

function rawLog(event: AnyEvent): RpcLog {
  const { log, block, transaction } = event;
  return {
    address: log.address,
    topics: topicsOf(event) as RpcLog["topics"],
    data: log.data,
    blockNumber: numberToHex(block.number),
    blockHash: block.hash,
    logIndex: numberToHex(log.logIndex),
    transactionIndex: numberToHex(transaction.transactionIndex),
    transactionHash: transaction.hash,
    removed: false,
  };
}

async function recordLog(name: string, event: AnyEvent, context: Context) {
  const gameId = gameEvents.has(name) ? (event.args as { gameId: bigint }).gameId : null;
  await context.db.insert(hallLog).values({
    id: event.id,
    gameId,
    eventName: name,
    blockNumber: event.block.number,
    blockHash: event.block.hash,
    logIndex: event.log.logIndex,
    transactionIndex: event.transaction.transactionIndex,
    transactionHash: event.transaction.hash,
    topics: topicsOf(event),
    data: event.log.data,
  });
}

type Context = Parameters<Parameters<typeof ponder.on>[1]>[0]["context"];

for (const item of diceHallAbi) {
  if (item.type !== "event") continue;
  const name = item.name;
  ponder.on(
    `DiceHall:${name}` as never,
    (async ({ event, context }: { event: AnyEvent; context: Context }) => {
      await recordLog(name, event, context);
      switch (name) {
        case "GameCreated":
          return onCreated(event, context);
        case "MatchCreated":
          return context.db
            .update(game, { id: gameIdOf(event) })
            .set({ games: (event.args as { games: number }).games });
        case "GameStarted":
          return setStatus(event, context, "running");
        case "MatchGameFinished":
          return onMatchGame(event, context);
        case "GameCancelled":
          return setStatus(event, context, "cancelled");
        case "Scored":
          if (isYahtzeeScore(event.args as { points: bigint; bonus: bigint })) {
            return addFoldInput(event, context);
          }
          return;
        case "PlayerForfeited":
          return onForfeited(event, context);
        case "GameFinished":
          return onFinished(event, context);
      }
    }) as never,
  );
}

async function onCreated(event: AnyEvent, context: Context) {
  const args = event.args as HallLogOf<"GameCreated">["args"];
  await context.db.insert(game).values({
    id: args.gameId,
    ruleSet: args.ruleSet,
    token: args.token.toLowerCase() as `0x${string}`,
    bet: args.bet,
    seats: args.seats,
    creator: args.creator.toLowerCase() as `0x${string}`,
    createdBlock: event.block.number,
    status: "open",
    foldInput: [rawLog(event)],
    forfeited: [],
  });
}

const gameIdOf = (event: AnyEvent) => (event.args as { gameId: bigint }).gameId;

async function setStatus(event: AnyEvent, context: Context, status: string) {
  await context.db.update(game, { id: gameIdOf(event) }).set({ status });
}

async function addFoldInput(event: AnyEvent, context: Context) {
  await context.db
    .update(game, { id: gameIdOf(event) })
    .set((row) => ({ foldInput: [...row.foldInput, rawLog(event)] }));
}

async function onForfeited(event: AnyEvent, context: Context) {
  const player = (event.args as { player: `0x${string}` }).player.toLowerCase() as `0x${string}`;
  await context.db.update(game, { id: gameIdOf(event) }).set((row) => ({
    foldInput: [...row.foldInput, rawLog(event)],
    forfeited: row.forfeited.includes(player) ? row.forfeited : [...row.forfeited, player],
  }));
}

/**
 * One game of a match ends: its row, its totals for the board's best and average (the match's
 * GameFinished counts the pot once), and its ratings, each game rated as a game of its own.
 */
async function onMatchGame(event: AnyEvent, context: Context) {
  const args = event.args as HallLogOf<"MatchGameFinished">["args"];
  const row = await context.db.find(game, { id: args.gameId });
  if (!row) throw new Error(`MatchGameFinished for game ${args.gameId} before its GameCreated`);
  const everyone = args.players.map((p) => p.toLowerCase() as `0x${string}`);
  const winners = args.winners.map((p) => p.toLowerCase() as `0x${string}`);
  // Who forfeited in an earlier game sat this one out: not rated in it (a forfeit costs once).
  const before =
    args.game > 1
      ? ((
          await context.db.find(matchGame, {
            id: matchGameKey(args.gameId, args.game - 1, row.games),
          })
        )?.forfeited ?? [])
      : [];
  const seats = everyone.flatMap((p, i) => (before.includes(p) ? [] : [i]));
  const players = seats.map((i) => everyone[i]);
  await context.db.insert(matchGame).values({
    id: matchGameKey(args.gameId, args.game, row.games),
    gameId: args.gameId,
    game: args.game,
    ruleSet: row.ruleSet,
    players: everyone,
    totals: [...args.totals],
    winners,
    forfeited: row.forfeited,
    finishedBlock: event.block.number,
    finishedAt: event.block.timestamp,
  });
  await context.db
    .update(game, { id: args.gameId })
    .set((r) => ({ foldInput: [...r.foldInput, rawLog(event)] }));
  await rate(
    event,
    context,
    {
      gameId: args.gameId,
      game: args.game,
      ruleSet: row.ruleSet,
      players,
      totals: seats.map((i) => args.totals[i]),
      winners,
    },
    row.forfeited,
  );
}

async function onFinished(event: AnyEvent, context: Context) {
  const args = event.args as HallLogOf<"GameFinished">["args"];
  const row = await context.db.find(game, { id: args.gameId });
  if (!row) throw new Error(`GameFinished for game ${args.gameId} before its GameCreated`);
  const finishedAt = event.block.timestamp;
  await context.db.update(game, { id: args.gameId }).set({
    status: "finished",
    finishedBlock: event.block.number,
    finishedHash: event.block.hash,
    finishedAt,
    players: args.players.map((p) => p.toLowerCase() as `0x${string}`),
    totals: [...args.totals],
    winners: args.winners.map((p) => p.toLowerCase() as `0x${string}`),
    payoutEach: args.payoutEach,
    houseFee: args.houseFee,
  });

  // The app's fold over this game's logs alone: its rows are this game's share of each player's.
  const token = args.token.toLowerCase();
  const results = playerResults({
    gameId: args.gameId,
    ruleSet: args.ruleSet,
    token,
    finishedBlock: event.block.number,
    finishedAt,
    logs: decodeLogs([...row.foldInput, rawLog(event)]) as LeaderboardLog[],
  });
  for (const { row: result, sums, keys } of results) {
    await context.db.insert(playerGame).values(result);
    // The running totals: sums of the same one-game sums (see LeaderboardSums).
    const values = sumsColumns(result.player, sums);
    await context.db
      .insert(playerTokenTotal)
      .values({ id: keys.tokenTotal, ...values })
      .onConflictDoUpdate((t) => addSums(t, sums));
    await context.db
      .insert(playerTotal)
      .values({ id: keys.ruleSetTotal, ruleSet: args.ruleSet, ...values })
      .onConflictDoUpdate((t) => addSums(t, sums));
    await context.db
      .insert(playerDay)
      .values({ id: keys.day, ruleSet: args.ruleSet, day: keys.dayNumber, ...values })
      .onConflictDoUpdate((t) => addSums(t, sums));
  }
  await context.db
    .insert(tokenSeen)
    .values({ token: token as `0x${string}` })
    .onConflictDoNothing();
  // A match's games were rated one by one as they ended; a single game is rated here.
  if (row.games <= 1) {
    await rate(
      event,
      context,
      {
        gameId: args.gameId,
        ruleSet: args.ruleSet,
        players: args.players.map((p) => p.toLowerCase() as `0x${string}`),
        totals: args.totals,
        winners: args.winners,
      },
      row.forfeited,
    );
  }
  const version = { lastBlock: event.block.number, lastHash: event.block.hash };
  await context.db
    .insert(boardVersion)
    .values({ id: 1, games: 1, ...version })
    .onConflictDoUpdate((v) => ({ games: v.games + 1, ...version }));
}

/**
 * The players' ratings in the game's rule set after it (core/ratings): read, rated, written, one
 * history row each. Handlers run in the order games finish, so the ratings are that fold's.
 */
async function rate(
  event: AnyEvent,
  context: Context,
  args: {
    gameId: bigint;
    /** The game of a match; absent for a single game. */
    game?: number;
    ruleSet: number;
    players: `0x${string}`[];
    totals: readonly bigint[];
    winners: readonly `0x${string}`[];
  },
  forfeited: readonly `0x${string}`[],
) {
  const players = args.players;
  const before = new Map<string, Rating>();
  for (const player of players) {
    const row = await context.db.find(playerRating, { id: `${player}:${args.ruleSet}` });
    before.set(player, row ?? initialRating());
  }
  const after = rateGame(
    {
      ruleSet: args.ruleSet,
      players,
      totals: args.totals,
      winners: args.winners,
      forfeited,
    },
    (p) => before.get(p)!,
  );
  if (!after) return;
  const game = {
    gameId: args.gameId,
    game: args.game,
    ruleSet: args.ruleSet,
    finishedBlock: event.block.number,
    finishedAt: event.block.timestamp,
  };
  for (const [i, player] of players.entries()) {
    const { rating, change } = ratingRows(game, player, after[i]);
    const { mu, sigma, ordinal, games, lastBlock } = rating;
    await context.db
      .insert(playerRating)
      .values(rating)
      .onConflictDoUpdate({ mu, sigma, ordinal, games, lastBlock });
    await context.db.insert(ratingChange).values(change);
  }
}

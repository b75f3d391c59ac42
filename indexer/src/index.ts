import { ponder, type Event } from "ponder:registry";
import { game, hallLog, playerGame, playerTotal } from "ponder:schema";
import { numberToHex, type RpcLog } from "viem";
import { diceHallAbi } from "../../web/src/lib/generated/abis.ts";
import { decodeLogs, GAME_EVENTS, type HallLogOf } from "../../web/src/lib/hallEvents.ts";
import { foldLeaderboard, type LeaderboardLog } from "../../web/src/lib/leaderboard.ts";

/**
 * Every DiceHall log goes into hall_log as it came. Games get a row each, and a finished game
 * is folded by the app's own leaderboard fold (web/src/lib/leaderboard.ts) over that game's
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

const isYahtzeeScore = (args: { points: bigint; bonus: bigint }) =>
  args.points === 50n || args.bonus > 0n;

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
        case "GameStarted":
          return setStatus(event, context, "running");
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

async function onFinished(event: AnyEvent, context: Context) {
  const args = event.args as HallLogOf<"GameFinished">["args"];
  const row = await context.db.find(game, { id: args.gameId });
  if (!row) throw new Error(`GameFinished for game ${args.gameId} before its GameCreated`);
  const finishedAt = event.block.timestamp;
  await context.db.update(game, { id: args.gameId }).set({
    status: "finished",
    finishedBlock: event.block.number,
    finishedAt,
    players: args.players.map((p) => p.toLowerCase() as `0x${string}`),
    totals: [...args.totals],
    winners: args.winners.map((p) => p.toLowerCase() as `0x${string}`),
    payoutEach: args.payoutEach,
    houseFee: args.houseFee,
  });

  // The app's fold over this game's logs alone: its rows are this game's share of each player's.
  const logs = decodeLogs([...row.foldInput, rawLog(event)]) as LeaderboardLog[];
  const token = args.token.toLowerCase();
  const rows = foldLeaderboard(logs);
  const games = rows.map((r) => ({
    id: `${args.gameId}:${r.player.toLowerCase()}`,
    player: r.player.toLowerCase() as `0x${string}`,
    gameId: args.gameId,
    ruleSet: args.ruleSet,
    token: token as `0x${string}`,
    finishedBlock: event.block.number,
    finishedAt,
    won: r.wins,
    forfeited: r.forfeits,
    total: r.best,
    yahtzees: r.yahtzees,
    staked: r.staked[token] ?? 0n,
    net: r.net[token] ?? 0n,
  }));
  await context.db.insert(playerGame).values(games);
  for (const g of games) {
    const counted = g.total === null ? 0 : 1;
    await context.db
      .insert(playerTotal)
      .values({
        id: `${g.player}:${g.ruleSet}:${g.token}`,
        player: g.player,
        ruleSet: g.ruleSet,
        token: g.token,
        games: 1,
        wins: g.won,
        forfeits: g.forfeited,
        best: g.total,
        points: BigInt(g.total ?? 0),
        completed: counted,
        yahtzees: g.yahtzees,
        staked: g.staked,
        net: g.net,
        lastBlock: g.finishedBlock,
      })
      .onConflictDoUpdate((row) => ({
        games: row.games + 1,
        wins: row.wins + g.won,
        forfeits: row.forfeits + g.forfeited,
        best: g.total !== null && (row.best === null || g.total > row.best) ? g.total : row.best,
        points: row.points + BigInt(g.total ?? 0),
        completed: row.completed + counted,
        yahtzees: row.yahtzees + g.yahtzees,
        staked: row.staked + g.staked,
        net: row.net + g.net,
        lastBlock: g.finishedBlock > row.lastBlock ? g.finishedBlock : row.lastBlock,
      }));
  }
}

import type { Address } from "viem";
import { sameAddress } from "../game/gameState.ts";
import type { HallLogOf } from "../events/hallEvents.ts";
import type { LeaderboardLog } from "./leaderboard.ts";

/**
 * Finished games as the history page lists them, from the same events as the leaderboard:
 * newest first, each with the viewer's seat, result and net winnings when they played.
 */

export type SeatResult = "won" | "tied" | "lost" | "forfeited";

export interface FinishedGame {
  gameId: bigint;
  blockNumber: bigint;
  ruleSet: number;
  token: Address;
  /** Per seat; null when the game's GameCreated is not in the logs. */
  bet: bigint | null;
  /** In turn order. */
  players: readonly Address[];
  totals: readonly bigint[];
  winners: readonly Address[];
  forfeited: Address[];
  payoutEach: bigint;
  houseFee: bigint;
  /**
   * A match's games (issue 33), in order, each with its own turn order, totals and winners; absent
   * for a single game. `totals` above are then the points over all games, `winners` the match's.
   */
  match?: MatchGameRecord[];
}

export interface MatchGameRecord {
  game: number;
  players: readonly Address[];
  totals: readonly bigint[];
  winners: readonly Address[];
}

export interface MySeat {
  seat: number;
  total: bigint;
  result: SeatResult;
  /** Credited minus bet; null when the bet is unknown. */
  net: bigint | null;
}

export function finishedGames(logs: Iterable<LeaderboardLog>): FinishedGame[] {
  const bets = new Map<bigint, bigint>();
  const forfeits = new Map<bigint, Address[]>();
  const finished = new Map<bigint, HallLogOf<"GameFinished">>();
  const matches = new Map<bigint, Map<number, MatchGameRecord>>();
  for (const log of logs) {
    if (log.eventName === "GameCreated") bets.set(log.args.gameId, log.args.bet);
    else if (log.eventName === "MatchGameFinished") {
      const games = matches.get(log.args.gameId) ?? new Map<number, MatchGameRecord>();
      const { game, players, totals, winners } = log.args;
      games.set(game, { game, players, totals, winners });
      matches.set(log.args.gameId, games);
    } else if (log.eventName === "PlayerForfeited") {
      const list = forfeits.get(log.args.gameId) ?? [];
      if (!list.some((p) => sameAddress(p, log.args.player))) list.push(log.args.player);
      forfeits.set(log.args.gameId, list);
    } else if (log.eventName === "GameFinished") finished.set(log.args.gameId, log);
  }
  return [...finished.values()]
    .map((log): FinishedGame => ({
      gameId: log.args.gameId,
      blockNumber: log.blockNumber,
      ruleSet: log.args.ruleSet,
      token: log.args.token,
      bet: bets.get(log.args.gameId) ?? null,
      players: log.args.players,
      totals: log.args.totals,
      winners: log.args.winners,
      forfeited: forfeits.get(log.args.gameId) ?? [],
      payoutEach: log.args.payoutEach,
      houseFee: log.args.houseFee,
      ...matchOf(matches.get(log.args.gameId)),
    }))
    .sort((a, b) => (a.gameId === b.gameId ? 0 : a.gameId > b.gameId ? -1 : 1));
}

const matchOf = (games: Map<number, MatchGameRecord> | undefined) =>
  games ? { match: [...games.values()].sort((a, b) => a.game - b.game) } : {};

/** The viewer's seat in a game, or null when they did not play it. */
export function mySeat(game: FinishedGame, me: Address | null | undefined): MySeat | null {
  const seat = game.players.findIndex((p) => sameAddress(p, me));
  if (seat < 0) return null;
  const player = game.players[seat];
  const winnerAt = game.winners.findIndex((w) => sameAddress(w, player));
  const result: SeatResult = game.forfeited.some((p) => sameAddress(p, player))
    ? "forfeited"
    : winnerAt < 0
      ? "lost"
      : game.winners.length > 1
        ? "tied"
        : "won";
  let net: bigint | null = null;
  if (game.bet !== null) {
    const pot = game.bet * BigInt(game.players.length);
    const remainder = pot - game.houseFee - game.payoutEach * BigInt(game.winners.length);
    const credited = winnerAt < 0 ? 0n : game.payoutEach + (winnerAt === 0 ? remainder : 0n);
    net = credited - game.bet;
  }
  return { seat, total: game.totals[seat], result, net };
}

export const RESULT_WORDS: Record<SeatResult, string> = {
  won: "Won",
  tied: "Shared the win",
  lost: "Lost",
  forfeited: "Timed out",
};

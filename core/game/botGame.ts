import type { Address, Hex } from "viem";
import type { HallLog } from "../events/hallEvents.ts";
import { rollDice } from "../rules/dice.ts";
import type { RuleSetId } from "../rules/ruleSets.ts";
import type { Dice } from "../rules/score.ts";
import { applyScore, newSheet, totals, type Sheet } from "../rules/sheet.ts";
import type { TurnAction } from "../rules/strategy.ts";
import { gameWinners, matchStandings } from "./match.ts";

/**
 * A whole game as DiceHall logs it, played off chain by bots: from GameCreated to GameFinished,
 * with dice derived from each roll's revealed number by the RULES formula, the Joker rule and
 * bonuses applied by the rules engine, the pot split as the contract splits it. For history,
 * replay and analysis tests, and for the indexer benchmark's seeded history (100 000 games in
 * minutes, where a chain plays ~20 a second).
 */

export interface BotGameSpec {
  gameId: bigint;
  ruleSet: RuleSetId;
  /** In turn order; the first creates the table. */
  players: readonly Address[];
  /** address(0) for the native coin (the default). */
  token?: Address;
  /** Per seat (default 1 000 wei). */
  bet?: bigint;
  /** The house fee fixed when the table opened (default 0). */
  houseFeeBps?: number;
  /** A seat's move: roll with a keep mask, or score a box (`dice` is null before the first roll). */
  choose: (seat: number, sheet: Sheet, dice: Dice | null, rollsUsed: number) => TurnAction;
  /** The number Entropy reveals for a roll's request. */
  reveal: (sequenceNumber: bigint) => Hex;
  /** The first request's sequence number (default 1). */
  firstSequence?: bigint;
  /** The seat timed out at the start of its turn in round `afterRound + 1`. */
  forfeit?: { seat: number; afterRound: number };
  /** Where the logs go: one block for the whole game, or a block each (the default). */
  blocks?: { start: bigint; each: boolean };
  /**
   * Games in the match (default 1, a single game): each game draws its order (here the seats
   * rotate), ends with MatchGameFinished, and the match with GameFinished (points over all games,
   * the match's winners), as DiceHall logs a match. A forfeit happens in game 1.
   */
  games?: number;
  /** Called after every score with every seat's sheet (seat order). */
  onScore?: (sheets: readonly Sheet[]) => void;
}

export interface BotGame {
  logs: HallLog[];
  /** Each seat's final total (a forfeited seat's as it stood); over all games for a match. */
  totals: number[];
  /** The next unused sequence number. */
  nextSequence: bigint;
}

const NATIVE: Address = "0x0000000000000000000000000000000000000000";
const BPS = 10_000n;

export function playBotGame(spec: BotGameSpec): BotGame {
  const { gameId, players } = spec;
  const games = spec.games ?? 1;
  const token = spec.token ?? NATIVE;
  const bet = spec.bet ?? 1000n;
  const logs: HallLog[] = [];
  let block = spec.blocks?.start ?? 10n;
  const blockEach = spec.blocks?.each ?? true;
  let logIndex = 0;
  let sequence = spec.firstSequence ?? 1n;
  const push = (log: Omit<HallLog, "blockNumber" | "logIndex">, newBlock = true) => {
    if (newBlock && blockEach && logs.length > 0) {
      block += 1n;
      logIndex = 0;
    }
    logs.push({ ...log, blockNumber: block, logIndex: logIndex++ } as HallLog);
  };

  push({
    eventName: "GameCreated",
    args: {
      gameId,
      creator: players[0],
      token,
      bet,
      seats: players.length,
      ruleSet: spec.ruleSet,
      isPrivate: false,
    },
  });
  if (games > 1) push({ eventName: "MatchCreated", args: { gameId, games } }, false);
  for (const player of players.slice(1)) {
    push({ eventName: "PlayerJoined", args: { gameId, player } });
  }

  const out = new Set<number>();
  /** Each seat's points over every game, and games won (by seat). */
  const points = players.map(() => 0);
  const results: { totals: number[]; winners: number[] }[] = [];
  let lastOrder: number[] = players.map((_, i) => i);
  let lastTotals: number[] = players.map(() => 0);
  for (let game = 1; game <= games; game++) {
    // Each game of a match draws its own order: here the seats rotate, game by game.
    const order = players.map((_, i) => (i + game - 1) % players.length);
    lastOrder = order;
    push(
      { eventName: "GameStarted", args: { gameId, order: order.map((s) => players[s]) } },
      game > 1,
    );
    const sheets = players.map(() => newSheet(spec.ruleSet));
    const rounds = sheets[0].boxes.length;
    play: for (let round = 1; round <= rounds; round++) {
      for (const seat of order) {
        if (out.has(seat)) continue;
        if (game === 1 && spec.forfeit?.seat === seat && round === spec.forfeit.afterRound + 1) {
          out.add(seat);
          push({ eventName: "PlayerForfeited", args: { gameId, player: players[seat] } });
          // The last one left wins at once (the contract ends the game there).
          if (players.length - out.size < 2) break play;
          continue;
        }
        let dice: Dice | null = null;
        let rollsUsed = 0;
        for (;;) {
          const action = spec.choose(seat, sheets[seat], dice, rollsUsed);
          if (action.action === "score") {
            const scored = applyScore(sheets[seat], dice!, action.box);
            sheets[seat] = scored.sheet;
            push({
              eventName: "Scored",
              args: {
                gameId,
                player: players[seat],
                category: action.box,
                points: BigInt(scored.points),
                bonus: BigInt(scored.bonus),
              },
            });
            spec.onScore?.(sheets);
            break;
          }
          const sequenceNumber = sequence++;
          push({
            eventName: "RollRequested",
            args: { gameId, player: players[seat], sequenceNumber, keepMask: action.keepMask },
          });
          const randomNumber = spec.reveal(sequenceNumber);
          dice = rollDice(randomNumber, dice, action.keepMask);
          rollsUsed += 1;
          push({
            eventName: "DiceRolled",
            args: {
              gameId,
              player: players[seat],
              rollNumber: rollsUsed,
              dice: [...dice] as unknown as readonly [number, number, number, number, number],
              sequenceNumber,
              randomNumber,
            },
          });
        }
      }
    }
    const gameTotals = sheets.map((s) => totals(s).total);
    gameTotals.forEach((t, seat) => (points[seat] += t));
    lastTotals = gameTotals;
    const winners = gameWinners(
      gameTotals,
      players.map((_, i) => !out.has(i)),
    );
    results.push({ totals: gameTotals, winners });
    if (games > 1) {
      push(
        {
          eventName: "MatchGameFinished",
          args: {
            gameId,
            game,
            players: order.map((s) => players[s]),
            totals: order.map((s) => BigInt(gameTotals[s])),
            winners: order.filter((s) => winners.includes(s)).map((s) => players[s]),
          },
        },
        false,
      );
    }
    if (players.length - out.size < 2) break;
  }

  const finalTotals = games > 1 ? points : lastTotals;
  const winnerSeats =
    games > 1
      ? matchStandings(players.length, results, [...out]).leaders
      : gameWinners(
          lastTotals,
          players.map((_, i) => !out.has(i)),
        );
  const winners = lastOrder.filter((s) => winnerSeats.includes(s)).map((s) => players[s]);
  const pot = bet * BigInt(players.length);
  const houseFee = (pot * BigInt(spec.houseFeeBps ?? 0)) / BPS;
  push(
    {
      eventName: "GameFinished",
      args: {
        gameId,
        token,
        ruleSet: spec.ruleSet,
        players: lastOrder.map((s) => players[s]),
        totals: lastOrder.map((s) => BigInt(finalTotals[s])),
        winners,
        payoutEach: (pot - houseFee) / BigInt(winners.length),
        houseFee,
      },
    },
    games === 1,
  );
  return { logs, totals: finalTotals, nextSequence: sequence };
}

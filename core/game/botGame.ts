import type { Address, Hex } from "viem";
import type { HallLog } from "../events/hallEvents.ts";
import { rollDice } from "../rules/dice.ts";
import type { RuleSetId } from "../rules/ruleSets.ts";
import type { Dice } from "../rules/score.ts";
import { applyScore, newSheet, totals, type Sheet } from "../rules/sheet.ts";
import type { TurnAction } from "../rules/strategy.ts";

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
  /** Called after every score with every seat's sheet (seat order). */
  onScore?: (sheets: readonly Sheet[]) => void;
}

export interface BotGame {
  logs: HallLog[];
  /** Each seat's final total (a forfeited seat's as it stood). */
  totals: number[];
  /** The next unused sequence number. */
  nextSequence: bigint;
}

const NATIVE: Address = "0x0000000000000000000000000000000000000000";
const BPS = 10_000n;

export function playBotGame(spec: BotGameSpec): BotGame {
  const { gameId, players } = spec;
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
  for (const player of players.slice(1)) {
    push({ eventName: "PlayerJoined", args: { gameId, player } });
  }
  push({ eventName: "GameStarted", args: { gameId, order: [...players] } }, false);

  const sheets = players.map(() => newSheet(spec.ruleSet));
  const out = new Set<number>();
  const rounds = sheets[0].boxes.length;
  play: for (let round = 1; round <= rounds; round++) {
    for (let seat = 0; seat < players.length; seat++) {
      if (out.has(seat)) continue;
      if (spec.forfeit?.seat === seat && round === spec.forfeit.afterRound + 1) {
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

  const finalTotals = sheets.map((s) => totals(s).total);
  const best = Math.max(...finalTotals.filter((_, i) => !out.has(i)));
  const winners = players.filter((_, i) => !out.has(i) && finalTotals[i] === best);
  const pot = bet * BigInt(players.length);
  const houseFee = (pot * BigInt(spec.houseFeeBps ?? 0)) / BPS;
  push({
    eventName: "GameFinished",
    args: {
      gameId,
      token,
      ruleSet: spec.ruleSet,
      players: [...players],
      totals: finalTotals.map(BigInt),
      winners,
      payoutEach: (pot - houseFee) / BigInt(winners.length),
      houseFee,
    },
  });
  return { logs, totals: finalTotals, nextSequence: sequence };
}

import { keccak256, toHex, type Address, type Hex } from "viem";
import type { RuleSetId } from "../rules/ruleSets.ts";
import { rollDice } from "../rules/dice.ts";
import type { Dice } from "../rules/score.ts";
import { applyScore, newSheet, totals, type Sheet } from "../rules/sheet.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import type { HallLog } from "../events/hallEvents.ts";

/**
 * A whole game as the contract would log it, played by the strategy bot with dice from the RULES
 * formula: for replay and history tests. Also returns each player's sheet after every score, to
 * compare the replay against.
 */

export const PLAYERS: Address[] = [
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x00000000000000000000000000000000000CA201",
];

export interface ScriptedGame {
  logs: HallLog[];
  /** After the n-th Scored log: every player's sheet (by lower-case address). */
  sheetsAfterScore: Record<string, Sheet>[];
  finalTotals: number[];
}

export function scriptedGame(
  gameId: bigint,
  ruleSet: RuleSetId,
  players: Address[] = PLAYERS.slice(0, 2),
  options: { forfeitAfterRound?: number; seed?: string; startBlock?: bigint } = {},
): ScriptedGame {
  const logs: HallLog[] = [];
  let block = options.startBlock ?? 10n;
  let logIndex = 0;
  let sequence = 1n;
  const at = () => ({ blockNumber: block, logIndex: logIndex++ });
  const nextBlock = () => {
    block += 1n;
    logIndex = 0;
  };

  logs.push({
    eventName: "GameCreated",
    args: {
      gameId,
      creator: players[0],
      token: "0x0000000000000000000000000000000000000000",
      bet: 1000n,
      seats: players.length,
      ruleSet,
      isPrivate: false,
    },
    ...at(),
  });
  for (const p of players.slice(1)) {
    nextBlock();
    logs.push({ eventName: "PlayerJoined", args: { gameId, player: p }, ...at() });
  }
  logs.push({ eventName: "GameStarted", args: { gameId, order: players }, ...at() });

  const sheets = players.map(() => newSheet(ruleSet));
  const forfeited = new Set<number>();
  const sheetsAfterScore: Record<string, Sheet>[] = [];
  const rounds = sheets[0].boxes.length;

  for (let round = 1; round <= rounds; round++) {
    for (let seat = 0; seat < players.length; seat++) {
      if (forfeited.has(seat)) continue;
      if (
        options.forfeitAfterRound !== undefined &&
        round === options.forfeitAfterRound + 1 &&
        seat === players.length - 1
      ) {
        nextBlock();
        forfeited.add(seat);
        logs.push({
          eventName: "PlayerForfeited",
          args: { gameId, player: players[seat] },
          ...at(),
        });
        continue;
      }
      let dice: Dice | null = null;
      let rollsUsed = 0;
      let keepMask = 0;
      for (;;) {
        const action = chooseTurnAction(sheets[seat], dice ?? [1, 1, 1, 1, 1], rollsUsed);
        if (action.action === "score") {
          const { sheet, points, bonus } = applyScore(sheets[seat], dice!, action.box);
          sheets[seat] = sheet;
          nextBlock();
          logs.push({
            eventName: "Scored",
            args: {
              gameId,
              player: players[seat],
              category: action.box,
              points: BigInt(points),
              bonus: BigInt(bonus),
            },
            ...at(),
          });
          sheetsAfterScore.push(
            Object.fromEntries(players.map((p, i) => [p.toLowerCase(), sheets[i]])),
          );
          break;
        }
        keepMask = action.keepMask;
        const seq = sequence++;
        nextBlock();
        logs.push({
          eventName: "RollRequested",
          args: { gameId, player: players[seat], sequenceNumber: seq, keepMask },
          ...at(),
        });
        const random: Hex = keccak256(toHex(`${options.seed ?? "replay"}:${gameId}:${seq}`));
        dice = rollDice(random, dice, keepMask);
        rollsUsed += 1;
        nextBlock();
        logs.push({
          eventName: "DiceRolled",
          args: {
            gameId,
            player: players[seat],
            rollNumber: rollsUsed,
            dice: [...dice] as unknown as readonly [number, number, number, number, number],
            sequenceNumber: seq,
            randomNumber: random,
          },
          ...at(),
        });
      }
    }
  }

  const finalTotals = sheets.map((s) => totals(s).total);
  const contenders = finalTotals.filter((_, i) => !forfeited.has(i));
  const best = Math.max(...contenders);
  const winners = players.filter((_, i) => !forfeited.has(i) && finalTotals[i] === best);
  const pot = 1000n * BigInt(players.length);
  nextBlock();
  logs.push({
    eventName: "GameFinished",
    args: {
      gameId,
      token: "0x0000000000000000000000000000000000000000",
      ruleSet,
      players,
      totals: finalTotals.map(BigInt),
      winners,
      payoutEach: pot / BigInt(winners.length),
      houseFee: 0n,
    },
    ...at(),
  });
  return { logs, sheetsAfterScore, finalTotals };
}

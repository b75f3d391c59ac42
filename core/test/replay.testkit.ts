import { keccak256, toHex, type Address } from "viem";
import type { RuleSetId } from "../rules/ruleSets.ts";
import type { Sheet } from "../rules/sheet.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import type { HallLog } from "../events/hallEvents.ts";
import { playBotGame } from "../game/botGame.ts";

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
  const sheetsAfterScore: Record<string, Sheet>[] = [];
  const game = playBotGame({
    gameId,
    ruleSet,
    players,
    choose: (_seat, sheet, dice, rollsUsed) =>
      chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
    reveal: (seq) => keccak256(toHex(`${options.seed ?? "replay"}:${gameId}:${seq}`)),
    forfeit:
      options.forfeitAfterRound === undefined
        ? undefined
        : { seat: players.length - 1, afterRound: options.forfeitAfterRound },
    blocks: { start: options.startBlock ?? 10n, each: true },
    onScore: (sheets) =>
      sheetsAfterScore.push(
        Object.fromEntries(players.map((p, i) => [p.toLowerCase(), sheets[i]])),
      ),
  });
  return { logs: game.logs, sheetsAfterScore, finalTotals: game.totals };
}

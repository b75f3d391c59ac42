import { keccak256, toHex, type Address } from "viem";
import { describe, expect, it } from "vitest";
import type { HallLogOf } from "../events/hallEvents.ts";
import { rollDice } from "../rules/dice.ts";
import { totals } from "../rules/sheet.ts";
import { chooseTurnAction } from "../rules/strategy.ts";
import { playBotGame, type BotGameSpec } from "./botGame.ts";
import { foldGame } from "./gameState.ts";

const A: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const C: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const spec = (over: Partial<BotGameSpec> = {}): BotGameSpec => ({
  gameId: 7n,
  ruleSet: 0,
  players: [A, B],
  choose: (_seat, sheet, dice, rollsUsed) =>
    chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rollsUsed),
  reveal: (seq) => keccak256(toHex(`bot:${seq}`)),
  ...over,
});

const finishedOf = (logs: ReturnType<typeof playBotGame>["logs"]) =>
  logs.at(-1) as HallLogOf<"GameFinished">;

describe("a bot game", () => {
  it("is a whole game as the contract logs it: the fold finishes it with the same totals", () => {
    for (const ruleSet of [0, 1, 2, 3] as const) {
      const game = playBotGame(spec({ ruleSet, players: [A, B, C] }));
      const state = foldGame(7n, game.logs);
      expect(state.status).toBe("finished");
      const finished = finishedOf(game.logs);
      expect(finished.args.totals).toEqual(game.totals.map(BigInt));
      // Every box of every sheet filled, and the totals are the sheets' own.
      const rounds = state.sheets[A.toLowerCase()]?.boxes.length ?? 0;
      expect(game.logs.filter((l) => l.eventName === "Scored")).toHaveLength(3 * rounds);
      expect([A, B, C].map((p) => totals(state.sheets[p.toLowerCase()]).total)).toEqual(
        game.totals,
      );
    }
  });

  it("derives each roll's dice from the revealed number by the RULES formula", () => {
    const game = playBotGame(spec());
    let previous: number[] | null = null;
    for (const log of game.logs) {
      if (log.eventName === "RollRequested") {
        const rolled = game.logs.find(
          (l) => l.eventName === "DiceRolled" && l.args.sequenceNumber === log.args.sequenceNumber,
        ) as HallLogOf<"DiceRolled">;
        if (log.args.keepMask === 0) previous = null;
        const dice = rollDice(rolled.args.randomNumber, previous as never, log.args.keepMask);
        expect([...rolled.args.dice]).toEqual([...dice]);
        previous = [...dice];
      }
    }
  });

  it("pays the pot less the house fee to the winners, the fee as the contract rounds it", () => {
    const game = playBotGame(spec({ bet: 1_000_003n, houseFeeBps: 250 }));
    const { payoutEach, houseFee, winners } = finishedOf(game.logs).args;
    expect(houseFee).toBe((2_000_006n * 250n) / 10_000n);
    expect(payoutEach).toBe((2_000_006n - houseFee) / BigInt(winners.length));
  });

  it("ends at once when a forfeit leaves one player, who wins", () => {
    const game = playBotGame(spec({ forfeit: { seat: 1, afterRound: 4 } }));
    const finished = finishedOf(game.logs);
    expect(finished.args.winners).toEqual([A]);
    // A played round 5 before B, who walked away at the start of its turn in it.
    expect(game.logs.filter((l) => l.eventName === "Scored")).toHaveLength(5 + 4);
    expect(foldGame(7n, game.logs).status).toBe("finished");
  });

  it("plays on among the rest when a forfeit leaves two", () => {
    const game = playBotGame(spec({ players: [A, B, C], forfeit: { seat: 0, afterRound: 2 } }));
    const finished = finishedOf(game.logs);
    expect(finished.args.winners).not.toContain(A);
    expect(game.logs.filter((l) => l.eventName === "Scored")).toHaveLength(2 + 13 * 2);
  });

  it("puts the game in one block with increasing log indices, or a block a log", () => {
    const one = playBotGame(spec({ blocks: { start: 500n, each: false } }));
    expect(new Set(one.logs.map((l) => l.blockNumber))).toEqual(new Set([500n]));
    expect(one.logs.map((l) => l.logIndex)).toEqual(one.logs.map((_, i) => i));
    const each = playBotGame(spec({ blocks: { start: 500n, each: true } }));
    expect(each.logs.at(-1)!.blockNumber).toBeGreaterThan(600n);
  });

  it("numbers its requests from the first sequence given and says the next", () => {
    const game = playBotGame(spec({ firstSequence: 1000n }));
    const requests = game.logs.filter((l) => l.eventName === "RollRequested");
    expect(requests[0].args.sequenceNumber).toBe(1000n);
    expect(game.nextSequence).toBe(1000n + BigInt(requests.length));
  });
});

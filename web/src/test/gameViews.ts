// Test support: a game as the app's reads receive it. Not imported by the app.
import type { GameView } from "@/data/gameData.ts";
import { ALICE, BOB, NATIVE } from "@dicehall/core/test/testLogs.ts";

/** A two-player classic game as getGame reports it, its order drawn; `over` changes any field. */
export function gameViewOf(over: Partial<GameView> = {}): GameView {
  return {
    status: 2,
    config: {
      token: NATIVE,
      bet: 10n ** 15n,
      seats: 2,
      ruleSet: 0,
      joinWindow: 900,
      moveTimeout: 300,
      invitees: [],
    },
    creator: ALICE,
    players: [ALICE, BOB],
    currentSeat: 1,
    round: 1,
    deadline: 0n,
    pendingSequence: 0n,
    rollRequestedAt: 0n,
    pendingKeepMask: 0,
    houseFeeBps: 0,
    entropyTimeout: 1800,
    pot: 2n * 10n ** 15n,
    orderDrawn: true,
    entropyAttempts: 0,
    retryAt: 0n,
    provider: "0x0000000000000000000000000000000000000001",
    callbackGasLimit: 100_000,
    callOffAt: 0n,
    callOffWindow: 86_400,
    rollFeeCap: 10n ** 14n,
    games: 1,
    gameNumber: 1,
    wins: [0, 0],
    points: [0n, 0n],
    ...over,
  };
}

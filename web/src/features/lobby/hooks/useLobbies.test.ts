import { describe, expect, it } from "vitest";
import { initialGameState, type GameState } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB } from "@dicehall/core/test/testLogs.ts";
import { myGameKind } from "./useLobbies.ts";

const game = (over: Partial<GameState>): GameState => ({
  ...initialGameState(3n),
  players: [ALICE, BOB],
  ...over,
});

describe("myGameKind", () => {
  it("a full table where nobody has rolled for the order is the first roll to make, not “In play”", () => {
    expect(myGameKind(game({ status: "running", orderDrawn: false }), ALICE)).toBe("draw");
    expect(myGameKind(game({ status: "running", orderDrawn: false }), BOB)).toBe("draw");
  });

  it("once the order is drawn: my turn, or in play", () => {
    const running = game({ status: "running", orderDrawn: true, currentSeat: 1 });
    expect(myGameKind(running, BOB)).toBe("myTurn");
    expect(myGameKind(running, ALICE)).toBe("playing");
    expect(myGameKind(game({ status: "open" }), ALICE)).toBe("waiting");
    expect(myGameKind(game({ status: "finished" }), ALICE)).toBe("finished");
    expect(myGameKind(game({ status: "cancelled" }), ALICE)).toBe("cancelled");
  });
});

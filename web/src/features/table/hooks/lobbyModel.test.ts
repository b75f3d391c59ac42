import { describe, expect, it } from "vitest";
import type { GameView } from "@/data/gameData.ts";
import { ALICE, BOB, CAROL } from "@dicehall/core/test/testLogs.ts";
import { gameViewOf } from "@/test/gameViews.ts";
import { joinLabel, joinState } from "./lobbyModel.ts";

const CLOSES = 1_700_000_900;

function lobby(invitees: `0x${string}`[] = []): GameView {
  return gameViewOf({
    status: 1,
    config: { ...gameViewOf().config, invitees },
    players: [ALICE],
    currentSeat: 0,
    round: 0,
    deadline: BigInt(CLOSES),
    orderDrawn: false,
  });
}

describe("joinState", () => {
  it("offers the seat until the chain reaches the join deadline", () => {
    const open = joinState(lobby(), BOB, CLOSES * 1000 - 1);
    expect(open).toEqual({ windowOpen: true, offered: true, canJoin: true, reason: null });
  });

  it("disables Join with the reason once the chain's clock reaches the deadline", () => {
    // The contract refuses a join at block.timestamp >= deadline.
    const closed = joinState(lobby(), BOB, CLOSES * 1000);
    expect(closed.windowOpen).toBe(false);
    expect(closed.offered).toBe(true);
    expect(closed.canJoin).toBe(false);
    expect(closed.reason).toMatch(/join window has closed/);
  });

  it("offers no button to a seated player, a stranger to a private table, or no wallet", () => {
    expect(joinState(lobby(), ALICE, 0).offered).toBe(false);
    expect(joinState(lobby([BOB]), CAROL, 0)).toMatchObject({ offered: false, canJoin: false });
    expect(joinState(lobby([BOB]), BOB, 0).canJoin).toBe(true);
    expect(joinState(lobby(), undefined, 0).offered).toBe(false);
  });
});

describe("joinLabel", () => {
  it("says both steps for a token bet that needs an approval", () => {
    expect(joinLabel(true, "TUSD", "5 TUSD")).toBe("Approve TUSD and join for 5 TUSD");
    expect(joinLabel(false, "TUSD", "5 TUSD")).toBe("Join for 5 TUSD");
  });
});

// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initialGameState, type GameState } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB, NATIVE } from "@dicehall/core/test/testLogs.ts";
import type { GameView } from "@/data/gameData.ts";
import { gameViewOf } from "@/test/gameViews.ts";

const hall = vi.hoisted(() => ({
  me: undefined as unknown,
  games: new Map<bigint, unknown>(),
  views: new Map<string, unknown>(),
  pending: false,
}));
const alerts = vi.hoisted(() => ({
  beep: vi.fn(() => true),
  vibrate: vi.fn(),
  showNotification: vi.fn(() => true),
  titles: [] as string[],
}));
vi.mock("wagmi", () => ({ useConnection: () => ({ address: hall.me }) }));
vi.mock("@/data/gameData.ts", async (load) => ({
  ...(await load<object>()),
  useHallGames: () => ({ games: hall.games, isPending: hall.pending }),
  useGameViews: (ids: readonly bigint[]) => ({
    data: ids.length ? new Map(hall.views) : undefined,
  }),
}));
vi.mock("./useNow.ts", () => ({
  useChainClockAnchor: () => ({ offsetMs: 0 }),
  useChainNow: () => 1_000_000,
}));
vi.mock("./alerts.ts", () => ({
  beep: alerts.beep,
  vibrate: alerts.vibrate,
  showNotification: alerts.showNotification,
  markTab: (what: string) => {
    alerts.titles.push(what);
    return () => void alerts.titles.splice(alerts.titles.indexOf(what), 1);
  },
}));

const { TurnAlerts, tableOnScreen } = await import("./TurnAlerts.tsx");

const running = (gameId: bigint, over: Partial<GameState> = {}): GameState => ({
  ...initialGameState(gameId),
  token: NATIVE,
  bet: 1_000n,
  seats: 2,
  ruleSet: 0,
  status: "running",
  creator: ALICE,
  players: [ALICE, BOB],
  orderDrawn: true,
  ...over,
});
// BOB is seat 1: his move at currentSeat 1, ALICE's at 0.
const view = (over: Partial<GameView> = {}) => gameViewOf({ currentSeat: 0, ...over });

function renderAt(path: string) {
  const ui = () => (
    <MemoryRouter initialEntries={[path]}>
      <TurnAlerts />
    </MemoryRouter>
  );
  const r = render(ui());
  return { rerender: () => r.rerender(ui()) };
}

beforeEach(() => {
  hall.me = BOB;
  hall.pending = false;
  hall.games = new Map([[7n, running(7n)]]);
  hall.views = new Map([["7", view()]]);
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  alerts.titles.length = 0;
});

describe("TurnAlerts (your turn, wherever you are)", () => {
  it("on any page, calls the player back when a move of theirs comes, with a link to the table", () => {
    const page = renderAt("/leaderboard");
    // The first look (ALICE to move) says nothing.
    expect(screen.queryByRole("status", { name: "Your move" })).toBeNull();
    expect(alerts.beep).not.toHaveBeenCalled();
    expect(alerts.titles).toEqual([]);

    // ALICE scores: the move is BOB's.
    hall.views = new Map([["7", view({ currentSeat: 1 })]]);
    act(() => page.rerender());
    expect(alerts.beep).toHaveBeenCalledTimes(1);
    expect(alerts.vibrate).toHaveBeenCalledTimes(1);
    expect(alerts.showNotification).toHaveBeenCalledWith(
      "Dicehall: Your turn",
      "Game #7: it's your move.",
      expect.any(String),
    );
    expect(alerts.titles).toEqual(["Your turn"]);
    const notice = screen.getByRole("status", { name: "Your move" });
    expect(notice.textContent).toContain("Your turn in game #7.");
    expect(screen.getByRole("link", { name: "Go to the table" }).getAttribute("href")).toBe(
      "/games/7",
    );

    // The same move read again is no news; once BOB has moved, the tab is itself again.
    act(() => page.rerender());
    expect(alerts.beep).toHaveBeenCalledTimes(1);
    hall.views = new Map([["7", view({ currentSeat: 0, round: 2 })]]);
    act(() => page.rerender());
    expect(alerts.titles).toEqual([]);
    expect(screen.queryByRole("status", { name: "Your move" })).toBeNull();
  });

  it("a game that starts after the page loaded is news (the turn order to draw)", () => {
    hall.games = new Map();
    hall.views = new Map();
    const page = renderAt("/games");
    hall.games = new Map([[8n, running(8n, { orderDrawn: false })]]);
    hall.views = new Map([["8", view({ orderDrawn: false })]]);
    act(() => page.rerender());
    expect(alerts.beep).toHaveBeenCalledTimes(1);
    expect(alerts.titles).toEqual(["Roll for the turn order"]);
  });

  it("the move waiting when a page loads marks the tab, without a sound", () => {
    hall.views = new Map([["7", view({ currentSeat: 1 })]]);
    renderAt("/history");
    expect(alerts.beep).not.toHaveBeenCalled();
    expect(alerts.titles).toEqual(["Your turn"]);
  });

  it("never for a spectator, a finished game, or without a wallet", () => {
    for (const me of ["0x00000000000000000000000000000000000000cc", undefined]) {
      hall.me = me;
      const page = renderAt("/practice");
      hall.views = new Map([["7", view({ currentSeat: 1 })]]);
      act(() => page.rerender());
      expect(alerts.beep).not.toHaveBeenCalled();
      expect(screen.queryByRole("status", { name: "Your move" })).toBeNull();
      cleanup();
      hall.views = new Map([["7", view()]]);
    }
    hall.me = BOB;
    hall.games = new Map([[7n, running(7n, { status: "finished" })]]);
    const page = renderAt("/games");
    hall.views = new Map([["7", view({ currentSeat: 1, status: 3 })]]);
    act(() => page.rerender());
    expect(alerts.beep).not.toHaveBeenCalled();
    expect(alerts.titles).toEqual([]);
  });

  it("leaves the game's own table to raise its alert", () => {
    expect(tableOnScreen("/games/7")).toBe("7");
    expect(tableOnScreen("/games/7/replay")).toBeNull();
    const page = renderAt("/games/7");
    hall.views = new Map([["7", view({ currentSeat: 1 })]]);
    act(() => page.rerender());
    expect(alerts.beep).not.toHaveBeenCalled();
    expect(alerts.titles).toEqual([]);
    expect(screen.queryByRole("status", { name: "Your move" })).toBeNull();
  });

  it("at a table of one's own, another game's move shows once this table's move is made", () => {
    hall.games = new Map([
      [7n, running(7n)],
      [8n, running(8n)],
    ]);
    hall.views = new Map([
      ["7", view({ currentSeat: 1 })],
      ["8", view({ currentSeat: 1 })],
    ]);
    const page = renderAt("/games/7");
    // Both wait for BOB: the move here comes first, the strip waits.
    expect(screen.queryByRole("status", { name: "Your move" })).toBeNull();
    hall.views = new Map([
      ["7", view({ currentSeat: 0, round: 2 })],
      ["8", view({ currentSeat: 1 })],
    ]);
    act(() => page.rerender());
    expect(screen.getByRole("status", { name: "Your move" }).textContent).toContain(
      "Your turn in game #8.",
    );
    // The table's page owns the tab's title.
    expect(alerts.titles).toEqual([]);
  });
});

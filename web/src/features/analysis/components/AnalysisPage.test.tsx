// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { HallLog } from "@dicehall/core/events/hallEvents.ts";
import { PLAYERS, scriptedGame } from "@dicehall/core/test/replay.testkit.ts";
import { analyseGame } from "@dicehall/core/coach/analyse.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { coachRecordOf } from "@dicehall/core/game/coachRecord.ts";
import { foldGame } from "@dicehall/core/game/gameState.ts";
import { setCoachPort } from "@/data/coach.ts";
import { inProcessCoach } from "@/test/coachPort.ts";
import { AnalysisPage } from "./AnalysisPage.tsx";

const logs = vi.hoisted(() => ({ current: [] as HallLog[] }));
const indexed = vi.hoisted(() => ({ current: { data: null } as { data: unknown } }));
vi.mock("wagmi", () => ({ useConnection: () => ({ address: PLAYERS[1] }) }));
vi.mock("@/chain/hall.ts", () => ({ useHall: () => ({ chainId: 31337 }) }));
vi.mock("@/data/indexer.ts", () => ({
  useGameLogs: () => ({ source: "chain", error: null, refetch() {}, data: { logs: logs.current } }),
  useIndexedAnalysis: () => indexed.current,
}));

function renderPage(id: string) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[`/games/${id}/analysis`]}>
        <Routes>
          <Route path="/games/:id/analysis" element={<AnalysisPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  setCoachPort(inProcessCoach);
  indexed.current = { data: null };
});
afterEach(() => {
  cleanup();
  setCoachPort(() => {
    throw new Error("no worker in this test");
  });
});

describe("AnalysisPage", () => {
  it("analyses a finished game from its events, naming the viewer", async () => {
    const game = scriptedGame(4n, 2, PLAYERS.slice(0, 2));
    logs.current = game.logs;
    renderPage("4");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Analysis of game #4");
    const summary = await screen.findByTestId("coach-summary", {}, { timeout: 5000 });
    const rows = within(summary).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual([
      "0x7099…79C8",
      "You",
    ]);
    // Each player by face, their full address a click away, and a link to their page.
    expect(within(rows[1]).getByRole("button", { name: "Your full address" })).toBeTruthy();
    expect(within(rows[0]).getByRole("link", { name: "0x7099…79C8" }).getAttribute("href")).toBe(
      `/players/${PLAYERS[0]}`,
    );
    // A disclosure's summary is a control itself: no face button or link inside one.
    expect(document.querySelectorAll("summary button, summary a")).toHaveLength(0);
    expect(rows.map((r) => Number(within(r).getAllByRole("cell")[0].textContent))).toEqual(
      game.finalTotals,
    );
    expect(screen.getByRole("link", { name: "Replay" }).getAttribute("href")).toBe(
      "/games/4/replay",
    );
  });

  it("shows the game index's review when it has one, without starting the coach", async () => {
    const game = scriptedGame(5n, 2, PLAYERS.slice(0, 2));
    logs.current = game.logs;
    const record = coachRecordOf(foldGame(5n, game.logs))!;
    const review = analyseGame(buildTable(2), record);
    indexed.current = { data: { gameId: "5", analysed: true, ruleSet: 2, players: [], review } };
    let started = false;
    setCoachPort(() => {
      started = true;
      throw new Error("no worker: the index answered");
    });
    renderPage("5");
    const summary = await screen.findByTestId("coach-summary");
    const rows = within(summary).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual([
      "0x7099…79C8",
      "You",
    ]);
    expect(rows.map((r) => within(r).getAllByRole("cell")[1].textContent)).toEqual(
      review.players.map((p) => p.totalLoss.toFixed(1)),
    );
    expect(started).toBe(false);
  });

  it("gives no analysis while the game is played", () => {
    const game = scriptedGame(6n, 2, PLAYERS.slice(0, 2));
    logs.current = game.logs.slice(0, 12);
    renderPage("6");
    expect(screen.getByText(/This game is still being played/)).toBeTruthy();
    expect(screen.queryByTestId("coach-summary")).toBeNull();
    expect(screen.queryByTestId("coach-objective")).toBeNull();
  });

  it("refuses what is not a game number", () => {
    renderPage("abc");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("No such game");
  });
});

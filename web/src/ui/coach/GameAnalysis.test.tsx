// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import axe from "axe-core";
import { analyseGame } from "@dicehall/core/coach/analyse.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { coachRecordOf } from "@dicehall/core/game/coachRecord.ts";
import { foldGame } from "@dicehall/core/game/gameState.ts";
import { PLAYERS, scriptedGame } from "@dicehall/core/test/replay.testkit.ts";
import { setCoachPort } from "@/data/coach.ts";
import { inProcessCoach } from "@/test/coachPort.ts";
import { GameAnalysis } from "./GameAnalysis.tsx";

afterEach(() => {
  cleanup();
  setCoachPort(() => {
    throw new Error("no worker in this test");
  });
});

/** A finished two-player Yazty game as the contract logs it, named A and B. */
function record() {
  const game = scriptedGame(5n, 2, PLAYERS.slice(0, 2));
  return coachRecordOf(foldGame(5n, game.logs), (p) => (p === PLAYERS[0] ? "A" : "B"))!;
}

function renderAnalysis() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <GameAnalysis game={record()} cacheKey="test" />
    </QueryClientProvider>,
  );
}

describe("GameAnalysis", () => {
  it("says what the coach maximises while its table is prepared, then shows the review", async () => {
    setCoachPort(inProcessCoach);
    renderAnalysis();
    expect(screen.getByTestId("coach-objective").textContent).toMatch(
      /not the play that maximises your chance of beating them/,
    );
    expect(screen.getByRole("status").textContent).toMatch(/preparing its Yazty table/);

    const summary = await screen.findByTestId("coach-summary", {}, { timeout: 5000 });
    const expected = analyseGame(buildTable(2), record());
    const rows = within(summary).getAllByRole("row").slice(1);
    rows.forEach((row, i) => {
      const p = expected.players[i];
      const cells = within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent);
      expect(within(row).getByRole("rowheader").textContent).toBe(p.player);
      expect(cells[0]).toBe(String(p.score));
      expect(cells[1]).toBe(p.totalLoss.toFixed(1));
      expect(cells[2]).toBe(
        `${Math.round(p.bestShare * 100)}% (${p.bestMoves} of ${p.decisions.length})`,
      );
      expect(cells[3]).toMatch(p.biggestMistake ? /^turn \d+, roll \d/ : /^none/);
    });
    // One line per player, a dot per box; the numbers again as a table.
    const chart = screen.getByTestId("coach-chart");
    expect(chart.querySelectorAll("polyline")).toHaveLength(2);
    expect(chart.querySelectorAll("circle")).toHaveLength(26);
    const numbers = screen.getByRole("table", { name: "Expected final score after each turn" });
    expect(within(numbers).getAllByRole("row")).toHaveLength(1 + 14);
  });

  it("lists every decision of a player when asked, from the keyboard", async () => {
    setCoachPort(inProcessCoach);
    const user = userEvent.setup();
    const { container } = renderAnalysis();
    await screen.findByTestId("coach-summary", {}, { timeout: 5000 });
    const summary = screen.getByText(/^A: every decision/);
    summary.focus();
    await user.keyboard("{Enter}");
    const table = screen.getByRole("table", { name: "A's decisions" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.length).toBeGreaterThan(13);
    expect(rows.filter((r) => r.textContent?.includes(" in ")).length).toBeGreaterThanOrEqual(13);
    const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
    expect(
      result.violations.filter((v) => v.impact === "serious" || v.impact === "critical"),
    ).toEqual([]);
  });

  it("says so when the coach cannot start", async () => {
    setCoachPort(() => {
      throw new Error("Workers are off");
    });
    renderAnalysis();
    expect((await screen.findByRole("alert")).textContent).toMatch(
      /could not start: Workers are off/,
    );
  });
});

// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import axe from "axe-core";
import { AnnouncerProvider } from "@/ui/announce.tsx";
import { adviseKeep } from "@dicehall/core/coach/advise.ts";
import { buildTable } from "@dicehall/core/coach/solver.ts";
import { newSheet } from "@dicehall/core/rules/sheet.ts";
import { setCoachPort } from "@/data/coach.ts";
import { inProcessCoach } from "@/test/coachPort.ts";
import { keccak256, toHex } from "viem";
import { chooseTurnAction } from "@dicehall/core/rules/strategy.ts";
import { initialPractice, practiceReducer } from "../engine/engine.ts";
import { PRACTICE_STORAGE_KEY } from "../engine/storage.ts";
import { PracticePage } from "./PracticePage.tsx";

/** A one-game Yazty session played to its end by the heuristic for both seats. */
function finishedYaztyGame() {
  let n = 0;
  let state = practiceReducer(initialPractice(), {
    type: "start",
    setup: { ruleSet: 2, names: ["Ann", "Ben"], games: 1 },
  });
  while (state.game!.currentSeat !== null) {
    const game = state.game!;
    const move = chooseTurnAction(
      game.sheets[game.currentSeat!],
      game.dice ?? [1, 1, 1, 1, 1],
      game.rollsUsed,
    );
    if (move.action === "score") state = practiceReducer(state, { type: "score", box: move.box });
    else {
      state = practiceReducer(state, { type: "keep", keepMask: move.keepMask });
      state = practiceReducer(state, { type: "roll", random: keccak256(toHex(`end:${n++}`)) });
    }
  }
  return state;
}

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <AnnouncerProvider>
        <MemoryRouter initialEntries={["/practice"]}>
          <PracticePage />
        </MemoryRouter>
      </AnnouncerProvider>
    </QueryClientProvider>,
  );
}

const diceValues = () =>
  [0, 1, 2, 3, 4].map((i) => screen.getByTestId(`die-${i}`).getAttribute("data-value"));
const liveRegion = () => screen.getByTestId("live-region");

beforeEach(() => {
  localStorage.clear();
  // Reduced motion: the dice show their values at once (the tumble is for show only).
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.includes("reduce"),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Serious or critical axe findings (contrast is checked in the browser, not in jsdom). */
async function seriousViolations(container: HTMLElement) {
  const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

async function startSession(user: ReturnType<typeof userEvent.setup>, firstName = "Ann") {
  renderPage();
  const name = screen.getByLabelText("Player 1 name");
  await user.clear(name);
  await user.type(name, firstName);
  await user.click(screen.getByRole("radio", { name: "Yatzy" }));
  await user.selectOptions(screen.getByLabelText("Games in the match"), "2");
  await user.click(screen.getByRole("button", { name: "Start practising" }));
}

describe("PracticePage", () => {
  it("plays a turn from the keyboard: roll, keep, re-roll, choose a box, next player", async () => {
    const user = userEvent.setup();
    await startSession(user);
    expect(screen.getByText(/Ann's turn: round 1 of 15, no rolls yet/)).toBeTruthy();

    await user.keyboard("r");
    await waitFor(() => expect(diceValues().every((v) => v !== "")).toBe(true));
    const first = diceValues();

    await user.keyboard("1");
    expect(screen.getByTestId("die-0").getAttribute("aria-pressed")).toBe("true");
    await waitFor(() => expect(liveRegion().textContent).toMatch(/Die 1 \(\d\) kept\./));

    await user.keyboard("r");
    await waitFor(() =>
      expect(screen.getByText(/Ann's turn: round 1 of 15, roll 2 of 3/)).toBeTruthy(),
    );
    expect(diceValues()[0]).toBe(first[0]);

    await user.keyboard("d");
    await waitFor(() =>
      expect(liveRegion().textContent).toMatch(
        /Dice: \d, \d, \d, \d, \d\. Roll 2 of 3\. Keeping die 1\./,
      ),
    );

    await user.keyboard("{ArrowDown}");
    const focused = document.activeElement as HTMLElement;
    expect(focused.getAttribute("data-testid")).toBe("box-0");
    await user.keyboard("{Enter}");

    await waitFor(() => expect(screen.getByText(/Player 2's turn: round 1 of 15/)).toBeTruthy());
    const sheet = screen.getByRole("table", { name: "Score sheets" });
    const onesRow = within(sheet).getByRole("rowheader", { name: /^Ones/ }).closest("tr")!;
    expect(onesRow.querySelectorAll("td")[0].textContent).toMatch(/^\d+$/);
    await waitFor(() => expect(liveRegion().textContent).toMatch(/Ann scored \d+ in Ones\./));
  });

  it("keeps the session across a reload", async () => {
    const user = userEvent.setup();
    await startSession(user, "Bea");
    await user.keyboard("r");
    await waitFor(() => expect(diceValues().every((v) => v !== "")).toBe(true));
    const dice = diceValues();
    expect(localStorage.getItem(PRACTICE_STORAGE_KEY)).toContain("Bea");

    cleanup();
    renderPage();
    expect(screen.getByText(/Bea's turn: round 1 of 15, roll 1 of 3/)).toBeTruthy();
    expect(diceValues()).toEqual(dice);
  });

  it("gives a hint with H", async () => {
    const user = userEvent.setup();
    await startSession(user);
    await user.keyboard("h");
    expect(screen.getByTestId("hint").textContent).toBe("Hint: roll all five dice.");
    await user.keyboard("r");
    await user.keyboard("h");
    await waitFor(() =>
      expect(screen.getByTestId("hint").textContent).toMatch(/^Hint: (score|keep|re-roll)/),
    );
  });

  it("gives the coach's exact hint: the best keep and each option's expected final score", async () => {
    setCoachPort(inProcessCoach);
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole("radio", { name: "Yazty" }));
    await user.click(screen.getByRole("button", { name: "Start practising" }));
    await user.keyboard("r");
    await waitFor(() => expect(diceValues().every((v) => v !== "")).toBe(true));
    await user.keyboard("h");
    const options = await screen.findByTestId("coach-options", {}, { timeout: 5000 });

    const dice = diceValues().map(Number);
    const best = adviseKeep(buildTable(2), newSheet(2), dice, 1)[0];
    const text = screen.getByTestId("hint-text").textContent!;
    expect(text).toMatch(/^Hint: (keep|re-roll|score)/);
    expect(text).toContain(`Expected final score ${best.expected.toFixed(1)}.`);
    // The coach's words are what is read out.
    await waitFor(() => expect(liveRegion().textContent).toContain(text));
    const rows = within(options).getAllByRole("row").slice(1);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0].textContent).toContain(best.expected.toFixed(1));
    expect(rows[0].textContent).toContain("best");
    // Options within core's tie margin of the best read "best" too (3-4-5-6 can tie two
    // ways); every other row names the points it gives up, and at least one does.
    const ties = rows.filter((r) => r.classList.contains("is-best"));
    for (const r of ties) expect(r.textContent).toMatch(/best$/);
    const worse = rows.filter((r) => !r.classList.contains("is-best"));
    expect(worse.length).toBeGreaterThan(0);
    for (const r of worse) expect(r.textContent).toMatch(/−\d+\.\d$/);
    expect(screen.getByTestId("coach-objective").textContent).toMatch(
      /expected score of your own sheet/,
    );
    setCoachPort(() => {
      throw new Error("no worker in this test");
    });
  });

  it("lets a coach bot play its seat", async () => {
    setCoachPort(inProcessCoach);
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole("radio", { name: "2 players" }));
    await user.selectOptions(screen.getByLabelText("Player 2 is played by"), "coach");
    await user.click(screen.getByRole("radio", { name: "Yazty" }));
    await user.selectOptions(screen.getByLabelText("Games in the match"), "1");
    await user.click(screen.getByRole("button", { name: "Start practising" }));

    // Player 1 rolls once and scores; the bot then plays a whole turn by itself.
    await user.keyboard("r");
    await waitFor(() => expect(diceValues().every((v) => v !== "")).toBe(true));
    await user.keyboard("{ArrowDown}{Enter}");
    await waitFor(() => expect(screen.getByText(/Player 2's turn: round 1 of 13/)).toBeTruthy());
    expect(screen.queryByRole("button", { name: /^Hint/ })).toBeNull();
    await waitFor(() => expect(screen.getByText(/Player 1's turn: round 2 of 13/)).toBeTruthy(), {
      timeout: 8000,
    });
    const log = screen.getByRole("region", { name: "Turn log" });
    expect(log.textContent).toMatch(/Player 2 scored \d+ in /);
    setCoachPort(() => {
      throw new Error("no worker in this test");
    });
  }, 15_000);

  it("analyses a finished game from its end screen", async () => {
    setCoachPort(inProcessCoach);
    localStorage.setItem(PRACTICE_STORAGE_KEY, JSON.stringify(finishedYaztyGame()));
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole("button", { name: "Analyse this game" }));
    const summary = await screen.findByTestId("coach-summary", {}, { timeout: 5000 });
    const rows = within(summary).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["Ann", "Ben"]);
    expect(screen.getByTestId("coach-chart").querySelectorAll("polyline")).toHaveLength(2);
    expect(screen.getByTestId("coach-objective").textContent).toMatch(/own sheet/);
    setCoachPort(() => {
      throw new Error("no worker in this test");
    });
  });

  it("ends a session with no empty box above the turn log", () => {
    const { container } = (() => {
      localStorage.setItem(PRACTICE_STORAGE_KEY, JSON.stringify(finishedYaztyGame()));
      return renderPage();
    })();
    expect(screen.getByRole("heading", { name: "Match over" })).toBeTruthy();
    expect(container.querySelector(".table__actions")).toBeNull();
    const log = screen.getByRole("region", { name: "Turn log" });
    expect(log.previousElementSibling?.textContent ?? "x").not.toBe("");
  });

  it("has labelled setup fields, headings and no serious accessibility violations", async () => {
    const user = userEvent.setup();
    const { container } = renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Practice" })).toBeTruthy();
    expect(await seriousViolations(container)).toEqual([]);

    await user.click(screen.getByLabelText("3 players"));
    expect(screen.getByLabelText("Player 3 name")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Start practising" }));
    await act(async () => {});
    expect(await seriousViolations(container)).toEqual([]);
  });
});

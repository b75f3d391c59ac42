// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { WirePlayer } from "@dicehall/core/indexer/indexerWire.ts";
import { PlayerPage } from "./PlayerPage.tsx";

const PLAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const answer = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock("@/chain/hall.ts", () => ({ useHall: () => ({ chainId: 31337 }) }));
vi.mock("@/chain/tokens.ts", () => ({ useTokenInfo: () => ({ symbol: "ETH", decimals: 18 }) }));
vi.mock("@/ui/Address.tsx", () => ({ AddressName: ({ address }: { address: string }) => address }));
vi.mock("@/ui/Identicon.tsx", () => ({ Identicon: () => null }));
vi.mock("@/data/indexer.ts", () => ({
  usePlayer: () => ({ indexer: { mode: "on", url: "x" }, data: answer.current, error: null }),
  useFinishedGames: () => ({ data: { games: [], total: 0 } }),
}));

const data: WirePlayer = {
  player: PLAYER,
  ratings: [
    {
      ruleSet: 0,
      ordinal: 4.25,
      mu: 29.1,
      sigma: 8.3,
      games: 2,
      history: [
        { gameId: "3", timestamp: 1_700_000_000, ordinal: 2.5, mu: 27.6, sigma: 8.1 },
        { gameId: "7", timestamp: 1_700_000_100, ordinal: 4.25, mu: 29.1, sigma: 8.3 },
      ],
    },
  ],
  games: 3,
  wins: 2,
  forfeits: 1,
  net: { "0x0000000000000000000000000000000000000000": "1500000000000000000" },
  staked: { "0x0000000000000000000000000000000000000000": "3000000000000000000" },
  accuracy: [
    {
      gameId: "3",
      ruleSet: 0,
      timestamp: 1_700_000_000,
      pointsLost: 12.34,
      decisions: 30,
      bestMoves: 20,
      mistake: null,
    },
    {
      gameId: "7",
      ruleSet: 0,
      timestamp: 1_700_000_100,
      pointsLost: 4.5,
      decisions: 28,
      bestMoves: 26,
      mistake: {
        turn: 4,
        rollsUsed: 3,
        dice: [6, 6, 6, 2, 1],
        played: { kind: "box", box: 12, points: 21 },
        best: { kind: "box", box: 5, points: 18 },
        loss: 3.2,
      },
    },
  ],
  mistakes: [],
};
data.mistakes = [data.accuracy[1]];

function renderPage(address: string) {
  return render(
    <MemoryRouter initialEntries={[`/players/${address}`]}>
      <Routes>
        <Route path="/players/:address" element={<PlayerPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("PlayerPage", () => {
  it("shows the record, the rating and its chart, accuracy as a chart and a table, the mistakes", async () => {
    answer.current = data;
    renderPage(PLAYER.toLowerCase());
    expect(screen.getByTestId("player-games").textContent).toBe("3");
    expect(screen.getByTestId("player-wins").textContent).toBe("2");
    expect(screen.getByText("+1.5 ETH")).toBeTruthy();
    // The hall's net, not the wallet's: the page says what is not in it.
    expect(screen.getByTestId("player-net-note").textContent).toMatch(
      /randomness fees of rolls and the gas of every transaction are not in it/,
    );
    const ratings = within(screen.getByTestId("player-ratings")).getAllByRole("row");
    expect(ratings[1].textContent).toContain("4.3");
    // The charts' code comes in a chunk of its own.
    expect(
      (await screen.findByTestId("player-rating-chart")).querySelectorAll("polyline"),
    ).toHaveLength(1);
    expect(
      (await screen.findByTestId("player-accuracy-chart")).querySelectorAll("circle"),
    ).toHaveLength(2);
    expect(screen.getByTestId("player-accuracy-summary").textContent).toContain(
      "8.4 expected points lost per game",
    );
    // The chart's numbers, newest first, each game linking to its analysis.
    const rows = within(screen.getByTestId("player-accuracy")).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[3].textContent)).toEqual(["4.5", "12.3"]);
    expect(within(rows[0]).getByRole("link").getAttribute("href")).toBe("/games/7/analysis");
    const mistake = within(await screen.findByTestId("player-mistakes")).getByRole("listitem");
    expect(mistake.textContent).toMatch(/Game #7, turn 5 after roll 3 \(6-6-6-2-1\)/);
    expect(mistake.textContent).toContain("−3.2");
  });

  it("lists the player's matches, each game with its replay and analysis", () => {
    answer.current = {
      ...data,
      // Each game of a match is rated on its own, named match.game.
      ratings: [
        {
          ...data.ratings[0],
          history: [
            ...data.ratings[0].history,
            { gameId: "12.2", timestamp: 1_700_000_200, ordinal: 4.5, mu: 29.3, sigma: 8.2 },
          ],
        },
      ],
      matches: [
        {
          gameId: "12",
          ruleSet: 0,
          token: "0x0000000000000000000000000000000000000000",
          timestamp: 1_700_000_000,
          games: 3,
          won: true,
          results: [
            { game: 1, total: "210", won: true },
            { game: 2, total: "180", won: false },
            { game: 3, total: "240", won: true },
          ],
        },
      ],
    };
    renderPage(PLAYER.toLowerCase());
    const match = within(screen.getByTestId("player-matches")).getAllByRole("listitem")[0];
    expect(match.textContent).toMatch(/^Match #12 \(Yahtzee, 3 games\): won · games won 2 of 3/);
    expect(
      within(match)
        .getAllByRole("link", { name: "replay" })
        .map((l) => l.getAttribute("href")),
    ).toEqual(["/games/12/replay?game=1", "/games/12/replay?game=2", "/games/12/replay?game=3"]);
    expect(within(match).getAllByRole("link", { name: "analysis" })[1].getAttribute("href")).toBe(
      "/games/12/analysis?game=2",
    );
    expect(screen.getByRole("link", { name: "#12.2" }).getAttribute("href")).toBe(
      "/games/12/replay?game=2",
    );
  });

  it("says so for what is not an address", () => {
    renderPage("bob");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("No such player");
  });
});

describe("PlayerPage while it is read", () => {
  it("holds the record's, the rating table's and the chart's places, then shows the page in them", async () => {
    answer.current = undefined;
    const view = renderPage(PLAYER);
    const loading = screen.getByTestId("player-loading");
    expect(loading.getAttribute("role")).toBe("status");
    expect(loading.textContent).toContain("Reading this player's games…");
    // The same facts, the rating table's same header and a box for the chart.
    expect([...loading.querySelectorAll("dt")].map((d) => d.textContent)).toEqual([
      "Games",
      "Won",
      "Forfeited",
      "Net result",
    ]);
    expect([...loading.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual([
      "Rule set",
      "Rating",
      "Rated games",
      "Skill (μ ± σ)",
    ]);
    expect(screen.getByTestId("player-chart-loading").querySelector(".skeleton")).not.toBeNull();

    answer.current = data;
    view.rerender(
      <MemoryRouter initialEntries={[`/players/${PLAYER}`]}>
        <Routes>
          <Route path="/players/:address" element={<PlayerPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.queryByTestId("player-loading")).toBeNull();
    const record = screen.getByTestId("player-record");
    expect([...record.querySelectorAll("dt")].map((d) => d.textContent)).toEqual([
      "Games",
      "Won",
      "Forfeited",
      "Net result",
    ]);
    expect(
      [...screen.getByTestId("player-ratings").querySelectorAll("thead th")].map(
        (th) => th.textContent,
      ),
    ).toEqual(["Rule set", "Rating", "Rated games", "Skill (μ ± σ)"]);
    expect(await screen.findByTestId("player-rating-chart")).toBeTruthy();
  });
});

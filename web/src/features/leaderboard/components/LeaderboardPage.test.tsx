// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { pad, toHex, type Address } from "viem";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HALL, log, NATIVE } from "@dicehall/core/test/testLogs.ts";
import { PLAYERS, scriptedGame } from "@dicehall/core/test/replay.testkit.ts";
import {
  foldLeaderboard,
  LEADERBOARD_EVENTS,
  sortLeaderboard,
  tokensIn,
  type LeaderboardLog,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import { periodStart } from "@dicehall/core/leaderboard/leaderboardPeriod.ts";
import {
  isSkillSortKey,
  parseLeaderboardQuery,
  rowToWire,
  type WireLeaderboard,
  type WireSkill,
  type WireStatus,
} from "@dicehall/core/indexer/indexerWire.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { LeaderboardPage } from "./LeaderboardPage.tsx";
import { LOADING_ROWS } from "./LeaderboardTable.tsx";

const ME = PLAYERS[0];
const USD: Address = "0x00000000000000000000000000000000000000D1";
const URL_ = "http://index.test";
const SCOPE = { chainId: 31337, hall: HALL };

// The chain scan, faked at the hook: the page gets these logs and the test counts the scans.
const chain = vi.hoisted(() => ({ logs: [] as unknown[], scans: 0 }));

vi.mock("wagmi", () => ({ useConnection: () => ({ address: ME, isConnected: true }) }));
vi.mock("@/chain/hall.ts", () => ({
  useHall: () => ({
    chainId: 31337,
    address: HALL,
    scope: SCOPE,
    chain: { nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 } },
    deployment: { deploymentBlock: 0n },
  }),
}));
vi.mock("@/data/leaderboardData.ts", async (importOriginal) => {
  const { useQuery } = await import("@tanstack/react-query");
  return {
    ...(await importOriginal<typeof import("@/data/leaderboardData.ts")>()),
    useLeaderboardLogs: ({ enabled = true }: { enabled?: boolean } = {}) =>
      useQuery({
        queryKey: ["test", "chainScan"],
        queryFn: async () => {
          chain.scans += 1;
          return { logs: chain.logs as LeaderboardLog[], head: 10_000n };
        },
        enabled,
      }),
    // Every test game is inside any period.
    usePeriodFromBlock: () => ({ data: 0n }),
  };
});

// ---------------------------------------------------------------- the games

const player = (i: number): Address => pad(toHex(0xbeef0000 + i), { size: 20 });

/** Three bot-played games (one forfeited, one of another rule set), a USD game, and 60 quick ones. */
function hallGames(): LeaderboardLog[] {
  const played = [
    scriptedGame(1n, 0, [PLAYERS[0], PLAYERS[1]]),
    scriptedGame(2n, 1, [PLAYERS[1], PLAYERS[2]], { forfeitAfterRound: 3, startBlock: 200n }),
    scriptedGame(3n, 0, [PLAYERS[2], PLAYERS[0]], { seed: "other", startBlock: 400n }),
  ].flatMap((g) => g.logs);
  const quick = [];
  quick.push(
    log(
      "GameCreated",
      {
        gameId: 4n,
        creator: PLAYERS[1],
        token: USD,
        bet: 5_000n,
        seats: 2,
        ruleSet: 0,
        isPrivate: false,
      },
      600,
    ),
    log(
      "GameFinished",
      {
        gameId: 4n,
        token: USD,
        ruleSet: 0,
        players: [PLAYERS[1], PLAYERS[0]],
        totals: [210n, 180n],
        winners: [PLAYERS[1]],
        payoutEach: 9_000n,
        houseFee: 1_000n,
      },
      601,
    ),
  );
  // Enough players for a second page: player i beats player i + 1, with varied totals.
  for (let i = 0; i < 60; i++) {
    const gameId = BigInt(10 + i);
    const [a, b] = [player(i), player(i + 1)];
    quick.push(
      log(
        "GameCreated",
        {
          gameId,
          creator: a,
          token: NATIVE,
          bet: 1_000n,
          seats: 2,
          ruleSet: i % 2,
          isPrivate: false,
        },
        1000 + i * 3,
      ),
      log(
        "Scored",
        { gameId, player: a, category: 11, points: 50n, bonus: i % 7 === 0 ? 100n : 0n },
        1001 + i * 3,
      ),
      log(
        "GameFinished",
        {
          gameId,
          token: NATIVE,
          ruleSet: i % 2,
          players: [a, b],
          totals: [BigInt(150 + ((i * 37) % 120)), BigInt(140 - (i % 9))],
          winners: [a],
          payoutEach: 2_000n,
          houseFee: 0n,
        },
        1002 + i * 3,
      ),
    );
  }
  return [...played, ...quick].filter((l) =>
    (LEADERBOARD_EVENTS as readonly string[]).includes(l.eventName),
  ) as LeaderboardLog[];
}

// ---------------------------------------------------------------- the fake index

const STATUS: WireStatus = {
  version: 1,
  chainId: 31337,
  hall: HALL,
  block: "2000",
  timestamp: 1_700_000_000,
  ready: true,
};

type Answer = { status?: number; body?: unknown; text?: string; error?: Error };
let requests: URL[] = [];

/** Serves the same games folded by the same code, as the indexer's API does. */
function leaderboardAnswer(url: URL): Answer {
  const q = parseLeaderboardQuery(url.searchParams);
  const logs = chain.logs as LeaderboardLog[];
  const rows = sortLeaderboard(foldLeaderboard(logs, { ruleSet: q.ruleSet, token: q.token }), {
    key: isSkillSortKey(q.sort) ? "wins" : q.sort,
    direction: q.direction,
    token: q.sortToken,
  });
  const mine = q.me ? rows.findIndex((r) => r.player.toLowerCase() === q.me) : -1;
  return {
    body: {
      rows: rows.slice(q.offset, q.offset + q.limit).map(rowToWire),
      total: rows.length,
      tokens: tokensIn(foldLeaderboard(logs)),
      me:
        mine < 0
          ? null
          : {
              rank: mine + 1,
              row: rowToWire(rows[mine]),
              skill: {
                rating: null,
                ratedGames: 0,
                analysedGames: 0,
                lossPerGame: null,
                bestShare: null,
              },
            },
    },
  };
}

function serve(routes: { status?: () => Answer; leaderboard?: (url: URL) => Answer } = {}) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    requests.push(url);
    const route: Answer =
      url.pathname === "/api/status"
        ? (routes.status ?? (() => ({ body: STATUS })))()
        : url.pathname === "/api/leaderboard"
          ? (routes.leaderboard ?? leaderboardAnswer)(url)
          : { status: 404, body: { error: "no such route" } };
    if (route.error) throw route.error;
    return new Response(route.text ?? JSON.stringify(route.body), {
      status: route.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const leaderboardRequests = () => requests.filter((u) => u.pathname === "/api/leaderboard");

// ---------------------------------------------------------------- rendering

let client: QueryClient;

function page(search = "") {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/leaderboard${search}`]}>
        <LeaderboardPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** What a player sees: the summary, every body row, the "show more" button. */
function seen() {
  return {
    summary: document.querySelector(".leaderboard__summary")?.textContent,
    rows: [...document.querySelectorAll("tbody tr")].map((tr) => tr.textContent),
    more: screen.queryByRole("button", { name: /^Show \d+ more$/ })?.textContent ?? null,
  };
}

const loaded = () =>
  waitFor(() =>
    expect(document.querySelector("tbody tr:not(.leaderboard__loading-row)")).not.toBeNull(),
  );
const notice = () => screen.getByRole("status").textContent;

beforeEach(() => {
  chain.logs = hallGames();
  chain.scans = 0;
  requests = [];
});

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("LeaderboardPage without a game index", () => {
  it("folds the chain's logs and never calls an index", async () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    const fetch = serve();
    page();
    await loaded();
    expect(fetch).not.toHaveBeenCalled();
    expect(chain.scans).toBe(1);
    expect(notice()).toBe("");
    // 50 rows, the gap and the viewer's row pinned below.
    expect(seen().rows).toHaveLength(52);
    expect(seen().more).toBe("Show 14 more");
  });
});

describe("LeaderboardPage while the board is read", () => {
  it("holds the table's place with rows of a row's height, then shows the board in their place", async () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    serve();
    page();
    // Before the chain scan answers: the summary line and the table with its header and
    // placeholder rows, so nothing below moves when the rows arrive.
    expect(screen.getByTestId("leaderboard-loading")).toBeTruthy();
    expect(document.querySelector(".leaderboard__summary")?.textContent).toBe(
      "Reading the hall's finished games…",
    );
    const placeholders = screen.getAllByTestId("leaderboard-loading-row");
    expect(placeholders).toHaveLength(LOADING_ROWS);
    // Each placeholder is one cell across every column, with a 24 px bar (a face's height): few
    // nodes to lay out at first and to drop when the rows come.
    const headers = screen.getAllByRole("columnheader");
    for (const row of placeholders) {
      const cells = row.querySelectorAll("td");
      expect(cells).toHaveLength(1);
      expect(cells[0].colSpan).toBe(headers.length);
      expect(row.querySelectorAll(".skeleton")).toHaveLength(1);
    }
    const table = document.querySelector(".leaderboard__table");
    const summary = document.querySelector(".leaderboard__summary");
    await loaded();
    expect(screen.queryByTestId("leaderboard-loading")).toBeNull();
    expect(screen.queryAllByTestId("leaderboard-loading-row")).toHaveLength(0);
    expect(seen().rows).toHaveLength(52);
    // The rows took the placeholders' place in the same table: nothing else was drawn afresh.
    expect(document.querySelector(".leaderboard__table")).toBe(table);
    expect(document.querySelector(".leaderboard__summary")).toBe(summary);
    expect(summary?.textContent).toMatch(/^\d+ players/);
  });
});

describe("LeaderboardPage of an empty hall", () => {
  it("says so in the table's place, its rows kept as high as the placeholders: nothing below moves", async () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    chain.logs = [];
    serve();
    page();
    const table = document.querySelector(".leaderboard__table");
    const placeholders = screen.getAllByTestId("leaderboard-loading-row").length;
    await waitFor(() => expect(seen().summary).toBe("No finished games yet."));
    // The same table, with as many rows of a row's height as the placeholders were.
    expect(document.querySelector(".leaderboard__table")).toBe(table);
    const rows = document.querySelectorAll("tbody tr.leaderboard__loading-row");
    expect(rows).toHaveLength(placeholders);
    expect(rows[0].textContent).toBe("Open a table and be the first on the board.");
    expect(within(rows[0] as HTMLElement).getByRole("link", { name: "Open a table" })).toBeTruthy();
    expect(screen.queryAllByTestId("leaderboard-loading-row")).toHaveLength(0);
    // No big paragraph comes in with the answer: the words are one line in the table.
    expect(document.querySelector(".leaderboard__ties")).toBeNull();
  });
});

describe("LeaderboardPage's skill columns", () => {
  it("shows the index's rating, points lost and best moves, sorts by them, and links the rating", async () => {
    vi.stubEnv("VITE_INDEXER_URL", URL_);
    serve({
      leaderboard: (url) => {
        const answer = leaderboardAnswer(url).body as WireLeaderboard;
        const skill: WireSkill[] = answer.rows.map((_, i) => ({
          rating: i === 1 ? null : 20 - i,
          ratedGames: 3,
          analysedGames: 2,
          lossPerGame: 10 + i / 4,
          bestShare: 0.5,
        }));
        const me = answer.me && {
          ...answer.me,
          skill: {
            rating: 7.5,
            ratedGames: 4,
            analysedGames: 4,
            lossPerGame: 33.3,
            bestShare: 0.25,
          },
        };
        return { body: { ...answer, skill, me } };
      },
    });
    page("?sort=rating");
    await loaded();
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toContain("Rating▼");
    expect(headers).toContain("Points lost per game↕");
    expect(headers).toContain("Best moves↕");
    const first = screen.getAllByTestId("leaderboard-rating")[0];
    expect(first.textContent).toBe("20.0");
    const player = leaderboardRequests()[0].searchParams;
    expect(player.get("sort")).toBe("rating");
    const row = first.closest("tr")!;
    expect(row.textContent).toContain("10.0");
    expect(row.textContent).toContain("50%");
    expect(first.getAttribute("href")).toMatch(/^\/players\/0x[0-9a-fA-F]{40}$/);
    // A player without a rating shows a dash, no link.
    expect(document.querySelectorAll("tbody tr")[1].textContent).toContain("–");
    // The viewer's row, pinned below the page, shows the viewer's own skill.
    const pinned = [...document.querySelectorAll("tbody tr")].at(-1)!;
    expect(document.querySelector(".leaderboard__gap")).not.toBeNull();
    expect(pinned.textContent).toContain("7.5");
    expect(pinned.textContent).toContain("33.3");
    expect(pinned.textContent).toContain("25%");
  });
});

describe("LeaderboardPage's rating under a filter", () => {
  const withSkill = () =>
    serve({
      leaderboard: (url) => {
        const answer = leaderboardAnswer(url).body as WireLeaderboard;
        const skill: WireSkill[] = answer.rows.map(() => ({
          rating: 12,
          ratedGames: 4,
          analysedGames: 1,
          lossPerGame: 10,
          bestShare: 0.5,
        }));
        return { body: { ...answer, skill, me: answer.me && { ...answer.me, skill: skill[0] } } };
      },
    });

  it("says that the rating counts every game when a token or a period is chosen", async () => {
    vi.stubEnv("VITE_INDEXER_URL", URL_);
    withSkill();
    page(`?token=${NATIVE}`);
    await loaded();
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toContain("Rating (all games)↕");
    expect(screen.getByTestId("leaderboard-rating-scope").textContent).toMatch(
      /rating counts every game of a player in the rule set, whatever the token or period/,
    );
  });

  it("says nothing more when no token or period is chosen", async () => {
    vi.stubEnv("VITE_INDEXER_URL", URL_);
    withSkill();
    page("?rules=0");
    await loaded();
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toContain("Rating↕");
    expect(screen.queryByTestId("leaderboard-rating-scope")).toBeNull();
  });
});

describe("LeaderboardPage's token filter", () => {
  it("names the chosen token by its symbol on the first paint, not by its address", () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    serve();
    page(`?token=${NATIVE}`);
    const filter = screen.getByLabelText("Token") as HTMLSelectElement;
    expect(filter.selectedOptions[0]?.textContent).toBe("ETH");
  });

  it("takes a token's symbol from the hall's settings when they are already read", () => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    serve();
    const settings = {
      tokens: [{ address: USD, symbol: "USD", decimals: 6, native: false, allowed: true }],
    };
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(queryKeys.settings(SCOPE), settings);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/leaderboard?token=${USD}`]}>
          <LeaderboardPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const filter = screen.getByLabelText("Token") as HTMLSelectElement;
    expect(filter.selectedOptions[0]?.textContent).toBe("USD");
  });
});

describe("LeaderboardPage with a game index", () => {
  beforeEach(() => vi.stubEnv("VITE_INDEXER_URL", ` ${URL_}/ `));

  it.each([
    ["", "all time, by wins"],
    ["?rules=1", "one rule set"],
    [`?token=${NATIVE}&sort=net`, "net winnings in one token"],
    [`?token=${USD}`, "another token"],
    ["?sort=player&dir=asc", "by address"],
    ["?sort=average&dir=asc", "by average, lowest first"],
  ])("shows the same table as the browser's fold (%s: %s)", async (search) => {
    vi.stubEnv("VITE_INDEXER_URL", "");
    serve();
    page(search);
    await loaded();
    const folded = seen();
    const moreFolded = folded.more;
    if (moreFolded) {
      fireEvent.click(screen.getByRole("button", { name: moreFolded }));
    }
    const foldedAll = seen();
    cleanup();
    chain.scans = 0;

    vi.stubEnv("VITE_INDEXER_URL", URL_);
    serve();
    page(search);
    await loaded();
    expect(seen()).toEqual(folded);
    if (moreFolded) {
      fireEvent.click(screen.getByRole("button", { name: moreFolded }));
      await waitFor(() => expect(seen().rows.length).toBe(foldedAll.rows.length));
    }
    expect(seen()).toEqual(foldedAll);
    expect(chain.scans).toBe(0);
    expect(notice()).toBe("");
    expect(screen.getByText(/from the hall's game index/)).toBeTruthy();
  });

  it("asks the index for the filters, the sort, the viewer and one page at a time", async () => {
    serve();
    page(`?rules=1&token=${NATIVE}&period=week&sort=net&dir=asc`);
    await loaded();
    const bucket = Math.floor(Date.now() / 300_000) * 300;
    const [first] = leaderboardRequests();
    expect(first.origin).toBe(URL_);
    expect(Object.fromEntries(first.searchParams)).toEqual({
      ruleSet: "1",
      token: NATIVE,
      since: String(periodStart("week", bucket)),
      sort: "net",
      dir: "asc",
      sortToken: NATIVE,
      offset: "0",
      limit: "50",
      me: ME.toLowerCase(),
    });
  });

  it("asks for the next page when the player shows more, and marks the viewer's rank", async () => {
    serve();
    page("?sort=player&dir=asc");
    await loaded();
    // The viewer's address sorts last: rank known from `me` although their row is not loaded.
    const { summary } = seen();
    const rank = Number(/you are #(\d+)/.exec(summary ?? "")?.[1]);
    expect(rank).toBeGreaterThan(50);
    expect(document.querySelector("#leaderboard-me")?.textContent).toContain(String(rank));
    fireEvent.click(screen.getByRole("button", { name: /^Show \d+ more$/ }));
    await waitFor(() => expect(leaderboardRequests()).toHaveLength(2));
    expect(leaderboardRequests()[1].searchParams.get("offset")).toBe("50");
    await waitFor(() => expect(seen().rows).toHaveLength(64));
    expect(seen().more).toBeNull();
  });

  it("refetches when the hall watcher invalidates the hall's logs", async () => {
    serve();
    page();
    await loaded();
    const before = leaderboardRequests().length;
    await client.invalidateQueries({ queryKey: queryKeys.hallLogs(SCOPE) });
    await waitFor(() => expect(leaderboardRequests().length).toBe(before + 1));
  });

  it("falls back to the chain scan with a notice when the index can't be reached", async () => {
    serve({ status: () => ({ error: new TypeError("Failed to fetch") }) });
    page();
    await loaded();
    expect(notice()).toBe(
      `The game index at ${URL_} can't be reached, so this page reads the chain directly; it may be slower.`,
    );
    expect(screen.getByRole("status").querySelector("p")).not.toBeNull();
    expect(chain.scans).toBe(1);
    const fromIndex = seen();
    cleanup();
    vi.stubEnv("VITE_INDEXER_URL", "");
    page();
    await loaded();
    expect(seen()).toEqual(fromIndex);
  });

  it("falls back when the index follows another hall, without asking it for the board", async () => {
    const other: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    serve({ status: () => ({ body: { ...STATUS, hall: other } }) });
    page();
    await loaded();
    expect(notice()).toBe(
      `The game index at ${URL_} follows another hall (${other} on chain 31337), so this page reads the chain directly; it may be slower.`,
    );
    expect(leaderboardRequests()).toHaveLength(0);
    expect(seen().rows).toHaveLength(52);
  });

  it("falls back when the index is on another chain", async () => {
    serve({ status: () => ({ body: { ...STATUS, chainId: 8453 } }) });
    page();
    await loaded();
    expect(notice()).toMatch(/follows another hall .* on chain 8453\)/);
  });

  it("falls back when the board request fails on the server or sends something unreadable", async () => {
    serve({ leaderboard: () => ({ status: 500, body: { error: "database is down" } }) });
    page();
    await loaded();
    expect(notice()).toBe(
      `The game index at ${URL_} failed to answer (database is down), so this page reads the chain directly; it may be slower.`,
    );
    expect(chain.scans).toBe(1);
    cleanup();

    serve({ leaderboard: () => ({ text: "<html>proxy error</html>" }) });
    page();
    await loaded();
    expect(notice()).toMatch(/sent an answer this app can't read, so this page reads the chain/);
  });

  it("reads the chain while the index is still catching up", async () => {
    serve({ status: () => ({ body: { ...STATUS, ready: false, block: "120" } }) });
    page();
    await loaded();
    expect(notice()).toMatch(/is still catching up with the chain \(at block 120\)/);
    expect(leaderboardRequests()).toHaveLength(0);
  });
});

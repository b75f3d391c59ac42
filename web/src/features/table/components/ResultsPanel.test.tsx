// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { initialGameState, type GameState } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB, NATIVE } from "@dicehall/core/test/testLogs.ts";
import { gameViewOf } from "@/test/gameViews.ts";
import type { useGame } from "../hooks/useGame.ts";
import { ResultsPanel } from "./ResultsPanel.tsx";

const hall = vi.hoisted(() => ({ games: new Map<bigint, unknown>(), me: undefined as unknown }));
vi.mock("wagmi", () => ({ useConnection: () => ({ address: hall.me }) }));
vi.mock("@/chain/ens.ts", () => ({ useEnsName: () => null, useEnsAvatar: () => null }));
vi.mock("@/data/gameData.ts", () => ({ useHallGames: () => ({ games: hall.games }) }));
// The credit in the hall, as the page would show it: its heading and its note.
vi.mock("@/ui/Credits.tsx", () => ({
  Credits: ({ title, note }: { title: string; note: string }) => (
    <section aria-label={title}>
      <h2>{title}</h2>
      <p>{note}</p>
    </section>
  ),
}));

afterEach(() => {
  cleanup();
  hall.games.clear();
});

const ETH = { symbol: "ETH", decimals: 18 };
const BET = 10n ** 15n;

function finished(): GameState {
  return {
    ...initialGameState(5n),
    status: "finished",
    creator: ALICE,
    token: NATIVE,
    bet: BET,
    seats: 2,
    ruleSet: 0,
    players: [ALICE, BOB],
    result: {
      players: [ALICE, BOB],
      totals: [210n, 180n],
      winners: [ALICE],
      payoutEach: 1_500_000_000_000_000n,
      houseFee: 500_000_000_000_000n,
    },
  };
}

function renderAs(me: Address) {
  hall.me = me;
  const name = (a: Address) =>
    a.toLowerCase() === me.toLowerCase() ? "You" : a === ALICE ? "Alice" : "Bob";
  const game = {
    state: finished(),
    view: gameViewOf({ status: 3 }),
    me,
    token: ETH,
    words: { name, amount: (v: bigint) => `${v} wei` },
  } as unknown as ReturnType<typeof useGame>;
  return render(
    <MemoryRouter>
      <ResultsPanel game={game} gameId={5n} />
    </MemoryRouter>,
  );
}

describe("ResultsPanel", () => {
  it("shows each player in the standings by face, with the full address and their page", () => {
    const { container } = renderAs(BOB);
    const standings = container.querySelector<HTMLElement>(".standings")!;
    const faces = within(standings).getAllByRole("button", { name: /full address/i });
    expect(faces.map((f) => f.getAttribute("aria-label"))).toEqual([
      "Full address of 0x7099…79C8",
      "Your full address",
    ]);
    expect(within(standings).getByRole("link", { name: "You" }).getAttribute("href")).toBe(
      `/players/${BOB}`,
    );
  });

  it("puts a space after the house fee", () => {
    renderAs(BOB);
    expect(screen.getByTestId("pot-line").textContent).toBe(
      "Pot 0.002 ETH, house fee 0.0005 ETH; the winner gets 0.0015 ETH.",
    );
  });

  it("a loser's credit is their credit in the hall, not winnings", () => {
    renderAs(BOB);
    expect(screen.getByRole("heading", { name: "Your credit in the hall" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Your winnings" })).toBeNull();
    expect(screen.getByText(/^No winnings from this game: roll fees you paid in/)).toBeTruthy();
  });

  it("a winner's credit holds their winnings", () => {
    renderAs(ALICE);
    expect(screen.getByRole("heading", { name: "Your winnings" })).toBeTruthy();
  });

  it("offers a rematch to every player while none is open", () => {
    for (const me of [ALICE, BOB]) {
      renderAs(me);
      expect(screen.getByRole("link", { name: "Rematch" }).getAttribute("href")).toBe(
        "/games/new?rematch=5",
      );
      cleanup();
    }
  });

  it("shows the invited player the rematch another player opened, with a way to join", () => {
    const lobby: GameState = {
      ...initialGameState(9n),
      status: "open",
      creator: ALICE,
      token: NATIVE,
      bet: BET,
      seats: 2,
      ruleSet: 0,
      isPrivate: true,
      invitees: [BOB],
      players: [ALICE],
    };
    hall.games.set(5n, finished());
    hall.games.set(9n, lobby);
    renderAs(BOB);
    expect(screen.getByTestId("rematch-offer").textContent).toBe(
      "0x7099…79C8 wants a rematch: game #9, same table.",
    );
    expect(screen.getByRole("link", { name: "Join the rematch" }).getAttribute("href")).toBe(
      "/games/9",
    );
    expect(screen.queryByRole("link", { name: "Rematch" })).toBeNull();
    cleanup();
    // Its creator sees that it is open, not a second button to open another.
    renderAs(ALICE);
    expect(screen.getByTestId("rematch-offer").textContent).toMatch(
      /^You opened the rematch, game #9/,
    );
    expect(screen.queryByRole("link", { name: /Rematch|Join the rematch/ })).toBeNull();
  });
});

// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { initialGameState, type GameState } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB, NATIVE } from "@dicehall/core/test/testLogs.ts";
import { RematchNotice } from "./RematchNotice.tsx";

const hall = vi.hoisted(() => ({ games: new Map<bigint, unknown>(), me: undefined as unknown }));
vi.mock("wagmi", () => ({ useConnection: () => ({ address: hall.me }) }));
vi.mock("@/chain/ens.ts", () => ({ useEnsName: () => null, useEnsAvatar: () => null }));
vi.mock("@/data/gameData.ts", () => ({ useHallGames: () => ({ games: hall.games }) }));

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const table = { token: NATIVE, bet: 1_000n, seats: 2, ruleSet: 0 } as const;
const finished: GameState = {
  ...initialGameState(5n),
  ...table,
  status: "finished",
  creator: ALICE,
  players: [ALICE, BOB],
  result: { players: [ALICE, BOB], totals: [1n, 2n], winners: [BOB], payoutEach: 0n, houseFee: 0n },
};
const lobby: GameState = {
  ...initialGameState(9n),
  ...table,
  status: "open",
  creator: BOB,
  isPrivate: true,
  invitees: [ALICE],
  players: [BOB],
};
hall.games.set(5n, finished);
hall.games.set(9n, lobby);

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <RematchNotice />
    </MemoryRouter>,
  );

describe("RematchNotice", () => {
  it("calls the invited player to the rematch from any page, until dismissed", async () => {
    hall.me = ALICE;
    renderAt("/leaderboard");
    const notice = screen.getByRole("status", { name: "Rematch" });
    expect(notice.textContent).toMatch(/^0x3C44…93BC wants a rematch of game #5\./);
    // The host by face, with a link to their page.
    expect(screen.getByRole("link", { name: "0x3C44…93BC" }).getAttribute("href")).toBe(
      `/players/${BOB}`,
    );
    expect(screen.getByRole("link", { name: "Join game #9" }).getAttribute("href")).toBe(
      "/games/9",
    );
    await userEvent.click(screen.getByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("status", { name: "Rematch" })).toBeNull();
  });

  it("says nothing to its creator, to a stranger, or without a wallet", () => {
    for (const me of [BOB, "0x00000000000000000000000000000000000000cc", undefined]) {
      hall.me = me;
      renderAt("/games");
      expect(screen.queryByRole("status", { name: "Rematch" })).toBeNull();
      cleanup();
    }
  });

  it("leaves the lobby's own page and the end screen to say it themselves", () => {
    hall.me = ALICE;
    renderAt("/games/9");
    expect(screen.queryByRole("status", { name: "Rematch" })).toBeNull();
    cleanup();
    renderAt("/games/5");
    expect(screen.queryByRole("status", { name: "Rematch" })).toBeNull();
  });
});

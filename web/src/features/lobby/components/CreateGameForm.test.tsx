// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HallSettings } from "@/chain/settings.ts";
import { CreateGameForm } from "./CreateGameForm.tsx";

const ME: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TUSD: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

// The wallet, the chain and the create flow are stand-ins: the form's own words are under test.
vi.mock("wagmi", () => ({ useConnection: () => ({ address: ME }) }));
vi.mock("@/chain/hall.ts", () => ({
  useHall: () => ({
    chainId: 31337,
    scope: { chainId: 31337, hall: "0x00000000000000000000000000000000000000a1" },
    client: { request: () => new Promise(() => {}) },
    chain: { nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 } },
  }),
}));
vi.mock("@/chain/batch.ts", () => ({ useWalletBatches: () => false }));
const flow = vi.hoisted(() => ({
  needsApproval: true,
  create: (): Promise<bigint | null> => Promise.resolve(null),
}));
// One confirmation a game: the session's prices are stand-ins too.
const session = vi.hoisted(() => ({
  offer: {
    needs: {
      rolls: 37,
      feeDeposit: 8_438_000_000_000_000n,
      keyGas: 625_000_000_000_000n,
      maxFeePerGas: 1_250_000_000n,
      expected: {
        fees: 740_000_000_000_000n,
        gas: 7_350_000_000_000_000n,
        total: 8_090_000_000_000_000n,
      },
    },
    expiresAt: 1_800_000_000,
    value: 9_063_000_000_000_000n,
  } as unknown,
  passed: [] as unknown[],
  drafts: [] as unknown[],
  // 1 gwei gas, a 0.00002 ETH roll fee: a 13-box game's fees and gas (core gameCost).
  prices: { gasPrice: 1_000_000_000n, rollFee: 20_000_000_000_000n },
}));
vi.mock("@/chain/sessionHooks.ts", () => ({
  useSessionOffer: () => session.offer,
  useSessionPrices: () => session.prices,
}));
vi.mock("../hooks/useCreateGame.ts", () => ({
  useCreateGame: (draft: unknown, _ctx: unknown, offer: unknown) => (
    session.passed.push(offer),
    session.drafts.push(draft),
    {
      create: () => flow.create(),
      step: "approve",
      payment: { needsApproval: flow.needsApproval, approveTx: { phase: "idle" } },
      createTx: { phase: "idle" },
      busy: false,
      error: null,
    }
  ),
}));

const settings: HallSettings = {
  joinWindow: { min: 60, max: 7 * 86_400 },
  moveTimeout: { min: 60, max: 7 * 86_400 },
  houseFeeBps: 0,
  entropyTimeout: 300,
  tokens: [
    {
      address: TUSD,
      symbol: "TUSD",
      decimals: 6,
      native: false,
      allowed: true,
      minBet: 1_000_000n,
      maxBet: 1_000_000_000n,
    },
  ],
};

function form() {
  const ui = (
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <CreateGameForm settings={settings} prefill={null} />
      </MemoryRouter>
    </QueryClientProvider>
  );
  const view = render(ui);
  return { ...view, again: () => view.rerender(ui) };
}

afterEach(() => {
  cleanup();
  flow.needsApproval = true;
  session.passed = [];
  session.drafts = [];
});

describe("CreateGameForm", () => {
  it("offers a match of 1 to 10 games, one game by default, paid once for the whole match", () => {
    form();
    const games = screen.getByLabelText("Games in the match") as HTMLSelectElement;
    expect(games.value).toBe("1");
    expect([...games.options].map((o) => o.textContent)).toEqual([
      "1 game",
      ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `${n} games`),
    ]);
    expect(screen.getByTestId("create-pays").textContent).not.toMatch(/match/);
    fireEvent.change(games, { target: { value: "5" } });
    expect(screen.getByTestId("create-pays").textContent).toMatch(
      /now \(the bet of 1 TUSD, fees and gas\) for the whole match of 5 games and hold seat 1/,
    );
    expect(session.drafts.at(-1)).toMatchObject({ games: 5 });
  });

  it("plays with one confirmation by default and shows what goes in before the wallet opens", () => {
    form();
    const oneConfirmation = screen.getByRole("radio", { name: "Play with one confirmation" });
    expect((oneConfirmation as HTMLInputElement).checked).toBe(true);
    const summary = screen.getByTestId("session-summary").textContent ?? "";
    expect(summary).toMatch(/the bet: 1 TUSD/);
    // Not "into your credit": the coin is set aside in the hall for the key (issue 43).
    expect(summary).not.toMatch(/credit/);
    expect(summary).toMatch(
      /set aside in the hall for the session key's roll fees and gas: 0\.008438 ETH \(sized for about 37 rolls\)/,
    );
    expect(summary).toMatch(/held by the key itself: 0\.000625 ETH/);
    // What the wallet asks, the same on the button and in the sentences; what comes back.
    expect(summary).toMatch(
      /Your wallet asks twice \(approve, then open the table\), for 1 TUSD \+ 0\.009063 ETH/,
    );
    expect(screen.getByTestId("session-comes-back").textContent).toMatch(
      /What comes back to your wallet when the game ends: your winnings, and whatever of the 0\.008438 ETH set aside the key did not spend/,
    );
    expect(screen.getByTestId("create-pays").textContent).toMatch(
      /^You pay 1 TUSD \+ 0\.009063 ETH now \(the bet of 1 TUSD, fees and gas\)/,
    );
    expect(screen.getByRole("button", { name: /open the table/i }).textContent).toBe(
      "Approve TUSD and open the table for 1 TUSD + 0.009063 ETH",
    );
    expect(session.passed.at(-1)).toBe(session.offer);
  });

  it("shows a game's fees and gas at today's prices beside the bet, either way one plays", () => {
    form();
    const cost = () => screen.getByTestId("game-cost").textContent;
    // Expected: 37 rolls' fees; at worst 42 rolls' fees, the gas of 42 rolls, 13 scores, the
    // key's refuels and a claim at 1 gwei.
    expect(cost()).toMatch(
      /about 0\.00809 ETH \(0\.00074 ETH of fees, 0\.00735 ETH of gas\), and up to 0\.00905 ETH \(0\.00084 ETH of fees, 0\.00821 ETH of gas if every turn takes three rolls\)/,
    );
    fireEvent.click(screen.getByRole("radio", { name: "Sign every move" }));
    expect(cost()).toMatch(/up to 0\.00905 ETH/);
    expect(cost()).not.toMatch(/about/);
    // The bet is in TUSD: no comparison with the coin's costs.
    expect(screen.queryByTestId("bet-below-cost")).toBeNull();
    // Without a session the wallet asks for the bet alone.
    expect(screen.getByTestId("create-pays").textContent).toMatch(/^You pay 1 TUSD now and/);
  });

  it("signs every move when the player chooses so: no session is opened", () => {
    form();
    fireEvent.click(screen.getByRole("radio", { name: "Sign every move" }));
    expect(screen.queryByTestId("session-summary")).toBeNull();
    expect(screen.getByText(/Your wallet asks for every roll and every score/)).toBeTruthy();
    expect(session.passed.at(-1)).toBeNull();
  });

  it("puts “Fix the invitees marked below.” above the marked invitees", () => {
    form();
    fireEvent.change(screen.getByLabelText("Invite players (optional)"), {
      target: { value: "0x1234\n0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
    });
    const message = screen.getByText("Fix the invitees marked below.");
    const marks = screen.getByRole("list", { name: "" });
    expect(marks.querySelector(".is-bad")).not.toBeNull();
    expect(message.compareDocumentPosition(marks) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      screen.getByLabelText("Invite players (optional)").getAttribute("aria-describedby"),
    ).toContain(message.id);
  });

  it("keeps “Approve TUSD and open the table” on the button until both steps are done", async () => {
    let finish!: (id: bigint | null) => void;
    flow.create = () => new Promise((resolve) => (finish = resolve));
    const { again } = form();
    const button = () => screen.getByRole("button", { name: /open the table/i });
    const amount = " for 1 TUSD + 0.009063 ETH";
    expect(button().textContent).toBe(`Approve TUSD and open the table${amount}`);
    await act(async () => {
      fireEvent.click(button());
    });
    // The approval is in: the allowance now covers the bet while the table is being opened.
    flow.needsApproval = false;
    again();
    expect(button().textContent).toBe(`Approve TUSD and open the table${amount}`);
    await act(async () => finish(null));
    expect(button().textContent).toBe(`Open the table${amount}`);
  });

  it("moves the focus to a bet the hall would refuse, brings it into view, and shows no amount", async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const create = vi.fn(() => Promise.resolve(null));
    flow.create = create;
    form();
    const bet = screen.getByLabelText(/^Bet per seat/);
    // A valid bet: the summary names what the player pays.
    expect(screen.getByText(/You pay/).textContent).toMatch(/1 TUSD/);
    fireEvent.change(bet, { target: { value: "0.5" } });
    expect(screen.queryByText(/You pay/)).toBeNull();
    const submit = screen.getByRole("button", { name: /open the table/i });
    submit.focus();
    await act(async () => {
      fireEvent.click(submit);
    });
    expect(document.activeElement).toBe(bet);
    expect(scrolled).toEqual([bet]);
    expect(bet.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(/Bets in TUSD go from/)).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    // jsdom has no scrollIntoView of its own.
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  });
});

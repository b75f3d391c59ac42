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
vi.mock("@/chain/hall.ts", () => ({ useHall: () => null }));
const flow = vi.hoisted(() => ({
  needsApproval: true,
  create: (): Promise<bigint | null> => Promise.resolve(null),
}));
vi.mock("../hooks/useCreateGame.ts", () => ({
  useCreateGame: () => ({
    create: () => flow.create(),
    step: "approve",
    payment: { needsApproval: flow.needsApproval, approveTx: { phase: "idle" } },
    createTx: { phase: "idle" },
    busy: false,
    error: null,
  }),
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
});

describe("CreateGameForm", () => {
  it("puts “Fix the invitees marked below.” above the marked invitees", () => {
    form();
    fireEvent.change(screen.getByLabelText("Invite players (optional)"), {
      target: { value: "0x1234\n0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
    });
    const message = screen.getByText("Fix the invitees marked below.");
    const marks = screen.getByRole("list");
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
    expect(button().textContent).toBe("Approve TUSD and open the table");
    await act(async () => {
      fireEvent.click(button());
    });
    // The approval is in: the allowance now covers the bet while the table is being opened.
    flow.needsApproval = false;
    again();
    expect(button().textContent).toBe("Approve TUSD and open the table");
    await act(async () => finish(null));
    expect(button().textContent).toBe("Open the table");
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

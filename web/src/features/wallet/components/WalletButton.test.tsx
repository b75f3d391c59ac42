// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatBalance, formatTokenAmount } from "@dicehall/core/game/format.ts";
import { WalletButton } from "./WalletButton.tsx";

const ME: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TUSD: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const NATIVE: Address = "0x0000000000000000000000000000000000000000";
const wallet = vi.hoisted(() => ({ native: 2n * 10n ** 18n }));

// A connected wallet on a chain whose game #7 is played in TUSD; game #8 in the native coin.
vi.mock("wagmi", () => ({
  useConnection: () => ({ address: ME, isConnected: true }),
  useDisconnect: () => ({ mutate: () => {} }),
}));
vi.mock("@/chain/hall.ts", () => ({
  useHall: () => ({ chain: { nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 } } }),
}));
vi.mock("@/data/gameData.ts", () => ({
  useGameSnapshot: (gameId: bigint | null) => ({
    data:
      gameId === 7n || gameId === 8n
        ? { view: { config: { token: gameId === 7n ? TUSD : NATIVE } } }
        : undefined,
  }),
}));
vi.mock("@/chain/tokens.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/chain/tokens.ts")>()),
  useTokenBalance: (token: Address) => ({
    data: token.toLowerCase() === NATIVE ? wallet.native : 12_500_000n,
  }),
  useTokenInfo: (token: Address) =>
    token === TUSD ? { address: TUSD, symbol: "TUSD", decimals: 6, native: false } : undefined,
}));

function header(path: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <WalletButton />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole("button").textContent ?? "";
}

afterEach(() => {
  cleanup();
  wallet.native = 2n * 10n ** 18n;
});

describe("WalletButton", () => {
  it("shows the balance of the table's token beside the native coin's at a token table", () => {
    const chip = header("/games/7");
    expect(chip).toContain("2 ETH");
    expect(chip).toContain("12.5 TUSD");
    expect(screen.getByTestId("table-token-balance").textContent).toBe("12.5 TUSD");
  });

  it("rounds the balance as the join and create forms do (formatBalance)", () => {
    wallet.native = 9_999_985_312_345_678_901_234n;
    expect(header("/games")).toContain("9,999.9853 ETH");
    expect(formatBalance(wallet.native, { symbol: "ETH", decimals: 18 })).toBe("9,999.9853 ETH");
    expect(formatTokenAmount(wallet.native, { symbol: "ETH", decimals: 18 })).toBe(
      "9,999.9853 ETH",
    );
  });

  it("shows the native balance alone elsewhere and at a native-coin table", () => {
    expect(header("/games")).not.toContain("TUSD");
    cleanup();
    expect(header("/games/8")).not.toContain("TUSD");
  });
});

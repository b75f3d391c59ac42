// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_GAS_RESERVE } from "@dicehall/core/contract/session.ts";
import type { Hall } from "@/chain/hall.ts";
import type { PlayerSession } from "@/chain/sessionHooks.ts";
import { SessionStatus } from "./SessionStatus.tsx";

// The writes are stand-ins: what the panel asks for, and when, is under test.
const sent = vi.hoisted(() => ({ calls: [] as { functionName: string; value?: bigint }[] }));
vi.mock("@/chain/tx.ts", () => ({
  PHASE_TEXT: {},
  hallCall: (_address: Address, functionName: string, _args: unknown, value?: bigint) => ({
    functionName,
    value,
  }),
  useTx: () => ({
    run: (request: { functionName: string; value?: bigint }) => {
      sent.calls.push(request);
      return Promise.resolve(null);
    },
    busy: false,
    phase: "idle",
    error: null,
  }),
}));
vi.mock("@/chain/sessionHooks.ts", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  sessionGrant: () => ({ key: KEY.address, expiresAt: 1n, feeAllowance: 1n, keyGas: 1n }),
}));

const KEY = privateKeyToAccount(`0x${"33".repeat(32)}`);
const ME: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const GWEI = 1_000_000_000n;
const hall = {
  chainId: 31337,
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  chain: { nativeCurrency: { symbol: "ETH", decimals: 18, name: "Ether" } },
} as unknown as Hall;

function sessionWith(keyBalance: bigint, allowance = 10n ** 15n): PlayerSession {
  return {
    key: KEY,
    onChain: { key: KEY.address, expiresAt: 2_000_000_000, feeAllowance: allowance, active: true },
    keyBalance,
    signer: { by: "key", key: KEY.address, until: 2_000_000_000 },
    signingKey: KEY,
    loading: false,
  };
}

function panel(session: PlayerSession, betweenMoves = true) {
  return render(
    <SessionStatus
      hall={hall}
      me={ME}
      gameId={7n}
      session={session}
      credit={10n ** 15n}
      rollFee={10n ** 12n}
      gasPrice={GWEI}
      boxesLeft={10}
      betweenMoves={betweenMoves}
      seats={2}
      moveTimeout={300}
      nowSec={1_000_000}
    />,
  );
}

afterEach(() => {
  cleanup();
  sent.calls = [];
});

describe("SessionStatus", () => {
  it("says the key signs, until when, and says what revoking costs before it revokes", async () => {
    panel(sessionWith(10n ** 18n));
    expect(screen.getByText(/^Moves signed by this browser's session key, until /)).toBeTruthy();
    // The fees set aside for the key are not in the credit: the table says where they are.
    expect(screen.getByTestId("session-fees").textContent).toMatch(
      /^Set aside in the hall for the key's roll fees and gas: 0\.001 ETH \(not in your credit;/,
    );
    expect(screen.queryByRole("button", { name: "Top up the session key" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Revoke" }));
    // Nothing is sent yet: first the cost, in words.
    expect(sent.calls).toEqual([]);
    expect(screen.getByTestId("revoke-warning").textContent).toMatch(
      /Every move you have left in this game then asks your wallet for a confirmation: up to 40 more \(10 turns, up to three rolls and a box each\)/,
    );
    fireEvent.click(screen.getByRole("button", { name: "Keep the key" }));
    expect(screen.queryByTestId("revoke-warning")).toBeNull();
    expect(sent.calls).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Revoke" }));
    fireEvent.click(screen.getByRole("button", { name: "Revoke the key" }));
    await waitFor(() =>
      expect(sent.calls).toEqual([{ functionName: "revokeSession", value: undefined }]),
    );
  });

  it("offers the way back to one confirmation once the wallet signs (revoked or ended), never over another browser's key", async () => {
    const revoked = {
      ...sessionWith(0n),
      key: null,
      signingKey: null,
      onChain: undefined,
      signer: { by: "wallet", why: "none" } as const,
    };
    // A player who signed every move from the start may switch to a key.
    const first = panel(revoked);
    expect(screen.getByRole("button", { name: "Play with one confirmation" })).toBeTruthy();
    first.unmount();
    // This browser played the game with a key (revoked since): "again".
    localStorage.setItem(`dicehall.keyedGames.31337.${ME.toLowerCase()}`, "7");
    const { unmount } = panel(revoked);
    expect(screen.getByTestId("way-back").textContent).toMatch(
      /A new session key for the 10 turns you have left: your wallet asks once/,
    );
    fireEvent.click(screen.getByRole("button", { name: "Play with one confirmation again" }));
    await waitFor(() => expect(sent.calls).toHaveLength(1));
    expect(sent.calls[0].functionName).toBe("openSession");
    expect(sent.calls[0].value).toBeGreaterThan(0n);
    unmount();
    panel({ ...revoked, signer: { by: "wallet", why: "ended" } });
    expect(screen.getByText("Moves signed by your wallet: your key's session ended.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Play with one confirmation again" })).toBeTruthy();
    cleanup();
    panel({ ...revoked, signer: { by: "wallet", why: "elsewhere" } });
    expect(screen.queryByRole("button", { name: "Play with one confirmation again" })).toBeNull();
    cleanup();
    // A roll of mine is out: nothing is offered until it is answered.
    panel(revoked, false);
    expect(screen.queryByTestId("way-back")).toBeNull();
    localStorage.clear();
  });

  it("offers a top-up in one confirmation when the key runs low, between moves only", async () => {
    // The slot counts as the key's gas (the key refuels from it): an empty slot and a key at its reserve.
    const low = sessionWith(KEY_GAS_RESERVE * GWEI, 0n);
    const { unmount } = panel(low, false);
    // A roll is out: no confirmation is asked for now.
    expect(screen.queryByRole("button", { name: "Top up the session key" })).toBeNull();
    unmount();
    panel(low, true);
    expect(screen.getByText(/The session key is running out of gas\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Top up the session key" }));
    await waitFor(() => expect(sent.calls).toHaveLength(1));
    expect(sent.calls[0].functionName).toBe("openSession");
    expect(sent.calls[0].value).toBeGreaterThan(0n);
  });

  it("names a spent allowance", () => {
    panel(sessionWith(10n ** 18n, 0n));
    expect(screen.getByText(/nearly spent the roll fees it may spend/)).toBeTruthy();
  });

  it("says why the wallet signs in a browser without the key", () => {
    panel({
      ...sessionWith(10n ** 18n),
      key: null,
      signingKey: null,
      signer: { by: "wallet", why: "elsewhere" },
    });
    expect(
      screen.getByText(/made in another browser, and only that browser holds it\./),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Revoke" })).toBeNull();
  });
});

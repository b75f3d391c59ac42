// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { gameCost, gameSessionNeeds } from "@dicehall/core/contract/session.ts";
import type { SessionOffer } from "@/chain/sessionHooks.ts";
import { SessionChoice, walletAmount } from "./SessionChoice.tsx";

const ETH = { symbol: "ETH", decimals: 18 };
const TUSD = { symbol: "TUSD", decimals: 6 };
const GWEI = 1_000_000_000n;
const MILLI = 10n ** 15n;
// Issue 32's trial: a 0.001 ETH bet at 1 gwei.
const cost = gameCost(13, 2n * GWEI, GWEI);
const offer: SessionOffer = {
  needs: {
    rolls: 37,
    feeDeposit: 10n * MILLI,
    keyGas: 625_000n * GWEI,
    maxFeePerGas: 1_250_000_000n,
    expected: { fees: 74n * GWEI, gas: 7_350_000n * GWEI, total: 7_350_074n * GWEI },
  },
  expiresAt: 1_800_000_000,
  value: MILLI + 10n * MILLI + 625_000n * GWEI,
};

function choice(bet: bigint, token = ETH, oneConfirmation = true) {
  render(
    <SessionChoice
      oneConfirmation={oneConfirmation}
      onChange={() => {}}
      offer={oneConfirmation ? offer : null}
      token={token}
      bet={bet}
      native={ETH}
      available
      verb="join"
      cost={cost}
    />,
  );
}

afterEach(cleanup);

describe("SessionChoice", () => {
  it("says what the wallet asks for: the bet, the fees and the key's gas in one amount", () => {
    choice(MILLI);
    expect(screen.getByTestId("session-summary").textContent).toMatch(
      /Your wallet asks once, for 0\.011625 ETH:/,
    );
    expect(walletAmount(offer, MILLI, ETH, ETH)).toBe("0.011625 ETH");
    // A token bet goes beside the coin; without a key the wallet asks for the bet alone.
    expect(walletAmount({ ...offer, value: 10n * MILLI }, 5_000_000n, TUSD, ETH)).toBe(
      "5 TUSD + 0.01 ETH",
    );
    expect(walletAmount(null, MILLI, ETH, ETH)).toBe("0.001 ETH");
  });

  it("says where the coin goes: set aside in the hall for the key, a float in the key, the rest back at the end", () => {
    choice(MILLI);
    const summary = screen.getByTestId("session-summary").textContent ?? "";
    expect(summary).not.toMatch(/credit/);
    expect(summary).toMatch(
      /set aside in the hall for the session key's roll fees and gas: 0\.01 ETH \(sized for about 37 rolls\)/,
    );
    expect(summary).toMatch(/held by the key itself: 0\.000625 ETH, a couple of moves' gas/);
    expect(screen.getByTestId("session-comes-back").textContent).toMatch(
      /What comes back to your wallet when the game ends: your winnings, and whatever of the 0\.01 ETH set aside the key did not spend \(the hall's keeper sends it about 30 seconds after the end/,
    );
  });

  it("shows what a game is expected to cost beside the worst case", () => {
    choice(MILLI);
    expect(screen.getByTestId("game-cost").textContent).toMatch(
      /cost you about 0\.00735 ETH \(<0\.000001 ETH of fees, 0\.00735 ETH of gas\), and up to 0\.00821 ETH \(<0\.000001 ETH of fees, 0\.00821 ETH of gas if every turn takes three rolls\)/,
    );
    // The offer's expected cost is what core sizes a session by.
    expect(gameSessionNeeds(13, 2n * GWEI, GWEI).expected).toEqual(offer.needs.expected);
  });

  it("warns when the bet is smaller than a game's fees and gas at today's prices", () => {
    choice(MILLI);
    expect(screen.getByTestId("game-cost").textContent).toMatch(/up to 0\.00821 ETH/);
    expect(screen.getByTestId("bet-below-cost").textContent).toMatch(
      /Your bet of 0\.001 ETH is smaller than what a game's fees and gas can cost \(0\.00821 ETH\): even a win may leave you down\./,
    );
  });

  it("does not warn for a bet above the costs, nor for a token bet it cannot compare", () => {
    choice(10n * MILLI);
    expect(screen.queryByTestId("bet-below-cost")).toBeNull();
    cleanup();
    choice(1_000_000n, TUSD, false);
    expect(screen.getByTestId("game-cost")).toBeTruthy();
    expect(screen.queryByTestId("bet-below-cost")).toBeNull();
  });
});

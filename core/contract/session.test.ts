import { describe, expect, it } from "vitest";
import {
  KEY_GAS_PER_ROLL,
  KEY_GAS_RESERVE,
  MAX_SESSION_SECONDS,
  MIN_SESSION_SECONDS,
  SESSION_MARGIN_PERCENT,
  TRANSFER_GAS,
  gameCost,
  gameSessionNeeds,
  keyCanMove,
  leftoverGas,
  rollsForGame,
  sessionExpiry,
  sessionLowOn,
  sessionNeeds,
} from "./session.ts";

const GWEI = 1_000_000_000n;

describe("rollsForGame", () => {
  it("counts three rolls a turn, the order draw and two asks again", () => {
    expect(rollsForGame(13)).toBe(13 * 3 + 1 + 2);
    expect(rollsForGame(16)).toBe(16 * 3 + 3);
  });
});

describe("sessionNeeds", () => {
  it("puts every roll's fee into the credit, with the margin on top", () => {
    const needs = gameSessionNeeds(13, 1000n, GWEI);
    const fees = BigInt(rollsForGame(13)) * 1000n;
    expect(needs.feeDeposit).toBe(fees + (fees * SESSION_MARGIN_PERCENT) / 100n);
    expect(needs.rolls).toBe(42);
  });

  it("gives the key gas for every move at the price, and enough to send its last roll", () => {
    const needs = sessionNeeds({ rolls: 1, scores: 0, rollFee: 0n, gasPrice: 2n * GWEI });
    // One roll's gas plus the reserve a node wants to see before it takes a roll.
    expect(needs.keyGas).toBeGreaterThan((KEY_GAS_PER_ROLL + KEY_GAS_RESERVE) * 2n * GWEI);
    expect(needs.feeDeposit).toBe(0n);
  });

  it("sizes a match for every game: its rolls, scores and gas, one end", () => {
    const one = gameSessionNeeds(13, 1000n, GWEI);
    const five = gameSessionNeeds(13, 1000n, GWEI, 5);
    expect(five.rolls).toBe(5 * rollsForGame(13));
    expect(five.feeDeposit).toBe(one.feeDeposit * 5n);
    // Five games of moves, but the claim, payouts and reserve only once.
    expect(five.keyGas).toBeGreaterThan(one.keyGas * 4n);
    expect(five.keyGas).toBeLessThan(one.keyGas * 5n);
  });

  it("grows with the gas price and the fee", () => {
    const cheap = gameSessionNeeds(13, 10n, GWEI);
    const dear = gameSessionNeeds(13, 20n, 3n * GWEI);
    expect(dear.keyGas).toBe(cheap.keyGas * 3n);
    expect(dear.feeDeposit).toBe(cheap.feeDeposit * 2n);
  });
});

describe("gameCost", () => {
  it("is every roll's fee and every move's gas at today's prices, without the session's margin", () => {
    const cost = gameCost(13, 2n * GWEI, GWEI);
    expect(cost.fees).toBe(42n * 2n * GWEI);
    expect(cost.total).toBe(cost.fees + cost.gas);
    // Less than what a session puts in (that has a margin and a reserve on top), and more than the rolls' gas alone.
    const needs = gameSessionNeeds(13, 2n * GWEI, GWEI);
    expect(cost.fees).toBeLessThan(needs.feeDeposit);
    expect(cost.gas).toBeLessThan(needs.keyGas);
    expect(cost.gas).toBeGreaterThan(42n * KEY_GAS_PER_ROLL * GWEI);
  });

  it("a match of three games costs three games' fees and gas", () => {
    const one = gameCost(13, 2n * GWEI, GWEI);
    const match = gameCost(13, 2n * GWEI, GWEI, 3);
    expect(match).toEqual({ fees: one.fees * 3n, gas: one.gas * 3n, total: one.total * 3n });
  });

  it("at 1 gwei is several times a 0.001 ETH bet, as in issue 32's trial", () => {
    const cost = gameCost(13, 2n * GWEI, GWEI);
    const bet = 10n ** 15n;
    expect(cost.total).toBeGreaterThan(5n * bet);
  });
});

describe("sessionExpiry", () => {
  const base = { nowSec: 1_000_000, seats: 2, boxes: 13 };

  it("lasts the join window and every turn at the longest move time", () => {
    expect(sessionExpiry({ ...base, joinWindow: 900, moveTimeout: 300 })).toBe(
      1_000_000 + 900 + 2 * 13 * 300,
    );
  });

  it("lasts every game of a match", () => {
    expect(sessionExpiry({ ...base, joinWindow: 900, moveTimeout: 300, games: 3 })).toBe(
      1_000_000 + 900 + 3 * 2 * 13 * 300,
    );
  });

  it("is at least an hour and inside the contract's seven days", () => {
    expect(sessionExpiry({ ...base, joinWindow: 60, moveTimeout: 60 })).toBe(
      1_000_000 + MIN_SESSION_SECONDS,
    );
    const long = sessionExpiry({ ...base, joinWindow: 86_400, moveTimeout: 86_400 });
    expect(long).toBeLessThan(1_000_000 + MAX_SESSION_SECONDS);
    expect(long).toBeGreaterThan(1_000_000 + MAX_SESSION_SECONDS - 3_600);
  });
});

describe("sessionLowOn", () => {
  const enough = {
    keyBalance: 10n ** 18n,
    allowanceLeft: 1_000n,
    credit: 1_000n,
    rollFee: 10n,
    gasPrice: GWEI,
  };

  it("says nothing while the key can go on", () => {
    expect(sessionLowOn(enough)).toBeNull();
  });

  it("names what runs out first: gas, then the allowance, then the credit behind it", () => {
    expect(sessionLowOn({ ...enough, keyBalance: KEY_GAS_RESERVE * GWEI })).toBe("gas");
    expect(sessionLowOn({ ...enough, allowanceLeft: 29n })).toBe("allowance");
    expect(sessionLowOn({ ...enough, credit: 29n })).toBe("credit");
    expect(sessionLowOn({ ...enough, allowanceLeft: 30n, credit: 30n })).toBeNull();
  });
});

describe("leftoverGas", () => {
  it("leaves exactly the transfer's gas, so the key ends at zero", () => {
    expect(leftoverGas(10n ** 16n, GWEI)).toBe(10n ** 16n - TRANSFER_GAS * GWEI);
    expect(leftoverGas(TRANSFER_GAS * GWEI, GWEI)).toBe(0n);
    expect(leftoverGas(0n, GWEI)).toBe(0n);
  });
});

describe("keyCanMove", () => {
  const funds = {
    keyBalance: 10n ** 16n,
    allowanceLeft: 10n,
    credit: 10n,
    rollFee: 10n,
    gasPrice: GWEI,
  };

  it("lets the key roll while gas, allowance and credit cover one roll", () => {
    expect(keyCanMove("roll", funds)).toBe(true);
    expect(keyCanMove("roll", { ...funds, allowanceLeft: 9n })).toBe(false);
    expect(keyCanMove("roll", { ...funds, credit: 9n })).toBe(false);
    expect(keyCanMove("roll", { ...funds, keyBalance: 0n })).toBe(false);
  });

  it("lets it score or claim with no allowance left, but not without gas", () => {
    expect(keyCanMove("score", { ...funds, allowanceLeft: 0n, credit: 0n })).toBe(true);
    expect(keyCanMove("claim", { ...funds, keyBalance: 0n })).toBe(false);
  });
});

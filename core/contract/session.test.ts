import { describe, expect, it } from "vitest";
import { ROLL_GAS_HEADROOM } from "./gas.ts";
import {
  KEY_FLOAT_GAS,
  KEY_GAS_PER_ROLL,
  KEY_GAS_RESERVE,
  KEY_ROLL_GAS_LIMIT,
  MAX_SESSION_SECONDS,
  MIN_SESSION_SECONDS,
  REFUEL_GAS_LIMIT,
  TRANSFER_GAS,
  expectedRollsForGame,
  gameCost,
  gameSessionNeeds,
  keyCanMove,
  keyFloat,
  keyNeedsRefuel,
  leftoverGas,
  rollsForGame,
  sessionExpiry,
  sessionLowOn,
  sessionNeeds,
} from "./session.ts";

const GWEI = 1_000_000_000n;

describe("rollsForGame", () => {
  it("counts three rolls a turn, the order draw and two asks again at most", () => {
    expect(rollsForGame(13)).toBe(13 * 3 + 1 + 2);
    expect(rollsForGame(16)).toBe(16 * 3 + 3);
  });

  it("expects 2.75 rolls a turn and the order draw", () => {
    expect(expectedRollsForGame(13)).toBe(37);
    expect(expectedRollsForGame(16)).toBe(45);
  });
});

describe("the key's float", () => {
  it("is a roll's gas limit, one more roll and a refuel: 500 000 gas, under two rolls' limits", () => {
    expect(KEY_ROLL_GAS_LIMIT).toBe(KEY_GAS_PER_ROLL + ROLL_GAS_HEADROOM);
    expect(KEY_FLOAT_GAS).toBe(500_000n);
    expect(KEY_FLOAT_GAS).toBeGreaterThanOrEqual(KEY_ROLL_GAS_LIMIT + REFUEL_GAS_LIMIT);
    expect(KEY_FLOAT_GAS).toBeLessThan(2n * KEY_ROLL_GAS_LIMIT);
    expect(KEY_GAS_RESERVE).toBe(KEY_ROLL_GAS_LIMIT);
  });

  it("is priced at the session's max fee, in whole gwei as the hall keeps it", () => {
    // 1 gwei today: 1.25 gwei max fee, 500 000 gas of it.
    const needs = gameSessionNeeds(13, 2n * GWEI, GWEI);
    expect(needs.maxFeePerGas).toBe(1_250_000_000n);
    expect(needs.keyGas).toBe(625_000n * GWEI);
    // A node takes the key's roll: the float pays a roll's whole gas limit at the max fee.
    expect(needs.keyGas).toBeGreaterThanOrEqual(KEY_ROLL_GAS_LIMIT * needs.maxFeePerGas);
    expect(keyFloat(3n) % GWEI).toBe(0n);
    expect(keyFloat(3n)).toBe(GWEI); // 1 500 000 wei, rounded up
  });
});

describe("sessionNeeds", () => {
  it("asks what a game is expected to cost, not the worst case: 0.00735 ETH against 0.00821 at 1 gwei", () => {
    const needs = gameSessionNeeds(13, 2n * GWEI, GWEI);
    const worst = gameCost(13, 2n * GWEI, GWEI);
    expect(needs.rolls).toBe(37);
    // 37 rolls, 13 scores, 25 refuels and a claim: 7 350 000 gas at 1 gwei; 37 fees of 2 gwei.
    expect(needs.expected).toEqual({
      fees: 74n * GWEI,
      gas: 7_350_000n * GWEI,
      total: 7_350_074n * GWEI,
    });
    // The slot: the fees with 10 % on top, and the gas beyond the float.
    expect(needs.feeDeposit).toBe(81_400_000_000n + (7_350_000n - 625_000n) * GWEI);
    const ask = needs.feeDeposit + needs.keyGas;
    expect(ask).toBe(7_350_081_400_000_000n);
    expect(worst.total).toBe(8_210_084n * GWEI);
    // Within a few percent of the expected cost, and under the worst case (the old ask was 1.5x that).
    expect(ask * 100n).toBeLessThan(needs.expected.total * 101n);
    expect(ask).toBeLessThan(worst.total);
  });

  it("sends the key only its float; the rest stays in the slot", () => {
    const needs = gameSessionNeeds(13, 20_000n * GWEI, GWEI, 3);
    expect(needs.keyGas).toBe(625_000n * GWEI);
    expect(needs.feeDeposit).toBeGreaterThan(30n * needs.keyGas);
  });

  it("is at least the float when the moves cost less than it", () => {
    const needs = sessionNeeds({ rolls: 1, scores: 0, rollFee: 0n, gasPrice: 2n * GWEI });
    expect(needs.keyGas).toBe(keyFloat(2_500_000_000n));
    expect(needs.feeDeposit).toBe(0n);
  });

  it("sizes a match for every game: its rolls, scores and gas", () => {
    const one = gameSessionNeeds(13, 1000n, GWEI);
    const three = gameSessionNeeds(13, 1000n, GWEI, 3);
    expect(three.rolls).toBe(3 * 37);
    expect(three.expected.fees).toBe(one.expected.fees * 3n);
    // Three games of moves, but one claim.
    expect(three.expected.gas).toBeGreaterThan(one.expected.gas * 2n);
    expect(three.expected.gas).toBeLessThan(one.expected.gas * 3n);
  });

  it("grows with the gas price and the fee", () => {
    const cheap = gameSessionNeeds(13, 10n, GWEI);
    const dear = gameSessionNeeds(13, 20n, 3n * GWEI);
    expect(dear.keyGas).toBe(cheap.keyGas * 3n);
    expect(dear.expected.gas).toBe(cheap.expected.gas * 3n);
    expect(dear.expected.fees).toBe(cheap.expected.fees * 2n);
  });
});

describe("gameCost", () => {
  it("is every roll's fee and every move's gas at today's prices, the worst case", () => {
    const cost = gameCost(13, 2n * GWEI, GWEI);
    expect(cost.fees).toBe(42n * 2n * GWEI);
    expect(cost.total).toBe(cost.fees + cost.gas);
    expect(cost.gas).toBeGreaterThan(42n * KEY_GAS_PER_ROLL * GWEI);
    expect(cost.total).toBeGreaterThan(gameSessionNeeds(13, 2n * GWEI, GWEI).expected.total);
  });

  it("a match of three games costs three games' fees, and about three games' gas", () => {
    const one = gameCost(13, 2n * GWEI, GWEI);
    const match = gameCost(13, 2n * GWEI, GWEI, 3);
    expect(match.fees).toBe(one.fees * 3n);
    expect(match.gas).toBeLessThan(one.gas * 3n);
    expect(match.gas).toBeGreaterThan(one.gas * 2n);
  });

  it("at 1 gwei is several times a 0.001 ETH bet, as in issue 32's trial", () => {
    const cost = gameCost(13, 2n * GWEI, GWEI);
    expect(cost.total).toBeGreaterThan(5n * 10n ** 15n);
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
  // A key holding its float at 1 gwei, a slot of 0.005 ETH, a roll fee of 10 wei.
  const enough = {
    keyBalance: 500_000n * GWEI,
    allowanceLeft: 5n * 10n ** 15n,
    credit: 5n * 10n ** 15n,
    rollFee: 10n,
    gasPrice: GWEI,
  };

  it("says nothing while the float and the slot can go on, though the float alone cannot", () => {
    expect(sessionLowOn(enough)).toBeNull();
    expect(sessionLowOn({ ...enough, allowanceLeft: 0n, credit: 0n })).not.toBeNull();
  });

  it("counts the slot as the key's gas: low when both together run short", () => {
    // Three rolls, scores and refuels (750 000 gas) and a roll's headroom (150 000): 900 000 gwei.
    expect(
      sessionLowOn({ ...enough, keyBalance: 500_000n * GWEI, allowanceLeft: 400_030n * GWEI }),
    ).toBeNull();
    expect(
      sessionLowOn({ ...enough, keyBalance: 500_000n * GWEI, allowanceLeft: 399_000n * GWEI }),
    ).toBe("gas");
  });

  it("is low on gas when the key cannot even pay a refuel, whatever the slot holds", () => {
    expect(sessionLowOn({ ...enough, keyBalance: REFUEL_GAS_LIMIT * GWEI - 1n })).toBe("gas");
    expect(sessionLowOn({ ...enough, keyBalance: REFUEL_GAS_LIMIT * GWEI })).toBeNull();
  });

  it("names the roll fees the slot can no longer pay", () => {
    expect(sessionLowOn({ ...enough, keyBalance: 10n ** 18n, allowanceLeft: 29n })).toBe(
      "allowance",
    );
    expect(sessionLowOn({ ...enough, credit: 29n })).toBe("credit");
  });
});

describe("keyNeedsRefuel", () => {
  // The decision before each of a key's moves, at a max fee of 1.25 gwei.
  const maxFeePerGas = 1_250_000_000n;
  const rollLimit = 138_050n + ROLL_GAS_HEADROOM;

  it("refuels when the key cannot pay the move's whole gas limit at the max fee", () => {
    const need = rollLimit * maxFeePerGas; // 0.0003600625 ETH
    expect(keyNeedsRefuel({ balance: need - 1n, gasLimit: rollLimit, maxFeePerGas })).toBe(true);
    expect(keyNeedsRefuel({ balance: need, gasLimit: rollLimit, maxFeePerGas })).toBe(false);
  });

  it("does not refuel a key holding its float for any move", () => {
    const float = keyFloat(maxFeePerGas);
    expect(keyNeedsRefuel({ balance: float, gasLimit: KEY_ROLL_GAS_LIMIT, maxFeePerGas })).toBe(
      false,
    );
  });

  it("refuels every other move or so: after a roll and a score from the float, not; after two rolls, yes", () => {
    const float = keyFloat(maxFeePerGas);
    const afterRoll = float - 138_050n * maxFeePerGas;
    expect(keyNeedsRefuel({ balance: afterRoll, gasLimit: 60_000n, maxFeePerGas })).toBe(false);
    const afterScore = afterRoll - 50_000n * maxFeePerGas;
    expect(keyNeedsRefuel({ balance: afterScore, gasLimit: rollLimit, maxFeePerGas })).toBe(false);
    const afterTwoRolls = afterRoll - 138_050n * maxFeePerGas;
    expect(keyNeedsRefuel({ balance: afterTwoRolls, gasLimit: rollLimit, maxFeePerGas })).toBe(
      true,
    );
    // And the key can still pay the refuel itself.
    expect(afterTwoRolls).toBeGreaterThan(REFUEL_GAS_LIMIT * maxFeePerGas);
  });

  it("counts a move's value", () => {
    expect(keyNeedsRefuel({ balance: 100n, gasLimit: 10n, maxFeePerGas: 10n, value: 1n })).toBe(
      true,
    );
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
    keyBalance: 500_000n * GWEI,
    allowanceLeft: 10n ** 15n,
    credit: 10n ** 15n,
    rollFee: 10n,
    gasPrice: GWEI,
  };

  it("lets the key roll while its float and slot cover a roll, its refuel and the fee", () => {
    expect(keyCanMove("roll", funds)).toBe(true);
    // The key holds little, but refuels from the slot.
    expect(keyCanMove("roll", { ...funds, keyBalance: 100_000n * GWEI })).toBe(true);
    expect(keyCanMove("roll", { ...funds, keyBalance: 0n })).toBe(false);
    expect(keyCanMove("roll", { ...funds, keyBalance: 10n ** 18n, allowanceLeft: 9n })).toBe(false);
  });

  it("lets a key that cannot refuel move only if it holds the move's gas", () => {
    const low = { ...funds, keyBalance: REFUEL_GAS_LIMIT * GWEI - 1n };
    expect(keyCanMove("score", low)).toBe(false);
    expect(keyCanMove("roll", { ...funds, keyBalance: KEY_ROLL_GAS_LIMIT * GWEI })).toBe(true);
    // A key near its float's floor with an empty slot still scores.
    expect(keyCanMove("score", { ...funds, keyBalance: 80_000n * GWEI, allowanceLeft: 0n })).toBe(
      true,
    );
  });

  it("lets it score or claim with no fees left in the slot, but not without gas", () => {
    expect(
      keyCanMove("score", { ...funds, keyBalance: 10n ** 16n, allowanceLeft: 0n, credit: 0n }),
    ).toBe(true);
    expect(keyCanMove("claim", { ...funds, keyBalance: 0n })).toBe(false);
  });
});

// The gas and value the app sends with a write. Pure numbers, so that the contract tests can check
// them against the chain (test/gasMargin.test.ts) without the app's React and wallet code.

/**
 * Gas a roll gets beyond its estimate. What a roll writes depends on state that can change between
 * the estimate and the block: Pyth Entropy keeps requests in a fixed array and spills to fresh
 * slots while an unanswered request holds the one a new request lands on; DiceHall files requests
 * in a ring of its own with the same fallback; and a surplus credited to a roller whose credit was
 * emptied in between (a withdraw mined just before) opens a fresh credit slot. Measured under Pyth's
 * real Entropy, that worst path needs 107 350 gas over the usual path's estimate, and our Entropy
 * model reproduces it (test/gasHeadroom.test.ts). 150 000 leaves about 40 % room over that; unused
 * gas is not charged.
 */
export const ROLL_GAS_HEADROOM = 150_000n;

/**
 * Every other write gets its estimate plus this share (percent). An estimate is exact for the
 * block it was made on, and the next block can differ in ways that cost gas: a move in the same
 * second as the dice rewrites the game's clock slot with the value it already holds (100 gas), one
 * a second later changes it (2 900). A score estimated at 45 404 gas ran out of gas that way when
 * the wallet sent the estimate as it was, so no write is sent with its bare estimate.
 */
export const GAS_MARGIN_PERCENT = 30n;

/**
 * The writes of a session (issue 24) take the same rule: a session key's roll is a `roll` (its
 * worst path is a player's, less the credit slot it never opens: it pays from the fees set aside
 * for its session, in the key's own slot), and
 * `createGameWithSession`, `joinGameWithSession`, `openSession`, `deposit`, `createGameFromCredit`,
 * `joinGameFromCredit`, `revokeSession` and `withdrawFor` get the margin. What can change between
 * their estimate and the block costs far less than 30 %: the player's credit slot emptied in between
 * (20 000 gas to open it again) against estimates of 60 000 to 300 000.
 */
export const SESSION_WRITES = [
  "createGameWithSession",
  "joinGameWithSession",
  "openSession",
  "deposit",
  "createGameFromCredit",
  "joinGameFromCredit",
  "revokeSession",
  "withdrawFor",
] as const;

/** The gas limit to send with a write, given its estimate. */
export function gasLimitFor(functionName: string, estimate: bigint): bigint {
  return functionName === "roll"
    ? estimate + ROLL_GAS_HEADROOM
    : estimate + (estimate * GAS_MARGIN_PERCENT) / 100n;
}

/**
 * What to send with a roll: the fee just quoted plus 10 %, so that a provider raising its fee
 * between the quote and the block does not fail the roll; the contract credits the surplus back.
 */
export function rollValue(fee: bigint): bigint {
  return fee + fee / 10n;
}

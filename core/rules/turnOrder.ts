import { encodeAbiParameters, keccak256, toHex, type Hex } from "viem";

/**
 * The turn order a game's first roll draws, as DiceHall draws it (contracts/libraries/TurnOrder.sol):
 * seed = uint256(keccak256(abi.encode(r, keccak256("DiceHall.turnOrder")))), then a Fisher-Yates
 * shuffle of the join indices that takes each draw from the seed and divides it by 4! = 24.
 */

/** The salt that keeps the order draw apart from the dice of the same random number. */
export const ORDER_DRAW_SALT: Hex = keccak256(toHex("DiceHall.turnOrder"));

/** The seed of the draw for the random number `r`. */
export function orderSeed(r: Hex): bigint {
  return BigInt(
    keccak256(
      encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [r, ORDER_DRAW_SALT]),
    ),
  );
}

/** Join indices in turn order: element p is the join index of the player who moves p-th. */
export function drawTurnOrder(r: Hex, seats: number): number[] {
  if (!Number.isInteger(seats) || seats < 2 || seats > 4)
    throw new RangeError(`2..4 seats, not ${seats}`);
  const idx = [0, 1, 2, 3];
  let seed = orderSeed(r);
  for (let i = seats - 1; i > 0; i--) {
    const j = Number(seed % BigInt(i + 1));
    seed /= 24n;
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, seats);
}

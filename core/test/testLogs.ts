// Test support: builds decoded hall logs the way the app receives them. Not imported by the app.
import { numberToHex, type Address, type Hex, type RpcLog } from "viem";
import {
  encodeHallLog,
  type HallEventName,
  type HallLog,
  type HallLogOf,
} from "../events/hallEvents.ts";

export const ALICE: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const BOB: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const CAROL: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
export const HALL: Address = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
export const NATIVE: Address = "0x0000000000000000000000000000000000000000";

/** A decoded log with the given position. */
export function log<N extends HallEventName>(
  eventName: N,
  args: HallLogOf<N>["args"],
  blockNumber: number,
  logIndex = 0,
): HallLog {
  return {
    eventName,
    args,
    blockNumber: BigInt(blockNumber),
    logIndex,
    transactionHash: null,
  } as HallLog;
}

/** The same log as a node returns it from eth_getLogs (encoded topics and data). */
export function rpcLog(l: HallLog, address: Address = HALL): RpcLog {
  const { topics, data } = encodeHallLog(l);
  return {
    address,
    topics,
    data,
    blockNumber: numberToHex(l.blockNumber),
    logIndex: numberToHex(l.logIndex),
    blockHash: `0x${"ab".repeat(32)}`,
    transactionHash: `0x${"cd".repeat(32)}`,
    transactionIndex: "0x0",
    removed: false,
  };
}

export const RANDOM: Hex = `0x${"11".repeat(32)}`;

/** A two-player classic game up to Alice's first score and Bob's first roll of his own. */
export function twoPlayerOpening(gameId = 1n): HallLog[] {
  return [
    log(
      "GameCreated",
      {
        gameId,
        creator: ALICE,
        token: NATIVE,
        bet: 10n ** 15n,
        seats: 2,
        ruleSet: 0,
        isPrivate: false,
      },
      10,
      0,
    ),
    log("PlayerJoined", { gameId, player: BOB }, 11, 0),
    // Bob makes the first roll; its number draws the order (Alice first) and the dice are hers.
    log("RollRequested", { gameId, player: BOB, sequenceNumber: 1n, keepMask: 0 }, 12, 0),
    log("GameStarted", { gameId, order: [ALICE, BOB] }, 13, 0),
    log(
      "DiceRolled",
      {
        gameId,
        player: ALICE,
        rollNumber: 1,
        dice: [3, 3, 3, 5, 2],
        sequenceNumber: 1n,
        randomNumber: RANDOM,
      },
      13,
      1,
    ),
    log("RollRequested", { gameId, player: ALICE, sequenceNumber: 2n, keepMask: 0b00111 }, 14, 0),
    log(
      "DiceRolled",
      {
        gameId,
        player: ALICE,
        rollNumber: 2,
        dice: [3, 3, 3, 6, 6],
        sequenceNumber: 2n,
        randomNumber: RANDOM,
      },
      15,
      0,
    ),
    log("Scored", { gameId, player: ALICE, category: 8, points: 25n, bonus: 0n }, 16, 0),
    log("RollRequested", { gameId, player: BOB, sequenceNumber: 3n, keepMask: 0 }, 17, 0),
    log(
      "DiceRolled",
      {
        gameId,
        player: BOB,
        rollNumber: 1,
        dice: [1, 2, 3, 4, 6],
        sequenceNumber: 3n,
        randomNumber: RANDOM,
      },
      18,
      0,
    ),
  ];
}

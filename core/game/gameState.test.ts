import { describe, expect, it } from "vitest";
import { applyEvent, foldGame, foldHall, initialGameState, currentPlayer } from "./gameState.ts";
import { decodeLogs, mergeLogs } from "../events/hallEvents.ts";
import {
  ALICE,
  BOB,
  CAROL,
  log,
  NATIVE,
  RANDOM,
  rpcLog,
  twoPlayerOpening,
} from "../test/testLogs.ts";

const g = 1n;

describe("foldGame", () => {
  it("rebuilds a two-player opening: order, sheets, dice, turn", () => {
    const s = foldGame(g, twoPlayerOpening());
    expect(s.status).toBe("running");
    expect(s.players).toEqual([ALICE, BOB]);
    expect(s.sheets[ALICE.toLowerCase()].boxes[8]).toBe(25);
    expect(s.sheets[ALICE.toLowerCase()].boxes.filter((b) => b !== null)).toHaveLength(1);
    expect(currentPlayer(s)).toBe(BOB);
    expect(s.round).toBe(1);
    expect(s.turn).toEqual({ player: BOB, rollsUsed: 1, dice: [1, 2, 3, 4, 6] });
    expect(s.pendingRoll).toBeNull();
    expect(s.lastRoll?.dice).toEqual([1, 2, 3, 4, 6]);
  });

  it("records the keep mask and previous dice of each roll, and the dice a box was scored with", () => {
    const s = foldGame(g, twoPlayerOpening());
    const rolls = s.log.filter((e) => e.kind === "rolled");
    expect(rolls.map((e) => (e.kind === "rolled" ? e.roll.keepMask : -1))).toEqual([0, 0b00111, 0]);
    expect(rolls[1].kind === "rolled" && rolls[1].roll.previous).toEqual([3, 3, 3, 5, 2]);
    const scored = s.log.find((e) => e.kind === "scored");
    expect(scored?.kind === "scored" && scored.dice).toEqual([3, 3, 3, 6, 6]);
  });

  it("gives the same state for shuffled and duplicated logs", () => {
    const logs = twoPlayerOpening();
    const reference = foldGame(g, logs);
    const shuffled = [...logs].reverse();
    const duplicated = [...logs, ...logs.slice(2, 6), logs[0]];
    expect(foldGame(g, shuffled)).toEqual(reference);
    expect(foldGame(g, duplicated)).toEqual(reference);
  });

  it("steps with applyEvent to the same state, ignoring stale and foreign logs", () => {
    const logs = twoPlayerOpening();
    let s = initialGameState(g);
    for (const l of logs) s = applyEvent(s, l);
    expect(s).toEqual(foldGame(g, logs));
    expect(applyEvent(s, logs[3])).toBe(s); // older than the last applied
    expect(applyEvent(s, logs[logs.length - 1])).toBe(s); // the same one again
    const other = log("PlayerJoined", { gameId: 2n, player: CAROL }, 99, 0);
    expect(applyEvent(s, other)).toBe(s);
  });

  it("tracks a pending roll until its dice arrive", () => {
    const logs = twoPlayerOpening().slice(0, 3);
    const s = foldGame(g, logs);
    expect(s.pendingRoll).toMatchObject({ player: BOB, sequenceNumber: 1n, keepMask: 0 });
    expect(s.rollOut).toEqual({ attempts: 1, keepMask: 0, refused: false });
    expect(s.turn).toBeNull();
    const rolled = foldGame(g, twoPlayerOpening().slice(0, 5));
    expect(rolled.pendingRoll).toBeNull();
    expect(rolled.rollOut).toBeNull();
    expect(rolled.turn?.dice).toEqual([3, 3, 3, 5, 2]);
  });

  it("starts a full table without an order; the first roll's GameStarted draws it", () => {
    const full = foldGame(g, twoPlayerOpening().slice(0, 2));
    expect(full.status).toBe("running");
    expect(full.orderDrawn).toBe(false);
    expect(full.players).toEqual([ALICE, BOB]);
    expect(full.currentSeat).toBeNull();
    const drawn = foldGame(g, twoPlayerOpening().slice(0, 5));
    expect(drawn.orderDrawn).toBe(true);
    expect(drawn.currentSeat).toBe(0);
    expect(drawn.turn).toMatchObject({ player: ALICE, rollsUsed: 1 });
    expect(drawn.lastRoll?.player).toBe(ALICE);
  });

  it("counts refused attempts, keeps their keep mask, and calls a running game off", () => {
    const opening = twoPlayerOpening().slice(0, 2);
    const s = foldGame(g, [
      ...opening,
      log("RollRefused", { gameId: g, player: BOB, keepMask: 0, reason: "0x" }, 20, 0),
      log("RollRefused", { gameId: g, player: ALICE, keepMask: 0, reason: "0x" }, 21, 0),
    ]);
    expect(s.rollOut).toEqual({ attempts: 2, keepMask: 0, refused: true });
    expect(s.pendingRoll).toBeNull();
    expect(s.log.at(-1)?.kind).toBe("rollRefused");
    const off = foldGame(g, [
      ...opening,
      log("RollRefused", { gameId: g, player: BOB, keepMask: 0, reason: "0x" }, 20, 0),
      log("GameCancelled", { gameId: g }, 30, 0),
    ]);
    expect(off.status).toBe("cancelled");
    expect(off.calledOff).toBe(true);
    expect(off.rollOut).toBeNull();
    const lobby = foldGame(g, [opening[0], log("GameCancelled", { gameId: g }, 30, 0)]);
    expect(lobby.calledOff).toBe(false);
  });

  it("keeps a newer pending request when a superseded one is answered", () => {
    const logs = [
      ...twoPlayerOpening().slice(0, 4),
      log("RollRequested", { gameId: g, player: ALICE, sequenceNumber: 9n, keepMask: 0 }, 40, 0),
      log(
        "DiceRolled",
        {
          gameId: g,
          player: ALICE,
          rollNumber: 1,
          dice: [6, 6, 6, 6, 6],
          sequenceNumber: 9n,
          randomNumber: RANDOM,
        },
        41,
        0,
      ),
    ];
    const s = foldGame(g, logs);
    expect(s.pendingRoll).toBeNull();
    expect(s.turn?.dice).toEqual([6, 6, 6, 6, 6]);
  });

  it("handles joins and leaves in the lobby", () => {
    const s = foldGame(g, [
      log(
        "GameCreated",
        {
          gameId: g,
          creator: ALICE,
          token: NATIVE,
          bet: 1n,
          seats: 4,
          ruleSet: 1,
          isPrivate: true,
        },
        1,
        0,
      ),
      log("PlayerInvited", { gameId: g, invitee: BOB }, 1, 1),
      log("PlayerInvited", { gameId: g, invitee: CAROL }, 1, 2),
      log("PlayerJoined", { gameId: g, player: BOB }, 2, 0),
      log("PlayerJoined", { gameId: g, player: CAROL }, 3, 0),
      log("PlayerLeft", { gameId: g, player: BOB }, 4, 0),
    ]);
    expect(s.status).toBe("open");
    expect(s.isPrivate).toBe(true);
    expect(s.ruleSet).toBe(1);
    expect(s.invitees).toEqual([BOB, CAROL]);
    expect(s.players).toEqual([ALICE, CAROL]);
  });

  it("passes the turn on a forfeit, skips forfeited seats and counts rounds", () => {
    const three = [
      log(
        "GameCreated",
        {
          gameId: g,
          creator: ALICE,
          token: NATIVE,
          bet: 1n,
          seats: 3,
          ruleSet: 0,
          isPrivate: false,
        },
        1,
        0,
      ),
      log("PlayerJoined", { gameId: g, player: BOB }, 2, 0),
      log("PlayerJoined", { gameId: g, player: CAROL }, 3, 0),
      log("GameStarted", { gameId: g, order: [BOB, CAROL, ALICE] }, 3, 1),
      log("PlayerForfeited", { gameId: g, player: BOB }, 4, 0),
    ];
    let s = foldGame(g, three);
    expect(currentPlayer(s)).toBe(CAROL);
    s = applyEvent(
      s,
      log(
        "DiceRolled",
        {
          gameId: g,
          player: CAROL,
          rollNumber: 1,
          dice: [1, 1, 1, 1, 1],
          sequenceNumber: 1n,
          randomNumber: RANDOM,
        },
        5,
        0,
      ),
    );
    s = applyEvent(
      s,
      log("Scored", { gameId: g, player: CAROL, category: 11, points: 50n, bonus: 0n }, 6, 0),
    );
    expect(currentPlayer(s)).toBe(ALICE);
    expect(s.round).toBe(1);
    s = applyEvent(
      s,
      log(
        "DiceRolled",
        {
          gameId: g,
          player: ALICE,
          rollNumber: 1,
          dice: [2, 2, 2, 2, 2],
          sequenceNumber: 2n,
          randomNumber: RANDOM,
        },
        7,
        0,
      ),
    );
    s = applyEvent(
      s,
      log("Scored", { gameId: g, player: ALICE, category: 1, points: 10n, bonus: 0n }, 8, 0),
    );
    expect(currentPlayer(s)).toBe(CAROL); // Bob forfeited: skipped
    expect(s.round).toBe(2);
  });

  it("counts Yahtzee bonuses from Scored.bonus", () => {
    const s = foldGame(g, [
      ...twoPlayerOpening().slice(0, 4),
      log(
        "DiceRolled",
        {
          gameId: g,
          player: ALICE,
          rollNumber: 1,
          dice: [4, 4, 4, 4, 4],
          sequenceNumber: 1n,
          randomNumber: RANDOM,
        },
        13,
        1,
      ),
      log("Scored", { gameId: g, player: ALICE, category: 3, points: 20n, bonus: 100n }, 14, 0),
    ]);
    expect(s.sheets[ALICE.toLowerCase()].yahtzeeBonuses).toBe(1);
  });

  it("ends with GameFinished and GameCancelled", () => {
    const finished = foldGame(g, [
      ...twoPlayerOpening(),
      log(
        "GameFinished",
        {
          gameId: g,
          token: NATIVE,
          ruleSet: 0,
          players: [ALICE, BOB],
          totals: [200n, 180n],
          winners: [ALICE],
          payoutEach: 19n,
          houseFee: 1n,
        },
        30,
        0,
      ),
    ]);
    expect(finished.status).toBe("finished");
    expect(finished.currentSeat).toBeNull();
    expect(finished.result).toMatchObject({
      winners: [ALICE],
      payoutEach: 19n,
      totals: [200n, 180n],
    });
    const cancelled = foldGame(g, [
      twoPlayerOpening()[0],
      log("GameCancelled", { gameId: g }, 12, 0),
    ]);
    expect(cancelled.status).toBe("cancelled");
  });
});

describe("foldHall", () => {
  it("groups logs by game", () => {
    const games = foldHall([
      ...twoPlayerOpening(1n),
      log(
        "GameCreated",
        {
          gameId: 2n,
          creator: BOB,
          token: NATIVE,
          bet: 5n,
          seats: 4,
          ruleSet: 3,
          isPrivate: false,
        },
        20,
        0,
      ),
      log("Withdrawn", { token: NATIVE, account: ALICE, amount: 1n }, 21, 0),
    ]);
    expect([...games.keys()]).toEqual([1n, 2n]);
    expect(games.get(2n)?.seats).toBe(4);
    expect(games.get(1n)?.status).toBe("running");
  });
});

describe("decodeLogs", () => {
  it("decodes what eth_getLogs returns into the same logs", () => {
    const logs = twoPlayerOpening();
    const decoded = decodeLogs(logs.map((l) => rpcLog(l)));
    expect(decoded.map((d) => ({ ...d, transactionHash: null }))).toEqual(logs);
  });

  it("merges by (block, log index), dropping duplicates", () => {
    const logs = twoPlayerOpening();
    expect(mergeLogs(logs.slice(5), logs.slice(0, 7), logs.slice(3, 4))).toEqual(logs);
  });
});

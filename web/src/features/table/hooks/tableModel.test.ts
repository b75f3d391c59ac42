import { describe, expect, it } from "vitest";
import { boxOptions } from "@dicehall/core/rules/sheet.ts";
import type { GameView, PlayerView } from "@/data/gameData.ts";
import { foldGame, key } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB, log, NATIVE, RANDOM, twoPlayerOpening } from "@dicehall/core/test/testLogs.ts";
import { gameViewOf } from "@/test/gameViews.ts";
import {
  buildTableModel,
  claimCallsOff,
  claimErrorOutdated,
  claimLabel,
  claimOffer,
  claimSettlesMatch,
  moveDeadlineMs,
  rollRetryAtMs,
  sheetFromView,
  stalledRequest,
  type ChainTableInput,
} from "./tableModel.ts";

const T0 = 1_700_000_000;

function gameView(over: Partial<GameView> = {}): GameView {
  return gameViewOf({ deadline: BigInt(T0 + 300), ...over });
}

function playerView(boxes: (number | null)[], over: Partial<PlayerView> = {}): PlayerView {
  return {
    seated: true,
    seat: 0,
    dice: [0, 0, 0, 0, 0],
    rollsUsed: 0,
    filled: boxes.map((b) => b !== null),
    boxScores: boxes.map((b) => BigInt(b ?? 0)),
    yahtzeeBonusCount: 0,
    upperTotal: 0n,
    upperBonus: 0n,
    yahtzeeBonus: 0n,
    total: 0n,
    forfeited: false,
    ...over,
  } as PlayerView;
}

const open13 = (): (number | null)[] => Array(13).fill(null);

function input(over: Partial<ChainTableInput> = {}): ChainTableInput {
  const logs = twoPlayerOpening();
  const aliceBoxes = open13();
  aliceBoxes[8] = 25;
  return {
    state: foldGame(1n, logs),
    view: gameView(),
    players: {
      [key(ALICE)]: playerView(aliceBoxes),
      [key(BOB)]: playerView(open13(), { seat: 1, rollsUsed: 1, dice: [1, 2, 3, 4, 6] }),
    },
    me: BOB,
    nowMs: T0 * 1000,
    keepMask: 0,
    sending: null,
    rollFee: "",
    words: { name: (a) => (a === BOB ? "You" : "Alice"), amount: (v) => `${v} wei` },
    busyText: null,
    errorText: null,
    ...over,
  };
}

describe("buildTableModel", () => {
  it("says the match is over at a match's end, the game at a game's", () => {
    expect(buildTableModel(input({ view: gameView({ status: 3 }) })).turnText).toBe("Game over.");
    expect(
      buildTableModel(input({ view: gameView({ status: 3, games: 3, gameNumber: 3 }) })).turnText,
    ).toBe("Match over.");
  });

  it("offers the next game of a match its order roll, as the first game's", () => {
    const model = buildTableModel(
      input({ view: gameView({ games: 3, gameNumber: 2, orderDrawn: false, round: 1 }) }),
    );
    expect(model.rollLabel).toBe("Roll for the turn order");
    expect(model.canRoll).toBe(true);
  });

  it("a later game's order undrawn past its deadline: the claim settles the match, game 1's calls off", () => {
    const late = { nowMs: (T0 + 301) * 1000 };
    const later = gameView({ games: 5, gameNumber: 3, orderDrawn: false, round: 1 });
    expect(claimSettlesMatch(later)).toBe(true);
    expect(claimCallsOff(later)).toBe(false);
    expect(claimLabel(later)).toBe("Claim the match on the games played");
    expect(buildTableModel(input({ view: later, ...late })).blockedReason).toBe(
      "Time is up: anyone can now claim the match on the games played.",
    );
    const first = gameView({ games: 5, gameNumber: 1, orderDrawn: false, round: 1 });
    expect(claimSettlesMatch(first)).toBe(false);
    expect(claimLabel(first)).toBe("Call the game off");
    // A later game's draw out past the call-off window still calls the match off.
    const stuck = gameView({ games: 5, gameNumber: 3, orderDrawn: false, entropyAttempts: 1 });
    expect(claimLabel(stuck)).toBe("Call the game off");
    expect(claimLabel(gameView())).toBe("Claim the timeout");
  });

  it("shows the dice of the latest DiceRolled and my score previews from the engine", () => {
    const model = buildTableModel(input());
    expect(model.dice).toEqual([1, 2, 3, 4, 6]);
    expect(model.myTurn).toBe(true);
    expect(model.rollsUsed).toBe(1);
    expect(model.options).toEqual(boxOptions(model.players[1].sheet, [1, 2, 3, 4, 6]));
    expect(model.options?.find((o) => o.box === 9)).toMatchObject({ points: 30, legal: true });
    expect(model.canRoll).toBe(true);
    expect(model.rollLabel).toBe("Re-roll (2 left)");
    expect(model.rollCost).toBe("no fee");
    expect(model.players.map((p) => p.name)).toEqual(["Alice", "You"]);
    expect(model.players[0].sheet.boxes[8]).toBe(25);
  });

  it("says a roll's fee apart from the label, and nothing while the fee is unknown", () => {
    expect(buildTableModel(input({ rollFee: "<0.000001 ETH" })).rollCost).toBe("fee <0.000001 ETH");
    expect(buildTableModel(input({ rollFee: null })).rollCost).toBeNull();
    expect(buildTableModel(input({ rollFee: null })).rollLabel).toBe("Re-roll (2 left)");
  });

  it("applies the Joker rule in previews: illegal boxes carry the reason", () => {
    const logs = [
      ...twoPlayerOpening().slice(0, 8),
      log("RollRequested", { gameId: 1n, player: BOB, sequenceNumber: 3n, keepMask: 0 }, 17, 0),
      log(
        "DiceRolled",
        {
          gameId: 1n,
          player: BOB,
          rollNumber: 1,
          dice: [5, 5, 5, 5, 5],
          sequenceNumber: 3n,
          randomNumber: RANDOM,
        },
        18,
        0,
      ),
    ];
    const bobBoxes = open13();
    bobBoxes[11] = 0; // Yahtzee box already filled with 0: Joker applies, no bonus
    const base = input();
    const model = buildTableModel({
      ...base,
      state: foldGame(1n, logs),
      players: { ...base.players, [key(BOB)]: playerView(bobBoxes, { seat: 1, rollsUsed: 1 }) },
    });
    const sheet = sheetFromView(0, playerView(bobBoxes));
    expect(model.options).toEqual(boxOptions(sheet, [5, 5, 5, 5, 5]));
    const legal = model.options!.filter((o) => o.legal).map((o) => o.box);
    expect(legal).toEqual([4]); // Fives is open, so five 5s must go there
    const chance = model.options!.find((o) => o.box === 12)!;
    expect(chance.legal).toBe(false);
    expect(chance.reason).toMatch(/Joker/);
  });

  it("shows no previews and no roll to a player whose turn it is not", () => {
    const words = {
      name: (a: string) => (a === ALICE ? "You" : "Bob"),
      amount: (v: bigint) => `${v} wei`,
    };
    const model = buildTableModel(input({ me: ALICE, words }));
    expect(model.myTurn).toBe(false);
    expect(model.options).toBeNull();
    expect(model.canRoll).toBe(false);
    expect(model.scoringSeat).toBe(0);
    expect(model.turnText).toBe("Round 1 of 13. Bob's turn — 5:00 left.");
  });

  it("tumbles and waits while a roll is pending; it is never asked again, and after 30 s it may be delivered", () => {
    const requestedAt = T0 - 10;
    const view = gameView({
      pendingSequence: 7n,
      rollRequestedAt: BigInt(requestedAt),
      pendingKeepMask: 0b11,
      deadline: 0n,
      entropyAttempts: 1,
      retryAt: 0n, // an accepted request is never replaced
      callOffAt: BigInt(requestedAt + 86_400),
    });
    const waiting = buildTableModel(input({ view, keepMask: 0b101 }));
    expect(waiting.rolling).toBe(true);
    expect(waiting.canRoll).toBe(false);
    expect(waiting.options).toBeNull();
    expect(waiting.keepMask).toBe(0b11); // the request's mask, not my current choice
    expect(waiting.rollHint).toBe("Waiting for randomness (request #7)…");
    // The heading waits for the dice; the call-off a day away is no countdown to move by.
    expect(waiting.turnText).toBe("Round 1 of 13. Your turn: waiting for the dice.");
    expect(rollRetryAtMs(view)).toBeNull();
    expect(stalledRequest(view, T0 * 1000)).toBeNull();

    // Hours later: still no asking again; any player may deliver its public number.
    const late = buildTableModel(input({ view, nowMs: (requestedAt + 3600) * 1000 }));
    expect(late.canRoll).toBe(false);
    expect(late.rolling).toBe(true);
    expect(late.options).toBeNull(); // never the old dice while a roll is out
    expect(late.rollHint).toMatch(/request #7 is late\. Its number is public .* never asked again/);
    expect(stalledRequest(view, (requestedAt + 30) * 1000)).toBe(7n);
    // Nobody forfeits while a roll is out: only the call-off window ends the wait.
    expect(moveDeadlineMs(view)).toBe((requestedAt + 86_400) * 1000);
    expect(claimCallsOff(view)).toBe(true);
  });

  it("anyone seated may ask again for a refused roll, another player's too; a stranger's app does not offer it", () => {
    const at = T0 - 1;
    const view = gameView({
      pendingSequence: 0n,
      rollRequestedAt: BigInt(at),
      deadline: 0n,
      entropyAttempts: 1,
      retryAt: BigInt(at + 1),
      callOffAt: BigInt(at + 86_400),
    });
    const words = {
      name: (a: string) => (a === ALICE ? "You" : "Bob"),
      amount: (v: bigint) => `${v} wei`,
    };
    const alice = buildTableModel(input({ view, me: ALICE, words }));
    expect(alice.myTurn).toBe(false);
    expect(alice.canRoll).toBe(true);
    expect(alice.rollLabel).toBe("Ask for the dice again");
    expect(alice.rollCost).toBe("no fee");
    expect(alice.rollHint).toMatch(
      /You can ask for the dice again, keeping the same dice; the dice will be Bob's\./,
    );
    const stranger = buildTableModel(
      input({ view, me: "0x00000000000000000000000000000000000000cc" }),
    );
    expect(stranger.canRoll).toBe(false);
  });

  it("after a refusal: the fee is back, the roll can be asked again a second later", () => {
    const at = T0;
    const view = gameView({
      pendingSequence: 0n,
      rollRequestedAt: BigInt(at),
      deadline: 0n,
      entropyAttempts: 2,
      retryAt: BigInt(at + 1),
      callOffAt: BigInt(at + 86_400),
    });
    const model = buildTableModel(input({ view }));
    expect(model.canRoll).toBe(false);
    expect(model.rollHint).toBe(
      "The randomness provider refused this roll; the fee was credited back. Anyone can ask for it again in a moment.",
    );
    const later = buildTableModel(input({ view, nowMs: (at + 1) * 1000 }));
    expect(later.canRoll).toBe(true);
    expect(later.rollHint).toMatch(/^The randomness provider refused the roll\. You can ask/);
  });

  it("a refusal in the call-off window's last second promises no retry", () => {
    const view = gameView({
      pendingSequence: 0n,
      rollRequestedAt: BigInt(T0),
      deadline: 0n,
      entropyAttempts: 5,
      retryAt: 0n,
      callOffAt: BigInt(T0 + 1),
    });
    expect(rollRetryAtMs(view)).toBeNull();
    const model = buildTableModel(input({ view }));
    expect(model.canRoll).toBe(false);
    expect(model.rollHint).not.toMatch(/again in/);
  });

  it("a refusal in the call-off window's last hour: no retry, the call-off's time in words", () => {
    const view = gameView({
      pendingSequence: 0n,
      rollRequestedAt: BigInt(T0),
      deadline: 0n,
      entropyAttempts: 3,
      retryAt: 0n,
      callOffAt: BigInt(T0 + 1_800),
    });
    const model = buildTableModel(input({ view }));
    expect(model.canRoll).toBe(false);
    expect(model.rollHint).toMatch(
      /It can no longer be asked again: the randomness service is not answering, and the game can be called off in 30:00/,
    );
    expect(model.rollHint).not.toMatch(/ends now/);
  });

  it("after the call-off window: no roll, and the game can be called off", () => {
    const first = T0 - 86_400;
    const view = gameView({
      pendingSequence: 9n,
      rollRequestedAt: BigInt(T0 - 1800),
      deadline: 0n,
      entropyAttempts: 40,
      retryAt: BigInt(T0),
      callOffAt: BigInt(first + 86_400),
    });
    const model = buildTableModel(input({ view, nowMs: (T0 + 1) * 1000 }));
    expect(model.canRoll).toBe(false);
    expect(model.rollHint).toMatch(/whole call-off window\. Anyone can now call the game off/);
    expect(moveDeadlineMs(view)).toBe(T0 * 1000);
    expect(claimCallsOff(view)).toBe(true);
  });

  it("before the order is drawn, every seated player may make the first roll", () => {
    const view = gameView({ orderDrawn: false, currentSeat: 0 });
    for (const me of [ALICE, BOB]) {
      const model = buildTableModel(input({ view, me }));
      expect(model.myTurn).toBe(true);
      expect(model.canRoll).toBe(true);
      expect(model.options).toBeNull();
      expect(model.currentSeat).toBeNull();
      expect(model.rollLabel).toBe("Roll for the turn order");
      expect(model.rollCost).toBe("no fee");
      expect(model.rollHint).toMatch(/first roll draws the turn order/);
      // The full table tells its players what to press, in the button's own words.
      expect(model.rollHint).toMatch(/must press “Roll for the turn order”/);
      expect(model.turnText).toMatch(
        /^Round 1 of 13\. Someone must press “Roll for the turn order”/,
      );
    }
    const stranger = buildTableModel(
      input({ view, me: "0x00000000000000000000000000000000000000cc" }),
    );
    expect(stranger.canRoll).toBe(false);
    expect(stranger.rollHint).toMatch(/press “Roll for the turn order”/);
    expect(claimCallsOff(view)).toBe(true);
  });

  it("during the draw, the heading and the hint agree once the first roll is out", () => {
    const view = gameView({
      orderDrawn: false,
      currentSeat: 0,
      entropyAttempts: 1,
      pendingSequence: 5n,
      rollRequestedAt: BigInt(T0),
      deadline: 0n,
      retryAt: 0n,
      callOffAt: BigInt(T0 + 86_400),
    });
    const model = buildTableModel(input({ view }));
    expect(model.rollHint).toBe("Waiting for randomness (request #5)…");
    expect(model.turnText).toMatch(
      /^Round 1 of 13\. Drawing the turn order, waiting for randomness/,
    );
    expect(model.turnText).not.toMatch(/must press/);
  });

  it("shows no countdown until the chain's clock has been read", () => {
    // This computer's clock says the deadline is long gone; the chain's has not been read yet.
    const model = buildTableModel(input({ nowMs: (T0 + 900) * 1000, clockKnown: false }));
    expect(model.turnText).toBe("Round 1 of 13. Your turn.");
    expect(model.canRoll).toBe(true);
    expect(buildTableModel(input({ nowMs: T0 * 1000 })).turnText).toMatch(/ — 5:00 left\.$/);
  });

  it("turns the move clock urgent in its last 30 seconds", () => {
    const deadline = (T0 + 300) * 1000;
    expect(buildTableModel(input({ nowMs: deadline - 31_000 })).urgent).toBe(false);
    expect(buildTableModel(input({ nowMs: deadline - 30_000 })).urgent).toBe(true);
    expect(buildTableModel(input({ nowMs: deadline + 1 })).urgent).toBe(false);
  });

  it("keeps the previews and marks the chosen box while my score is out", () => {
    const model = buildTableModel(input({ sending: "score", scoringBox: 9 }));
    expect(model.scoring).toEqual({ box: 9, points: 30 });
    expect(model.options?.find((o) => o.box === 12)).toMatchObject({ points: 16, legal: true });
    expect(buildTableModel(input({ sending: "roll" })).scoring).toBeNull();
    expect(buildTableModel(input()).scoring).toBeNull();
  });

  it("tumbles from the moment a roll is sent", () => {
    const model = buildTableModel(input({ sending: "roll" }));
    expect(model.rolling).toBe(true);
    expect(model.canRoll).toBe(false);
    expect(model.options).toBeNull();
  });

  it("does not roll when all five dice are kept, and says why", () => {
    const model = buildTableModel(input({ keepMask: 0b11111 }));
    expect(model.canRoll).toBe(false);
    expect(model.rollHint).toMatch(/release one/);
  });

  it("starts a new turn with the last turn's dice still on the table, greyed and named", () => {
    const logs = [
      ...twoPlayerOpening(),
      log("Scored", { gameId: 1n, player: BOB, category: 12, points: 16n, bonus: 0n }, 19, 0),
    ];
    const words = {
      name: (a: string) => (a === ALICE ? "You" : "Bob"),
      amount: (v: bigint) => `${v} wei`,
    };
    const turn = input({
      state: foldGame(1n, logs),
      view: gameView({ currentSeat: 0, round: 2 }),
      me: ALICE,
      words,
      players: {
        [key(ALICE)]: playerView(open13()),
        [key(BOB)]: playerView(open13(), { seat: 1 }),
      },
    });
    const model = buildTableModel(turn);
    expect(model.dice).toEqual([1, 2, 3, 4, 6]); // Bob's last roll, not five "?"
    expect(model.diceFromLastTurn).toBe(true);
    expect(model.diceTitle).toBe("Bob's last dice");
    expect(model.myTurn).toBe(true);
    expect(model.rollsUsed).toBe(0);
    expect(model.keepMask).toBe(0);
    expect(model.rollLabel).toBe("Roll the dice");
    expect(model.rollCost).toBe("no fee");
    expect(model.options).toBeNull(); // those dice are not mine to score

    // Once my roll is on its way the dice are mine and tumble.
    const rolling = buildTableModel({ ...turn, sending: "roll" });
    expect(rolling.diceFromLastTurn).toBe(false);
    expect(rolling.diceTitle).toBe("Your dice");
    expect(rolling.rolling).toBe(true);
  });

  it("names the roller over the dice", () => {
    const words = {
      name: (a: string) => (a === ALICE ? "You" : "Bob"),
      amount: (v: bigint) => `${v} wei`,
    };
    expect(buildTableModel(input()).diceTitle).toBe("Your dice");
    expect(buildTableModel(input({ me: ALICE, words })).diceTitle).toBe("Bob's dice");
  });

  it("stops offering roll and score once the move deadline has passed on the chain's clock", () => {
    const deadline = T0 + 300;
    // At the deadline itself the contract still refuses a timeout claim, so the move is on.
    const onTime = buildTableModel(input({ nowMs: deadline * 1000 }));
    expect(onTime.canRoll).toBe(true);
    expect(onTime.options).not.toBeNull();
    expect(onTime.blockedReason).toBeNull();

    const late = buildTableModel(input({ nowMs: deadline * 1000 + 1_000 }));
    expect(late.canRoll).toBe(false);
    expect(late.options).toBeNull();
    expect(late.blockedReason).toMatch(/time for this move is up/);
    expect(late.rollHint).toBe(late.blockedReason);
    expect(late.turnText).toBe("Round 1 of 13. Your turn — time is up.");
  });

  it("counts the move clock in chain time, not this computer's", () => {
    // The chain runs 66 s ahead of the computer: the model is given the chain's clock.
    const chainNow = (T0 + 66) * 1000;
    const model = buildTableModel(input({ nowMs: chainNow }));
    expect(model.turnText).toBe("Round 1 of 13. Your turn — 3:54 left.");
  });

  it("never counts down to the call-off as if it were time to move, not even while a roll is sent", () => {
    const requestedAt = T0;
    const out = gameView({
      pendingSequence: 9n,
      rollRequestedAt: BigInt(requestedAt),
      deadline: 0n,
      entropyAttempts: 1,
      retryAt: 0n,
      callOffAt: BigInt(requestedAt + 86_400),
    });
    // The click, the transaction on its way, then the request out: one heading throughout.
    const sent = buildTableModel(input({ sending: "roll" }));
    const waiting = buildTableModel(input({ view: out, nowMs: (T0 + 1) * 1000 }));
    for (const model of [sent, waiting]) {
      expect(model.turnText).toBe("Round 1 of 13. Your turn: waiting for the dice.");
      expect(model.turnText).not.toMatch(/left|h \d+ min/);
    }
    // The other player's view of the same roll.
    const words = { name: (a: string) => (a === ALICE ? "You" : "Bob"), amount: String };
    expect(buildTableModel(input({ view: out, me: ALICE, words })).turnText).toBe(
      "Round 1 of 13. Bob's turn: waiting for the dice.",
    );
    // A draw waits for its dice the same way.
    const draw = buildTableModel(input({ view: { ...out, orderDrawn: false } }));
    expect(draw.turnText).toBe("Round 1 of 13. Drawing the turn order, waiting for randomness.");
    // A refused roll that may be asked again says so; past the call-off, that the game can end.
    const refused = { ...out, pendingSequence: 0n, retryAt: BigInt(T0 + 10) };
    expect(buildTableModel(input({ view: refused, nowMs: (T0 + 20) * 1000 })).turnText).toBe(
      "Round 1 of 13. Your turn: the dice must be asked for again.",
    );
    expect(
      buildTableModel(input({ view: out, nowMs: (requestedAt + 86_401) * 1000 })).turnText,
    ).toBe("Round 1 of 13. Your turn: waiting for the dice — the game can now be called off.");
  });

  it("offers the timeout claim once the latest block is past the deadline, not by the clock", () => {
    const deadline = T0 + 300;
    const words = { name: (a: string) => (a === ALICE ? "You" : "Bob"), amount: String };
    // Alice waits for Bob; 13.9 s into the last 15 s nothing is offered.
    const base = {
      view: gameView(),
      me: ALICE,
      myTurn: false,
      sending: null,
      clockKnown: true,
    } as const;
    expect(words.name(BOB)).toBe("Bob");
    expect(
      claimOffer({ ...base, nowMs: (deadline - 1) * 1000, latestBlockSec: BigInt(deadline - 2) }),
    ).toBe("none");
    // The chain's clock says time is up, but the latest block is at the deadline itself: the
    // contract would answer that the player still has time.
    expect(
      claimOffer({ ...base, nowMs: deadline * 1000 + 900, latestBlockSec: BigInt(deadline) }),
    ).toBe("next block");
    expect(claimOffer({ ...base, nowMs: deadline * 1000 + 900, latestBlockSec: undefined })).toBe(
      "next block",
    );
    // A block past the deadline opens it, whatever this computer's clock says.
    expect(
      claimOffer({ ...base, nowMs: deadline * 1000 - 5000, latestBlockSec: BigInt(deadline + 1) }),
    ).toBe("open");
    // Never to the player to move, never while a move of mine is on its way.
    expect(
      claimOffer({ ...base, myTurn: true, nowMs: 0, latestBlockSec: BigInt(deadline + 1) }),
    ).toBe("none");
    expect(
      claimOffer({ ...base, sending: "claim", nowMs: 0, latestBlockSec: BigInt(deadline + 1) }),
    ).toBe("none");
  });

  it("offers a roll's call-off from the call-off's very second, as the contract takes it", () => {
    const callOffAt = T0 + 86_400;
    const view = gameView({
      pendingSequence: 9n,
      rollRequestedAt: BigInt(T0),
      deadline: 0n,
      entropyAttempts: 1,
      callOffAt: BigInt(callOffAt),
    });
    const base = { view, me: BOB, myTurn: true, sending: null, clockKnown: true } as const;
    const at = (block: number) =>
      claimOffer({ ...base, nowMs: block * 1000, latestBlockSec: BigInt(block) });
    expect(at(callOffAt - 1)).toBe("none");
    expect(at(callOffAt)).toBe("open");
  });

  it("lets a failed claim's error go once a later block is past the deadline", () => {
    const view = gameView();
    const deadline = BigInt(T0 + 300);
    expect(claimErrorOutdated(null, { number: 9n, timestamp: deadline + 5n }, view)).toBe(false);
    // The claim failed at block 7: block 7 again, or a block still at the deadline, keep it.
    expect(claimErrorOutdated(7n, { number: 7n, timestamp: deadline + 5n }, view)).toBe(false);
    expect(claimErrorOutdated(7n, { number: 8n, timestamp: deadline }, view)).toBe(false);
    expect(claimErrorOutdated(7n, { number: 8n, timestamp: deadline + 1n }, view)).toBe(true);
  });

  it("describes the log in the viewer's words", () => {
    const model = buildTableModel(input());
    expect(model.log.at(-1)?.text).toBe("You rolled 1, 2, 3, 4, 6 (roll 1 of 3).");
    expect(model.log.find((e) => e.text.includes("Full House"))?.text).toBe(
      "Alice scored 25 in Full House.",
    );
  });
});

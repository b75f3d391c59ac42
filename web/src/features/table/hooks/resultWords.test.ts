import { describe, expect, it } from "vitest";
import { foldGame } from "@dicehall/core/game/gameState.ts";
import { ALICE, BOB, CAROL, log, NATIVE } from "@dicehall/core/test/testLogs.ts";
import { creditTitle, payoutSentence, potSentence, refundOf } from "./resultWords.ts";

describe("payoutSentence", () => {
  it("speaks of one winner in the singular", () => {
    expect(payoutSentence(1, "0.0019 ETH")).toBe("the winner gets 0.0019 ETH.");
  });
  it("says 'each' only with several winners", () => {
    expect(payoutSentence(2, "0.00095 ETH")).toBe("the 2 winners get 0.00095 ETH each.");
  });
});

describe("potSentence", () => {
  it("keeps a space after the house fee's semicolon", () => {
    expect(potSentence("0.002 ETH", "0.0005 ETH", 1, "0.0015 ETH")).toBe(
      "Pot 0.002 ETH, house fee 0.0005 ETH; the winner gets 0.0015 ETH.",
    );
  });
  it("leaves out a house fee of nothing", () => {
    expect(potSentence("0.002 ETH", null, 2, "0.001 ETH")).toBe(
      "Pot 0.002 ETH; the 2 winners get 0.001 ETH each.",
    );
  });
});

describe("creditTitle", () => {
  it("calls a winner's credit their winnings", () => {
    expect(creditTitle(true).title).toBe("Your winnings");
  });
  it("calls a loser's credit what it is: unspent roll fees (this game's too) and other games' money", () => {
    const { title, note } = creditTitle(false);
    expect(title).toBe("Your credit in the hall");
    expect(title).not.toMatch(/winnings/i);
    // A revoked key's unused deposit is from this game: the note must not deny it.
    expect(note).not.toMatch(/Not from this game/);
    expect(note).toMatch(/^No winnings from this game: roll fees you paid in and did not spend/);
  });
});

describe("refundOf", () => {
  const created = log(
    "GameCreated",
    {
      gameId: 1n,
      creator: ALICE,
      token: NATIVE,
      bet: 5n,
      seats: 3,
      ruleSet: 0,
      isPrivate: false,
    },
    1,
    0,
  );
  const joined = (player: `0x${string}`, block: number) =>
    log("PlayerJoined", { gameId: 1n, player }, block, 0);
  const cancelled = log("GameCancelled", { gameId: 1n }, 9, 0);

  it("is the bet of a player seated at the cancel, not their whole credit", () => {
    const state = foldGame(1n, [created, joined(ALICE, 2), joined(BOB, 3), cancelled]);
    expect(refundOf(state, BOB)).toBe(5n);
  });

  it("is nothing for someone who left before, or never sat, or while the table is open", () => {
    const left = log("PlayerLeft", { gameId: 1n, player: BOB }, 4, 0);
    const state = foldGame(1n, [created, joined(ALICE, 2), joined(BOB, 3), left, cancelled]);
    expect(refundOf(state, BOB)).toBe(0n);
    expect(refundOf(state, CAROL)).toBe(0n);
    expect(refundOf(foldGame(1n, [created, joined(ALICE, 2)]), ALICE)).toBe(0n);
  });
});

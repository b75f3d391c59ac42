import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { initialGameState, type GameState } from "./gameState.ts";
import { isRematchOf, rematchesFor, rematchesOf } from "./rematch.ts";

const ANN: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CAT: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const EVE: Address = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const NATIVE: Address = "0x0000000000000000000000000000000000000000";

function game(id: bigint, over: Partial<GameState>): GameState {
  return {
    ...initialGameState(id),
    token: NATIVE,
    bet: 1_000n,
    seats: 3,
    ruleSet: 0,
    ...over,
  };
}

const finished = game(5n, {
  status: "finished",
  creator: ANN,
  players: [BOB, ANN, CAT],
  result: {
    players: [BOB, ANN, CAT],
    totals: [200n, 180n, 150n],
    winners: [BOB],
    payoutEach: 2_900n,
    houseFee: 100n,
  },
});
// Cat, who lost, opens the same table again and invites the other two (Ann in lower case).
const lobby = game(9n, {
  status: "open",
  creator: CAT,
  isPrivate: true,
  invitees: [BOB, ANN.toLowerCase() as Address],
  players: [CAT],
});

describe("rematch", () => {
  it("recognises a lobby by a player of the finished game, inviting the others, same table", () => {
    expect(isRematchOf(lobby, finished)).toBe(true);
    expect(rematchesOf(finished, [finished, lobby])).toEqual([lobby]);
  });

  it("recognises an open lobby with the same settings and seats", () => {
    const open = { ...lobby, isPrivate: false, invitees: [] };
    expect(isRematchOf(open, finished)).toBe(true);
    expect(isRematchOf({ ...open, seats: 2 }, finished)).toBe(false);
  });

  it("is not a rematch with other stakes, rules, token, creator, or leaving a player out", () => {
    expect(isRematchOf({ ...lobby, bet: 2_000n }, finished)).toBe(false);
    expect(isRematchOf({ ...lobby, ruleSet: 3 }, finished)).toBe(false);
    expect(isRematchOf({ ...lobby, token: EVE }, finished)).toBe(false);
    // A match's rematch is a match of the same length.
    const match = { length: 3, number: 3, games: [] };
    expect(isRematchOf(lobby, { ...finished, match })).toBe(false);
    expect(isRematchOf({ ...lobby, match: { ...match, number: 1 } }, { ...finished, match })).toBe(
      true,
    );
    expect(isRematchOf({ ...lobby, creator: EVE }, finished)).toBe(false);
    expect(isRematchOf({ ...lobby, invitees: [BOB] }, finished)).toBe(false);
    // Opened before the game it would replay, or replaying a game that is not over.
    expect(isRematchOf({ ...lobby, gameId: 4n }, finished)).toBe(false);
    expect(isRematchOf(lobby, { ...finished, status: "running" })).toBe(false);
  });

  it("offers it to every other player of the finished game, winner and losers alike", () => {
    const games = [finished, lobby];
    for (const me of [BOB, ANN]) {
      expect(rematchesFor(me, games).map((r) => [r.lobby.gameId, r.of.gameId])).toEqual([[9n, 5n]]);
    }
  });

  it("not to its creator, to someone who already sat down, or to a stranger", () => {
    expect(rematchesFor(CAT, [finished, lobby])).toEqual([]);
    expect(rematchesFor(BOB, [finished, { ...lobby, players: [CAT, BOB] }])).toEqual([]);
    expect(rematchesFor(EVE, [finished, lobby])).toEqual([]);
    expect(rematchesFor(undefined, [finished, lobby])).toEqual([]);
    // A filled lobby has started: no longer an offer.
    expect(rematchesFor(BOB, [finished, { ...lobby, status: "running" }])).toEqual([]);
  });
});

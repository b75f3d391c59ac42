import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import {
  BadQueryError,
  gameFromWire,
  gameToWire,
  leaderboardSearch,
  parseGamesQuery,
  parseLeaderboardQuery,
  rowFromWire,
  rowToWire,
} from "./indexerWire.ts";
import type { LeaderboardRow } from "../leaderboard/leaderboard.ts";

const ALICE = "0x00000000000000000000000000000000000A11CE" as Address;
const NATIVE = "0x0000000000000000000000000000000000000000";

describe("the indexer's wire format", () => {
  it("carries a leaderboard row through JSON unchanged, bigints included", () => {
    const row: LeaderboardRow = {
      player: ALICE,
      games: 3,
      wins: 2,
      forfeits: 1,
      winRate: 2 / 3,
      best: 301,
      average: 255.5,
      yahtzees: 1,
      net: { [NATIVE]: -(10n ** 30n), "0xd1": 5n },
      staked: { [NATIVE]: 10n ** 30n, "0xd1": 7n },
      lastBlock: 123_456_789_012n,
    };
    const wire = JSON.parse(JSON.stringify(rowToWire(row)));
    expect(wire.net[NATIVE]).toBe("-1000000000000000000000000000000");
    expect(rowFromWire(wire)).toEqual(row);
  });

  it("carries a finished game through JSON unchanged", () => {
    const game = {
      gameId: 12n,
      blockNumber: 99n,
      timestamp: 1_795_000_000,
      ruleSet: 3,
      token: ALICE,
      bet: 10n ** 18n,
      players: [ALICE, ALICE],
      totals: [200n, 150n],
      winners: [ALICE],
      forfeited: [],
      payoutEach: 2n * 10n ** 18n,
      houseFee: 1n,
    };
    expect(gameFromWire(JSON.parse(JSON.stringify(gameToWire(game))))).toEqual(game);
  });

  it("parses what leaderboardSearch writes back into the same query", () => {
    const query = parseLeaderboardQuery(
      new URLSearchParams(
        leaderboardSearch({
          ruleSet: 2,
          token: ALICE,
          fromBlock: 10n,
          toBlock: 20n,
          since: 1_795_000_000,
          sort: "net",
          direction: "asc",
          sortToken: ALICE,
          offset: 50,
          limit: 25,
          me: ALICE,
        }),
      ),
    );
    expect(query).toEqual({
      ruleSet: 2,
      token: ALICE.toLowerCase(),
      fromBlock: 10n,
      toBlock: 20n,
      since: 1_795_000_000,
      sort: "net",
      direction: "asc",
      sortToken: ALICE.toLowerCase(),
      offset: 50,
      limit: 25,
      me: ALICE.toLowerCase(),
    });
  });

  it("defaults to the first 50 rows by wins, nothing filtered", () => {
    expect(parseLeaderboardQuery(new URLSearchParams(""))).toMatchObject({
      ruleSet: null,
      token: null,
      since: null,
      sort: "wins",
      direction: "desc",
      offset: 0,
      limit: 50,
      me: null,
    });
    expect(parseGamesQuery(new URLSearchParams(""))).toEqual({
      player: null,
      offset: 0,
      limit: 50,
    });
  });

  it.each([
    ["sort=luck", /sort must be one of/],
    ["dir=up", /dir must be asc or desc/],
    ["ruleSet=256", /ruleSet must be a whole number up to 255/],
    ["ruleSet=-1", /ruleSet must be a whole number/],
    ["limit=501", /limit must be a whole number up to 500/],
    ["token=0x12", /token must be an address/],
    ["fromBlock=ten", /fromBlock must be a block number/],
  ])("refuses %s with a reason", (search, reason) => {
    expect(() => parseLeaderboardQuery(new URLSearchParams(search))).toThrow(BadQueryError);
    expect(() => parseLeaderboardQuery(new URLSearchParams(search))).toThrow(reason);
  });

  it("refuses a games query with a player that is not an address", () => {
    expect(() => parseGamesQuery(new URLSearchParams("player=bob"))).toThrow(
      /player must be an address/,
    );
  });
});

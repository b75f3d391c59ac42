import { describe, expect, it } from "vitest";
import { zeroAddress, type Address } from "viem";
import type { HallSettings } from "@/chain/settings.ts";
import type { TablePrefs } from "@/data/tablePrefs.ts";
import { ALICE, BOB, CAROL } from "@dicehall/core/test/testLogs.ts";
import {
  betRange,
  effectivePrefs,
  JOIN_MARGIN_MS,
  olderTwin,
  pickTable,
  type CandidateTable,
} from "./playNow.ts";

const TUSD: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const NOW = 1_700_000_000_000;
const LATER = BigInt(NOW / 1000 + 600);
const prefs: TablePrefs = { token: zeroAddress, bet: 10n ** 16n, seats: 2, ruleSet: 0 };

function table(gameId: number, over: Partial<CandidateTable> = {}): CandidateTable {
  return {
    gameId: BigInt(gameId),
    token: zeroAddress,
    bet: 10n ** 16n,
    seats: 2,
    ruleSet: 0,
    isPrivate: false,
    open: true,
    players: [ALICE],
    deadline: LATER,
    ...over,
  };
}

describe("pickTable", () => {
  it("joins a match only when a match of that length is wanted", () => {
    const tables = [table(3, { games: 5 }), table(4, { games: 3 })];
    expect(pickTable(tables, prefs, BOB, NOW)).toEqual({ kind: "open" });
    expect(pickTable(tables, { ...prefs, games: 3 }, BOB, NOW)).toEqual({
      kind: "join",
      gameId: 4n,
    });
    expect(pickTable([table(5)], { ...prefs, games: 1 }, BOB, NOW)).toEqual({
      kind: "join",
      gameId: 5n,
    });
  });

  it("takes the oldest table that fits, whatever order the list comes in", () => {
    expect(pickTable([table(9), table(4), table(7)], prefs, BOB, NOW)).toEqual({
      kind: "join",
      gameId: 4n,
    });
  });

  it("passes over private, full, closed, closing, unread and started tables", () => {
    const passed = [
      table(1, { isPrivate: true }),
      table(2, { players: [ALICE, CAROL] }),
      table(3, { deadline: BigInt(NOW / 1000 - 1) }),
      table(4, { deadline: BigInt((NOW + JOIN_MARGIN_MS) / 1000) }),
      table(5, { deadline: undefined }),
      table(6, { open: false }),
    ];
    expect(pickTable(passed, prefs, BOB, NOW)).toEqual({ kind: "open" });
    expect(pickTable([...passed, table(8)], prefs, BOB, NOW)).toEqual({
      kind: "join",
      gameId: 8n,
    });
  });

  it("matches the token, the rule set, the seats and a bet from half to twice the remembered one", () => {
    const others = [
      table(1, { token: TUSD }),
      table(2, { ruleSet: 1 }),
      table(3, { seats: 3 }),
      table(4, { bet: prefs.bet / 2n - 1n }),
      table(5, { bet: prefs.bet * 2n + 1n }),
    ];
    expect(pickTable(others, prefs, BOB, NOW)).toEqual({ kind: "open" });
    expect(pickTable([...others, table(6, { bet: prefs.bet * 2n })], prefs, BOB, NOW)).toEqual({
      kind: "join",
      gameId: 6n,
    });
    const tusd = { ...prefs, token: TUSD.toLowerCase() as Address };
    expect(pickTable(others, tusd, BOB, NOW)).toEqual({ kind: "join", gameId: 1n });
    expect(betRange(10n)).toEqual({ min: 5n, max: 20n });
  });

  it("sends a player who already waits at such a table back to it, not to a second bet", () => {
    expect(pickTable([table(3), table(5, { players: [BOB] })], prefs, BOB, NOW)).toEqual({
      kind: "waiting",
      gameId: 5n,
    });
    expect(pickTable([table(3, { players: [BOB] })], prefs, ALICE, NOW)).toEqual({
      kind: "join",
      gameId: 3n,
    });
  });
});

describe("effectivePrefs", () => {
  const native = {
    address: zeroAddress,
    symbol: "ETH",
    decimals: 18,
    native: true,
    allowed: true,
    minBet: 10n ** 15n,
    maxBet: 10n ** 18n,
  };
  const token = { ...native, address: TUSD, symbol: "TUSD", native: false, minBet: 5n };
  const settings: HallSettings = {
    joinWindow: { min: 60, max: 86_400 },
    moveTimeout: { min: 60, max: 86_400 },
    houseFeeBps: 0,
    entropyTimeout: 300,
    tokens: [token, native],
  };

  it("starts a newcomer at the native coin's minimum bet, two seats, Yahtzee", () => {
    expect(effectivePrefs(null, settings)).toMatchObject({
      token: zeroAddress,
      bet: 10n ** 15n,
      seats: 2,
      ruleSet: 0,
    });
  });

  it("keeps the remembered table, its bet inside today's limits", () => {
    const remembered = { token: TUSD, bet: 1n, seats: 3, ruleSet: 2 };
    expect(effectivePrefs(remembered, settings)).toMatchObject({ ...remembered, bet: 5n });
    const closed = { ...settings, tokens: [{ ...token, allowed: false }, native] };
    expect(effectivePrefs(remembered, closed)?.token).toBe(zeroAddress);
    expect(effectivePrefs(null, { ...settings, tokens: [] })).toBeNull();
  });
});

describe("olderTwin", () => {
  // Bob opened table 8 in the same moment as Alice opened table 7.
  const mine = 8n;
  const twin = table(7, { players: [ALICE] });
  const bobs = table(8, { players: [BOB] });

  it("moves the later of two players who opened the same kind of table at once", () => {
    expect(olderTwin([bobs, twin], mine, prefs, BOB, NOW)).toBe(7n);
  });

  it("keeps the earlier one where they are: no table older than theirs", () => {
    expect(olderTwin([bobs, twin], 7n, prefs, ALICE, NOW)).toBeNull();
  });

  it("never moves to a newer table, a full, private, closing or different one", () => {
    const newer = table(9);
    const full = table(6, { players: [ALICE, CAROL] });
    const privateOne = table(5, { isPrivate: true });
    const closing = table(4, { deadline: BigInt(Math.floor((NOW + JOIN_MARGIN_MS / 2) / 1000)) });
    const otherRules = table(3, { ruleSet: 1 });
    const otherBet = table(2, { bet: prefs.bet * 3n });
    expect(
      olderTwin(
        [newer, full, privateOne, closing, otherRules, otherBet, bobs],
        mine,
        prefs,
        BOB,
        NOW,
      ),
    ).toBeNull();
  });

  it("never moves to a table I am already at", () => {
    expect(
      olderTwin([table(7, { players: [ALICE, BOB] }), bobs], mine, prefs, BOB, NOW),
    ).toBeNull();
  });
});

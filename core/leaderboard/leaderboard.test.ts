import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import {
  foldLeaderboard,
  rowFromTotals,
  sumsOfGameRow,
  sortLeaderboard,
  TIE_BREAK_TEXT,
  tokensIn,
  type LeaderboardLog,
  type LeaderboardRow,
  type LeaderboardSums,
  type LeaderboardTotals,
} from "./leaderboard.ts";

const ALICE = "0x00000000000000000000000000000000000A11CE" as Address;
const BOB = "0x0000000000000000000000000000000000000B0B" as Address;
const CAROL = "0x00000000000000000000000000000000000CA201" as Address;
const NATIVE = "0x0000000000000000000000000000000000000000" as Address;
const USD = "0x00000000000000000000000000000000000000D1" as Address;

let logIndex = 0;
const at = (blockNumber: number) => ({ blockNumber: BigInt(blockNumber), logIndex: logIndex++ });

function created(
  gameId: number,
  bet: bigint,
  token: Address = NATIVE,
  ruleSet = 0,
  seats = 2,
  block = gameId * 10,
): LeaderboardLog {
  return {
    eventName: "GameCreated",
    args: { gameId: BigInt(gameId), creator: ALICE, token, bet, seats, ruleSet, isPrivate: false },
    ...at(block),
  };
}

function scored(
  gameId: number,
  player: Address,
  category: number,
  points: number,
  bonus = 0,
  block = gameId * 10 + 1,
): LeaderboardLog {
  return {
    eventName: "Scored",
    args: {
      gameId: BigInt(gameId),
      player,
      category,
      points: BigInt(points),
      bonus: BigInt(bonus),
    },
    ...at(block),
  };
}

function forfeited(gameId: number, player: Address, block = gameId * 10 + 2): LeaderboardLog {
  return { eventName: "PlayerForfeited", args: { gameId: BigInt(gameId), player }, ...at(block) };
}

interface Finish {
  players: Address[];
  totals: number[];
  winners: Address[];
  payoutEach: bigint;
  houseFee?: bigint;
  token?: Address;
  ruleSet?: number;
  block?: number;
}

function finished(gameId: number, f: Finish): LeaderboardLog {
  return {
    eventName: "GameFinished",
    args: {
      gameId: BigInt(gameId),
      token: f.token ?? NATIVE,
      ruleSet: f.ruleSet ?? 0,
      players: f.players,
      totals: f.totals.map(BigInt),
      winners: f.winners,
      payoutEach: f.payoutEach,
      houseFee: f.houseFee ?? 0n,
    },
    ...at(f.block ?? gameId * 10 + 5),
  };
}

const rowOf = (rows: LeaderboardRow[], player: Address) =>
  rows.find((r) => r.player.toLowerCase() === player.toLowerCase())!;

describe("foldLeaderboard", () => {
  it("counts games, wins, scores and net winnings of a plain game", () => {
    const rows = foldLeaderboard([
      created(1, 100n),
      finished(1, {
        players: [ALICE, BOB],
        totals: [250, 180],
        winners: [ALICE],
        payoutEach: 190n,
        houseFee: 10n,
      }),
    ]);
    const alice = rowOf(rows, ALICE);
    const bob = rowOf(rows, BOB);
    expect(alice).toMatchObject({
      games: 1,
      wins: 1,
      winRate: 1,
      best: 250,
      average: 250,
      forfeits: 0,
    });
    expect(alice.net[NATIVE]).toBe(90n);
    expect(alice.staked[NATIVE]).toBe(100n);
    expect(bob).toMatchObject({ games: 1, wins: 0, winRate: 0, best: 180, average: 180 });
    expect(bob.net[NATIVE]).toBe(-100n);
  });

  it("counts a tie as a win for each tied winner and gives the remainder to the first winner", () => {
    // Pot 3 × 101 = 303, fee 0: 151 each, remainder 1 to the first winner in turn order.
    const rows = foldLeaderboard([
      created(1, 101n, NATIVE, 0, 3),
      finished(1, {
        players: [BOB, ALICE, CAROL],
        totals: [200, 200, 150],
        winners: [BOB, ALICE],
        payoutEach: 151n,
      }),
    ]);
    expect(rowOf(rows, ALICE).wins).toBe(1);
    expect(rowOf(rows, BOB).wins).toBe(1);
    expect(rowOf(rows, CAROL).wins).toBe(0);
    expect(rowOf(rows, BOB).net[NATIVE]).toBe(151n + 1n - 101n);
    expect(rowOf(rows, ALICE).net[NATIVE]).toBe(151n - 101n);
    expect(rowOf(rows, CAROL).net[NATIVE]).toBe(-101n);
    // Money is conserved: the players' nets sum to minus the house fee.
    const sum = rows.reduce((s, r) => s + (r.net[NATIVE] ?? 0n), 0n);
    expect(sum).toBe(0n);
  });

  it("counts a forfeit as a game lost and leaves its partial total out of best and average", () => {
    const rows = foldLeaderboard([
      created(1, 50n),
      forfeited(1, BOB),
      finished(1, { players: [ALICE, BOB], totals: [120, 40], winners: [ALICE], payoutEach: 100n }),
      created(2, 50n),
      finished(2, { players: [ALICE, BOB], totals: [150, 210], winners: [BOB], payoutEach: 100n }),
    ]);
    const bob = rowOf(rows, BOB);
    expect(bob).toMatchObject({
      games: 2,
      wins: 1,
      forfeits: 1,
      best: 210,
      average: 210,
      winRate: 0.5,
    });
    // Game 1 stopped when Bob forfeited, so Alice's 120 is an unfinished sheet: not a score.
    const alice = rowOf(rows, ALICE);
    expect(alice).toMatchObject({ games: 2, wins: 1, best: 150, average: 150 });
  });

  it("keeps the totals of the players who finished a game someone else forfeited", () => {
    const rows = foldLeaderboard([
      created(1, 50n),
      forfeited(1, CAROL),
      finished(1, {
        players: [ALICE, BOB, CAROL],
        totals: [180, 230, 12],
        winners: [BOB],
        payoutEach: 150n,
      }),
    ]);
    expect(rowOf(rows, ALICE)).toMatchObject({ best: 180, average: 180 });
    expect(rowOf(rows, BOB)).toMatchObject({ best: 230, wins: 1 });
    expect(rowOf(rows, CAROL)).toMatchObject({ best: null, forfeits: 1 });
  });

  it("has no best or average for a player who forfeited every game", () => {
    const rows = foldLeaderboard([
      created(1, 50n),
      forfeited(1, BOB),
      finished(1, { players: [ALICE, BOB], totals: [120, 40], winners: [ALICE], payoutEach: 100n }),
    ]);
    expect(rowOf(rows, BOB)).toMatchObject({ best: null, average: null, forfeits: 1 });
  });

  it("counts Yahtzees: 50 in the five-of-a-kind box and each bonus, only in finished games", () => {
    const rows = foldLeaderboard([
      created(1, 10n),
      scored(1, ALICE, 11, 50),
      scored(1, ALICE, 5, 30, 100), // a bonus Yahtzee (Joker in Sixes)
      scored(1, ALICE, 12, 30), // 30 in Chance is not a Yahtzee
      scored(1, BOB, 11, 0), // a scratched Yahtzee box
      finished(1, { players: [ALICE, BOB], totals: [300, 100], winners: [ALICE], payoutEach: 20n }),
      created(2, 10n, NATIVE, 1),
      scored(2, BOB, 14, 50), // Yatzy's box is 14
      finished(2, {
        players: [ALICE, BOB],
        totals: [150, 200],
        winners: [BOB],
        payoutEach: 20n,
        ruleSet: 1,
      }),
      created(3, 10n),
      scored(3, CAROL, 11, 50), // game 3 never finished
    ]);
    expect(rowOf(rows, ALICE).yahtzees).toBe(2);
    expect(rowOf(rows, BOB).yahtzees).toBe(1);
    expect(rows.find((r) => r.player === CAROL)).toBeUndefined();
  });

  it("keeps net winnings apart per token", () => {
    const rows = foldLeaderboard([
      created(1, 100n, NATIVE),
      finished(1, {
        players: [ALICE, BOB],
        totals: [200, 100],
        winners: [ALICE],
        payoutEach: 200n,
      }),
      created(2, 5_000n, USD),
      finished(2, {
        players: [ALICE, BOB],
        totals: [100, 200],
        winners: [BOB],
        payoutEach: 10_000n,
        token: USD,
      }),
    ]);
    const alice = rowOf(rows, ALICE);
    expect(alice.net).toEqual({ [NATIVE]: 100n, [USD.toLowerCase()]: -5_000n });
    expect(tokensIn(rows)).toEqual([NATIVE, USD.toLowerCase()]);
  });

  it("filters by rule set, token and block range", () => {
    const logs = [
      created(1, 100n, NATIVE, 0),
      finished(1, {
        players: [ALICE, BOB],
        totals: [200, 100],
        winners: [ALICE],
        payoutEach: 200n,
        block: 100,
      }),
      created(2, 100n, USD, 1),
      finished(2, {
        players: [ALICE, CAROL],
        totals: [100, 200],
        winners: [CAROL],
        payoutEach: 200n,
        token: USD,
        ruleSet: 1,
        block: 200,
      }),
      created(3, 100n, NATIVE, 2),
      finished(3, {
        players: [BOB, CAROL],
        totals: [100, 90],
        winners: [BOB],
        payoutEach: 200n,
        ruleSet: 2,
        block: 300,
      }),
    ];
    expect(
      foldLeaderboard(logs, { ruleSet: 1 })
        .map((r) => r.player)
        .sort(),
    ).toEqual([ALICE, CAROL].sort());
    expect(rowOf(foldLeaderboard(logs, { token: USD.toLowerCase() as Address }), ALICE).games).toBe(
      1,
    );
    expect(rowOf(foldLeaderboard(logs, { token: NATIVE }), BOB).games).toBe(2);
    const recent = foldLeaderboard(logs, { fromBlock: 150n });
    expect(rowOf(recent, ALICE).games).toBe(1);
    expect(rowOf(recent, BOB).games).toBe(1);
    expect(foldLeaderboard(logs, { fromBlock: 150n, toBlock: 250n }).length).toBe(2);
  });

  it("does not depend on log order and ignores duplicated logs", () => {
    const logs = [
      created(1, 10n),
      scored(1, ALICE, 11, 50),
      forfeited(1, BOB),
      finished(1, { players: [ALICE, BOB], totals: [300, 100], winners: [ALICE], payoutEach: 20n }),
      created(2, 10n),
      finished(2, { players: [ALICE, BOB], totals: [150, 200], winners: [BOB], payoutEach: 20n }),
    ];
    const expected = foldLeaderboard(logs);
    const shuffled = [...logs].reverse();
    expect(foldLeaderboard(shuffled)).toEqual(expect.arrayContaining(expected));
    expect(foldLeaderboard([...logs, ...logs])).toEqual(expect.arrayContaining(expected));
    expect(foldLeaderboard([...logs, ...logs]).length).toBe(expected.length);
  });

  it("matches players whatever the case of their address", () => {
    const rows = foldLeaderboard([
      created(1, 10n),
      scored(1, ALICE.toLowerCase() as Address, 11, 50),
      finished(1, {
        players: [ALICE, BOB],
        totals: [300, 100],
        winners: [ALICE.toLowerCase() as Address],
        payoutEach: 20n,
      }),
    ]);
    expect(rowOf(rows, ALICE)).toMatchObject({ wins: 1, yahtzees: 1 });
  });

  it("adds nothing to net winnings for a game without its GameCreated", () => {
    const rows = foldLeaderboard([
      finished(1, { players: [ALICE, BOB], totals: [300, 100], winners: [ALICE], payoutEach: 20n }),
    ]);
    expect(rowOf(rows, ALICE)).toMatchObject({ games: 1, wins: 1, net: {} });
  });
});

/**
 * A player's row from their one-game sums, added up as the indexer's running totals and its SQL
 * add them (totals over every token, bets and winnings per token), then finished by rowFromTotals.
 */
function rowFromSums(player: Address, perToken: readonly LeaderboardSums[]) {
  const totals: LeaderboardTotals = {
    games: 0,
    wins: 0,
    forfeits: 0,
    best: null,
    points: 0,
    completed: 0,
    yahtzees: 0,
    lastBlock: 0n,
  };
  for (const s of perToken) {
    totals.games += s.games;
    totals.wins += s.wins;
    totals.forfeits += s.forfeits;
    if (s.best !== null && (totals.best === null || s.best > totals.best)) totals.best = s.best;
    totals.points += s.points;
    totals.completed += s.completed;
    totals.yahtzees += s.yahtzees;
    if (s.lastBlock > totals.lastBlock) totals.lastBlock = s.lastBlock;
  }
  return rowFromTotals(player, totals, perToken);
}

describe("sums of one-game rows", () => {
  it("add up into the same rows as folding every game at once", () => {
    // Wins, a tie with a remainder, a forfeit that ends a game, Yahtzees, two tokens.
    const logs = [
      created(1, 100n),
      scored(1, ALICE, 11, 50),
      finished(1, {
        players: [ALICE, BOB],
        totals: [250, 180],
        winners: [ALICE],
        payoutEach: 195n,
        houseFee: 5n,
      }),
      created(2, 7n, USD, 1, 3),
      finished(2, {
        players: [BOB, CAROL, ALICE],
        totals: [200, 200, 150],
        winners: [BOB, CAROL],
        payoutEach: 10n,
        houseFee: 0n,
        token: USD,
        ruleSet: 1,
      }),
      created(3, 100n),
      forfeited(3, BOB),
      scored(3, ALICE, 2, 0, 100),
      finished(3, { players: [ALICE, BOB], totals: [90, 40], winners: [ALICE], payoutEach: 200n }),
      created(4, 100n, NATIVE, 2),
      finished(4, {
        players: [CAROL, ALICE],
        totals: [310, 120],
        winners: [CAROL],
        payoutEach: 190n,
        houseFee: 10n,
        ruleSet: 2,
      }),
    ];
    const games = [1, 2, 3, 4].map((id) =>
      logs.filter((l) => (l.args as { gameId: bigint }).gameId === BigInt(id)),
    );
    const tokenOf = (game: LeaderboardLog[]) =>
      (
        game.find((l) => l.eventName === "GameFinished")!.args as { token: Address }
      ).token.toLowerCase();

    const perPlayer = new Map<string, ReturnType<typeof sumsOfGameRow>[]>();
    for (const game of games) {
      for (const row of foldLeaderboard(game)) {
        const list = perPlayer.get(row.player) ?? [];
        list.push(sumsOfGameRow(row, tokenOf(game)));
        perPlayer.set(row.player, list);
      }
    }
    const summed = [...perPlayer].map(([player, sums]) => rowFromSums(player as Address, sums));
    expect(sortLeaderboard(summed)).toEqual(sortLeaderboard(foldLeaderboard(logs)));
    // Not vacuous: the fold's rows have forfeits, Yahtzees, two tokens and a null-free average.
    expect(rowOf(summed, BOB).forfeits).toBe(1);
    expect(rowOf(summed, ALICE).yahtzees).toBe(2);
    expect(Object.keys(rowOf(summed, ALICE).net)).toHaveLength(2);
  });
});

describe("rowFromTotals", () => {
  it("finishes a row from totals over every token and the bets and winnings per token", () => {
    const row = rowFromTotals(
      ALICE,
      {
        games: 4,
        wins: 3,
        forfeits: 1,
        best: 250,
        points: 490,
        completed: 2,
        yahtzees: 2,
        lastBlock: 9n,
      },
      [
        { token: NATIVE, staked: 300n, net: 95n },
        { token: USD.toLowerCase(), staked: 7n, net: 3n },
      ],
    );
    expect(row).toEqual({
      player: ALICE,
      games: 4,
      wins: 3,
      forfeits: 1,
      winRate: 0.75,
      best: 250,
      average: 245,
      yahtzees: 2,
      net: { [NATIVE]: 95n, [USD.toLowerCase()]: 3n },
      staked: { [NATIVE]: 300n, [USD.toLowerCase()]: 7n },
      lastBlock: 9n,
    });
    // No completed sheet: no average.
    expect(
      rowFromTotals(ALICE, { ...row, points: 0, completed: 0, best: null }, []).average,
    ).toBeNull();
  });
});

describe("sortLeaderboard", () => {
  const rows = foldLeaderboard([
    created(1, 100n),
    finished(1, { players: [ALICE, BOB], totals: [250, 180], winners: [ALICE], payoutEach: 200n }),
    created(2, 100n),
    finished(2, {
      players: [ALICE, CAROL],
      totals: [150, 280],
      winners: [CAROL],
      payoutEach: 200n,
    }),
    created(3, 100n),
    forfeited(3, CAROL),
    finished(3, { players: [BOB, CAROL], totals: [190, 20], winners: [BOB], payoutEach: 200n }),
    created(4, 1000n, USD),
    finished(4, {
      players: [BOB, ALICE],
      totals: [190, 200],
      winners: [ALICE],
      payoutEach: 2000n,
      token: USD,
    }),
  ]);
  const order = (list: LeaderboardRow[]) => list.map((r) => r.player);

  it("sorts by wins by default, ties broken by win rate, then fewer games, then address", () => {
    // Alice 2 wins in 3; Bob 1 in 3; Carol 1 in 2.
    expect(order(sortLeaderboard(rows))).toEqual([ALICE, CAROL, BOB]);
  });

  it("sorts by each column in both directions", () => {
    expect(order(sortLeaderboard(rows, { key: "best", direction: "desc" }))).toEqual([
      CAROL,
      ALICE,
      BOB,
    ]);
    expect(order(sortLeaderboard(rows, { key: "best", direction: "asc" }))).toEqual([
      BOB,
      ALICE,
      CAROL,
    ]);
    expect(order(sortLeaderboard(rows, { key: "average", direction: "desc" }))).toEqual([
      CAROL,
      ALICE,
      BOB,
    ]);
    expect(order(sortLeaderboard(rows, { key: "games", direction: "asc" }))[0]).toBe(CAROL);
    // By address, as text: ...000b0b < ...0a11ce < ...0ca201.
    expect(order(sortLeaderboard(rows, { key: "player", direction: "asc" }))).toEqual([
      BOB,
      ALICE,
      CAROL,
    ]);
  });

  it("sorts by net winnings in one token, players without games in it last", () => {
    const byUsd = sortLeaderboard(rows, { key: "net", direction: "desc", token: USD });
    expect(order(byUsd)).toEqual([ALICE, BOB, CAROL]);
    const byUsdAsc = sortLeaderboard(rows, { key: "net", direction: "asc", token: USD });
    expect(order(byUsdAsc)).toEqual([BOB, ALICE, CAROL]);
    const byNative = sortLeaderboard(rows, { key: "net", direction: "desc", token: NATIVE });
    // Everyone won one and lost one native game: equal nets fall back to the default order.
    expect(byNative.map((r) => r.net[NATIVE])).toEqual([0n, 0n, 0n]);
    expect(order(byNative)).toEqual([ALICE, CAROL, BOB]);
  });

  it("does not change its input", () => {
    const before = order(rows);
    sortLeaderboard(rows, { key: "best", direction: "asc" });
    expect(order(rows)).toEqual(before);
  });

  it("breaks ties as the page says it does: wins, win rate, fewer games, address", () => {
    const row = (player: `0x${string}`, wins: number, games: number): LeaderboardRow => ({
      player,
      games,
      wins,
      forfeits: 0,
      winRate: wins / games,
      best: 200,
      average: 200,
      yahtzees: 0,
      net: {},
      staked: {},
      lastBlock: 1n,
    });
    // All level on the sorted column (best 200).
    const level = [row(BOB, 1, 2), row(CAROL, 2, 4), row(ALICE, 2, 5), row(USD, 1, 2)];
    expect(order(sortLeaderboard(level, { key: "best", direction: "desc" }))).toEqual([
      CAROL, // 2 wins at 50%
      ALICE, // 2 wins at 40%
      ...[BOB, USD].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)), // 1 in 2 each
    ]);
    expect(TIE_BREAK_TEXT).toMatch(/more wins, then a higher win rate, then fewer games.*address/);
  });
});

describe("a match on the board", () => {
  it("counts once (its pot once), with each of its games' totals in best and average", async () => {
    const { keccak256, toHex } = await import("viem");
    const { playBotGame } = await import("../game/botGame.ts");
    const { chooseTurnAction } = await import("../rules/strategy.ts");
    const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;
    const B = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" as const;
    const match = playBotGame({
      gameId: 5n,
      ruleSet: 0,
      players: [A, B],
      bet: 1000n,
      games: 3,
      choose: (_s, sheet, dice, rolls) => chooseTurnAction(sheet, dice ?? [1, 1, 1, 1, 1], rolls),
      reveal: (seq) => keccak256(toHex(`board:${seq}`)),
    });
    const ends = match.logs.filter((l) => l.eventName === "MatchGameFinished");
    const rows = foldLeaderboard(match.logs as never);
    for (const row of rows) {
      const mine = ends.map((e) =>
        e.eventName === "MatchGameFinished"
          ? Number(e.args.totals[e.args.players.findIndex((p) => p === row.player)])
          : 0,
      );
      expect(row.games).toBe(1);
      expect(row.staked["0x0000000000000000000000000000000000000000"]).toBe(1000n);
      expect(row.best).toBe(Math.max(...mine));
      expect(row.average).toBeCloseTo(mine.reduce((a, b) => a + b, 0) / 3);
      // The one-game sums the indexer adds up carry the three sheets.
      expect(sumsOfGameRow(row, "0x0000000000000000000000000000000000000000")).toMatchObject({
        completed: 3,
        points: mine.reduce((a, b) => a + b, 0),
      });
    }
    // The pot goes once: the winners' net adds up to what the losers paid.
    const net = rows.reduce(
      (s, r) => s + (r.net["0x0000000000000000000000000000000000000000"] ?? 0n),
      0n,
    );
    expect(net).toBe(0n);
  });
});

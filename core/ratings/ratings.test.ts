import { describe, expect, it } from "vitest";
import {
  foldRatings,
  initialRating,
  placesOf,
  rateGame,
  ratingKey,
  type RatedGame,
} from "./ratings.ts";

const A = "0xAaAaaAaaaAaAAAaaaAaaaaAaAAAaAaAaAaAaaAaa";
const B = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const C = "0xcccccccccccccccccccccccccccccccccccccccc";
const D = "0xdddddddddddddddddddddddddddddddddddddddd";

const game = (g: Partial<RatedGame> & Pick<RatedGame, "players" | "totals">): RatedGame => ({
  ruleSet: 0,
  winners: [],
  forfeited: [],
  ...g,
});

describe("places", () => {
  it("winners first, then totals, forfeits last; equal totals and forfeits tie", () => {
    expect(
      placesOf(
        game({
          players: [A, B, C, D],
          totals: [180n, 250n, 180n, 40n],
          winners: [B],
          forfeited: [D],
        }),
      ),
    ).toEqual([2, 1, 2, 4]);
    // Two forfeits tie last, however much each had scored.
    expect(
      placesOf(
        game({ players: [A, B, C], totals: [90n, 10n, 30n], winners: [B], forfeited: [A, C] }),
      ),
    ).toEqual([2, 1, 2]);
    // A shared win.
    expect(placesOf(game({ players: [A, B], totals: [200n, 200n], winners: [A, B] }))).toEqual([
      1, 1,
    ]);
  });
});

describe("Weng-Lin (Plackett-Luce) by hand", () => {
  // Two new players (mu 25, sigma 25/3, beta 25/6): c² = 2 (sigma² + beta²) = 173.61;
  // each wins with p = 1/2, so the winner gains sigma²/c · (1 - p) = 2.6352 and the loser loses
  // as much; both sigmas shrink by sqrt(1 - gamma · sigma²/c² · p(1-p)) with gamma = sigma/c:
  // 8.3333 · sqrt(1 - 0.63246 · 0.4 · 0.25) = 8.0655.
  it("a first game between new players", () => {
    const [a, b] = rateGame(game({ players: [A, B], totals: [250n, 200n], winners: [A] }), () =>
      initialRating(),
    )!;
    expect(a.mu).toBeCloseTo(27.6352, 3);
    expect(b.mu).toBeCloseTo(22.3648, 3);
    expect(a.sigma).toBeCloseTo(8.0655, 3);
    expect(b.sigma).toBeCloseTo(8.0655, 3);
    expect(a.ordinal).toBeCloseTo(27.6352 - 3 * 8.0655, 2);
    expect([a.games, b.games]).toEqual([1, 1]);
    expect(initialRating().ordinal).toBeCloseTo(0, 10);
  });

  it("a tie between equals moves no mu; a forfeit is a loss however many points", () => {
    const [a, b] = rateGame(
      game({ players: [A, B], totals: [200n, 200n], winners: [A, B] }),
      initialRating,
    )!;
    expect(a.mu).toBeCloseTo(25, 10);
    expect(b.mu).toBeCloseTo(25, 10);
    expect(a.sigma).toBeLessThan(25 / 3);
    const [f, w] = rateGame(
      game({ players: [A, B], totals: [120n, 3n], winners: [B], forfeited: [A] }),
      initialRating,
    )!;
    expect(f.mu).toBeCloseTo(22.3648, 3);
    expect(w.mu).toBeCloseTo(27.6352, 3);
  });

  it("a game of one rates nobody", () => {
    expect(rateGame(game({ players: [A], totals: [200n], winners: [A] }), initialRating)).toBe(
      null,
    );
  });
});

describe("the fold", () => {
  const games: RatedGame[] = [
    game({ players: [A, B, C], totals: [250n, 200n, 150n], winners: [A] }),
    game({ players: [B, A], totals: [230n, 210n], winners: [B] }),
    game({ ruleSet: 2, players: [C, D], totals: [90n, 80n], winners: [C] }),
    game({ players: [A, C, B], totals: [260n, 100n, 0n], winners: [A], forfeited: [B] }),
  ];

  it("rates per rule set, game after game, and the same games give the same ratings", () => {
    const ratings = foldRatings(games);
    expect([...ratings.keys()].sort()).toEqual(
      [ratingKey(0, A), ratingKey(0, B), ratingKey(0, C), ratingKey(2, C), ratingKey(2, D)].sort(),
    );
    expect(ratings.get(ratingKey(0, A))!.games).toBe(3);
    expect(ratings.get(ratingKey(2, C))!.games).toBe(1);
    // Case does not split a player.
    expect(ratings.get(ratingKey(0, A.toLowerCase()))).toBe(ratings.get(ratingKey(0, A)));
    expect(foldRatings(games)).toEqual(ratings);
    // Two wins and a loss ahead of one win and two losses.
    expect(ratings.get(ratingKey(0, A))!.ordinal).toBeGreaterThan(
      ratings.get(ratingKey(0, B))!.ordinal,
    );
  });

  it("depends on the order: the games are folded in the order they finished", () => {
    const swapped = foldRatings([games[1], games[0], games[2], games[3]]);
    expect(swapped.get(ratingKey(0, A))!.mu).not.toBeCloseTo(
      foldRatings(games).get(ratingKey(0, A))!.mu,
      10,
    );
  });
});

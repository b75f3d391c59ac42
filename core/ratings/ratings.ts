import { ordinal, rate, rating } from "openskill";

/**
 * Skill ratings from the results of finished games: openskill's Weng-Lin model (Plackett-Luce),
 * made for games of two or more players with ties. One rating per player and rule set, updated
 * game after game in the order the games finished, so the same events always give the same
 * ratings (the indexer rebuilds them identically after a re-index).
 *
 * A game's places: the winners first (tied), then the other players who finished by their totals
 * (equal totals tie), then every player who forfeited (tied last): a forfeit counts as a loss. A
 * called-off game has no GameFinished, so it never reaches here; a game with fewer than two
 * players rates nobody.
 */

export interface Rating {
  /** The model's estimate of skill and its uncertainty (a new player: 25 and 25/3). */
  mu: number;
  sigma: number;
  /** The conservative value mu - 3 sigma that the leaderboard shows and sorts by (0 at first). */
  ordinal: number;
  /** Rated games. */
  games: number;
}

/** One finished game as the rating needs it; players lower-case or checksummed alike. */
export interface RatedGame {
  ruleSet: number;
  players: readonly string[];
  totals: readonly bigint[];
  winners: readonly string[];
  forfeited: readonly string[];
}

const lower = (a: string) => a.toLowerCase();

/** A new player's rating. */
export function initialRating(): Rating {
  const r = rating();
  return { mu: r.mu, sigma: r.sigma, ordinal: ordinal(r), games: 0 };
}

/** Each player's place in the game (1 = first; equal places tie), in the game's player order. */
export function placesOf(game: RatedGame): number[] {
  const winners = new Set(game.winners.map(lower));
  const forfeited = new Set(game.forfeited.map(lower));
  // Sort key: winners, then finishers by total, then forfeits.
  const group = (i: number) => {
    const p = lower(game.players[i]);
    return forfeited.has(p) && !winners.has(p) ? 2 : winners.has(p) ? 0 : 1;
  };
  return game.players.map((_, i) => {
    const g = group(i);
    let ahead = 0;
    game.players.forEach((_, j) => {
      const h = group(j);
      if (h < g || (h === g && g === 1 && game.totals[j] > game.totals[i])) ahead++;
    });
    return ahead + 1;
  });
}

/**
 * The players' ratings after one game, in the game's player order, from their ratings before it
 * (`before(player)`, lower-case; initialRating for a new player). Null when the game rates nobody.
 */
export function rateGame(game: RatedGame, before: (player: string) => Rating): Rating[] | null {
  if (game.players.length < 2) return null;
  const old = game.players.map((p) => before(lower(p)));
  const after = rate(
    old.map((r) => [{ mu: r.mu, sigma: r.sigma }]),
    { rank: placesOf(game) },
  );
  return after.map(([r], i) => ({
    mu: r.mu,
    sigma: r.sigma,
    ordinal: ordinal(r),
    games: old[i].games + 1,
  }));
}

/** `${ruleSet}:${player}` (player lower-case): the key of a rating. */
export const ratingKey = (ruleSet: number, player: string) => `${ruleSet}:${lower(player)}`;

/** Every rating after the games, folded in the order given (the order they finished). */
export function foldRatings(games: Iterable<RatedGame>): Map<string, Rating> {
  const ratings = new Map<string, Rating>();
  for (const game of games) {
    const after = rateGame(game, (p) => ratings.get(ratingKey(game.ruleSet, p)) ?? initialRating());
    after?.forEach((r, i) => ratings.set(ratingKey(game.ruleSet, game.players[i]), r));
  }
  return ratings;
}

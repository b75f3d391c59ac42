import { matchStandings } from "@dicehall/core/game/match.ts";
import type { GameOutcome } from "./engine.ts";

/**
 * The running standings of a practice match: the hall's own scoring (core/game/match.ts), named by
 * seat. Most games won (a tie counts as a win for each tied player), then total points.
 */

export interface Standing {
  seat: number;
  name: string;
  /** Games won; a tie counts as a win for each tied player. */
  wins: number;
  /** Sum of totals over the match. */
  points: number;
  best: number | null;
  average: number | null;
  /** 1-based; players level on wins and points share a place. */
  place: number;
}

export function standings(names: readonly string[], results: readonly GameOutcome[]): Standing[] {
  return matchStandings(names.length, results).rows.map((row) => ({
    seat: row.index,
    name: names[row.index],
    wins: row.wins,
    points: row.points,
    best: row.best,
    average: row.average,
    place: row.place,
  }));
}

/** The match's winners by seat (several = level on games and points), once it is over. */
export function matchWinners(names: readonly string[], results: readonly GameOutcome[]): number[] {
  return matchStandings(names.length, results).leaders;
}

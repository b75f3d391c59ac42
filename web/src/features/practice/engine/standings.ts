import type { GameOutcome } from "./engine.ts";

/** The running standings of a practice session: a fold over the finished games. */

export interface Standing {
  seat: number;
  name: string;
  /** Games won; a tie counts as a win for each tied player. */
  wins: number;
  /** Sum of totals over the session. */
  points: number;
  best: number | null;
  average: number | null;
  /** 1-based; players level on wins and points share a place. */
  place: number;
}

export function standings(names: readonly string[], results: readonly GameOutcome[]): Standing[] {
  const rows = names.map((name, seat) => {
    const mine = results.map((r) => r.totals[seat] ?? 0);
    const points = mine.reduce((a, b) => a + b, 0);
    return {
      seat,
      name,
      wins: results.filter((r) => r.winners.includes(seat)).length,
      points,
      best: mine.length ? Math.max(...mine) : null,
      average: mine.length ? points / mine.length : null,
      place: 0,
    };
  });
  rows.sort((a, b) => b.wins - a.wins || b.points - a.points || a.seat - b.seat);
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    row.place = prev && prev.wins === row.wins && prev.points === row.points ? prev.place : i + 1;
  });
  return rows;
}

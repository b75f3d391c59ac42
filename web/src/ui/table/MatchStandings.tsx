import type { ReactNode } from "react";
import { ordinal } from "@dicehall/core/game/format.ts";
import { matchStandings, type MatchGameScore } from "@dicehall/core/game/match.ts";
import "./matchStandings.css";

export interface MatchStandingsProps {
  /** The players by index, as the games' totals and winners count them. */
  names: readonly ReactNode[];
  /** Plain-text names, for the lines that say who won. */
  labels: readonly string[];
  /** The finished games, in order. */
  games: readonly MatchGameScore[];
  /** How many games the match has. */
  length: number;
  forfeited?: readonly number[];
  /** A link to each finished game's replay and analysis, by game number (1-based). */
  gameLinks?: (game: number) => ReactNode;
  title?: string;
}

const list = (items: readonly string[]): string =>
  items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** Who leads or won, in a sentence: most games won, then points, still level = a split pot. */
export function matchVerdict(
  labels: readonly string[],
  games: readonly MatchGameScore[],
  length: number,
  forfeited: readonly number[] = [],
): string | null {
  if (games.length === 0) return null;
  const { leaders } = matchStandings(labels.length, games, forfeited);
  const names = leaders.map((i) => labels[i]);
  if (names.length === 0) return null;
  if (games.length >= length) {
    if (length === 1) return null;
    return names.length > 1
      ? `${list(names)} share the match: level on games and points.`
      : `${names[0]} ${names[0] === "You" ? "win" : "wins"} the match.`;
  }
  return names.length > 1
    ? `${list(names)} are level after ${games.length} of ${length}.`
    : `${names[0]} ${names[0] === "You" ? "lead" : "leads"} after ${games.length} of ${length}.`;
}

/**
 * A match's standings, as the hall scores it (core/game/match.ts): games won, then points over
 * all games; then each game's totals. Practice, the table and the end screen show the same.
 */
export function MatchStandings({
  names,
  labels,
  games,
  length,
  forfeited = [],
  gameLinks,
  title = "Standings",
}: MatchStandingsProps) {
  const { rows } = matchStandings(names.length, games, forfeited);
  const played = games.length;
  const verdict = matchVerdict(labels, games, length, forfeited);
  return (
    <section className="card match-standings" aria-labelledby="match-standings-title">
      <h2 id="match-standings-title">{title}</h2>
      {verdict && (
        <p className="match-standings__verdict" data-testid="match-verdict">
          {verdict}
        </p>
      )}
      <table className="match-standings__table" data-testid="match-standings">
        <caption className="muted small">
          After {played} of {length} {length === 1 ? "game" : "games"}
        </caption>
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Player</th>
            <th scope="col">Wins</th>
            <th scope="col">Points</th>
            <th scope="col">Best</th>
            <th scope="col">Average</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.index}
              className={played > 0 && row.place === 1 && !row.forfeited ? "is-leading" : undefined}
            >
              <td>{played === 0 ? "–" : row.forfeited ? "out" : ordinal(row.place)}</td>
              <th scope="row">{names[row.index]}</th>
              <td>{row.wins}</td>
              <td>{row.points}</td>
              <td>{row.best ?? "–"}</td>
              <td>{row.average === null ? "–" : row.average.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {played > 0 && (
        <ol className="match-standings__games muted small">
          {games.map((game, i) => (
            <li key={i}>
              Game {i + 1}: {game.totals.map((t, seat) => `${labels[seat]} ${t}`).join(", ")}
              {gameLinks && <> {gameLinks(i + 1)}</>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

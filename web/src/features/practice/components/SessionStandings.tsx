import { ordinal } from "@dicehall/core/game/format.ts";
import type { PracticeState } from "../engine/engine.ts";
import { standings } from "../engine/standings.ts";

/** The running standings of the session, as a table (a tie counts as a win for each). */
export function SessionStandings({ state }: { state: PracticeState }) {
  const rows = standings(state.names, state.results);
  const played = state.results.length;
  return (
    <section className="card practice-standings" aria-labelledby="standings-title">
      <h2 id="standings-title">Standings</h2>
      <table className="practice-standings__table">
        <caption className="muted small">
          After {played} of {state.games} {state.games === 1 ? "game" : "games"}
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
            <tr key={row.seat} className={played > 0 && row.place === 1 ? "is-leading" : undefined}>
              <td>{played > 0 ? ordinal(row.place) : "–"}</td>
              <th scope="row">{row.name}</th>
              <td>{row.wins}</td>
              <td>{row.points}</td>
              <td>{row.best ?? "–"}</td>
              <td>{row.average === null ? "–" : row.average.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {played > 0 && (
        <ol className="practice-standings__games muted small">
          {state.results.map((result, i) => (
            <li key={i}>
              Game {i + 1}: {result.totals.map((t, seat) => `${state.names[seat]} ${t}`).join(", ")}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

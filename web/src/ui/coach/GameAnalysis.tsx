import type { ReactNode } from "react";
import type {
  DecisionReview,
  GameRecord,
  GameReview,
  PlayerReview,
} from "@dicehall/core/coach/analyse.ts";
import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { useCoachReview } from "@/data/coach.ts";
import { CoachObjective } from "./CoachObjective.tsx";
import { choiceWords, expectedWords, lossWords } from "./coachWords.ts";
import { ExpectedScoreChart, ExpectedScoreTable } from "./ExpectedScoreChart.tsx";
import "./coach.css";

const percent = (share: number) => `${Math.round(share * 100)}%`;

function mistakeWords(ruleSetId: RuleSetId, d: DecisionReview | null): string {
  if (!d) return "none: every move was the coach's";
  return `turn ${d.turn + 1}, roll ${d.rollsUsed} (${d.dice.join("-")}): ${choiceWords(ruleSetId, d.played)} instead of ${choiceWords(ruleSetId, d.best)}, ${lossWords(d.loss)}`;
}

/** How a player is shown: by default the record's name; an on-chain game shows the account. */
type PlayerLabel = (index: number, review: PlayerReview) => ReactNode;
const byName: PlayerLabel = (_, review) => review.player;

function Summary({
  ruleSetId,
  players,
  label,
}: {
  ruleSetId: RuleSetId;
  players: PlayerReview[];
  label: PlayerLabel;
}) {
  return (
    <table className="coach-table coach-summary" data-testid="coach-summary">
      <caption>Per player</caption>
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col">Score</th>
          <th scope="col">Expected points lost</th>
          <th scope="col">Best moves</th>
          <th scope="col">Biggest mistake</th>
        </tr>
      </thead>
      <tbody>
        {players.map((p, i) => (
          <tr key={i}>
            <th scope="row">{label(i, p)}</th>
            <td data-label="Score">
              {p.score}
              {p.finished ? "" : " (unfinished)"}
            </td>
            <td data-label="Expected points lost">{p.totalLoss.toFixed(1)}</td>
            <td data-label="Best moves">
              {percent(p.bestShare)} ({p.bestMoves} of {p.decisions.length})
            </td>
            <td data-label="Biggest mistake">{mistakeWords(ruleSetId, p.biggestMistake)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Decisions({ ruleSetId, player }: { ruleSetId: RuleSetId; player: PlayerReview }) {
  return (
    <details className="coach-decisions">
      <summary>
        {/* Words only: a summary is itself a control, so no face button inside it. */}
        {player.player}: every decision ({player.decisions.length})
      </summary>
      <table className="coach-table">
        <caption className="sr-only">{player.player}'s decisions</caption>
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">After roll</th>
            <th scope="col">Dice</th>
            <th scope="col">Played</th>
            <th scope="col">Coach</th>
            <th scope="col">Expected final score</th>
            <th scope="col">Given up</th>
          </tr>
        </thead>
        <tbody>
          {player.decisions.map((d, k) => (
            <tr key={k} className={d.isBest ? undefined : "is-mistake"}>
              <td>{d.turn + 1}</td>
              <td>{d.rollsUsed}</td>
              <td>{d.dice.join("-")}</td>
              <td>{choiceWords(ruleSetId, d.played)}</td>
              <td>{d.isBest ? "the same" : choiceWords(ruleSetId, d.best)}</td>
              <td>{expectedWords(d.playedExpected)}</td>
              <td>{lossWords(d.loss)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * The coach's review of a game: per player the expected points given up, the share of best moves
 * and the biggest mistake; the expected final score through the game; every decision. Works from
 * the moves alone (an on-chain game's events or a practice game's record).
 */
export function GameAnalysis({
  game,
  cacheKey,
  playerLabel = byName,
  review: ready,
}: {
  game: GameRecord;
  cacheKey: string;
  /** Shows player `index` (the account's face and full address on the analysis page). */
  playerLabel?: PlayerLabel;
  /** A review already made (the game index's): shown as it is, no coach started. */
  review?: GameReview;
}) {
  const { table, review } = useCoachReview(game, cacheKey, ready);
  const info = ruleSet(game.ruleSet);
  return (
    <section className="coach-analysis" aria-labelledby="coach-analysis-title">
      <h2 id="coach-analysis-title">The coach's analysis</h2>
      <CoachObjective />
      {table.isError ? (
        <p role="alert">The coach could not start: {table.error.message}</p>
      ) : review.isError ? (
        <p role="alert">The coach could not read this game: {review.error.message}</p>
      ) : !review.data ? (
        <p className="loading" role="status">
          {table.isSuccess
            ? "The coach is going through the moves…"
            : `The coach is preparing its ${info.name} table (the first time takes a few seconds; this browser keeps it).`}
        </p>
      ) : (
        <>
          <p>
            With best play from the start, a {info.name} sheet is expected to score{" "}
            {expectedWords(review.data.startValue)}.
          </p>
          <Summary ruleSetId={game.ruleSet} players={review.data.players} label={playerLabel} />
          <ExpectedScoreChart players={review.data.players} />
          <details className="coach-decisions">
            <summary>The chart's numbers</summary>
            <ExpectedScoreTable players={review.data.players} />
          </details>
          <h3>Decision by decision</h3>
          {review.data.players.map((p, i) => (
            <Decisions key={i} ruleSetId={game.ruleSet} player={p} />
          ))}
        </>
      )}
    </section>
  );
}

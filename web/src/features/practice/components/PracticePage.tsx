import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { useAnnounce } from "@/ui/announce.tsx";
import { GameAnalysis } from "@/ui/coach/GameAnalysis.tsx";
import { matchVerdict } from "@/ui/table/MatchStandings.tsx";
import { practiceRecord } from "../engine/record.ts";
import { usePracticeSession } from "../hooks/usePracticeSession.ts";
import { PlayerNames } from "./PlayerNames.tsx";
import { PracticeSetupForm } from "./PracticeSetupForm.tsx";
import { PracticeTable } from "./PracticeTable.tsx";
import { SessionStandings } from "./SessionStandings.tsx";
import "./practice.css";

/**
 * /practice: hot-seat games on this device with no wallet and no chain. The rules engine decides
 * everything; the table, keys and readouts are the real game's.
 */
export function PracticePage() {
  const [state, dispatch] = usePracticeSession();
  const announce = useAnnounce();
  const info = ruleSet(state.ruleSet);
  const justStarted = useRef(false);
  const playAgainRef = useRef<HTMLButtonElement>(null);
  // The coach's review of the game just finished, on request.
  const over = state.game?.currentSeat === null;
  const gameNumber = state.game?.number;
  const [analysing, setAnalysing] = useState<number | null>(null);
  const record = useMemo(() => (over ? practiceRecord(state) : null), [over, state]);

  // Starting moves focus to the roll button, so the first turn is one Enter (or R) away.
  useEffect(() => {
    if (state.phase !== "playing" || !justStarted.current) return;
    justStarted.current = false;
    document.querySelector<HTMLButtonElement>(".practice .tray__roll")?.focus();
  }, [state.phase]);

  // At the end of a session the next step is one Enter away too.
  useEffect(() => {
    if (state.phase === "sessionOver" && document.activeElement === document.body)
      playAgainRef.current?.focus();
  }, [state.phase]);

  const matchOver = matchVerdict(state.names, state.results, state.games) ?? "";
  const restart = () =>
    dispatch({
      type: "start",
      setup: { ruleSet: state.ruleSet, names: state.names, bots: state.bots, games: state.games },
    });

  return (
    <div className="page practice">
      <div className="page__head">
        <div>
          <h1>Practice</h1>
          <p className="muted">
            No wallet, no chain, no bets: 1 to 4 players take turns on this device. Same table
            <span className="kbd-only">
              , same keys (<kbd>R</kbd> roll, <kbd>1</kbd>–<kbd>5</kbd> keep, arrows and{" "}
              <kbd>Enter</kbd> to score, <kbd>H</kbd> for a hint, <kbd>?</kbd> for all keys)
            </span>
            . A match of 1 to 10 games is scored as the hall scores one: most games won, then
            points. Your match is kept if you reload.
          </p>
        </div>
        {state.phase !== "setup" && (
          <button type="button" className="button" onClick={() => dispatch({ type: "newSession" })}>
            New match
          </button>
        )}
      </div>

      {state.phase === "setup" ? (
        <PracticeSetupForm
          state={state}
          dispatch={dispatch}
          onStart={() => {
            justStarted.current = true;
            announce(
              `${info.name} practice started: game 1 of ${state.games}. ${state.names[0] || "Player 1"}'s turn. Press R to roll.`,
            );
          }}
        />
      ) : (
        <>
          {state.phase === "sessionOver" && (
            <section className="card results" aria-labelledby="session-over-title">
              <h2 id="session-over-title">Match over</h2>
              <p>
                {state.games} {state.games === 1 ? "game" : "games"} of {info.name} played.{" "}
                {matchOver} Play again with the same players, or set up a new match.
              </p>
              <div className="results__actions">
                <button
                  ref={playAgainRef}
                  type="button"
                  className="button button--primary"
                  onClick={restart}
                >
                  Play again
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => dispatch({ type: "newSession" })}
                >
                  New match
                </button>
                <Link className="button button--quiet" to="/games">
                  Play for real
                </Link>
              </div>
            </section>
          )}
          <PracticeTable state={state} dispatch={dispatch} />
          {over && record && (
            <section className="card practice-analysis" aria-label="Analysis of this game">
              {analysing === gameNumber ? (
                <GameAnalysis game={record} cacheKey={`practice:${JSON.stringify(record)}`} />
              ) : (
                <button
                  type="button"
                  className="button"
                  onClick={() => setAnalysing(gameNumber ?? null)}
                >
                  Analyse this game
                </button>
              )}
            </section>
          )}
          <div className="practice-side">
            <SessionStandings state={state} />
            <PlayerNames state={state} dispatch={dispatch} />
          </div>
        </>
      )}
    </div>
  );
}

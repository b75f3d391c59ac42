import type { FormEvent } from "react";
import { RULE_SETS, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import {
  BOT_LEVELS,
  defaultName,
  type BotLevel,
  MAX_GAMES,
  MAX_PLAYERS,
  MIN_GAMES,
  type PracticeAction,
  type PracticeState,
} from "../engine/engine.ts";

const BOT_WORDS: Record<BotLevel, string> = {
  coach: "Bot: coach (best play)",
  casual: "Bot: casual (a quick heuristic)",
};

const SEAT_COUNTS = Array.from({ length: MAX_PLAYERS }, (_, i) => i + 1);
const GAME_COUNTS = Array.from({ length: MAX_GAMES - MIN_GAMES + 1 }, (_, i) => i + MIN_GAMES);

/** Players, rule set and session length; every change is kept (and survives a reload). */
export function PracticeSetupForm({
  state,
  dispatch,
  onStart,
}: {
  state: PracticeState;
  dispatch: (action: PracticeAction) => void;
  onStart: () => void;
}) {
  const seats = state.names.length;
  const bots = state.names.map((_, i) => state.bots?.[i] ?? null);
  const setSeats = (count: number) => {
    const names = Array.from({ length: count }, (_, i) => state.names[i] ?? defaultName(i));
    dispatch({ type: "configure", setup: { names } });
  };
  const setBot = (seat: number, level: BotLevel | null) => {
    const next = bots.slice();
    next[seat] = level;
    dispatch({ type: "configure", setup: { bots: next } });
  };
  const setName = (seat: number, name: string) => {
    const names = state.names.slice();
    names[seat] = name;
    dispatch({ type: "configure", setup: { names } });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch({
      type: "start",
      setup: { ruleSet: state.ruleSet, names: state.names, bots, games: state.games },
    });
    onStart();
  };

  return (
    <form className="form card practice-setup" onSubmit={submit} aria-labelledby="setup-title">
      <h2 id="setup-title">Set up a match</h2>
      <fieldset className="field">
        <legend>Players on this device</legend>
        <div className="segmented">
          {SEAT_COUNTS.map((count) => (
            <label
              key={count}
              className={`segmented__option${count === seats ? " is-checked" : ""}`}
            >
              <input
                type="radio"
                name="seats"
                value={count}
                checked={count === seats}
                onChange={() => setSeats(count)}
              />
              {count === 1 ? "Solo" : `${count} players`}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field-row">
        {state.names.map((name, seat) => (
          <div className="field" key={seat}>
            <label htmlFor={`practice-name-${seat}`}>Player {seat + 1} name</label>
            <input
              id={`practice-name-${seat}`}
              type="text"
              value={name}
              maxLength={24}
              autoComplete="off"
              placeholder={defaultName(seat)}
              onChange={(e) => setName(seat, e.target.value)}
            />
            {seat > 0 && (
              <>
                <label htmlFor={`practice-bot-${seat}`}>Player {seat + 1} is played by</label>
                <select
                  id={`practice-bot-${seat}`}
                  value={bots[seat] ?? "person"}
                  onChange={(e) =>
                    setBot(seat, e.target.value === "person" ? null : (e.target.value as BotLevel))
                  }
                >
                  <option value="person">A person on this device</option>
                  {BOT_LEVELS.map((level) => (
                    <option key={level} value={level}>
                      {BOT_WORDS[level]}
                    </option>
                  ))}
                </select>
              </>
            )}
          </div>
        ))}
      </div>
      <fieldset className="field">
        <legend>Rule set</legend>
        <div className="rule-options">
          {RULE_SETS.map((info) => (
            <label
              key={info.key}
              className={`rule-option${info.id === state.ruleSet ? " is-checked" : ""}`}
            >
              <input
                type="radio"
                name="ruleSet"
                value={info.id}
                checked={info.id === state.ruleSet}
                aria-labelledby={`practice-rules-${info.key}`}
                aria-describedby={`practice-rules-${info.key}-tagline`}
                onChange={() =>
                  dispatch({ type: "configure", setup: { ruleSet: info.id as RuleSetId } })
                }
              />
              <span className="rule-option__name" id={`practice-rules-${info.key}`}>
                {info.name}
              </span>
              <span className="rule-option__tagline" id={`practice-rules-${info.key}-tagline`}>
                {info.tagline}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor="practice-games">Games in the match</label>
        <select
          id="practice-games"
          value={state.games}
          onChange={(e) =>
            dispatch({ type: "configure", setup: { games: Number(e.target.value) } })
          }
        >
          {GAME_COUNTS.map((n) => (
            <option key={n} value={n}>
              {n} {n === 1 ? "game" : "games"}
            </option>
          ))}
        </select>
        <p className="hint">
          The match goes to the most games won (a tie counts for each), then to the most points; the
          first seat rotates from game to game. Seats 2–4 can be bots: the coach plays the exact
          solver's moves (the highest expected score of its own sheet), the casual bot a quicker,
          weaker heuristic.
        </p>
      </div>
      <div>
        <button type="submit" className="button button--primary button--large">
          Start practising
        </button>
      </div>
    </form>
  );
}

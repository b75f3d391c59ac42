import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { useAnnounce } from "@/ui/announce.tsx";
import { useCoachAdvice, useCoachTable } from "@/data/coach.ts";
import { botToMove, type PracticeAction, type PracticeState } from "../engine/engine.ts";
import { useBotTurns } from "../hooks/useBotTurns.ts";
import { hintKeepMask, practiceHint } from "../engine/hint.ts";
import { practiceTableModel } from "../engine/model.ts";
import { practiceRandom } from "../engine/random.ts";
import { GameTable } from "@/ui/table/GameTable.tsx";
import { CoachHint, coachHeadline, coachKeepMask } from "./CoachHint.tsx";
import type { TableHandlers } from "@dicehall/core/game/tableModel.ts";

/** How long the dice are "in the air" before they settle; for show only, the values are known. */
const ROLL_SHOW_MS = 250;

function prefersReducedMotion(): boolean {
  return (
    typeof window !== "undefined" &&
    !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches
  );
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** The shared game table, driven by the practice reducer, plus hint and next-game actions. */
export function PracticeTable({
  state,
  dispatch,
}: {
  state: PracticeState;
  dispatch: (action: PracticeAction) => void;
}) {
  const announce = useAnnounce();
  const [rolling, setRolling] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  // Each request for a hint is read out, even when the words are the same as last time.
  const [asked, setAsked] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const nextGameRef = useRef<HTMLButtonElement>(null);
  const game = state.game;
  const over = !!game && game.currentSeat === null;

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const botTurn = botToMove(state) !== null;
  // A hint is for the position it was asked in.
  useEffect(() => setHint(null), [game?.rollsUsed, game?.currentSeat, game?.number]);
  // When a game ends, the next step is one key away.
  useEffect(() => {
    if (over) nextGameRef.current?.focus();
  }, [over]);

  const model = useMemo(() => practiceTableModel(state, rolling), [state, rolling]);

  // The coach's table builds in its worker from the start of play, so the first hint is exact.
  const table = useCoachTable(state.phase === "playing" ? state.ruleSet : null);
  const position = useMemo(
    () =>
      hint && game?.dice && game.currentSeat !== null
        ? { sheet: game.sheets[game.currentSeat], dice: game.dice, rollsUsed: game.rollsUsed }
        : null,
    [hint, game],
  );
  const advice = useCoachAdvice(position);
  const exact =
    advice.data && position ? coachHeadline(state.ruleSet, position.dice, advice.data) : null;
  // What the hint says is read out: the coach's words once it answers (it answers in a few
  // milliseconds once its table is ready), the quick hint's while the table is still coming.
  const waitingForCoach = !!position && table.isSuccess && !advice.isError && !exact;
  const spoken = hint === null || waitingForCoach ? null : (exact ?? hint);
  useEffect(() => {
    if (spoken) announce(spoken);
  }, [spoken, asked, announce]);

  const handlers = useMemo<TableHandlers>(
    () => ({
      onRoll: () => {
        dispatch({ type: "roll", random: practiceRandom() });
        if (prefersReducedMotion()) return;
        setRolling(true);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setRolling(false), ROLL_SHOW_MS);
      },
      onToggleKeep: (die) => dispatch({ type: "toggleKeep", die }),
      onScore: (box) => dispatch({ type: "score", box }),
    }),
    [dispatch],
  );
  useBotTurns(state, dispatch, handlers.onRoll, rolling);

  const showHint = useCallback(() => {
    if (botTurn) return;
    setHint(practiceHint(state) ?? "Nothing to decide right now.");
    setAsked((n) => n + 1);
  }, [state, botTurn]);

  const suggestedMask = advice.data ? coachKeepMask(advice.data) : hintKeepMask(state);
  const applyHint = () => {
    const mask = suggestedMask;
    if (mask === null || !game) return;
    for (let die = 0; die < 5; die++) {
      if (((game.keepMask ^ mask) >> die) & 1) dispatch({ type: "toggleKeep", die });
    }
    announce("Kept the dice the hint suggests.");
  };

  // H asks for a hint, like the table's own keys (not while typing, not over a dialog).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key !== "h" && event.key !== "H") return;
      if (isTyping(event.target) || document.querySelector("[aria-modal='true']")) return;
      event.preventDefault();
      showHint();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [showHint]);

  if (!model || !game) return null;
  const info = ruleSet(state.ruleSet);
  const hintMask = hint ? suggestedMask : null;

  const banner = (
    <p className="practice-banner">
      <span className="pill practice-banner__pill">Practice</span> {info.name} · game {game.number}{" "}
      of {state.games}
    </p>
  );

  const actions = (
    <div className="practice-actions">
      {!over && !botTurn && (
        <button type="button" className="button" onClick={showHint} aria-keyshortcuts="H">
          Hint<span className="kbd-only"> </span>
          <kbd className="kbd-only">H</kbd>
        </button>
      )}
      {hint && !botTurn && (
        <div className="practice-hint">
          <CoachHint
            ruleSetId={state.ruleSet}
            dice={position?.dice ?? null}
            advice={advice.data}
            status={table.isError || advice.isError ? "error" : table.status}
            fallback={hint}
          />
          {hintMask !== null && hintMask !== game.keepMask && (
            <button type="button" className="button button--quiet" onClick={applyHint}>
              Keep those
            </button>
          )}
        </div>
      )}
      {over && state.phase === "playing" && (
        <button
          ref={nextGameRef}
          type="button"
          className="button button--primary"
          onClick={() => dispatch({ type: "nextGame" })}
        >
          Next game ({state.results.length + 1} of {state.games})
        </button>
      )}
    </div>
  );

  // Nothing to offer (the session is over): no empty box above the turn log.
  const anyAction = !over || (hint && !botTurn) || state.phase === "playing";
  return (
    <GameTable
      model={model}
      handlers={handlers}
      banner={banner}
      actions={anyAction ? actions : undefined}
    />
  );
}

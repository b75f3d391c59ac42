import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { useAnnounce } from "../announce.tsx";
import { tableKeyAction, type TableAction } from "../keyboard.ts";
import { DiceTray } from "./DiceTray.tsx";
import { KeyHelp } from "./KeyHelp.tsx";
import type { TableHandlers, TableModel } from "@dicehall/core/game/tableModel.ts";
import { readDice, readScores, readSheet, readTurn } from "./readouts.ts";
import { scoreGuard } from "./scoreGuard.ts";
import { SheetGrid } from "./SheetGrid.tsx";
import { TurnLog } from "./TurnLog.tsx";

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && ["BUTTON", "A", "SUMMARY"].includes(target.tagName);
}

/** Says whose turn it is each time the turn passes (not on first render). */
function useAnnounceTurn(model: TableModel): void {
  const announce = useAnnounce();
  const last = useRef(model.currentSeat);
  useEffect(() => {
    if (last.current === model.currentSeat) return;
    last.current = model.currentSeat;
    if (model.currentSeat !== null) announce(model.turnText);
    // Only a change of seat speaks; the countdown in turnText changes every second.
  }, [model.currentSeat, model.turnText, announce]);
}

/** New log lines are announced as they arrive (not the ones already there on first render). */
function useAnnounceLog(log: TableModel["log"]): void {
  const announce = useAnnounce();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(log.map((e) => e.id));
      return;
    }
    for (const entry of log) {
      if (seen.current.has(entry.id)) continue;
      seen.current.add(entry.id);
      announce(entry.text);
    }
  }, [log, announce]);
}

export interface GameTableProps {
  model: TableModel;
  handlers: TableHandlers;
  /** Above the table: whose turn, deadlines, chain status. */
  banner?: ReactNode;
  /** Under the dice: extra actions (claim timeout, roll again…). */
  actions?: ReactNode;
  /** A box worth 0, or far below the best, asks for a second press (scoreGuard.ts). */
  guardScores?: boolean;
}

/** Says which box is being scored, once, when its transaction goes out. */
function useAnnounceScoring(text: string | null): void {
  const announce = useAnnounce();
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (text && text !== last.current) announce(text);
    last.current = text;
  }, [text, announce]);
}

/**
 * The game table: dice, everyone's sheets, the turn log and the keys. Plain props only, so the live
 * game and practice mode both drive it.
 */
export function GameTable({ model, handlers, banner, actions, guardScores }: GameTableProps) {
  const announce = useAnnounce();
  const [helpOpen, setHelpOpen] = useState(false);
  const [focusedBox, setFocusedBox] = useState<number | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [armed, setArmed] = useState<{ box: number; why: string } | null>(null);
  const boxRefs = useRef(new Map<number, HTMLButtonElement>());
  useAnnounceLog(model.log);
  useAnnounceTurn(model);
  const boxName = useCallback(
    (box: number) => ruleSet(model.ruleSet).boxes[box]?.name ?? `Box ${box + 1}`,
    [model.ruleSet],
  );
  const scoringText = model.scoring
    ? `Scoring ${boxName(model.scoring.box)}: ${model.scoring.points}…`
    : null;
  useAnnounceScoring(scoringText);
  const guard = useCallback(
    (box: number) => (guardScores ? scoreGuard(box, model.options, boxName, model.ruleSet) : null),
    [guardScores, model.options, boxName, model.ruleSet],
  );

  const me = model.scoringSeat === null ? null : model.players[model.scoringSeat];
  const openBoxes = useMemo(
    () => (me ? me.sheet.boxes.flatMap((points, box) => (points === null ? [box] : [])) : []),
    [me],
  );

  const diceKey = model.dice.join(",");
  useEffect(() => {
    setBlocked(null);
    setArmed(null);
  }, [model.rollsUsed, model.currentSeat, diceKey]);

  const onBlocked = useCallback(
    (reason: string) => {
      setBlocked(reason);
      setArmed(null);
      announce(reason);
    },
    [announce],
  );

  /** A press on one of my boxes (click or Enter): scores it, or asks for the second press. */
  const choose = useCallback(
    (box: number) => {
      if (model.scoring) {
        onBlocked(`${scoringText ?? "A score is being sent"}: wait for it to land.`);
        return;
      }
      const option = model.options?.find((o) => o.box === box);
      if (!option?.legal) {
        onBlocked(option?.reason ?? "You can't score now.");
        return;
      }
      const why = guard(box);
      if (why && armed?.box !== box) {
        setArmed({ box, why });
        announce(why);
        return;
      }
      setArmed(null);
      handlers.onScore(box);
    },
    [model.scoring, model.options, scoringText, guard, armed, announce, handlers, onBlocked],
  );

  const perform = useCallback(
    (action: TableAction) => {
      switch (action.type) {
        case "roll":
          // Another player's roll that is out may be asked again by anyone at the table.
          if (!model.myTurn && !model.canRoll) announce(readTurn(model));
          else if (!model.canRoll) announce(model.rollHint ?? "You can't roll now.");
          else handlers.onRoll();
          return;
        case "toggleKeep":
          if (
            model.myTurn &&
            model.rollsUsed > 0 &&
            model.rollsUsed < model.maxRolls &&
            !model.rolling
          ) {
            handlers.onToggleKeep(action.die);
            const kept = ((model.keepMask >> action.die) & 1) === 0;
            announce(
              `Die ${action.die + 1}${model.dice[action.die] ? ` (${model.dice[action.die]})` : ""} ${kept ? "kept" : "released"}.`,
            );
          } else {
            announce(model.myTurn ? "Roll first; then you can keep dice." : "It's not your turn.");
          }
          return;
        case "read":
          announce(
            action.what === "dice"
              ? readDice(model)
              : action.what === "sheet"
                ? readSheet(model)
                : action.what === "scores"
                  ? readScores(model)
                  : readTurn(model),
          );
          return;
        case "focusBox":
          setFocusedBox(action.box);
          boxRefs.current.get(action.box)?.focus();
          return;
        case "scoreBox":
          choose(action.box);
          return;
        case "help":
          setHelpOpen(true);
          return;
      }
    },
    [model, handlers, announce, choose],
  );

  useEffect(() => {
    if (helpOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (document.querySelector("[aria-modal='true']")) return;
      const action = tableKeyAction(
        {
          key: event.key,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          altKey: event.altKey,
          inTextField: isTextField(event.target),
          onControl: isControl(event.target),
        },
        { openBoxes, focusedBox },
      );
      if (!action) return;
      event.preventDefault();
      perform(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [helpOpen, openBoxes, focusedBox, perform]);

  return (
    <div className="table">
      <div className="table__banner">
        {banner}
        <p
          className={`table__turn${model.urgent ? " is-urgent" : ""}`}
          data-urgent={model.urgent ? "true" : undefined}
        >
          {model.turnText}
          {model.urgent && <span className="sr-only"> Hurry: under 30 seconds left.</span>}
        </p>
        <button
          type="button"
          className="button button--quiet table__keys kbd-only"
          onClick={() => setHelpOpen(true)}
        >
          Keys <kbd>?</kbd>
        </button>
      </div>
      {/*
        The dice come first in reading order. On a laptop they sit in a sticky column beside the
        sheet, so the whole sheet and the dice fit one screen; on a phone the side's pieces join
        the page's column and the dice become a panel stuck to the bottom while the sheet scrolls.
      */}
      <div className="table__main">
        <div className="table__side">
          {/* A finished game has no dice on the table. */}
          {/* Before the order is drawn no seat is current, but seated players can make the first roll. */}
          {(model.currentSeat !== null ||
            model.myTurn ||
            model.rolling ||
            model.dice.some((d) => d !== null)) && <DiceTray model={model} handlers={handlers} />}
          {scoringText && (
            <p className="table__scoring" data-testid="scoring-box">
              {scoringText}
            </p>
          )}
          {armed && !scoringText && (
            <p className="table__confirm" data-testid="score-confirm">
              {armed.why}
            </p>
          )}
          {blocked && (
            <p className="table__blocked" data-testid="blocked-reason">
              {blocked}
            </p>
          )}
          {actions && <div className="table__actions">{actions}</div>}
          <TurnLog log={model.log} />
        </div>
        <SheetGrid
          model={model}
          handlers={handlers}
          boxRefs={boxRefs}
          onFocusBox={setFocusedBox}
          onBlocked={onBlocked}
          onChoose={choose}
          guard={guard}
          armedBox={armed?.box ?? null}
        />
      </div>
      <KeyHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}

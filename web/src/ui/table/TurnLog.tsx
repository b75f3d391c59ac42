import { useState } from "react";
import type { TableModel } from "@dicehall/core/game/tableModel.ts";
import { AddressName } from "../Address.tsx";

/** The latest moves only, so the log never pushes the table off the screen; the rest on request. */
export const RECENT_MOVES = 8;

export function TurnLog({ log }: { log: TableModel["log"] }) {
  const [all, setAll] = useState(false);
  const recent = (all ? log : log.slice(-RECENT_MOVES)).slice().reverse();
  const hidden = log.length - recent.length;
  return (
    // Focusable so keyboard users can scroll a long log (axe: scrollable-region-focusable).
    <section className="turnlog" aria-labelledby="turnlog-title" tabIndex={0}>
      <h2 id="turnlog-title" className="turnlog__title">
        Turn log
      </h2>
      {recent.length === 0 ? (
        <p className="muted">Nothing has happened yet.</p>
      ) : (
        <ol className="turnlog__list" reversed start={log.length}>
          {recent.map((entry) => (
            <li key={entry.id}>
              {entry.player && (
                <>
                  <AddressName address={entry.player} faceOnly />{" "}
                </>
              )}
              {entry.text}
            </li>
          ))}
        </ol>
      )}
      {(hidden > 0 || all) && log.length > RECENT_MOVES && (
        <button
          type="button"
          className="button button--quiet turnlog__more"
          onClick={() => setAll(!all)}
        >
          {all ? "Show the latest only" : `Show ${hidden} earlier`}
        </button>
      )}
    </section>
  );
}

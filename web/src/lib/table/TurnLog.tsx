import type { TableModel } from "./model.ts";

const SHOWN = 60;

export function TurnLog({ log }: { log: TableModel["log"] }) {
  const recent = log.slice(-SHOWN).reverse();
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
            <li key={entry.id}>{entry.text}</li>
          ))}
        </ol>
      )}
    </section>
  );
}

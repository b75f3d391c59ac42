import { describeEntry } from "@dicehall/core/game/gameLog.ts";
import type { Replay, ReplayWords } from "@dicehall/core/game/replay.ts";

/** Every roll of the game, each one a jump to its step (where it can be verified). */
export function RollList({
  replay,
  current,
  onSeek,
  words,
}: {
  replay: Replay;
  current: number;
  onSeek: (index: number) => void;
  words: ReplayWords;
}) {
  const rolls = replay.steps.flatMap((step, index) =>
    step.entry.kind === "rolled" ? [{ step, index }] : [],
  );
  return (
    <details className="card roll-list">
      <summary>All rolls ({rolls.length})</summary>
      <ol className="roll-list__items">
        {rolls.map(({ step, index }) => (
          <li key={step.entry.id}>
            <button
              type="button"
              className="button button--quiet roll-list__button"
              aria-current={index === current ? "step" : undefined}
              onClick={() => onSeek(index)}
            >
              Step {index + 1}: {describeEntry(step.entry, words, replay.final.ruleSet)}
            </button>
          </li>
        ))}
      </ol>
    </details>
  );
}

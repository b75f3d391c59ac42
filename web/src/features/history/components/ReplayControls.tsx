import {
  REPLAY_SPEEDS,
  type ReplayControl,
  type ReplayCursor,
} from "@dicehall/core/game/replay.ts";

/** Play/pause, step, jump and speed; the step slider doubles as a progress bar. */
export function ReplayControls({
  cursor,
  length,
  onControl,
}: {
  cursor: ReplayCursor;
  length: number;
  onControl: (control: ReplayControl) => void;
}) {
  const atStart = cursor.index <= 0;
  const atEnd = cursor.index >= length - 1;
  return (
    <div className="replay-controls" role="group" aria-label="Replay controls">
      <div className="replay-controls__buttons">
        <button
          type="button"
          className="button"
          onClick={() => onControl({ type: "first" })}
          disabled={atStart}
          aria-keyshortcuts="Home"
        >
          <span aria-hidden="true">«</span> First
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onControl({ type: "prev" })}
          disabled={atStart}
          aria-keyshortcuts="ArrowLeft"
        >
          <span aria-hidden="true">◀</span> Back
        </button>
        <button
          type="button"
          className="button button--primary replay-controls__play"
          onClick={() => onControl({ type: "toggle" })}
          aria-keyshortcuts="P"
        >
          {cursor.playing ? "Pause" : atEnd ? "Play again" : "Play"}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onControl({ type: "next" })}
          disabled={atEnd}
          aria-keyshortcuts="ArrowRight"
        >
          Forward <span aria-hidden="true">▶</span>
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onControl({ type: "last" })}
          disabled={atEnd}
          aria-keyshortcuts="End"
        >
          Last <span aria-hidden="true">»</span>
        </button>
      </div>
      <div className="replay-controls__settings">
        <label className="replay-controls__slider">
          <span>
            Step {cursor.index + 1} of {length}
          </span>
          <input
            type="range"
            min={1}
            max={length}
            value={cursor.index + 1}
            onChange={(e) => onControl({ type: "seek", index: Number(e.target.value) - 1 })}
            aria-valuetext={`Step ${cursor.index + 1} of ${length}`}
          />
        </label>
        <label className="replay-controls__speed">
          <span>Speed</span>
          <select
            value={cursor.speed}
            onChange={(e) => onControl({ type: "speed", speed: Number(e.target.value) })}
          >
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted small replay-controls__keys kbd-only">
        Keys: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd> <kbd>End</kbd> first and last,{" "}
        <kbd>P</kbd> play or pause; the table's <kbd>D</kbd> <kbd>C</kbd> <kbd>S</kbd> <kbd>T</kbd>{" "}
        read the step aloud.
      </p>
    </div>
  );
}

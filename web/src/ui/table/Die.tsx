import { useEffect, useRef, useState } from "react";

/** Pip centres on a 100 × 100 face, per value. */
const PIPS: Record<number, [number, number][]> = {
  1: [[50, 50]],
  2: [
    [28, 28],
    [72, 72],
  ],
  3: [
    [28, 28],
    [50, 50],
    [72, 72],
  ],
  4: [
    [28, 28],
    [72, 28],
    [28, 72],
    [72, 72],
  ],
  5: [
    [28, 28],
    [72, 28],
    [50, 50],
    [28, 72],
    [72, 72],
  ],
  6: [
    [28, 26],
    [72, 26],
    [28, 50],
    [72, 50],
    [28, 74],
    [72, 74],
  ],
};

/** One cycle of the `tumble` CSS animation (styles.css); the dice settle at the end of a cycle. */
export const TUMBLE_MS = 600;

function prefersReducedMotion(): boolean {
  return (
    typeof window !== "undefined" &&
    !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches
  );
}

/**
 * Tumbles while `rolling`, then keeps tumbling to the end of the cycle that is running before
 * showing the value, so the dice never jump mid-spin and settle at most one cycle after the real
 * values arrive. The value shown is always the real one: while tumbling the face shows "?" and
 * never a made-up number.
 */
function useTumble(rolling: boolean): boolean {
  const [tumbling, setTumbling] = useState(rolling);
  /** When the running tumble started (performance.now()); null while the die is still. */
  const since = useRef<number | null>(null);
  useEffect(() => {
    if (rolling) {
      // A roll that starts again before the last one settled goes on in the same cycle.
      since.current ??= performance.now();
      setTumbling(true);
      return;
    }
    if (since.current === null) return;
    const elapsed = performance.now() - since.current;
    const stop = () => {
      since.current = null;
      setTumbling(false);
    };
    if (prefersReducedMotion()) {
      stop();
      return;
    }
    const timer = setTimeout(stop, TUMBLE_MS - (elapsed % TUMBLE_MS));
    return () => clearTimeout(timer);
  }, [rolling]);
  return tumbling;
}

export function DieFace({ value, tumbling }: { value: number | null; tumbling?: boolean }) {
  const showPips = !tumbling && value !== null && value >= 1 && value <= 6;
  return (
    <svg className="die__face" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
      <rect x="4" y="4" width="92" height="92" rx="18" className="die__body" />
      {showPips ? (
        PIPS[value].map(([cx, cy]) => (
          <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="9" className="die__pip" />
        ))
      ) : (
        <text x="50" y="52" className="die__unknown" textAnchor="middle" dominantBaseline="central">
          ?
        </text>
      )}
    </svg>
  );
}

export interface DieProps {
  index: number;
  value: number | null;
  kept: boolean;
  rolling: boolean;
  /** Absent when the viewer cannot keep dice now. */
  onToggle?: () => void;
}

export function Die({ index, value, kept, rolling, onToggle }: DieProps) {
  const tumbling = useTumble(rolling && !kept);
  const shown = tumbling ? "rolling" : value === null ? "not rolled" : String(value);
  const label = `Die ${index + 1}: ${shown}${kept ? ", kept" : ""}`;
  const className = `die${kept ? " die--kept" : ""}${tumbling ? " die--tumbling" : ""}`;
  return (
    <div className="die-slot">
      <button
        type="button"
        className={className}
        aria-pressed={kept}
        aria-label={label}
        aria-disabled={onToggle ? undefined : true}
        onClick={onToggle}
        data-testid={`die-${index}`}
        data-value={tumbling || value === null ? "" : value}
      >
        <DieFace value={value} tumbling={tumbling} />
      </button>
      <span className="die-slot__label" aria-hidden="true">
        {/* The number is the die's key (1-5): no use on a touch screen. */}
        {kept ? "Kept" : <span className="kbd-only">{index + 1}</span>}
      </span>
    </div>
  );
}

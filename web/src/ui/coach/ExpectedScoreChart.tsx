import type { PlayerReview } from "@dicehall/core/coach/analyse.ts";
import { expectedWords } from "./coachWords.ts";
import { ChartAxes, ChartLegend, chartLine, type ChartFrame } from "../Chart.tsx";

const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const FRAME: ChartFrame = { width: WIDTH, height: HEIGHT, pad: PAD };

/**
 * Each player's expected final score through the game (after every decision, with best play from
 * there on), as a hand-made SVG. Turns run along the bottom; a dot marks each scored box. The
 * picture is described for screen readers by the per-turn table that follows it.
 */
export function ExpectedScoreChart({ players }: { players: readonly PlayerReview[] }) {
  const turns = Math.max(
    1,
    ...players.map((p) => p.decisions.filter((d) => d.kind === "box").length),
  );
  const values = players.flatMap((p) => p.series.map((s) => s.expected));
  // Grid lines at round numbers: steps of 10, 20, 50 or 100 points, four or five of them.
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = [10, 20, 50, 100].find((s) => (max - min) / s <= 4) ?? 200;
  const low = Math.floor(min / step) * step;
  const high = Math.max(low + step, Math.ceil(max / step) * step);
  const x = (turn: number) => PAD.left + (turn / turns) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((high - v) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = Array.from({ length: (high - low) / step + 1 }, (_, i) => low + i * step);

  // Along the x axis a turn's decisions share its width: the start at 0, a box at turn + 1.
  const pointsOf = (p: PlayerReview) => {
    let turn = 0;
    let inTurn = 0;
    return p.series.map((s) => {
      if (s.kind === "start") return { x: x(0), y: y(s.expected), box: false };
      if (s.turn !== turn) {
        turn = s.turn;
        inTurn = 0;
      }
      inTurn += 1;
      const at = s.kind === "box" ? s.turn + 1 : s.turn + inTurn / 3;
      return { x: x(at), y: y(s.expected), box: s.kind === "box" };
    });
  };

  return (
    <figure className="coach-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="coach-chart-title"
        data-testid="coach-chart"
      >
        <title id="coach-chart-title">
          Expected final score through the game, per player (the table below gives the numbers)
        </title>
        <ChartAxes
          frame={FRAME}
          yTicks={ticks}
          y={y}
          yLabel={Math.round}
          xTicks={Array.from({ length: turns + 1 }, (_, t) => t).filter(
            (t) => t % Math.ceil(turns / 8) === 0 || t === turns,
          )}
          x={x}
        />
        {players.map((p, i) => {
          const line = chartLine(i);
          const points = pointsOf(p);
          return (
            <g key={i}>
              <polyline
                points={points.map((pt) => `${pt.x.toFixed(1)},${pt.y.toFixed(1)}`).join(" ")}
                fill="none"
                stroke={line.colour}
                strokeWidth={2}
                strokeDasharray={line.dash || undefined}
              />
              {points
                .filter((pt) => pt.box)
                .map((pt, k) => (
                  <circle key={k} cx={pt.x} cy={pt.y} r={2.5} fill={line.colour} />
                ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ChartLegend labels={players.map((p) => p.player)} />
        Turns along the bottom, expected final score up the side: after each decision, the score the
        sheet is expected to end with if every later move is the coach's.
      </figcaption>
    </figure>
  );
}

/** The chart's numbers: the expected final score after each turn, per player. */
export function ExpectedScoreTable({ players }: { players: readonly PlayerReview[] }) {
  const byTurn = players.map((p) => [
    p.series[0].expected,
    ...p.series.filter((s) => s.kind === "box").map((s) => s.expected),
  ]);
  const rows = Math.max(...byTurn.map((r) => r.length));
  return (
    <table className="coach-table">
      <caption>Expected final score after each turn</caption>
      <thead>
        <tr>
          <th scope="col">After turn</th>
          {players.map((p, i) => (
            <th scope="col" key={i}>
              {p.player}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: rows }, (_, t) => (
          <tr key={t}>
            <th scope="row">{t === 0 ? "Start" : t}</th>
            {byTurn.map((r, i) => (
              <td key={i}>{r[t] === undefined ? "" : expectedWords(r[t])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

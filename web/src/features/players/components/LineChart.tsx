import { useId } from "react";
import { ChartAxes, ChartLegend, chartLine, type ChartFrame } from "@/ui/Chart.tsx";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const FRAME: ChartFrame = { width: WIDTH, height: HEIGHT, pad: PAD };

export interface Series {
  label: string;
  /** In order along the bottom: the n-th value sits at n (1-based). */
  values: number[];
}

/**
 * Lines of numbers over games, as a hand-made SVG: games along the bottom, the value up the side.
 * The picture is described for screen readers by the table of numbers each page puts beside it.
 */
export function LineChart({
  title,
  series,
  xLabel,
  testId,
}: {
  title: string;
  series: Series[];
  /** What runs along the bottom, for the caption. */
  xLabel: string;
  testId?: string;
}) {
  const titleId = useId();
  const count = Math.max(2, ...series.map((s) => s.values.length));
  const values = series.flatMap((s) => s.values);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (!Number.isFinite(min)) [min, max] = [0, 1];
  if (max - min < 1e-9) [min, max] = [min - 1, max + 1];
  const step = [0.5, 1, 2, 5, 10, 20, 50, 100].find((s) => (max - min) / s <= 5) ?? 200;
  const low = Math.floor(min / step) * step;
  const high = Math.max(low + step, Math.ceil(max / step) * step);
  const x = (n: number) => PAD.left + ((n - 1) / (count - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((high - v) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = Array.from(
    { length: Math.round((high - low) / step) + 1 },
    (_, i) => low + i * step,
  );
  const every = Math.ceil(count / 8);

  return (
    <figure className="player-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <title id={titleId}>{`${title} (the table below gives the numbers)`}</title>
        <ChartAxes
          frame={FRAME}
          yTicks={ticks}
          y={y}
          yLabel={(t) => (Number.isInteger(t) ? t : t.toFixed(1))}
          xTicks={Array.from({ length: count }, (_, i) => i + 1).filter(
            (n) => n === 1 || n % every === 0 || n === count,
          )}
          x={x}
        />
        {series.map((s, i) => {
          const line = chartLine(i);
          const points = s.values.map((v, k) => ({ x: x(k + 1), y: y(v) }));
          return (
            <g key={s.label}>
              <polyline
                points={points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")}
                fill="none"
                stroke={line.colour}
                strokeWidth={2}
                strokeDasharray={line.dash || undefined}
              />
              {points.map((p, k) => (
                <circle key={k} cx={p.x} cy={p.y} r={2.5} fill={line.colour} />
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {series.length > 1 && <ChartLegend labels={series.map((s) => s.label)} />}
        {xLabel}
      </figcaption>
    </figure>
  );
}

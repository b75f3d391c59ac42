/**
 * The hand-made charts' lines (the coach's expected score, a player's ratings and accuracy):
 * distinct in colour and in dash, so the lines part without colour too.
 */
export const CHART_LINES = [
  { colour: "#1d4e89", dash: "" },
  { colour: "#b5452b", dash: "6 3" },
  { colour: "#2e7d4f", dash: "2 3" },
  { colour: "#7a4ba0", dash: "8 3 2 3" },
] as const;

/** The style of the chart's `index`-th line. */
export const chartLine = (index: number) => CHART_LINES[index % CHART_LINES.length];

/** Which line is which: a short sample of each line's colour and dash beside its name. */
export function ChartLegend({ labels }: { labels: readonly string[] }) {
  return (
    <ul className="coach-chart__legend">
      {labels.map((label, i) => (
        <li key={i}>
          <svg width="28" height="10" aria-hidden="true">
            <line
              x1="0"
              x2="28"
              y1="5"
              y2="5"
              stroke={chartLine(i).colour}
              strokeWidth={2}
              strokeDasharray={chartLine(i).dash || undefined}
            />
          </svg>{" "}
          {label}
        </li>
      ))}
    </ul>
  );
}

/** Where a chart's plot sits in its SVG: its size and the margins that hold the axis labels. */
export interface ChartFrame {
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
}

/**
 * A chart's grid and axis labels: a line and a label at each value of `yTicks` up the side, and a
 * label at each of `xTicks` along the bottom.
 */
export function ChartAxes({
  frame,
  yTicks,
  y,
  yLabel,
  xTicks,
  x,
}: {
  frame: ChartFrame;
  yTicks: readonly number[];
  y: (value: number) => number;
  yLabel: (value: number) => string | number;
  xTicks: readonly number[];
  x: (at: number) => number;
}) {
  const { width, height, pad } = frame;
  return (
    <>
      {yTicks.map((t) => (
        <g key={t}>
          <line
            x1={pad.left}
            x2={width - pad.right}
            y1={y(t)}
            y2={y(t)}
            className="coach-chart__grid"
          />
          <text x={pad.left - 6} y={y(t) + 4} textAnchor="end" className="coach-chart__label">
            {yLabel(t)}
          </text>
        </g>
      ))}
      {xTicks.map((n) => (
        <text key={n} x={x(n)} y={height - 8} textAnchor="middle" className="coach-chart__label">
          {n}
        </text>
      ))}
    </>
  );
}

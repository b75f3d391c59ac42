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

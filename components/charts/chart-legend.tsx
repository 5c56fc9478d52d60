/** One entry of a chart's legend: a series' name and how it is drawn. */
export interface LegendEntry {
  name: string;
  color: string;
  /** A dashed line in the plot (an SVG stroke-dasharray). */
  dash?: string;
}

/**
 * A chart's legend as its own block under the plot, never inside it: recharts' legend takes its height from the plot's,
 * so a legend of many series squashed the plot. Here the plot keeps its size and a long legend wraps, then scrolls.
 */
export function ChartLegend({ entries }: { entries: readonly LegendEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <ul
      className="flex max-h-24 flex-wrap gap-x-4 gap-y-1 overflow-y-auto text-xs text-slate-600"
      data-testid="chart-legend"
    >
      {entries.map((e) => (
        <li key={e.name} className="flex items-center gap-1.5">
          <svg width="18" height="8" aria-hidden="true" className="shrink-0">
            <line x1="1" y1="4" x2="17" y2="4" stroke={e.color} strokeWidth="2" strokeDasharray={e.dash} />
          </svg>
          {e.name}
        </li>
      ))}
    </ul>
  );
}

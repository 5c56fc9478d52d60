import { CodeWithName } from "@/components/tasks/target-legend";
import { captionTypeMeaning } from "@/lib/tasks/captions/caption-types";
import type { LeaderboardMetric } from "@/lib/tasks/captions/caption-leaderboard";
import { formatPercent, formatStatistic } from "@/lib/format/numbers";

/** A caption type with its name and definition one hover away. */
export function CaptionType({ type }: { type: string }) {
  return <CodeWithName meaning={captionTypeMeaning(type)} code={type} />;
}

/** A leaderboard number with its 95% interval and n; "—" when no caption had one. */
export function MetricCell({
  metric,
  percent = false,
  testId,
}: {
  metric: LeaderboardMetric | null;
  percent?: boolean;
  testId?: string;
}) {
  const show = (v: number) => (percent ? formatPercent(v) : formatStatistic(v));
  if (!metric)
    return (
      <td className="px-2 py-1 text-slate-500" data-testid={testId}>
        —
      </td>
    );
  return (
    <td className="px-2 py-1 tabular-nums" data-testid={testId}>
      <span data-testid={testId ? `${testId}-value` : undefined}>{show(metric.value)}</span>{" "}
      {metric.ci && (
        <span className="text-xs text-slate-500">
          [{show(metric.ci.lower)}, {show(metric.ci.upper)}]
        </span>
      )}{" "}
      <span className="text-xs text-slate-500">n={metric.n}</span>
    </td>
  );
}

export function Flag({ on, label, testId }: { on: boolean; label: string; testId?: string }) {
  return on ? (
    <span className="rounded bg-red-100 px-1.5 text-xs text-red-800" data-testid={testId}>
      {label}
    </span>
  ) : null;
}

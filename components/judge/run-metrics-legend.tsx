import type { MetricDeclaration } from "@/lib/task-modules/task-declaration";
import { scaleHint } from "@/lib/task-modules/task-display";

/**
 * What the run table's columns mean: each metric the run's task declares (hallucination: I, S, D, overall,
 * verdict) with its name, definition, how it is computed and its scale. The headers' abbreviations are
 * otherwise unexplained (issue 38 §5.6).
 */
export function RunMetricsLegend({
  metrics,
}: {
  metrics: readonly Pick<
    MetricDeclaration,
    "id" | "label" | "definition" | "aggregation" | "scale" | "higherIsBetter"
  >[];
}) {
  if (metrics.length === 0) return null;
  return (
    <details className="rounded-md border border-slate-200 bg-white p-3 text-xs" open data-testid="run-metrics-legend">
      <summary className="cursor-pointer font-medium text-slate-700">Legend: what each column means</summary>
      <dl className="mt-2 grid grid-cols-[minmax(4rem,max-content)_1fr] gap-x-3 gap-y-1">
        {metrics.map((metric) => (
          <div key={metric.id} className="contents" data-testid="run-metrics-legend-entry" data-metric={metric.id}>
            <dt className="font-medium uppercase">{metric.label}</dt>
            <dd className="text-slate-600">
              {metric.definition} {metric.aggregation} <span className="text-slate-500">({scaleHint(metric)})</span>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

import { scaleBounds, type TaskDeclaration } from "../../task-modules/task-declaration";
import { type AgreementItem, type SweepCurve, type SweepPoint, WORST_TARGET } from "../types";
import { binaryMetrics, confusionOf } from "./confusion";
import type { Binary, Declarations } from "./declarations";

/** 21 thresholds across a numeric scale (0–10: steps of 0.5; 0–100: steps of 5); a categorical scale's values. */
function sweepThresholds(
  scale: { kind: "numeric"; min: number; max: number } | { kind: "categorical"; values: readonly { value: number }[] },
): number[] {
  if (scale.kind === "categorical") return scale.values.map((v) => v.value).sort((a, b) => a - b);
  return Array.from({ length: 21 }, (_, i) => scale.min + (i * (scale.max - scale.min)) / 20);
}

interface SweptMetric {
  id: string;
  label: string;
  rule: ">=" | "<";
  scale: TaskDeclaration["targets"][number]["scale"];
  filterKey: string | null;
}

/**
 * What a task sweeps: its metrics declared `sweep` in declaration order, with the worst-target
 * pseudo-metric after the last one that points the same way as the targets.
 */
function sweptMetrics(task: TaskDeclaration): SweptMetric[] {
  const filterKey = (id: string) =>
    task.queryAliases?.find((a) => a.metric === id && a.bound === "min")?.key ?? `min.${id}`;
  const metrics = task.metrics.filter((m) => m.sweep && m.positive.op !== "==");
  const out: SweptMetric[] = metrics.map((m) => ({
    id: m.id,
    label: m.label,
    rule: m.positive.op as ">=" | "<",
    scale: m.scale,
    filterKey: m.positive.op === ">=" ? filterKey(m.id) : null,
  }));
  const first = task.targets[0];
  if (task.sweepWorstTarget && first && first.positive.op !== "==") {
    const at = metrics.reduce((last, m, i) => (m.higherIsBetter === first.higherIsBetter ? i + 1 : last), 0);
    out.splice(at, 0, {
      id: WORST_TARGET,
      label: "worst target",
      rule: first.positive.op,
      scale: first.scale,
      filterKey: null,
    });
  }
  return out;
}

/**
 * The judge's per-video values against the reviewers' consensus on the task's verdict metric: at
 * each threshold the judge says "positive" when the value is ≥ it (or below it, by the metric's
 * declared rule). The best threshold is the one with the highest F1 (ties: the higher kappa, then the first).
 */
export function thresholdSweep(items: readonly AgreementItem[], d: Declarations): SweepCurve[] {
  const curves: SweepCurve[] = [];
  for (const task of d.tasks) {
    if (!task.verdict) continue;
    const verdictId = task.verdict.metricId;
    const videos = items
      .filter((i) => i.targetType === verdictId && i.videoValues && (i.taskId ?? task.id) === task.id)
      .map((i) => {
        const truth = d.truth(i);
        return { item: i, truth: truth === null ? null : d.binarise(i, truth) };
      })
      .filter((v) => v.truth !== null);
    for (const metric of sweptMetrics(task)) {
      const rows = videos
        .map((v) => ({ truth: v.truth!, value: v.item.videoValues![metric.id] ?? null }))
        .filter((r): r is { truth: Binary; value: number } => r.value !== null);
      const truth = Uint8Array.from(rows, (r) => r.truth);
      const points: SweepPoint[] = sweepThresholds(metric.scale).map((threshold) => {
        const predicted = Uint8Array.from(rows, (r) =>
          (metric.rule === "<" ? r.value < threshold : r.value >= threshold) ? 1 : 0,
        );
        const c = confusionOf(truth, predicted);
        return { threshold, ...c, ...binaryMetrics(c) };
      });
      let best: SweepPoint | null = null;
      for (const p of points) {
        if (p.f1 === null) continue;
        if (!best || p.f1 > best.f1! || (p.f1 === best.f1 && (p.kappa ?? -Infinity) > (best.kappa ?? -Infinity)))
          best = p;
      }
      const { min, max } = scaleBounds(metric.scale);
      curves.push({
        metric: metric.id,
        label: metric.label,
        domain: [min, max],
        filterKey: metric.filterKey,
        rule: metric.rule,
        n: rows.length,
        points,
        best,
      });
    }
  }
  return curves;
}

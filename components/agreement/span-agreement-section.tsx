"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import type { SpanComparison, SpanLabelAgreement, SpanStat } from "@/lib/spans/agreement/types";
import { fmt, fmtCi } from "./links";

const COLORS = ["#4f46e5", "#16a34a", "#dc2626", "#d97706", "#0891b2", "#9333ea", "#db2777", "#475569"];

/** A statistic with its interval under it. */
function StatCell({ stat, testId, rowSpan }: { stat: SpanStat; testId?: string; rowSpan?: number }) {
  return (
    <td rowSpan={rowSpan} className="px-2 py-1 text-right align-top tabular-nums" data-testid={testId}>
      {fmt(stat.value)}
      {stat.ci && <span className="block text-xs text-slate-500">{fmtCi(stat.ci)}</span>}
    </td>
  );
}

const comparisonName = (c: SpanComparison) => `${c.predictionLabel} vs ${c.referenceLabel}`;

/** F1 by IoU threshold, one line per comparison. */
function F1Chart({ label }: { label: SpanLabelAgreement }) {
  const data = label.comparisons[0]!.thresholds.map((t, i) => ({
    threshold: t.threshold,
    ...Object.fromEntries(label.comparisons.map((c) => [c.key, c.thresholds[i]!.f1.value])),
  }));
  return (
    <div className="h-56" data-testid="span-f1-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 10, right: 10, bottom: 20, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="threshold"
            type="number"
            domain={[0.1, 0.7]}
            ticks={[0.1, 0.3, 0.5, 0.7]}
            label={{ value: "IoU ≥", position: "insideBottom", offset: -10 }}
          />
          <YAxis domain={[0, 1]} />
          <Tooltip formatter={(v) => (typeof v === "number" ? fmt(v) : String(v))} />
          <Legend verticalAlign="top" />
          {label.comparisons.map((c, i) => (
            <Line
              key={c.key}
              dataKey={c.key}
              name={comparisonName(c)}
              stroke={COLORS[i % COLORS.length]}
              connectNulls
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** One label: comparisons × thresholds, with the comparison's own figures on its first row. */
function LabelTable({ label }: { label: SpanLabelAgreement }) {
  const thresholds = label.comparisons[0]!.thresholds.length;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid={`span-table-${label.label}`}>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="px-2 py-1">Prediction vs reference</th>
            <th className="px-2 py-1 text-right">Videos</th>
            <th className="px-2 py-1 text-right">IoU ≥</th>
            <th className="px-2 py-1 text-right">Precision</th>
            <th className="px-2 py-1 text-right">Recall</th>
            <th className="px-2 py-1 text-right">F1</th>
            <th className="px-2 py-1 text-right">Mean IoU</th>
            <th className="px-2 py-1 text-right">Frame κ</th>
            <th className="px-2 py-1 text-right">Frame α</th>
            <th className="px-2 py-1 text-right">Box IoU</th>
          </tr>
        </thead>
        <tbody>
          {label.comparisons.flatMap((c) =>
            c.thresholds.map((t, i) => (
              <tr key={`${c.key}|${t.threshold}`} className={i === 0 ? "border-t border-slate-200" : undefined}>
                {i === 0 && (
                  <>
                    <td rowSpan={thresholds} className="px-2 py-1 align-top" data-testid="span-comparison">
                      {comparisonName(c)}
                      <span className="block text-xs text-slate-500">
                        {c.predictionSpans} vs {c.referenceSpans} spans
                      </span>
                    </td>
                    <td rowSpan={thresholds} className="px-2 py-1 text-right align-top tabular-nums">
                      {c.videos}
                    </td>
                  </>
                )}
                <td className="px-2 py-1 text-right tabular-nums">{t.threshold}</td>
                <StatCell stat={t.precision} />
                <StatCell stat={t.recall} />
                <StatCell stat={t.f1} testId={`span-f1-${c.key}-${t.threshold}`} />
                {i === 0 && (
                  <>
                    <StatCell stat={c.meanIou} rowSpan={thresholds} />
                    <StatCell stat={c.frames.kappa} rowSpan={thresholds} testId={`span-kappa-${c.key}`} />
                    <StatCell stat={c.frames.alpha} rowSpan={thresholds} />
                    {c.boxIou.pairs > 0 ? (
                      <StatCell stat={c.boxIou} rowSpan={thresholds} />
                    ) : (
                      <td rowSpan={thresholds} className="px-2 py-1 text-right align-top text-slate-500">
                        no boxes
                      </td>
                    )}
                  </>
                )}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The agreement page's "Where (spans)" section: per label, each comparison's precision, recall and F1 at each IoU
 * threshold with intervals, its mean IoU, frame κ and α, box IoU and videos, and F1 by threshold as a chart.
 */
export function SpanAgreementSection({
  report,
  problem,
}: {
  report: SpanAgreementReport | null;
  problem?: string | null;
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="span-agreement">
      <h2 className="mb-3 text-base font-semibold text-slate-800">Where (spans)</h2>
      {problem ? (
        <p className="text-sm text-slate-600">{problem}</p>
      ) : !report || report.labels.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="span-agreement-empty">
          No spans yet: once people or a judge mark where something happens, their agreement on where shows here.
        </p>
      ) : (
        <div className="flex flex-col gap-6">
          <p className="text-xs text-slate-500">
            Spans matched one to one, greedily by temporal IoU on frames; precision is the share of the
            prediction&apos;s spans matched, recall the share of the reference&apos;s. Mean IoU and box IoU are of the
            pairs matched at IoU ≥ {report.meanIouThreshold}. Brackets: 95% bootstrap intervals over videos. The span
            agreement CSV is among the exports above.
            {report.videosLeftOut > 0 &&
              ` ${report.videosLeftOut} ${report.videosLeftOut === 1 ? "video is" : "videos are"} left out: frame count unknown.`}
          </p>
          {report.labels.map((label) => (
            <div key={label.label} className="flex flex-col gap-2" data-testid="span-label">
              <h3 className="text-sm font-semibold text-slate-700">{label.name}</h3>
              <LabelTable label={label} />
              <F1Chart label={label} />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

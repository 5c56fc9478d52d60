"use client";

import { useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "@/components/charts/chart-frame";
import type { SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import type { SpanComparison, SpanComparisonKind, SpanLabelAgreement, SpanStat } from "@/lib/spans/agreement/types";
import { fmt, fmtCi } from "./links";

const COLORS = ["#4f46e5", "#16a34a", "#dc2626", "#d97706", "#0891b2", "#9333ea", "#db2777", "#475569"];

/** A statistic with its interval under it. */
function StatCell({ stat, testId }: { stat: SpanStat; testId?: string }) {
  return (
    <td className="px-2 py-1 text-right align-top tabular-nums" data-testid={testId}>
      {fmt(stat.value)}
      {stat.ci && <span className="block text-xs text-slate-500">{fmtCi(stat.ci)}</span>}
    </td>
  );
}

const comparisonName = (c: SpanComparison) => `${c.predictionLabel} vs ${c.referenceLabel}`;

/** Which comparison speaks for a label in the summary: the judge against the truth first, people among themselves last. */
const HEADLINE_ORDER: readonly SpanComparisonKind[] = [
  "judge_gold",
  "judge_people",
  "judge_person",
  "people_pooled",
  "people",
];

/** The label's headline comparison: the first of the best-ranked kind, in the report's order. */
export function headlineComparison(label: SpanLabelAgreement): SpanComparison {
  for (const kind of HEADLINE_ORDER) {
    const found = label.comparisons.find((c) => c.kind === kind);
    if (found) return found;
  }
  return label.comparisons[0]!;
}

/** F1 by IoU threshold, one line per comparison; its legend under the plot, so many comparisons never shrink it. */
function F1Chart({ label }: { label: SpanLabelAgreement }) {
  const data = label.comparisons[0]!.thresholds.map((t, i) => ({
    threshold: t.threshold,
    ...Object.fromEntries(label.comparisons.map((c) => [c.key, c.thresholds[i]!.f1.value])),
  }));
  const legend = label.comparisons.map((c, i) => ({ name: comparisonName(c), color: COLORS[i % COLORS.length]! }));
  return (
    <div data-testid="span-f1-chart">
      <ChartFrame title={`F1 by IoU threshold, ${label.name}`} legend={legend} className="h-56">
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
      </ChartFrame>
    </div>
  );
}

/** Every comparison of one label, a row each, the IoU thresholds as column groups of precision, recall and F1. */
function ComparisonTable({ label, thresholds }: { label: SpanLabelAgreement; thresholds: readonly number[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid={`span-table-${label.label}`}>
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th rowSpan={2} className="px-2 py-1 align-bottom">
              Prediction vs reference
            </th>
            <th rowSpan={2} className="px-2 py-1 text-right align-bottom">
              Videos
            </th>
            {thresholds.map((t) => (
              <th key={t} colSpan={3} className="border-l border-slate-200 px-2 py-1 text-center">
                IoU ≥ {t}
              </th>
            ))}
            {["Mean IoU", "Frame κ", "Frame α", "Box IoU"].map((name) => (
              <th key={name} rowSpan={2} className="px-2 py-1 text-right align-bottom">
                {name}
              </th>
            ))}
          </tr>
          <tr>
            {thresholds.flatMap((t) =>
              ["P", "R", "F1"].map((name) => (
                <th
                  key={`${t}-${name}`}
                  className={`px-2 py-1 text-right ${name === "P" ? "border-l border-slate-200" : ""}`}
                  title={{ P: "precision", R: "recall", F1: "F1" }[name]}
                >
                  {name}
                </th>
              )),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {label.comparisons.map((c) => (
            <tr key={c.key}>
              <td className="px-2 py-1 align-top" data-testid="span-comparison">
                {comparisonName(c)}
                <span className="block text-xs text-slate-500">
                  {c.predictionSpans} vs {c.referenceSpans} spans
                </span>
              </td>
              <td className="px-2 py-1 text-right align-top tabular-nums">{c.videos}</td>
              {c.thresholds.flatMap((t) => [
                <StatCell key={`${t.threshold}-p`} stat={t.precision} />,
                <StatCell key={`${t.threshold}-r`} stat={t.recall} />,
                <StatCell key={`${t.threshold}-f1`} stat={t.f1} testId={`span-f1-${c.key}-${t.threshold}`} />,
              ])}
              <StatCell stat={c.meanIou} />
              <StatCell stat={c.frames.kappa} testId={`span-kappa-${c.key}`} />
              <StatCell stat={c.frames.alpha} />
              {c.boxIou.pairs > 0 ? (
                <StatCell stat={c.boxIou} />
              ) : (
                <td className="px-2 py-1 text-right align-top text-slate-500">no boxes</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A label's every comparison, closed until asked for: the figures are in the page (find-in-page opens them), the chart
 * is drawn once opened (a closed box has no size to draw it in).
 */
function LabelDetails({ label, thresholds }: { label: SpanLabelAgreement; thresholds: readonly number[] }) {
  const [open, setOpen] = useState(false);
  const n = label.comparisons.length;
  return (
    <details
      className="py-1"
      data-testid="span-label-details"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer text-xs text-indigo-700">
        {n === 1 ? "The comparison" : `All ${n} comparisons`} of {label.name}: precision, recall and F1 at each IoU,
        frame κ and α, box IoU; F1 by threshold
      </summary>
      <div className="mt-2 flex flex-col gap-3">
        <ComparisonTable label={label} thresholds={thresholds} />
        {open && <F1Chart label={label} />}
      </div>
    </details>
  );
}

/** One row per label: its headline comparison's F1 at each IoU threshold, mean IoU and frame κ; the rest in its details. */
function LabelSummaryRows({ label, thresholds }: { label: SpanLabelAgreement; thresholds: readonly number[] }) {
  const c = headlineComparison(label);
  const others = label.comparisons.length - 1;
  const columns = 5 + thresholds.length;
  return (
    <>
      <tr className="border-t border-slate-200" data-testid="span-label-row" data-label={label.label}>
        <th scope="row" className="px-2 py-1 text-left align-top font-medium text-slate-800">
          {label.name}
        </th>
        <td className="px-2 py-1 align-top" data-testid="span-headline">
          {comparisonName(c)}
          <span className="block text-xs text-slate-500">
            {c.predictionSpans} vs {c.referenceSpans} spans
            {others > 0 && ` · ${others} more ${others === 1 ? "comparison" : "comparisons"} below`}
          </span>
        </td>
        <td className="px-2 py-1 text-right align-top tabular-nums">{c.videos}</td>
        {c.thresholds.map((t) => (
          <StatCell key={t.threshold} stat={t.f1} testId={`span-summary-f1-${label.label}-${t.threshold}`} />
        ))}
        <StatCell stat={c.meanIou} />
        <StatCell stat={c.frames.kappa} />
      </tr>
      <tr>
        <td colSpan={columns} className="px-2 pb-2">
          <LabelDetails label={label} thresholds={thresholds} />
        </td>
      </tr>
    </>
  );
}

/** The section's one table: a row per label with the thresholds as columns, each label's details under its row. */
function LabelSummaryTable({ report }: { report: SpanAgreementReport }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="span-summary">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="px-2 py-1">Label</th>
            <th className="px-2 py-1">Prediction vs reference</th>
            <th className="px-2 py-1 text-right">Videos</th>
            {report.thresholds.map((t) => (
              <th key={t} className="px-2 py-1 text-right" data-testid="span-summary-threshold">
                F1 at IoU ≥ {t}
              </th>
            ))}
            <th className="px-2 py-1 text-right">Mean IoU</th>
            <th className="px-2 py-1 text-right">Frame κ</th>
          </tr>
        </thead>
        <tbody>
          {report.labels.map((label) => (
            <LabelSummaryRows key={label.label} label={label} thresholds={report.thresholds} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The same summary over each generator's videos alone: a row per generator and label, its headline comparison's F1 at
 * each IoU threshold and frame κ, so generators read side by side.
 */
function GeneratorTable({ report }: { report: SpanAgreementReport }) {
  const generators = report.byGenerator.filter((g) => g.labels.length > 0);
  if (generators.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <h3 className="text-sm font-semibold text-slate-800">By generator</h3>
      <p className="text-xs text-slate-500">
        Each generator&apos;s videos alone (the model that made them): matches, counts and intervals over its videos.
      </p>
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm" data-testid="span-by-generator">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="px-2 py-1">Generator</th>
              <th className="px-2 py-1">Label</th>
              <th className="px-2 py-1">Prediction vs reference</th>
              <th className="px-2 py-1 text-right">Videos</th>
              {report.thresholds.map((t) => (
                <th key={t} className="px-2 py-1 text-right">
                  F1 at IoU ≥ {t}
                </th>
              ))}
              <th className="px-2 py-1 text-right">Frame κ</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {generators.flatMap((g) =>
              g.labels.map((label) => {
                const c = headlineComparison(label);
                const name = g.generator ?? "(no generator)";
                return (
                  <tr
                    key={`${name}\u0000${label.label}`}
                    data-testid="span-generator-row"
                    data-generator={name}
                    data-label={label.label}
                  >
                    <th scope="row" className="px-2 py-1 text-left align-top font-medium text-slate-800">
                      {name}
                      <span className="block text-xs font-normal text-slate-500">
                        {g.videos} video{g.videos === 1 ? "" : "s"}
                      </span>
                    </th>
                    <td className="px-2 py-1 align-top">{label.name}</td>
                    <td className="px-2 py-1 align-top">
                      {comparisonName(c)}
                      <span className="block text-xs text-slate-500">
                        {c.predictionSpans} vs {c.referenceSpans} spans
                      </span>
                    </td>
                    <td className="px-2 py-1 text-right align-top tabular-nums">{c.videos}</td>
                    {c.thresholds.map((t) => (
                      <StatCell
                        key={t.threshold}
                        stat={t.f1}
                        testId={`span-generator-f1-${name}-${label.label}-${t.threshold}`}
                      />
                    ))}
                    <StatCell stat={c.frames.kappa} testId={`span-generator-kappa-${name}-${label.label}`} />
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The agreement page's "Where (spans)" section: a row per label with its headline comparison's F1 at each IoU
 * threshold, mean IoU and frame κ; under it, closed, every comparison's precision, recall and F1 at each threshold
 * with intervals, mean IoU, frame κ and α, box IoU and videos, and F1 by threshold as a chart; then the labels' rows
 * by generator.
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
        <div className="flex flex-col gap-3">
          <p className="text-xs text-slate-500">
            Spans matched one to one, greedily by temporal IoU on frames; precision is the share of the
            prediction&apos;s spans matched, recall the share of the reference&apos;s. Each label&apos;s row shows the
            judge against the gold, else against the people pooled, else against one person, else people among
            themselves; its details hold every comparison. Mean IoU and box IoU are of the pairs matched at IoU ≥{" "}
            {report.meanIouThreshold}. Brackets: 95% bootstrap intervals over videos. The span agreement CSV is among
            the exports above.
            {report.videosLeftOut > 0 &&
              ` ${report.videosLeftOut} ${report.videosLeftOut === 1 ? "video is" : "videos are"} left out: frame count unknown.`}
          </p>
          <LabelSummaryTable report={report} />
          <GeneratorTable report={report} />
        </div>
      )}
    </section>
  );
}

/**
 * The span agreement as a file of its own beside the agreement report's: one row per label, comparison and statistic
 * (at each IoU threshold for precision, recall and F1) with its 95% interval, so a spreadsheet can pivot it: first
 * over every video (generator empty), then over each generator's videos alone.
 */
import { csvRow, type CsvValue } from "../../format/csv";
import type { SpanAgreementReport } from "./load-span-agreement";
import type { SpanComparison, SpanStat } from "./types";

export const SPAN_AGREEMENT_CSV_HEADER = [
  "task",
  "generator",
  "label",
  "comparison",
  "reference",
  "prediction",
  "videos",
  "statistic",
  "iou_threshold",
  "value",
  "ci_low",
  "ci_high",
  "n",
] as const;

/** The generator column: empty for the whole report, else the generator (`(none)` for videos that name none). */
const ALL_GENERATORS = "";
const NO_GENERATOR = "(none)";

function comparisonRows(task: string, generator: string, label: string, c: SpanComparison): CsvValue[][] {
  const head = [task, generator, label, c.key, c.referenceLabel, c.predictionLabel, c.videos];
  const row = (statistic: string, threshold: number | null, s: SpanStat | number, n: number | null): CsvValue[] =>
    typeof s === "number"
      ? [...head, statistic, threshold, s, null, null, n]
      : [...head, statistic, threshold, s.value, s.ci?.[0] ?? null, s.ci?.[1] ?? null, n];
  const rows: CsvValue[][] = [
    row("reference_spans", null, c.referenceSpans, null),
    row("prediction_spans", null, c.predictionSpans, null),
  ];
  for (const t of c.thresholds) {
    rows.push(row("matched", t.threshold, t.matched, null));
    rows.push(row("precision", t.threshold, t.precision, c.predictionSpans));
    rows.push(row("recall", t.threshold, t.recall, c.referenceSpans));
    rows.push(row("f1", t.threshold, t.f1, c.referenceSpans + c.predictionSpans));
  }
  const frames = c.frames.both + c.frames.referenceOnly + c.frames.predictionOnly + c.frames.neither;
  rows.push(row("mean_iou", c.thresholds[0]!.threshold, c.meanIou, c.thresholds[0]!.matched));
  rows.push(row("frame_kappa", null, c.frames.kappa, frames));
  rows.push(row("frame_alpha", null, c.frames.alpha, frames));
  rows.push(row("box_iou", c.thresholds[0]!.threshold, c.boxIou, c.boxIou.pairs));
  return rows;
}

/** The whole report's rows (generator empty), then each generator's. */
export function spanAgreementCsv(report: SpanAgreementReport): string {
  const rowsOf = (generator: string, labels: SpanAgreementReport["labels"]) =>
    labels.flatMap((l) => l.comparisons.flatMap((c) => comparisonRows(report.task, generator, l.label, c)));
  const rows = [
    ...rowsOf(ALL_GENERATORS, report.labels),
    ...report.byGenerator.flatMap((g) => rowsOf(g.generator ?? NO_GENERATOR, g.labels)),
  ];
  return csvRow([...SPAN_AGREEMENT_CSV_HEADER]) + rows.map(csvRow).join("");
}

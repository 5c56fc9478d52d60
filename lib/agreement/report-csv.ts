import { csvRow, type CsvValue } from "../format/csv";
import { BREAKDOWNS, type AgreementReport, type StatBlock } from "./types";

export const REPORT_CSV_HEADER = [
  "comparison",
  "breakdown",
  "group",
  "statistic",
  "value",
  "ci_low",
  "ci_high",
  "n",
] as const;

/** The report as flat rows: comparison, breakdown, group, statistic, value, ci_low, ci_high, n. */
export function reportRows(report: AgreementReport): CsvValue[][] {
  const rows: CsvValue[][] = [];
  const block = (
    comparison: string,
    breakdown: string,
    group: string,
    b: StatBlock,
    extra: Record<string, number> = {},
  ) => {
    for (const [statistic, value] of Object.entries({ ...b.values, ...extra })) {
      const ci = b.ci[statistic] ?? null;
      rows.push([comparison, breakdown, group, statistic, value, ci?.[0] ?? null, ci?.[1] ?? null, b.n]);
    }
  };
  for (const [statistic, value] of Object.entries(report.summary))
    rows.push(["summary", "all", "all", statistic, value, null, null, null]);
  rows.push(["summary", "all", "all", "threshold", report.options.threshold, null, null, null]);
  rows.push(["summary", "all", "all", "overall_threshold", report.options.overallThreshold, null, null, null]);
  for (const p of report.presence)
    rows.push(["summary", "all", p.taskId, "presence_threshold", p.threshold, null, null, null]);

  const judge = (comparison: string, c: AgreementReport["humanVsJudge"]["consensus"]) => {
    const { tp, fp, fn, tn } = c.binary.confusion;
    block(comparison, "all", "binary", c.binary, { tp, fp, fn, tn });
    for (const [type, b] of Object.entries(c.native)) block(comparison, "all", `native_${type}`, b);
  };
  judge("judge_vs_consensus", report.humanVsJudge.consensus);
  for (const r of report.humanVsJudge.reviewers) judge(`judge_vs_reviewer:${r.label}`, r);
  if (report.humanVsJudge.gold) judge("judge_vs_gold", report.humanVsJudge.gold);

  block("human_vs_human", "all", "binary", report.humanVsHuman.binary);
  for (const [type, b] of Object.entries(report.humanVsHuman.native))
    block("human_vs_human", "all", `native_${type}`, b);
  for (const p of report.humanVsHuman.pairs) {
    block(`human_pair:${p.labelA}|${p.labelB}`, "all", "binary", p.binary);
    block(`human_pair:${p.labelA}|${p.labelB}`, "all", "native_score", p.score);
    if (p.presence.n > 0) block(`human_pair:${p.labelA}|${p.labelB}`, "all", "presence", p.presence);
  }

  for (const by of [...BREAKDOWNS, ...report.groupings.map((g) => g.id)]) {
    for (const g of report.breakdowns[by] ?? []) {
      block("judge_vs_consensus", by, g.label, g.judge);
      block("human_vs_human", by, g.label, g.humans);
    }
  }

  for (const curve of report.sweep) {
    for (const p of curve.points) {
      for (const statistic of ["precision", "recall", "f1", "accuracy", "kappa", "tp", "fp", "fn", "tn"] as const) {
        rows.push([
          "threshold_sweep",
          `${curve.metric} ${curve.rule}`,
          String(p.threshold),
          statistic,
          p[statistic],
          null,
          null,
          curve.n,
        ]);
      }
    }
    rows.push([
      "threshold_sweep",
      `${curve.metric} ${curve.rule}`,
      "best",
      "threshold",
      curve.best?.threshold ?? null,
      null,
      null,
      curve.n,
    ]);
    rows.push([
      "threshold_sweep",
      `${curve.metric} ${curve.rule}`,
      "best",
      "f1",
      curve.best?.f1 ?? null,
      null,
      null,
      curve.n,
    ]);
  }
  // Presence: each human side against the judge's presence at every t ("judge ≥ t means present"), then the chosen and best t.
  for (const presence of report.presence) {
    for (const curve of presence.curves) {
      const breakdown = `${presence.taskId} presence vs ${curve.label}`;
      for (const p of curve.points) {
        for (const statistic of ["kappa", "precision", "recall", "f1", "accuracy", "tp", "fp", "fn", "tn"] as const) {
          rows.push(["presence_sweep", breakdown, String(p.threshold), statistic, p[statistic], null, null, curve.n]);
        }
      }
      rows.push(["presence_sweep", breakdown, "chosen", "threshold", presence.threshold, null, null, curve.n]);
      rows.push(["presence_sweep", breakdown, "best", "threshold", curve.best?.threshold ?? null, null, null, curve.n]);
      rows.push(["presence_sweep", breakdown, "best", "f1", curve.best?.f1 ?? null, null, null, curve.n]);
    }
  }
  return rows;
}

export function reportCsv(report: AgreementReport): string {
  return csvRow([...REPORT_CSV_HEADER]) + reportRows(report).map(csvRow).join("");
}

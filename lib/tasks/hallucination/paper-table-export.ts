/**
 * The paper's table as files: a CSV with every number (counts, values and interval bounds, one row per
 * model and target) and a LaTeX table (booktabs) laid out as the paper's: generator models as rows, and
 * for each of the overall verdict, prompt consistency, static and dynamic hallucination the columns
 * P, R, F1 and Acc, plus κ; a second tabular gives each category over all videos.
 */
import { csvRow, type CsvValue } from "../../format/csv";
import { escapeLatex } from "../../export/latex";
import {
  CATEGORY_TARGETS,
  HEADLINE_TARGETS,
  PAPER_METRICS,
  type PaperCell,
  type PaperGroup,
  type PaperTable,
} from "./paper-table";

export const groupName = (g: Pick<PaperGroup, "model">) =>
  g.model === null ? "Overall" : g.model === "" ? "(no model)" : g.model;

export function paperTableCsv(table: PaperTable, meta: { labelSet: string; runId: string; threshold: number }): string {
  const header = [
    "label_set",
    "run",
    "threshold",
    "model",
    "target",
    "n",
    "tp",
    "fp",
    "fn",
    "tn",
    ...PAPER_METRICS.flatMap((m) => [m, `${m}_lower`, `${m}_upper`]),
  ];
  let out = csvRow(header);
  for (const group of table.groups) {
    for (const target of table.targets) {
      const cell = group.cells[target.id]!;
      const values: CsvValue[] = [
        meta.labelSet,
        meta.runId,
        meta.threshold,
        groupName(group),
        target.id,
        cell.n,
        cell.counts.tp,
        cell.counts.fp,
        cell.counts.fn,
        cell.counts.tn,
      ];
      for (const m of PAPER_METRICS) values.push(cell.values[m], cell.ci[m]?.lower ?? null, cell.ci[m]?.upper ?? null);
      out += csvRow(values);
    }
  }
  return out;
}

const num = (v: number | null) => (v === null ? "--" : v.toFixed(2));

function latexCell(cell: PaperCell, metric: (typeof PAPER_METRICS)[number], withCi: boolean): string {
  const value = num(cell.values[metric]);
  const ci = cell.ci[metric];
  if (!withCi || !ci || cell.values[metric] === null) return value;
  return `${value} {\\scriptsize[${ci.lower.toFixed(2)}, ${ci.upper.toFixed(2)}]}`;
}

const SHORT: Record<string, string> = { precision: "P", recall: "R", f1: "F1", accuracy: "Acc", kappa: "$\\kappa$" };
const HEADLINE_METRICS = ["precision", "recall", "f1", "accuracy"] as const;

export function paperTableLatex(
  table: PaperTable,
  meta: { caption: string; label?: string; withCi?: boolean },
): string {
  const withCi = meta.withCi ?? true;
  const lines: string[] = [];
  lines.push("% \\usepackage{booktabs}");
  lines.push("\\begin{table*}[t]");
  lines.push("\\centering");
  lines.push(`\\caption{${escapeLatex(meta.caption)}}`);
  if (meta.label) lines.push(`\\label{${meta.label.replace(/[^A-Za-z0-9:_-]/g, "")}}`);
  const perTarget = HEADLINE_METRICS.length + 1;
  lines.push(`\\begin{tabular}{l${"r".repeat(HEADLINE_TARGETS.length * perTarget)}r}`);
  lines.push("\\toprule");
  lines.push(
    `Model & ${HEADLINE_TARGETS.map((t) => `\\multicolumn{${perTarget}}{c}{${escapeLatex(t.label)}}`).join(" & ")} & $n$ \\\\`,
  );
  lines.push(
    HEADLINE_TARGETS.map((_, i) => `\\cmidrule(lr){${2 + i * perTarget}-${1 + (i + 1) * perTarget}}`).join(" "),
  );
  lines.push(
    ` & ${HEADLINE_TARGETS.map(() => [...HEADLINE_METRICS, "kappa"].map((m) => SHORT[m]).join(" & ")).join(" & ")} & \\\\`,
  );
  lines.push("\\midrule");
  table.groups.forEach((group, index) => {
    if (group.model === null && index > 0) lines.push("\\midrule");
    const cells = HEADLINE_TARGETS.flatMap((t) =>
      [...HEADLINE_METRICS, "kappa" as const].map((m) => latexCell(group.cells[t.id]!, m, withCi)),
    );
    lines.push(`${escapeLatex(groupName(group))} & ${cells.join(" & ")} & ${group.cells.verdict!.n} \\\\`);
  });
  lines.push("\\bottomrule");
  lines.push("\\end{tabular}");
  const overall = table.groups.find((g) => g.model === null)!;
  lines.push("");
  lines.push("\\vspace{1em}");
  lines.push("\\begin{tabular}{lrrrrrr}");
  lines.push("\\toprule");
  lines.push(`Category & ${[...HEADLINE_METRICS, "kappa"].map((m) => SHORT[m]).join(" & ")} & $n$ \\\\`);
  lines.push("\\midrule");
  for (const target of CATEGORY_TARGETS) {
    const cell = overall.cells[target.id]!;
    lines.push(
      `${escapeLatex(target.label)} & ${[...HEADLINE_METRICS, "kappa" as const].map((m) => latexCell(cell, m, withCi)).join(" & ")} & ${cell.n} \\\\`,
    );
  }
  lines.push("\\bottomrule");
  lines.push("\\end{tabular}");
  lines.push("\\end{table*}");
  return `${lines.join("\n")}\n`;
}

/** The report's LaTeX, captioned with what was compared and how. */
export function calibrationLatex(report: {
  run: { model: string; endpoint: string };
  labelSet: { name: string };
  videos: number;
  threshold: number;
  table: PaperTable;
}): string {
  const caption = `${report.run.model} (${report.run.endpoint}) against ${report.labelSet.name}: precision (P), recall (R), F1, accuracy (Acc) and Cohen's kappa with bootstrap 95% intervals over ${report.videos} videos; a category is present for the judge at score >= ${report.threshold}.`;
  return paperTableLatex(report.table, { caption, label: "tab:framejury-judge" });
}

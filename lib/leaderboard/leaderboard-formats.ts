/**
 * A leaderboard as files: a CSV with every number at full precision (one row per generator, in ranking order),
 * and a LaTeX `tabular` laid out like VBench-2.0's tables: generators as rows, dimensions (then categories and
 * the total) as columns, scores as percentages with one decimal and the best of each column in bold.
 */
import { csvRow, type CsvValue } from "../format/csv";
import { escapeLatex } from "../export/latex";
import type { LeaderboardEstimate, LeaderboardResult } from "./leaderboard";

/**
 * Columns: rank, model, source (when `sources` is given: generator → where its videos came from), then per
 * dimension its score, lower, upper and n (videos), per category its value, lower and upper, and the total's.
 */
export function leaderboardCsv(result: LeaderboardResult, sources?: Readonly<Record<string, string>>): string {
  const categories = Object.keys(result.categories ?? {});
  const header: string[] = ["rank", "model"];
  if (sources) header.push("source");
  for (const d of result.dimensions) header.push(d, `${d}_lower`, `${d}_upper`, `${d}_n`);
  for (const c of categories) header.push(c, `${c}_lower`, `${c}_upper`);
  header.push("total", "total_lower", "total_upper");
  let out = csvRow(header);
  for (const g of result.generators) {
    const values: CsvValue[] = [g.rank, g.model];
    if (sources) values.push(sources[g.model] ?? null);
    for (const d of result.dimensions) {
      const cell = g.dimensions[d]!;
      values.push(cell.score, cell.lower, cell.upper, cell.n);
    }
    for (const c of categories) {
      const cell = g.categories[c]!;
      values.push(cell.value, cell.lower, cell.upper);
    }
    values.push(g.total.value, g.total.lower, g.total.upper);
    out += csvRow(values);
  }
  return out;
}

export interface LeaderboardLatexOptions {
  /** Each cell's interval after its score, in small type (default false). */
  intervals?: boolean;
  /** Scores are proportions shown ×100 (VBench's percentages, the default); false: as they are. */
  percent?: boolean;
  /** Column headings by dimension or category id, and `total` (default: the id, and "Total"). */
  labels?: Readonly<Record<string, string>>;
}

interface Column {
  heading: string;
  cell: (generator: LeaderboardResult["generators"][number]) => LeaderboardEstimate;
}

/**
 * The tabular (booktabs). Columns: every dimension, then each category and the total when there are categories,
 * or the total alone when there are several dimensions without categories (one dimension is its own total). The
 * best shown value of each column is bold (the highest, or the lowest when lower is better), every one of them on
 * a tie; a missing value is "--".
 */
export function leaderboardLatex(result: LeaderboardResult, options: LeaderboardLatexOptions = {}): string {
  const percent = options.percent ?? true;
  const shown = (x: number) => (percent ? x * 100 : x).toFixed(1);
  const heading = (id: string) => escapeLatex(options.labels?.[id] ?? id);
  const columns: Column[] = result.dimensions.map((d) => ({
    heading: heading(d),
    cell: (g) => {
      const cell = g.dimensions[d]!;
      return { value: cell.score, lower: cell.lower, upper: cell.upper };
    },
  }));
  for (const c of Object.keys(result.categories ?? {}))
    columns.push({ heading: heading(c), cell: (g) => g.categories[c]! });
  if (result.categories || result.dimensions.length > 1)
    columns.push({ heading: escapeLatex(options.labels?.total ?? "Total"), cell: (g) => g.total });

  const best = columns.map((column) => {
    const values = result.generators.map((g) => column.cell(g).value).filter((v): v is number => v !== null);
    if (values.length === 0) return null;
    return shown(result.higherIsBetter ? Math.max(...values) : Math.min(...values));
  });
  const lines = [
    "% \\usepackage{booktabs}",
    `\\begin{tabular}{l${"r".repeat(columns.length)}}`,
    "\\toprule",
    `Model & ${columns.map((c) => c.heading).join(" & ")} \\\\`,
    "\\midrule",
  ];
  for (const g of result.generators) {
    const cells = columns.map((column, i) => {
      const { value, lower, upper } = column.cell(g);
      if (value === null) return "--";
      const text = shown(value);
      const score = text === best[i] ? `\\textbf{${text}}` : text;
      return options.intervals && lower !== null && upper !== null
        ? `${score} {\\scriptsize[${shown(lower)}, ${shown(upper)}]}`
        : score;
    });
    lines.push(`${escapeLatex(g.model)} & ${cells.join(" & ")} \\\\`);
  }
  lines.push("\\bottomrule", "\\end{tabular}");
  return `${lines.join("\n")}\n`;
}

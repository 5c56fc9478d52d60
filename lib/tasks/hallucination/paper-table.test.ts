import { describe, expect, it } from "vitest";
import { anyPresent, judgePresence } from "../../calibration/judge-presence";
import { BUILT_IN_DECLARATIONS } from "../registry";
import { paperCell, paperTable, paperTableReads, type CalibrationVideo } from "./paper-table";
import declarations from "./declarations";
import { escapeLatex } from "../../export/latex";
import { paperTableCsv, paperTableLatex } from "./paper-table-export";

const video = (
  videoId: string,
  model: string | null,
  label: boolean | null,
  judge: boolean | null,
): CalibrationVideo => ({
  videoId,
  model,
  label: { verdict: label },
  judge: { verdict: judge },
});

// Model A: one of each outcome (tp, fn, fp, tn); model B: two true positives.
const VIDEOS = [
  video("a1", "A", true, true),
  video("a2", "A", true, false),
  video("a3", "A", false, true),
  video("a4", "A", false, false),
  video("b1", "B", true, true),
  video("b2", "B", true, true),
];

describe("judgePresence", () => {
  const scores = [
    { category: "s1", value: 2 },
    { category: "s1", value: 7 },
    { category: "s2", value: 4.5 },
  ];
  it("is the worst score of the category against t, and unknown without a score", () => {
    expect(judgePresence(scores, "s1", 5)).toBe(true);
    expect(judgePresence(scores, "s1", 7)).toBe(true);
    expect(judgePresence(scores, "s1", 7.5)).toBe(false);
    expect(judgePresence(scores, "s2", 5)).toBe(false);
    expect(judgePresence(scores, "s2", 4.5)).toBe(true);
    expect(judgePresence(scores, "s3", 0)).toBeNull();
  });
  it("any of several is present when one is, absent only when all are known absent", () => {
    expect(anyPresent([false, null, true])).toBe(true);
    expect(anyPresent([false, false])).toBe(false);
    expect(anyPresent([false, null])).toBeNull();
    expect(anyPresent([])).toBeNull();
  });
});

describe("paperTable", () => {
  const table = paperTable(VIDEOS, { iterations: 500, seed: 7 });
  const [a, b, overall] = table.groups;

  it("gives precision, recall, F1, accuracy and κ per model and overall, as worked by hand", () => {
    expect(table.groups.map((g) => [g.model, g.videos])).toEqual([
      ["A", 4],
      ["B", 2],
      [null, 6],
    ]);
    // Overall: tp 3, fp 1, fn 1, tn 1. P = R = F1 = 3/4; accuracy 4/6; κ: pₒ = 4/6, pₑ = (4/6)² + (2/6)² = 5/9, κ = (1/9)/(4/9) = 1/4.
    const o = overall!.cells.verdict!;
    expect(o.n).toBe(6);
    expect(o.counts).toEqual({ tp: 3, fp: 1, fn: 1, tn: 1 });
    expect(o.values.precision).toBeCloseTo(0.75, 12);
    expect(o.values.recall).toBeCloseTo(0.75, 12);
    expect(o.values.f1).toBeCloseTo(0.75, 12);
    expect(o.values.accuracy).toBeCloseTo(4 / 6, 12);
    expect(o.values.kappa).toBeCloseTo(0.25, 12);
    // A: one of each: every rate 1/2, κ 0 (pₒ = pₑ = 1/2).
    expect(a!.cells.verdict!.values).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, accuracy: 0.5, kappa: 0 });
    // B: both right, but both raters said "yes" to everything: κ is undefined (pₑ = 1).
    expect(b!.cells.verdict!.values).toEqual({ precision: 1, recall: 1, f1: 1, accuracy: 1, kappa: null });
  });

  it("bootstraps over videos: seeded, around the estimate, degenerate where every resample agrees", () => {
    const ci = overall!.cells.verdict!.ci;
    for (const metric of ["precision", "recall", "f1", "accuracy"] as const) {
      expect(ci[metric]!.lower).toBeLessThanOrEqual(overall!.cells.verdict!.values[metric]!);
      expect(ci[metric]!.upper).toBeGreaterThanOrEqual(overall!.cells.verdict!.values[metric]!);
      expect(ci[metric]!.upper).toBeGreaterThan(ci[metric]!.lower);
    }
    expect(b!.cells.verdict!.ci.accuracy).toMatchObject({ lower: 1, upper: 1, iterations: 500, validIterations: 500 });
    // κ is undefined on every resample of B, so it has no interval.
    expect(b!.cells.verdict!.ci.kappa).toBeNull();
    expect(paperTable(VIDEOS, { iterations: 500, seed: 7 }).groups[2]!.cells.verdict!.ci).toEqual(ci);
    // Precision needs a predicted positive: a resample of only a2 and a4 has none and is left out.
    expect(
      paperCell(
        [
          [true, false],
          [false, false],
        ],
        { iterations: 200 },
      ).ci.precision,
    ).toBeNull();
  });

  it("leaves out videos whose label or judge call is unknown", () => {
    const t = paperTable([...VIDEOS, video("c1", null, null, true), video("c2", null, true, null)], {
      iterations: 100,
    });
    expect(t.groups.map((g) => g.model)).toEqual(["A", "B", "", null]);
    expect(t.groups[2]!.cells.verdict!.n).toBe(0);
    expect(t.groups[3]!.cells.verdict!.n).toBe(6);
    expect(t.groups[3]!.videos).toBe(8);
  });
});

describe("exports", () => {
  const table = paperTable(VIDEOS, { iterations: 200, seed: 1 });

  it("escapes LaTeX's special characters", () => {
    expect(escapeLatex("a_b & 50% #1 $x {y} ~z^ \\")).toBe(
      "a\\_b \\& 50\\% \\#1 \\$x \\{y\\} \\textasciitilde{}z\\textasciicircum{} \\textbackslash{}",
    );
  });

  it("writes a booktabs table with the paper's column groups, one row per model and overall", () => {
    const tex = paperTableLatex(
      { ...table, groups: table.groups.map((g) => (g.model === "A" ? { ...g, model: "Gen_2 & co" } : g)) },
      { caption: "Judge vs. T2VHaluBench (100%)", label: "tab:judge" },
    );
    expect(tex).toContain("\\toprule");
    expect(tex).toContain("\\midrule");
    expect(tex).toContain("\\bottomrule");
    expect(tex).toContain("\\caption{Judge vs. T2VHaluBench (100\\%)}");
    expect(tex).toContain("\\multicolumn{5}{c}{Overall (hallucination)} & \\multicolumn{5}{c}{Prompt consistency}");
    expect(tex).toMatch(/^Gen\\_2 \\& co & 0\.50 \{\\scriptsize\[/m);
    expect(tex).toMatch(/^Overall & 0\.75 \{\\scriptsize\[\d\.\d\d, \d\.\d\d\]\} /m);
    // Columns declared = columns in every data row: 1 + 4 targets × 5 + n.
    expect(tex).toContain("\\begin{tabular}{lrrrrrrrrrrrrrrrrrrrrr}");
    const row = tex.split("\n").find((l) => l.startsWith("Overall &"))!;
    expect(row.split(" & ")).toHaveLength(22);
  });

  it("writes every number to CSV", () => {
    const csv = paperTableCsv(table, { labelSet: "T2VHaluBench", runId: "r1", threshold: 5 }).split("\r\n");
    expect(csv[0]).toBe(
      "label_set,run,threshold,model,target,n,tp,fp,fn,tn,precision,precision_lower,precision_upper,recall,recall_lower,recall_upper,f1,f1_lower,f1_upper,accuracy,accuracy_lower,accuracy_upper,kappa,kappa_lower,kappa_upper",
    );
    const overall = csv.find((l) => l.startsWith("T2VHaluBench,r1,5,Overall,verdict,"))!.split(",");
    expect(overall.slice(5, 11)).toEqual(["6", "3", "1", "1", "1", "0.75"]);
    expect(Number(overall[22])).toBeCloseTo(0.25, 12);
  });
});

describe("paperTableReads", () => {
  it("offers the runs of exactly the tasks whose declaration has a verdict and every category row (this folder's), not the other registered tasks", () => {
    const own = declarations.tasks.map((task) => task.id);
    expect(own.length).toBeGreaterThan(0);
    expect(BUILT_IN_DECLARATIONS.tasks.filter((task) => paperTableReads(task)).map((task) => task.id)).toEqual(own);
    expect(BUILT_IN_DECLARATIONS.tasks.length).toBeGreaterThan(own.length);
    expect(paperTableReads(null)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { buildLeaderboard, type LeaderboardRow } from "./leaderboard";
import { leaderboardCsv, leaderboardLatex } from "./leaderboard-formats";

const row = (generator: string, promptKey: string, dimension: string, value: number): LeaderboardRow => ({
  generator,
  promptKey,
  dimension,
  value,
});
/*
 * "Gen_2 & co": d1 0.8 (p1), 0.6 (p2) → 0.7; d2 0.25 (p1)        → both 0.475, total 0.475
 * "=evil":      d1 0.5 (p1), 0.5 (p2) → 0.5; d2 0.75 (p1), 0.25 (p2) → 0.5 → both 0.5, total 0.5
 */
const RESULT = buildLeaderboard({
  rows: [
    row("Gen_2 & co", "p1", "d1", 0.8),
    row("Gen_2 & co", "p2", "d1", 0.6),
    row("Gen_2 & co", "p1", "d2", 0.25),
    row("=evil", "p1", "d1", 0.5),
    row("=evil", "p2", "d1", 0.5),
    row("=evil", "p1", "d2", 0.75),
    row("=evil", "p2", "d2", 0.25),
  ],
  dimensions: ["d1", "d2"],
  categories: { both: ["d1", "d2"] },
  bootstrap: { seed: 2, samples: 200 },
});

describe("leaderboardCsv", () => {
  it("writes one row per generator in ranking order: rank, model, each dimension's score, interval and n, the categories and the total", () => {
    const lines = leaderboardCsv(RESULT).split("\r\n");
    expect(lines[0]).toBe(
      "rank,model,d1,d1_lower,d1_upper,d1_n,d2,d2_lower,d2_upper,d2_n,both,both_lower,both_upper,total,total_lower,total_upper",
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    const cells = lines.map((line) => line.split(","));
    // A model starting with "=" is guarded against formula injection.
    expect(cells[1]!.slice(0, 3)).toEqual(["1", "'=evil", "0.5"]);
    expect(cells[1]![5]).toBe("2");
    expect(Number(cells[1]![13])).toBeCloseTo(0.5, 12);
    expect(cells[2]!.slice(0, 3)).toEqual(["2", "Gen_2 & co", String(RESULT.generators[1]!.dimensions.d1!.score)]);
    expect(Number(cells[2]![2])).toBeCloseTo(0.7, 12);
    expect(cells[2]![9]).toBe("1");
    expect(Number(cells[2]![13])).toBeCloseTo(0.475, 12);
    expect(Number(cells[2]![14])).toBe(RESULT.generators[1]!.total.lower);
  });

  it("adds a source column when sources are given, empty for a generator without one", () => {
    const lines = leaderboardCsv(RESULT, { "Gen_2 & co": "videos/gen2" }).split("\r\n");
    expect(lines[0]!.startsWith("rank,model,source,d1,")).toBe(true);
    expect(lines[1]!.startsWith("1,'=evil,,0.5,")).toBe(true);
    expect(lines[2]!.startsWith("2,Gen_2 & co,videos/gen2,")).toBe(true);
  });
});

describe("leaderboardLatex", () => {
  it("writes a booktabs tabular: generators as rows, percentages with one decimal, the best of each column bold, names escaped", () => {
    const tex = leaderboardLatex(RESULT, { labels: { d1: "Human_Anatomy", both: "Both" } });
    expect(tex.split("\n")).toEqual([
      "% \\usepackage{booktabs}",
      "\\begin{tabular}{lrrrr}",
      "\\toprule",
      "Model & Human\\_Anatomy & d2 & Both & Total \\\\",
      "\\midrule",
      "=evil & 50.0 & \\textbf{50.0} & \\textbf{50.0} & \\textbf{50.0} \\\\",
      "Gen\\_2 \\& co & \\textbf{70.0} & 25.0 & 47.5 & 47.5 \\\\",
      "\\bottomrule",
      "\\end{tabular}",
      "",
    ]);
  });

  it("adds intervals on request, bolds the lowest when lower is better, and shows raw values without percent", () => {
    const withIntervals = leaderboardLatex(RESULT, { intervals: true });
    const d1 = RESULT.generators[1]!.dimensions.d1!;
    expect(withIntervals).toContain(
      `\\textbf{70.0} {\\scriptsize[${(d1.lower! * 100).toFixed(1)}, ${(d1.upper! * 100).toFixed(1)}]}`,
    );
    const lower = leaderboardLatex({ ...RESULT, higherIsBetter: false }, { percent: false });
    // Raw values with one decimal: 0.475 shows as 0.5, so it ties with 0.5 and both are bold.
    expect(lower).toContain("=evil & \\textbf{0.5} & 0.5 & \\textbf{0.5} & \\textbf{0.5} \\\\");
    expect(lower).toContain("Gen\\_2 \\& co & 0.7 & \\textbf{0.3} & \\textbf{0.5} & \\textbf{0.5} \\\\");
  });

  it("shows a missing value as -- and leaves out the total of a single dimension", () => {
    const single = buildLeaderboard({
      rows: [row("A", "p", "d", 0.123), row("B", "p", "e", 0.5)],
      dimensions: ["d", "e"],
      bootstrap: { seed: 1, samples: 50 },
    });
    expect(leaderboardLatex(single)).toContain("A & \\textbf{12.3} & -- & 12.3 \\\\");
    const one = buildLeaderboard({
      rows: [row("A", "p", "d", 0.123)],
      dimensions: ["d"],
      bootstrap: { seed: 1, samples: 50 },
    });
    expect(leaderboardLatex(one)).toContain("Model & d \\\\");
  });
});

import { describe, expect, it } from "vitest";
import { StatsInputError } from "../stats/input-error";
import { buildLeaderboard, kendallTau, type LeaderboardInput, type LeaderboardRow } from "./leaderboard";

/*
 * Two generators, three prompts, two dimensions, several videos per prompt (as VBench has):
 *   A, d1: p1 0.8 0.6 | p2 0.5 | p3 0.9 0.7   → 3.5 / 5 = 0.7   (5 videos, 3 prompts)
 *   A, d2: p1 0.4     | p3 0.1                → 0.5 / 2 = 0.25  (2 videos, 2 prompts)
 *   B, d1: p1 0.6     | p2 0.3 0.5 | p3 0.4   → 1.8 / 4 = 0.45  (4 videos, 3 prompts)
 *   B, d2: no video.
 * Categories: both = [d1, d2], first = [d1].
 */
const row = (generator: string, promptKey: string, dimension: string, value: number): LeaderboardRow => ({
  generator,
  promptKey,
  dimension,
  value,
});
const ROWS: LeaderboardRow[] = [
  row("A", "p1", "d1", 0.8),
  row("A", "p1", "d1", 0.6),
  row("A", "p2", "d1", 0.5),
  row("A", "p3", "d1", 0.9),
  row("A", "p3", "d1", 0.7),
  row("A", "p1", "d2", 0.4),
  row("A", "p3", "d2", 0.1),
  row("B", "p1", "d1", 0.6),
  row("B", "p2", "d1", 0.3),
  row("B", "p2", "d1", 0.5),
  row("B", "p3", "d1", 0.4),
];
const CATEGORIES = { both: ["d1", "d2"], first: ["d1"] };
const input = (over: Partial<LeaderboardInput> = {}): LeaderboardInput => ({
  rows: ROWS,
  dimensions: ["d1", "d2"],
  categories: CATEGORIES,
  bootstrap: { samples: 500, seed: 7 },
  ...over,
});
const byModel = (result: ReturnType<typeof buildLeaderboard>, model: string) =>
  result.generators.find((g) => g.model === model)!;

describe("the leaderboard's estimates", () => {
  it("scores a dimension as the mean over the generator's videos, with n videos and their prompts", () => {
    const result = buildLeaderboard(input());
    const a = byModel(result, "A");
    const b = byModel(result, "B");
    expect(a.dimensions.d1).toMatchObject({ n: 5, prompts: 3 });
    expect(a.dimensions.d1!.score).toBeCloseTo(0.7, 12);
    expect(a.dimensions.d2).toMatchObject({ n: 2, prompts: 2 });
    expect(a.dimensions.d2!.score).toBeCloseTo(0.25, 12);
    expect(b.dimensions.d1!.score).toBeCloseTo(0.45, 12);
    expect(b.dimensions.d2).toEqual({ score: null, lower: null, upper: null, n: 0, excluded: 0, prompts: 0 });
  });

  it("counts a missing dimension as 0 in its categories and the total with missingCountsZero (cal_final_score.py)", () => {
    const result = buildLeaderboard(input({ missingCountsZero: true }));
    const a = byModel(result, "A");
    const b = byModel(result, "B");
    expect(a.categories.both!.value).toBeCloseTo((0.7 + 0.25) / 2, 12);
    expect(a.categories.first!.value).toBeCloseTo(0.7, 12);
    expect(a.total.value).toBeCloseTo((0.475 + 0.7) / 2, 12);
    expect(b.categories.both!.value).toBeCloseTo((0.45 + 0) / 2, 12);
    expect(b.total.value).toBeCloseTo((0.225 + 0.45) / 2, 12);
    expect(result.ranking).toEqual(["A", "B"]);
    expect(result.generators.map((g) => [g.model, g.rank])).toEqual([
      ["A", 1],
      ["B", 2],
    ]);
  });

  it("leaves a missing dimension out of the means without missingCountsZero", () => {
    const b = byModel(buildLeaderboard(input()), "B");
    expect(b.categories.both!.value).toBeCloseTo(0.45, 12);
    expect(b.total.value).toBeCloseTo(0.45, 12);
  });

  it("takes the total as the mean of the dimension scores when there are no categories", () => {
    const result = buildLeaderboard(input({ categories: undefined, missingCountsZero: true }));
    expect(result.categories).toBeNull();
    expect(byModel(result, "A").categories).toEqual({});
    expect(byModel(result, "A").total.value).toBeCloseTo((0.7 + 0.25) / 2, 12);
    expect(byModel(result, "B").total.value).toBeCloseTo(0.45 / 2, 12);
  });

  it("ranks lowest first when lower is better, and shares a rank on equal totals", () => {
    const lower = buildLeaderboard(input({ higherIsBetter: false }));
    expect(lower.ranking).toEqual(["B", "A"]);
    const tied = buildLeaderboard({
      rows: [row("Z", "p", "d", 1), row("Y", "p", "d", 1), row("X", "p", "d", 0)],
      dimensions: ["d"],
      bootstrap: { seed: 1, samples: 50 },
    });
    expect(tied.generators.map((g) => [g.model, g.rank])).toEqual([
      ["Y", 1],
      ["Z", 1],
      ["X", 3],
    ]);
  });
});

describe("the leaderboard's intervals", () => {
  it("are the same for the same seed, differ for another, and contain the estimate", () => {
    const first = buildLeaderboard(input({ missingCountsZero: true }));
    expect(buildLeaderboard(input({ missingCountsZero: true }))).toEqual(first);
    const other = buildLeaderboard(input({ missingCountsZero: true, bootstrap: { samples: 500, seed: 8 } }));
    // Few prompts give few distinct replicates, so some percentiles coincide between seeds; not all of them.
    expect(other).not.toEqual(first);
    for (const g of first.generators) {
      const estimates = [
        ...Object.values(g.dimensions)
          .filter((d) => d.score !== null)
          .map((d) => ({ value: d.score, lower: d.lower, upper: d.upper })),
        ...Object.values(g.categories),
        g.total,
      ];
      for (const e of estimates) {
        expect(e.lower).not.toBeNull();
        expect(e.lower!).toBeLessThanOrEqual(e.value!);
        expect(e.upper!).toBeGreaterThanOrEqual(e.value!);
      }
    }
    // A's d1 prompt means are 0.7, 0.5 and 0.8: a resample's mean stays within the extremes, and the data do vary.
    const d1 = byModel(first, "A").dimensions.d1!;
    expect(d1.lower!).toBeGreaterThanOrEqual(0.5 - 1e-12);
    expect(d1.upper!).toBeLessThanOrEqual(0.8 + 1e-12);
    expect(d1.upper! - d1.lower!).toBeGreaterThan(0);
    expect(first.bootstrap).toEqual({ samples: 500, seed: 7, confidence: 0.95 });
  });

  it("resample prompts, not videos: with every prompt's mean the same, every replicate is that mean", () => {
    // Prompt means 0.5, 0.5 and 0.5 with 2, 1 and 2 videos: any draw of whole prompts averages 0.5 exactly over its
    // videos, where resampling single videos (0.2 … 0.8) would spread.
    const rows = [
      row("A", "p1", "d", 0.2),
      row("A", "p1", "d", 0.8),
      row("A", "p2", "d", 0.5),
      row("A", "p3", "d", 0.4),
      row("A", "p3", "d", 0.6),
    ];
    const d = buildLeaderboard({ rows, dimensions: ["d"], bootstrap: { seed: 11, samples: 300 } }).generators[0]!
      .dimensions.d!;
    expect(d).toEqual({ score: 0.5, lower: 0.5, upper: 0.5, n: 5, excluded: 0, prompts: 3 });
  });

  it("keep a generator's interval whichever other generators are on the board", () => {
    const alone = buildLeaderboard(input({ rows: ROWS.filter((r) => r.generator === "A") }));
    const withC = buildLeaderboard(input({ rows: [...ROWS, row("C", "p1", "d1", 0.1), row("C", "p2", "d2", 0.9)] }));
    expect(byModel(withC, "A")).toEqual({ ...byModel(alone, "A"), rank: byModel(withC, "A").rank });
  });
});

describe("the leaderboard's pairs", () => {
  it("compare totals over the prompts both generators have, with n those (dimension, prompt) units", () => {
    const result = buildLeaderboard(input({ missingCountsZero: true }));
    expect(result.pairs).toHaveLength(1);
    const pair = result.pairs[0]!;
    expect(pair).toMatchObject({ a: "A", b: "B", n: 3 });
    // Shared: d1's p1, p2, p3 only (B has no d2). A over them: both (0.7 + 0)/2, first 0.7 → 0.525; B: 0.225, 0.45 → 0.3375.
    expect(pair.difference).toBeCloseTo(0.525 - 0.3375, 12);
    expect(pair.lower!).toBeLessThanOrEqual(pair.difference!);
    expect(pair.upper!).toBeGreaterThanOrEqual(pair.difference!);
    // Without missingCountsZero the shared totals are d1's scores: 0.7 − 0.45.
    expect(buildLeaderboard(input()).pairs[0]!.difference).toBeCloseTo(0.25, 12);
  });

  it("compare the single dimension when there is one", () => {
    const pair = buildLeaderboard(
      input({ rows: ROWS.filter((r) => r.dimension === "d1"), dimensions: ["d1"], categories: undefined }),
    ).pairs[0]!;
    expect(pair).toMatchObject({ a: "A", b: "B", n: 3 });
    expect(pair.difference).toBeCloseTo(0.7 - 0.45, 12);
  });

  it("give p at its floor 2/(samples + 1) when a is better on every prompt, and 1 for identical generators", () => {
    const rows = ["p1", "p2", "p3", "p4"].flatMap((p, i) => [
      row("A", p, "d", 0.6 + i / 10),
      row("B", p, "d", 0.5 + i / 10),
      row("C", p, "d", 0.5 + i / 10),
    ]);
    const result = buildLeaderboard({ rows, dimensions: ["d"], bootstrap: { seed: 5, samples: 400 } });
    const pair = (a: string, b: string) => result.pairs.find((p) => p.a === a && p.b === b)!;
    // No replicate at or below 0: p = 2·(0 + 1)/(400 + 1), lib/stats/bootstrap.ts pairedBootstrapP.
    expect(pair("A", "B").p).toBe(2 / 401);
    expect(pair("A", "B").lower).toBeCloseTo(0.1, 12);
    expect(pair("A", "B").upper).toBeCloseTo(0.1, 12);
    expect(pair("B", "C")).toMatchObject({ difference: 0, lower: 0, upper: 0, p: 1 });
  });

  it("have nothing to compare when the generators share no prompt", () => {
    const result = buildLeaderboard({
      rows: [row("A", "p1", "d", 1), row("B", "p2", "d", 0)],
      dimensions: ["d"],
      bootstrap: { seed: 1, samples: 50 },
    });
    expect(result.pairs).toEqual([{ a: "A", b: "B", n: 0, difference: null, lower: null, upper: null, p: null }]);
  });

  it("list every pair once, a before b in ranking order", () => {
    const rows = ["X", "Y", "Z"].flatMap((g, i) => [row(g, "p1", "d", i), row(g, "p2", "d", i + 0.5)]);
    const result = buildLeaderboard({ rows, dimensions: ["d"], bootstrap: { seed: 1, samples: 50 } });
    expect(result.ranking).toEqual(["Z", "Y", "X"]);
    expect(result.pairs.map((p) => `${p.a}>${p.b}`)).toEqual(["Z>Y", "Z>X", "Y>X"]);
  });
});

describe("the leaderboard's input checks", () => {
  it("refuses a row of an undeclared dimension, a non-finite value, an unknown category dimension and a fractional seed", () => {
    expect(() => buildLeaderboard(input({ rows: [row("A", "p", "d3", 1)] }))).toThrow(StatsInputError);
    expect(() => buildLeaderboard(input({ rows: [row("A", "p", "d1", Number.NaN)] }))).toThrow(/finite/);
    expect(() => buildLeaderboard(input({ categories: { x: ["d9"] } }))).toThrow(/d9/);
    expect(() => buildLeaderboard(input({ categories: { x: [] } }))).toThrow(/no dimensions/);
    expect(() => buildLeaderboard(input({ dimensions: ["d1", "d1"] }))).toThrow(/twice/);
    expect(() => buildLeaderboard(input({ bootstrap: { seed: 1.5 } }))).toThrow(/seed/);
    expect(() => buildLeaderboard(input({ bootstrap: { seed: 1, samples: 0 } }))).toThrow(/iterations/);
  });

  it("score each dimension, replicate and pair by the caller's rule from the tally, -1 and unknown videos included", () => {
    // A's d: 1, 0, and 3 videos excluded (-1) and 1 unknown on their own prompts; B's d: 1 and 1 on p1 and p2.
    const rows = [
      row("A", "p1", "d", 1),
      row("A", "p2", "d", 0),
      ...["p3", "p4", "p5"].map((p) => ({ generator: "A", promptKey: p, dimension: "d", value: null, excluded: true })),
      { generator: "A", promptKey: "p6", dimension: "d", value: null },
      row("B", "p1", "d", 1),
      row("B", "p2", "d", 1),
    ];
    const tallies: unknown[] = [];
    // The rule: 0 when more than half the videos are excluded, else the mean of those counted.
    const rule = (dimension: string, tally: { sum: number; counted: number; excluded: number; videos: number }) => {
      tallies.push({ dimension, ...tally });
      return tally.excluded > tally.videos / 2 ? 0 : tally.counted ? tally.sum / tally.counted : null;
    };
    const result = buildLeaderboard({ rows, dimensions: ["d"], scoreRule: rule, bootstrap: { seed: 3, samples: 300 } });
    expect(tallies).toContainEqual({ dimension: "d", sum: 1, counted: 2, excluded: 3, videos: 6 });
    // 3 of 6 excluded is not more than half: the mean of 1 and 0.
    expect(byModel(result, "A").dimensions.d).toMatchObject({ score: 0.5, n: 2, excluded: 3, prompts: 6 });
    // Replicates with 4 or more of the 6 prompts drawn from the excluded ones score 0: the interval reaches 0.
    expect(byModel(result, "A").dimensions.d!.lower).toBe(0);
    // Without a rule, the mean ignores -1 and unknown videos alike.
    expect(
      byModel(buildLeaderboard({ rows, dimensions: ["d"], bootstrap: { seed: 3, samples: 300 } }), "A").dimensions.d!
        .score,
    ).toBe(0.5);
    // The pair (p1, p2 shared) is scored by the rule too: B 1 − A 0.5.
    const pair = result.pairs[0]!;
    expect([pair.a, pair.b, pair.n, pair.difference]).toEqual(["B", "A", 2, 0.5]);
    expect(() =>
      buildLeaderboard({
        rows: [{ generator: "A", promptKey: "p", dimension: "d", value: Number.NaN }],
        dimensions: ["d"],
        bootstrap: { seed: 1 },
      }),
    ).toThrow(/finite/);
  });

  it("defaults to 1000 resamples", () => {
    expect(
      buildLeaderboard({ rows: [row("A", "p", "d", 1)], dimensions: ["d"], bootstrap: { seed: 1 } }).bootstrap.samples,
    ).toBe(1000);
  });
});

describe("kendallTau", () => {
  it("is 1 for the same order, −1 for the reverse and 1/3 for one swap of three", () => {
    expect(kendallTau(["A", "B", "C", "D"], ["A", "B", "C", "D"])).toBe(1);
    expect(kendallTau(["A", "B", "C", "D"], ["D", "C", "B", "A"])).toBe(-1);
    // AB and AC concordant, BC discordant: (2 − 1) / 3.
    expect(kendallTau(["A", "B", "C"], ["A", "C", "B"])).toBeCloseTo(1 / 3, 12);
  });

  it("handles ties as tau-b does", () => {
    // Pairs: AB AC AD BD CD concordant, BC tied in a only: (5 − 0) / √((6 − 1)(6 − 0)).
    expect(kendallTau(["A", ["B", "C"], "D"], ["A", "B", "C", "D"])).toBeCloseTo(5 / Math.sqrt(30), 12);
    expect(kendallTau([["A", "B"]], ["A", "B"])).toBeNull();
  });

  it("reads only the items in both rankings, and refuses an item twice", () => {
    expect(kendallTau(["A", "B", "X"], ["B", "Y", "A"])).toBe(-1);
    expect(kendallTau(["A", "X"], ["A", "Y"])).toBeNull();
    expect(() => kendallTau(["A", "A"], ["A"])).toThrow(/twice/);
  });
});

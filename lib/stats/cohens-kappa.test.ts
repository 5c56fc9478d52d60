import { describe, expect, it } from "vitest";
import { cohensKappa, cohensKappaFromConfusion, type KappaWeighting } from "./cohens-kappa";
import { confusionMatrixForRaters, confusionMatrixFromCounts } from "./confusion-matrix";
import { ratingTableFromMatrix, type RatingTable } from "./rating-table";

/** Cohen's kappa of two raters (by index) of a table, over the items both rated. */
function cohensKappaForRaters(
  table: RatingTable,
  raterA: number,
  raterB: number,
  weighting: KappaWeighting = "unweighted",
): number | null {
  return cohensKappaFromConfusion(confusionMatrixForRaters(table, raterA, raterB), weighting);
}

describe("Cohen's kappa", () => {
  it("reproduces Wikipedia's 50-proposal yes/no example: κ = 0.4", () => {
    // Wikipedia, "Cohen's kappa", worked example: both yes 20, A yes B no 5, A no B yes 10, both no 15.
    // pₒ = 35/50 = 0.7; pₑ = 0.5 × 0.6 + 0.5 × 0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
    expect(
      cohensKappaFromConfusion(
        confusionMatrixFromCounts([
          [20, 5],
          [10, 15],
        ]),
      ),
    ).toBeCloseTo(0.4, 12);
    const a = [...Array<string>(25).fill("yes"), ...Array<string>(25).fill("no")];
    const b = [
      ...Array<string>(20).fill("yes"),
      ...Array<string>(5).fill("no"),
      ...Array<string>(10).fill("yes"),
      ...Array<string>(15).fill("no"),
    ];
    expect(cohensKappa(a, b)).toBeCloseTo(0.4, 12);
  });

  // SAS/STAT PROC FREQ agreement example (the 3 × 3 table statsmodels checks against SAS's printout):
  // rows [0 4 1], [0 8 0], [0 1 5], n = 19. SAS prints simple kappa 0.4842 and weighted kappa 0.4701 with
  // Cicchetti–Allison (linear) weights on scores 1, 2, 3.
  const sasTable = confusionMatrixFromCounts([
    [0, 4, 1],
    [0, 8, 0],
    [0, 1, 5],
  ]);

  it("reproduces SAS's simple kappa 0.4842 for the 3 × 3 agreement table", () => {
    expect(cohensKappaFromConfusion(sasTable)).toBeCloseTo(0.4842, 4);
  });

  it("reproduces SAS's linear-weighted kappa 0.4701 for the same table", () => {
    expect(cohensKappaFromConfusion(sasTable, "linear")).toBeCloseTo(0.4701, 4);
  });

  it("computes the quadratic-weighted kappa of the same table by hand: 140/311", () => {
    // Rows r = (5, 8, 6), columns c = (0, 13, 6), n = 19, disagreement weight (i − j)².
    // Observed Σ w·o = 4·1 (0,1) + 1·4 (0,2) + 1·1 (2,1) = 9.
    // Expected Σ w·rᵢ·cⱼ = 1·5·13 + 4·5·6 + 1·8·0 + 1·8·6 + 4·6·0 + 1·6·13 = 65 + 120 + 0 + 48 + 0 + 78 = 311.
    // κ_q = 1 − n·9/311 = 1 − 171/311 = 140/311 ≈ 0.4502.
    expect(cohensKappaFromConfusion(sasTable, "quadratic")).toBeCloseTo(140 / 311, 12);
  });

  // R irr, kappa2(anxiety[, 2:3]) with weights "unweighted", "equal" and "squared" (values as recorded in
  // statsmodels' test_inter_rater.py): −0.006289308, 0.1459075, 0.2520325. irr numbers the levels that
  // occur (1, 2, 3, 4, 6) consecutively, so its weights treat 6 as the neighbour of 4; recoding 6 → 5
  // gives the same positions with our value-based weights.
  const anxietyRater2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4];
  const anxietyRater3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2];
  const asIrrLevels = (ratings: number[]) => ratings.map((v) => (v === 6 ? 5 : v));

  it("reproduces R irr's kappa2 on the anxiety data: unweighted, linear and quadratic", () => {
    const a = asIrrLevels(anxietyRater2);
    const b = asIrrLevels(anxietyRater3);
    expect(cohensKappa(a, b)).toBeCloseTo(-0.006289308, 8);
    expect(cohensKappa(a, b, "linear")).toBeCloseTo(0.1459075, 7);
    expect(cohensKappa(a, b, "quadratic")).toBeCloseTo(0.2520325, 7);
  });

  it("weights by the values themselves, so a skipped value keeps its distance", () => {
    // Without the recoding, 6 is two steps from 4: the weighted kappas differ from irr's, the unweighted does not.
    expect(cohensKappa(anxietyRater2, anxietyRater3)).toBeCloseTo(-0.006289308, 8);
    expect(cohensKappa(anxietyRater2, anxietyRater3, "linear")).not.toBeCloseTo(0.1459075, 3);
  });

  it("leaves out pairs with a missing rating and works on a table's raters", () => {
    expect(cohensKappa(["yes", "no", null, "yes"], ["yes", "no", "yes", null])).toBe(1);
    const table = ratingTableFromMatrix([
      [1, 1],
      [2, 2],
      [3, 1],
      [null, 3],
    ]);
    // Pairs (1,1) (2,2) (3,1): pₒ = 2/3; marginals A = (1, 1, 1)/3, B = (2, 1, 0)/3; pₑ = (2 + 1 + 0)/9 = 1/3.
    expect(cohensKappaForRaters(table, 0, 1)).toBeCloseTo((2 / 3 - 1 / 3) / (1 - 1 / 3), 12);
  });

  it("is null for weighted kappa on non-numeric labels, while unweighted still works", () => {
    expect(cohensKappa(["a", "b", "a"], ["a", "b", "b"], "linear")).toBeNull();
    expect(cohensKappa(["a", "b", "a"], ["a", "b", "b"], "quadratic")).toBeNull();
    expect(cohensKappa(["a", "b", "a"], ["a", "b", "b"])).toBeCloseTo(0.4, 12);
  });

  it.each([
    ["no items", [], []],
    ["all pairs missing", [null, 1], [2, null]],
    ["one category used by both", [3, 3, 3], [3, 3, 3]],
  ] as const)("is null for %s (all weightings)", (_name, a, b) => {
    for (const weighting of ["unweighted", "linear", "quadratic"] as const)
      expect(cohensKappa(a, b, weighting)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { fleissKappa, fleissKappaFromCounts } from "./fleiss-kappa";
import { StatsInputError } from "./input-error";
import { FLEISS_1971_DIAGNOSES, WIKIPEDIA_FLEISS_COUNTS } from "../../testkit/stats/published-examples";
import { buildRatingTable, ratingTableFromMatrix } from "./rating-table";

describe("Fleiss' kappa", () => {
  it("reproduces Wikipedia's worked example (10 subjects, 14 raters, 5 categories): κ = 0.210", () => {
    // Wikipedia, "Fleiss' kappa", "Worked example": P̄ = 0.378, P̄ₑ = 0.213, κ = (0.378 − 0.213)/(1 − 0.213).
    expect(fleissKappaFromCounts(WIKIPEDIA_FLEISS_COUNTS)).toBeCloseTo(0.21, 3);
  });

  it("reproduces Fleiss (1971), Table 1, from the raw ratings: κ = .430", () => {
    // Fleiss (1971), Psychological Bulletin 76(5); R irr kappam.fleiss(diagnoses) prints 0.4302445.
    expect(fleissKappa(ratingTableFromMatrix(FLEISS_1971_DIAGNOSES))).toBeCloseTo(0.4302445, 7);
  });

  it("counts and raw ratings give the same kappa", () => {
    const table = ratingTableFromMatrix(FLEISS_1971_DIAGNOSES);
    const counts = FLEISS_1971_DIAGNOSES.map((row) =>
      [1, 2, 3, 4, 5].map((category) => row.filter((v) => v === category).length),
    );
    expect(fleissKappaFromCounts(counts)).toBeCloseTo(fleissKappa(table)!, 14);
  });

  it("is 1 for perfect agreement", () => {
    expect(
      fleissKappa(
        ratingTableFromMatrix([
          ["a", "a", "a"],
          ["b", "b", "b"],
        ]),
      ),
    ).toBe(1);
  });

  it("is null when any rating is missing (Fleiss needs the same number of ratings per item)", () => {
    expect(
      fleissKappa(
        ratingTableFromMatrix([
          [1, 1, 2],
          [2, 2, null],
          [1, 2, 1],
        ]),
      ),
    ).toBeNull();
    expect(
      fleissKappaFromCounts([
        [2, 1],
        [1, 1],
      ]),
    ).toBeNull();
  });

  it.each([
    ["zero items", buildRatingTable([])],
    ["one rater", ratingTableFromMatrix([[1], [2]])],
    [
      "one category only",
      ratingTableFromMatrix([
        [3, 3],
        [3, 3],
      ]),
    ],
    ["all missing", ratingTableFromMatrix([[null, null]])],
  ])("is null for %s", (_name, table) => {
    expect(fleissKappa(table)).toBeNull();
  });

  it("rejects malformed counts", () => {
    expect(() => fleissKappaFromCounts([[1, 2], [3]])).toThrow(StatsInputError);
    expect(() => fleissKappaFromCounts([[1, -1]])).toThrow(StatsInputError);
    expect(fleissKappaFromCounts([])).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { percentAgreement } from "./percent-agreement";
import { buildRatingTable, ratingTableFromMatrix } from "./rating-table";

describe("percent agreement", () => {
  it("is the share of co-rated items two raters agree on", () => {
    // Wikipedia's Cohen's kappa example: 20 + 15 agreements out of 50 → 0.7.
    const rows = [
      ...Array.from({ length: 20 }, () => ["yes", "yes"]),
      ...Array.from({ length: 5 }, () => ["yes", "no"]),
      ...Array.from({ length: 10 }, () => ["no", "yes"]),
      ...Array.from({ length: 15 }, () => ["no", "no"]),
    ];
    expect(percentAgreement(ratingTableFromMatrix(rows))).toBeCloseTo(0.7, 12);
  });

  it("averages the share of agreeing pairs per item for more raters, skipping missing ratings", () => {
    // Item 1: a a b → pairs (a,a) agree, 2 of 3 disagree → 1/3. Item 2: all agree → 1.
    // Item 3: c, missing, c → one pair, agreeing → 1. Item 4: one rating → not counted.
    const table = ratingTableFromMatrix([
      ["a", "a", "b"],
      ["b", "b", "b"],
      ["c", null, "c"],
      ["a", null, null],
    ]);
    expect(percentAgreement(table)).toBeCloseTo((1 / 3 + 1 + 1) / 3, 12);
  });

  it("is 1 when everyone gives the one category", () => {
    expect(
      percentAgreement(
        ratingTableFromMatrix([
          [5, 5],
          [5, 5],
        ]),
      ),
    ).toBe(1);
  });

  it.each([
    ["zero items", buildRatingTable([])],
    ["one rater", ratingTableFromMatrix([[1], [2]])],
    [
      "all missing",
      ratingTableFromMatrix([
        [null, null],
        [null, null],
      ]),
    ],
  ])("is null for %s", (_name, table) => {
    expect(percentAgreement(table)).toBeNull();
  });
});

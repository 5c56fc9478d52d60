import { describe, expect, it } from "vitest";
import { coincidenceMatrix, krippendorffAlpha } from "./krippendorff-alpha";
import {
  HAYES_KRIPPENDORFF_2007,
  KRIPPENDORFF_2011,
  WIKIPEDIA_KRIPPENDORFF,
} from "../../testkit/stats/published-examples";
import { buildRatingTable, ratingTableFromMatrix } from "./rating-table";
import { selectItems } from "../../testkit/stats/select-items";

describe("Krippendorff's alpha", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units,
  // missing values. The paper prints α to three decimals.
  const example = ratingTableFromMatrix(KRIPPENDORFF_2011);

  it.each([
    ["nominal", 0.743],
    ["ordinal", 0.815],
    ["interval", 0.849],
    ["ratio", 0.797],
  ] as const)("reproduces Krippendorff's (2011) worked example at the %s level (α = %s)", (level, published) => {
    expect(krippendorffAlpha(example, level)).toBeCloseTo(published, 3);
  });

  it("builds the 2011 example's coincidence matrix: 40 pairable values, o₁₁ = 7, o₁₂ = 4/3", () => {
    // Value 1 occurs 3× in unit 1 (6 ordered pairs × 1/2), 3× in unit 8 (6 × 1/3) and 2× in unit 11 (2 × 1),
    // so o₁₁ = 3 + 2 + 2 = 7; the pairs (1, 2) are 1 in unit 6 and 3 in unit 8, each × 1/3, so o₁₂ = 4/3.
    // Marginals: n₁ = 9, n₂ = 13, n₃ = 10, n₄ = 5, n₅ = 3 (unit 12 has a single value and is not pairable).
    const o = coincidenceMatrix(example);
    const k = example.categories.length;
    const marginals = Array.from({ length: k }, (_, c) =>
      Array.from({ length: k }, (_, d) => o[c * k + d]!).reduce((a, b) => a + b),
    );
    expect(marginals.map((m) => Math.round(m * 1e9) / 1e9)).toEqual([9, 13, 10, 5, 3]);
    expect(o[0]).toBeCloseTo(7, 12);
    expect(o[1]).toBeCloseTo(4 / 3, 12);
    expect(o[k]).toBeCloseTo(4 / 3, 12);
  });

  it("of a resample given as rows is exactly alpha of the resampled table, repeats and unpairable units included", () => {
    // The agreement report's bootstrap reads resampled rows in place instead of copying the table.
    const rows = new Int32Array([11, 0, 7, 7, 3, 5, 11, 2, 9, 0, 4, 8]);
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
      expect(krippendorffAlpha(example, level, rows)).toBe(krippendorffAlpha(selectItems(example, rows), level));
    }
    expect(Array.from(coincidenceMatrix(example, rows))).toEqual(
      Array.from(coincidenceMatrix(selectItems(example, rows))),
    );
    expect(krippendorffAlpha(example, "interval", rows)).not.toBe(krippendorffAlpha(example, "interval"));
  });

  // Wikipedia, "Krippendorff's alpha", "A computational example": 3 coders, 15 units.
  const wikipedia = ratingTableFromMatrix(WIKIPEDIA_KRIPPENDORFF);
  it("reproduces Wikipedia's computational example: nominal 0.691, interval 0.811", () => {
    expect(krippendorffAlpha(wikipedia, "nominal")).toBeCloseTo(0.691, 3);
    expect(krippendorffAlpha(wikipedia, "interval")).toBeCloseTo(0.811, 3);
  });

  // Hayes & Krippendorff (2007), Communication Methods and Measures 1(1): 5 observers, 40 units, 0–3 scale;
  // their macro's output is printed to four decimals.
  it("reproduces Hayes & Krippendorff's (2007) example: ordinal α = .7598", () => {
    expect(krippendorffAlpha(ratingTableFromMatrix(HAYES_KRIPPENDORFF_2007), "ordinal")).toBeCloseTo(0.7598, 4);
  });

  it("is 1 for perfect agreement and negative for systematic disagreement", () => {
    expect(
      krippendorffAlpha(
        ratingTableFromMatrix([
          [1, 1],
          [2, 2],
          [3, 3],
        ]),
        "interval",
      ),
    ).toBe(1);
    // Two coders, every unit swapped: D_o exceeds D_e.
    expect(
      krippendorffAlpha(
        ratingTableFromMatrix([
          [1, 2],
          [2, 1],
          [1, 2],
          [2, 1],
        ]),
        "nominal",
      )!,
    ).toBeLessThan(0);
  });

  it("is unchanged by a linear rescaling of interval values and by a monotone recoding of ordinal ones", () => {
    const rescaled = ratingTableFromMatrix(
      KRIPPENDORFF_2011.map((row) => row.map((v) => (v === null ? null : 10 * Number(v) + 3))),
    );
    expect(krippendorffAlpha(rescaled, "interval")).toBeCloseTo(krippendorffAlpha(example, "interval")!, 12);
    const squared = ratingTableFromMatrix(
      KRIPPENDORFF_2011.map((row) => row.map((v) => (v === null ? null : Number(v) ** 2))),
    );
    expect(krippendorffAlpha(squared, "ordinal")).toBeCloseTo(krippendorffAlpha(example, "ordinal")!, 12);
    expect(krippendorffAlpha(squared, "interval")).not.toBeCloseTo(krippendorffAlpha(example, "interval")!, 3);
  });

  it("takes string labels at the nominal level and gives null for ordered levels on them", () => {
    const labels = ratingTableFromMatrix(
      KRIPPENDORFF_2011.map((row) => row.map((v) => (v === null ? null : `code-${v}`))),
    );
    expect(krippendorffAlpha(labels, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(labels, "ordinal")).toBeNull();
    expect(krippendorffAlpha(labels, "interval")).toBeNull();
  });

  it("is null at the ratio level when a value is negative", () => {
    expect(
      krippendorffAlpha(
        ratingTableFromMatrix([
          [-1, 1],
          [2, 2],
          [3, 3],
        ]),
        "ratio",
      ),
    ).toBeNull();
    expect(
      krippendorffAlpha(
        ratingTableFromMatrix([
          [-1, 1],
          [2, 2],
          [3, 3],
        ]),
        "interval",
      ),
    ).not.toBeNull();
  });

  describe("edge cases give null, never NaN or Infinity", () => {
    it.each([
      ["zero items", buildRatingTable([])],
      ["one rater", ratingTableFromMatrix([[1], [2], [3]])],
      [
        "all ratings missing",
        ratingTableFromMatrix([
          [null, null],
          [null, null],
        ]),
      ],
      [
        "one category only",
        ratingTableFromMatrix([
          [2, 2],
          [2, 2],
          [2, null],
        ]),
      ],
      [
        "no item rated twice",
        ratingTableFromMatrix([
          [1, null],
          [null, 2],
          [3, null],
        ]),
      ],
    ])("%s", (_name, table) => {
      for (const level of ["nominal", "ordinal", "interval", "ratio"] as const)
        expect(krippendorffAlpha(table, level)).toBeNull();
    });
  });
});

import { describe, expect, it } from "vitest";
import { StatsInputError } from "./input-error";
import {
  buildRatingTable,
  MISSING,
  pairedCodes,
  RatingTableBuilder,
  ratingTableFromMatrix,
  valuesOf,
} from "./rating-table";
import { selectItems } from "../../testkit/stats/select-items";

describe("buildRatingTable", () => {
  it("lays rows out as items × raters with sorted category codes and missing ratings", () => {
    const table = buildRatingTable([
      { item: "clip-1", rater: "ann", value: 3 },
      { item: "clip-1", rater: "bob", value: 1 },
      { item: "clip-2", rater: "bob", value: null },
      { item: "clip-2", rater: "ann", value: 2 },
      { item: "clip-3", rater: "ann", value: 3 },
    ]);
    expect(table.itemIds).toEqual(["clip-1", "clip-2", "clip-3"]);
    expect(table.raterIds).toEqual(["ann", "bob"]);
    expect(table.categories).toEqual([1, 2, 3]);
    expect(Array.from(table.categoryValues!)).toEqual([1, 2, 3]);
    // clip-3 has no row for bob: missing, like the explicit null for clip-2.
    expect(Array.from(table.codes)).toEqual([2, 0, 1, MISSING, 2, MISSING]);
  });

  it("keeps string labels (nominal data) with no numeric values", () => {
    const table = buildRatingTable([
      { item: "a", rater: "r", value: "sharp" },
      { item: "b", rater: "r", value: "blurry" },
    ]);
    expect(table.categories).toEqual(["blurry", "sharp"]);
    expect(table.categoryValues).toBeNull();
  });

  it("names the item and rater of a duplicate pair, even when one of the ratings is missing", () => {
    const rows = [
      { item: "clip-1", rater: "ann", value: 3 },
      { item: "clip-2", rater: "ann", value: 1 },
      { item: "clip-1", rater: "ann", value: null },
    ];
    expect(() => buildRatingTable(rows)).toThrow(StatsInputError);
    expect(() => buildRatingTable(rows)).toThrow('duplicate rating for item "clip-1" by rater "ann" (rows 0 and 2)');
  });

  it.each([
    [{ item: "", rater: "r", value: 1 }, /item must be a non-empty string/],
    [{ item: "i", rater: "", value: 1 }, /rater must be a non-empty string/],
    [{ item: "i", rater: "r", value: Number.NaN }, /not a finite number/],
    [{ item: "i", rater: "r", value: "" }, /use null for a missing rating/],
  ])("rejects %o", (row, message) => {
    expect(() => buildRatingTable([row])).toThrow(message);
  });

  it("builds an empty table from no rows", () => {
    const table = buildRatingTable([]);
    expect(table.itemIds).toEqual([]);
    expect(table.codes.length).toBe(0);
  });
});

describe("RatingTableBuilder with numeric strings (the CSV path)", () => {
  it("merges numerals that denote the same number and orders them numerically", () => {
    const builder = new RatingTableBuilder({ numericStrings: true, sourceKind: "line" });
    builder.add("i1", "r1", "10", 2);
    builder.add("i1", "r2", "9", 3);
    builder.add("i2", "r1", "10.0", 4);
    builder.add("i2", "r2", null, 5);
    const table = builder.build();
    expect(table.categories).toEqual([9, 10]);
    expect(Array.from(table.codes)).toEqual([1, 0, 1, MISSING]);
  });

  it("keeps numerals as strings when any value is not a number", () => {
    const builder = new RatingTableBuilder({ numericStrings: true });
    builder.add("i1", "r1", "10", 2);
    builder.add("i1", "r2", "9", 3);
    builder.add("i2", "r1", "n/a", 4);
    const table = builder.build();
    expect(table.categories).toEqual(["10", "9", "n/a"]);
    expect(table.categoryValues).toBeNull();
  });

  it("reports a duplicate with both lines", () => {
    const builder = new RatingTableBuilder({ numericStrings: true, sourceKind: "line" });
    builder.add("i1", "r1", "1", 2);
    builder.add("i1", "r1", "2", 7);
    expect(() => builder.build()).toThrow(
      'line 7: duplicate rating for item "i1" by rater "r1" (first given on line 2)',
    );
  });
});

describe("table helpers", () => {
  const table = ratingTableFromMatrix([
    [1, 2],
    [null, 3],
    [4, 4],
  ]);

  it("pairs two raters' ratings on the items both rated", () => {
    const { a, b } = pairedCodes(table, 0, 1);
    expect(Array.from(valuesOf(table, a)!)).toEqual([1, 4]);
    expect(Array.from(valuesOf(table, b)!)).toEqual([2, 4]);
  });

  it("selects items with repetition", () => {
    const picked = selectItems(table, [2, 2, 0]);
    expect(picked.itemIds).toEqual(["item-3", "item-3", "item-1"]);
    expect(Array.from(valuesOf(picked, picked.codes)!)).toEqual([4, 4, 4, 4, 1, 2]);
  });
});

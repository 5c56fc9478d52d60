import { describe, expect, it } from "vitest";
import {
  bootstrapConfidenceInterval,
  type BootstrapOptions,
  type ConfidenceInterval,
  mulberry32,
  resampler,
} from "./bootstrap";
import { StatsInputError } from "./input-error";
import { krippendorffAlpha } from "./krippendorff-alpha";
import { percentAgreement } from "./percent-agreement";
import { KRIPPENDORFF_2011 } from "../../testkit/stats/published-examples";
import { ratingTableFromMatrix, type RatingTable } from "./rating-table";
import { selectItems } from "../../testkit/stats/select-items";

/** bootstrapConfidenceInterval of a statistic of a rating table: each resample is the table with its items drawn with replacement. */
function bootstrapTableStatistic(
  table: RatingTable,
  statistic: (table: RatingTable) => number | null,
  options: BootstrapOptions = {},
): ConfidenceInterval | null {
  return bootstrapConfidenceInterval(table.itemIds.length, (items) => statistic(selectItems(table, items)), options);
}

describe("resampler", () => {
  it("draws the same indices as Math.floor(mulberry32(seed)() * n), resample after resample", () => {
    const random = mulberry32(20240601);
    const draw = resampler(20240601);
    for (const n of [1, 7, 4084, 100_000]) {
      const sample = new Int32Array(Math.min(n, 5000));
      for (let b = 0; b < 3; b++) {
        draw(sample, n);
        expect(Array.from(sample)).toEqual(Array.from(sample, () => Math.floor(random() * n)));
      }
    }
  });
});

describe("mulberry32", () => {
  it("is deterministic per seed, differs between seeds, and stays in [0, 1)", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
    const random = mulberry32(123);
    let sum = 0;
    let outOfRange = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = random();
      if (!(u >= 0 && u < 1)) outOfRange++;
      sum += u;
    }
    expect(outOfRange).toBe(0);
    // Mean of 100,000 uniforms: standard error 0.0009, so ±0.005 fails only for a broken generator.
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.005);
  });
});

describe("bootstrap confidence intervals over items", () => {
  const table = ratingTableFromMatrix(KRIPPENDORFF_2011);

  it("brackets the point estimate and is reproducible from its seed", () => {
    const alpha = (t: typeof table) => krippendorffAlpha(t, "interval");
    const interval = bootstrapTableStatistic(table, alpha, { iterations: 500, seed: 11 })!;
    expect(interval.lower).toBeLessThan(0.849);
    expect(interval.upper).toBeGreaterThan(0.849);
    expect(interval.upper).toBeLessThanOrEqual(1);
    expect(interval).toMatchObject({ confidence: 0.95, iterations: 500 });
    expect(bootstrapTableStatistic(table, alpha, { iterations: 500, seed: 11 })).toEqual(interval);
    expect(bootstrapTableStatistic(table, alpha, { iterations: 500, seed: 12 })).not.toEqual(interval);
  });

  it("draws every item index in range, uniformly enough", () => {
    const counts = new Array<number>(10).fill(0);
    bootstrapConfidenceInterval(
      10,
      (items) => {
        for (const i of items) counts[i]!++;
        return 0;
      },
      { iterations: 2000 },
    );
    // 20,000 draws over 10 items: each expected 2,000 (sd ≈ 42).
    for (const count of counts) expect(Math.abs(count - 2000)).toBeLessThan(250);
  });

  it("matches the exact percentiles for a statistic with a known resampling distribution", () => {
    // The share of items that are 1 in a sample of 2 items {0, 1}: 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4.
    const interval = bootstrapConfidenceInterval(2, (items) => (items[0]! + items[1]!) / 2, {
      iterations: 4000,
      seed: 3,
    })!;
    expect(interval.lower).toBe(0);
    expect(interval.upper).toBe(1);
    const narrow = bootstrapConfidenceInterval(2, (items) => (items[0]! + items[1]!) / 2, {
      iterations: 4000,
      seed: 3,
      confidence: 0.4,
    })!;
    expect(narrow.lower).toBe(0.5);
    expect(narrow.upper).toBe(0.5);
  });

  it("gives a zero-width interval for constant agreement and leaves out undefined resamples", () => {
    const perfect = ratingTableFromMatrix([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(bootstrapTableStatistic(perfect, percentAgreement, { iterations: 200 })).toMatchObject({
      lower: 1,
      upper: 1,
    });
    // Alpha is undefined on a resample that drew one item three times (no variation): those are skipped.
    const alpha = bootstrapTableStatistic(perfect, (t) => krippendorffAlpha(t, "nominal"), {
      iterations: 300,
      seed: 5,
    })!;
    expect(alpha.validIterations).toBeLessThan(300);
    expect(alpha.validIterations).toBeGreaterThan(200);
  });

  it("is null with no items or when the statistic is never defined, and rejects bad options", () => {
    expect(bootstrapConfidenceInterval(0, () => 1)).toBeNull();
    expect(bootstrapConfidenceInterval(5, () => null)).toBeNull();
    expect(() => bootstrapConfidenceInterval(5, () => 1, { iterations: 0 })).toThrow(StatsInputError);
    expect(() => bootstrapConfidenceInterval(5, () => 1, { confidence: 1 })).toThrow(StatsInputError);
  });
});

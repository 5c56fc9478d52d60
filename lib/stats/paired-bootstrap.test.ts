import { describe, expect, it } from "vitest";
import { pairedBootstrapDifference } from "./bootstrap";

/** Accuracy of a system on the drawn items, from its per-item right (1) / wrong (0). */
const accuracy = (right: readonly number[]) => (items: Int32Array) => {
  let sum = 0;
  for (const i of items) sum += right[i]!;
  return sum / items.length;
};

describe("pairedBootstrapDifference", () => {
  it("finds no difference between identical systems: every resampled difference is 0, p = 1", () => {
    const right = [1, 0, 1, 1, 0, 1];
    const r = pairedBootstrapDifference(right.length, accuracy(right), accuracy(right), { iterations: 500 });
    expect(r).toMatchObject({ difference: 0, lower: 0, upper: 0, p: 1, validIterations: 500 });
  });

  it("gives the smallest p the resamples allow when one system is right wherever the other is wrong", () => {
    // Every resample's difference is 1: #{d ≤ 0} = 0, so p = 2·(0 + 1)/(999 + 1) = 0.002.
    const r = pairedBootstrapDifference(5, accuracy([1, 1, 1, 1, 1]), accuracy([0, 0, 0, 0, 0]), { iterations: 999 });
    expect(r).toMatchObject({ difference: 1, lower: 1, upper: 1 });
    expect(r.p).toBeCloseTo(0.002, 12);
  });

  it("matches the worked distribution of a two-item example", () => {
    // Item 0: A right, B wrong (d = 1); item 1: both right (d = 0). A resample of two draws has
    // difference 0 (both draws item 1, probability 1/4), 1/2 (one of each, 1/2) or 1 (1/4).
    // So P(d* ≤ 0) = 1/4 and p → 2 · 1/4 = 1/2; the 95% interval runs from 0 to 1.
    const r = pairedBootstrapDifference(2, accuracy([1, 1]), accuracy([0, 1]), { iterations: 20_000, seed: 3 });
    expect(r.difference).toBe(0.5);
    expect(r.p!).toBeGreaterThan(0.47);
    expect(r.p!).toBeLessThan(0.53);
    expect([r.lower, r.upper]).toEqual([0, 1]);
    // The two systems are evaluated on the same draws: swapping them mirrors the result.
    const swapped = pairedBootstrapDifference(2, accuracy([0, 1]), accuracy([1, 1]), { iterations: 20_000, seed: 3 });
    expect([swapped.difference, swapped.lower, swapped.upper === 0 ? 0 : swapped.upper, swapped.p]).toEqual([
      -0.5,
      -1,
      0,
      r.p,
    ]);
  });

  it("leaves out resamples where a statistic is undefined, and says so", () => {
    const r = pairedBootstrapDifference(
      2,
      (items) => (items[0] === items[1] ? null : 1),
      () => 0,
      { iterations: 1000, seed: 5 },
    );
    expect(r.validIterations).toBeGreaterThan(350);
    expect(r.validIterations).toBeLessThan(650);
    expect(
      pairedBootstrapDifference(
        0,
        () => 1,
        () => 0,
      ),
    ).toMatchObject({ difference: null, p: null, validIterations: 0 });
  });
});

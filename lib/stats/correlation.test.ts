import { describe, expect, it } from "vitest";
import { mulberry32 } from "./bootstrap";
import {
  averageRanksOf,
  kendallTauB,
  kendallTauBOfRankings,
  pearson,
  ranking,
  spearman,
  spearmanOfRankings,
  spearmanOfResamples,
} from "./correlation";
import { StatsInputError } from "./input-error";

/** Kendall's tau-b by its definition, over all pairs: the O(n²) reference for the merge-sort version. */
function kendallTauBByPairs(x: number[], y: number[]): number | null {
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  let pairs = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      pairs++;
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx * dy > 0) concordant++;
      if (dx * dy < 0) discordant++;
    }
  }
  const denominator = (pairs - tiedX) * (pairs - tiedY);
  return denominator === 0 ? null : (concordant - discordant) / Math.sqrt(denominator);
}

describe("Pearson's r", () => {
  it("reproduces SciPy's documented examples", () => {
    // scipy.stats.pearsonr docstring: r = -0.7426106572325057 and 0.8660254037844386.
    expect(pearson([1, 2, 3, 4, 5], [10, 9, 2.5, 6, 4])).toBeCloseTo(-0.7426106572325057, 14);
    expect(pearson([0, 0, 0, 1, 1, 1, 1], [0, 1, 2, 3, 4, 5, 6])).toBeCloseTo(0.8660254037844386, 14);
  });

  it("keeps its digits on values far from zero", () => {
    expect(pearson([1e9 + 1, 1e9 + 2, 1e9 + 3], [1e9 + 2, 1e9 + 4, 1e9 + 6])).toBe(1);
  });

  it("is null for constant ratings or fewer than two pairs, and rejects mismatched input", () => {
    expect(pearson([3, 3, 3], [1, 2, 3])).toBeNull();
    expect(pearson([1], [2])).toBeNull();
    expect(pearson([], [])).toBeNull();
    expect(() => pearson([1, 2], [1])).toThrow(StatsInputError);
    expect(() => pearson([1, Number.NaN], [1, 2])).toThrow(StatsInputError);
  });
});

describe("Spearman's rho", () => {
  it("reproduces Wikipedia's IQ / hours of TV example: ρ = −29/165 ≈ −0.1758", () => {
    // Wikipedia, "Spearman's rank correlation coefficient", Example: Σd² = 194, n = 10,
    // ρ = 1 − 6·194/(10·99) = −0.175757….
    const iq = [106, 86, 100, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 0, 27, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 14);
  });

  it("reproduces SciPy's documented example with a tie: 0.8207826816681233", () => {
    // scipy.stats.spearmanr docstring; y has the tie 7, 7 (average rank 3.5).
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 14);
  });

  it("ranks ties by their average rank", () => {
    expect(Array.from(averageRanksOf(ranking([10, 20, 10, 30, 20, 10])))).toEqual([2, 4.5, 2, 6, 4.5, 2]);
  });

  it("is null for constant ratings", () => {
    expect(spearman([1, 2, 3], [4, 4, 4])).toBeNull();
  });
});

describe("Kendall's tau-b", () => {
  it("reproduces SciPy's documented example with ties in both variables: −0.47140452079103173", () => {
    // scipy.stats.kendalltau docstring. By hand: of the 10 pairs, concordant 2, discordant 6, one pair tied
    // in x only and one tied in both, so n₁ = 2 (ties in x), n₂ = 1 (ties in y):
    // τ_b = (2 − 6)/√((10 − 2)(10 − 1)) = −4/√72.
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-4 / Math.sqrt(72), 14);
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 14);
  });

  it("is ±1 for monotone data and null for a constant variable", () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [40, 30, 20, 10])).toBe(-1);
    expect(kendallTauB([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(kendallTauB([1], [1])).toBeNull();
  });

  it("agrees with the O(n²) definition on random ratings with many ties", () => {
    const random = mulberry32(42);
    for (let trial = 0; trial < 25; trial++) {
      const n = 2 + Math.floor(random() * 300);
      const x = Array.from({ length: n }, () => Math.floor(random() * 6));
      const y = x.map((v) => (random() < 0.6 ? v : Math.floor(random() * 11) - 2));
      const expected = kendallTauBByPairs(x, y);
      const actual = kendallTauB(x, y);
      if (expected === null) expect(actual).toBeNull();
      else expect(actual).toBeCloseTo(expected, 12);
    }
  });
});

describe("rank statistics on rankings", () => {
  it("give the same values from ranks with unused levels as from the values", () => {
    // Values 0, 3, 10 as codes 0, 3, 10 of an 11-level scale (levels 1, 2, 4… unused) and as dense ranks.
    const x = [0, 3, 3, 10, 0, 10, 3];
    const y = [3, 3, 0, 10, 0, 3, 10];
    const gapped = (v: number[]) => ({ ranks: Int32Array.from(v), levels: 11 });
    expect(kendallTauBOfRankings(gapped(x), gapped(y))).toBeCloseTo(kendallTauB(x, y)!, 14);
    expect(spearmanOfRankings(gapped(x), gapped(y))).toBeCloseTo(spearman(x, y)!, 14);
    expect(ranking(x)).toEqual({ ranks: Int32Array.from([0, 1, 1, 2, 0, 2, 1]), levels: 3 });
  });

  it("take the key-sort path for samples with many distinct values and match the pairwise definition", () => {
    const random = mulberry32(5);
    const x = Array.from({ length: 400 }, () => Math.floor(random() * 1000));
    const y = x.map((v) => v + Math.floor(random() * 300));
    expect(kendallTauB(x, y)).toBeCloseTo(kendallTauBByPairs(x, y)!, 12);
  });

  it("reject rankings of different lengths", () => {
    expect(() => kendallTauBOfRankings(ranking([1, 2]), ranking([1]))).toThrow(StatsInputError);
  });
});

describe("Spearman's rho of bootstrap resamples", () => {
  it("is exactly spearman() of the resampled values, ties and repeats included", () => {
    const random = mulberry32(7);
    const x = Array.from({ length: 300 }, () => Math.floor(random() * 11));
    const y = x.map((v) => Math.min(10, Math.max(0, v + Math.floor(random() * 5) - 2)));
    const resampled = spearmanOfResamples(x, y);
    for (let r = 0; r < 50; r++) {
      const sample = Int32Array.from({ length: x.length }, () => Math.floor(random() * x.length));
      expect(resampled(sample)).toBe(
        spearman(
          Array.from(sample, (i) => x[i]!),
          Array.from(sample, (i) => y[i]!),
        ),
      );
    }
    // A resample of one repeated pair has no spread: undefined, as for spearman().
    expect(resampled(new Int32Array([3, 3, 3]))).toBe(spearman([x[3]!, x[3]!, x[3]!], [y[3]!, y[3]!, y[3]!]));
  });
});

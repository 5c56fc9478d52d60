/**
 * One paired-bootstrap p-value: the leaderboard's pair of generators, the alignment's held-out difference and
 * lib/stats/bootstrap.ts's pairedBootstrapDifference (which the calibration's setup pairs use) give the same p on
 * the same data drawn the same way.
 */
import { describe, expect, it } from "vitest";
import { pairedDifference } from "../alignment/agreement";
import { buildLeaderboard } from "../leaderboard/leaderboard";
import { pairedBootstrapDifference, pairedBootstrapP, streamSeed } from "./bootstrap";

// Per prompt, whether generator A's video (and B's) passes: A passes 22 of 40, B 16, so the paired difference
// is some way from zero but not on every resample.
const PROMPTS = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, "0")}`);
const A = PROMPTS.map((_, i) => (i % 3 === 0 || i % 5 === 1 || i % 7 === 2 ? 1 : 0));
const B = PROMPTS.map((_, i) => (i % 2 === 0 && i % 10 !== 0 ? 1 : 0));
const SAMPLES = 2000;
const SEED = 9;

const board = () =>
  buildLeaderboard({
    rows: PROMPTS.flatMap((promptKey, i) => [
      { generator: "A", promptKey, dimension: "d", value: A[i]! },
      { generator: "B", promptKey, dimension: "d", value: B[i]! },
    ]),
    dimensions: ["d"],
    bootstrap: { samples: SAMPLES, seed: SEED },
  });

// The leaderboard draws a dimension's prompts from the stream of (dimension index, its sorted prompts).
const leaderboardStream = streamSeed(SEED, `dimension\u0000${["0", ...PROMPTS].join("\u0000")}`);

const mean = (values: readonly number[]) => (items: Int32Array) => {
  let sum = 0;
  for (const i of items) sum += values[i]!;
  return sum / items.length;
};

describe("the paired-bootstrap p-value", () => {
  it("is the same for the leaderboard, the alignment and pairedBootstrapDifference on the same data and draws", () => {
    const pair = board().pairs[0]!;
    expect([pair.a, pair.b]).toEqual(["A", "B"]);
    expect(pair.difference).toBeCloseTo((22 - 16) / 40, 12);

    const direct = pairedBootstrapDifference(PROMPTS.length, mean(A), mean(B), {
      iterations: SAMPLES,
      seed: leaderboardStream,
    });
    // Every label positive: F1 = 2·tp/(tp + n) rises with the videos that pass, so the F1 difference has the sign
    // of the mean difference on every resample, and a sign-based p must come out the same.
    const alignment = pairedDifference(
      PROMPTS.map(() => true),
      A.map((v) => v === 1),
      B.map((v) => v === 1),
      { seed: leaderboardStream },
    ).f1;

    expect(direct.p).not.toBeNull();
    expect(direct.p!).toBeGreaterThan(2 / (SAMPLES + 1));
    expect(direct.p!).toBeLessThan(1);
    expect(pair.p).toBe(direct.p);
    expect(alignment.p).toBe(direct.p);
    expect([pair.lower, pair.upper]).toEqual([direct.lower, direct.upper]);
  });

  it("is min(1, 2·min(#{d ≤ 0} + 1, #{d ≥ 0} + 1)/(B + 1)) over the defined differences", () => {
    expect(pairedBootstrapP([0.1, 0.2, 0.3])).toBe((2 * 1) / 4);
    expect(pairedBootstrapP([0.1, -0.2, 0.3, NaN, 0.4])).toBe((2 * 2) / 5);
    expect(pairedBootstrapP([0, 0, 0])).toBe(1);
    expect(pairedBootstrapP([NaN])).toBeNull();
  });

  it("gives the same leaderboard twice from the same seed", () => {
    expect(board()).toEqual(board());
  });
});

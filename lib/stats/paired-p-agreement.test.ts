/**
 * One paired-bootstrap p-value: the leaderboard's pair of generators, the alignment's held-out difference, the
 * calibration's pair of judge setups and lib/stats/bootstrap.ts's pairedBootstrapDifference give the same p on the
 * same data drawn the same way.
 */
import { describe, expect, it } from "vitest";
import { pairedDifference } from "../alignment/agreement";
import { compareSetups } from "../calibration/compare-setups";
import { buildLeaderboard } from "../leaderboard/leaderboard";
import { pairedBootstrapDifference, pairedBootstrapP, streamSeed } from "./bootstrap";

// 40 videos (a leaderboard's prompts), the first 30 positive. Two judges (or generators) flag positives only:
// A all but p00–p02, B all but p03–p08. So A is right on 27, B on 24, and the paired difference is some way from
// zero but not on every resample.
const IDS = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, "0")}`);
const TRUTH = IDS.map((_, i) => i < 30);
const A = IDS.map((_, i) => (i >= 3 && i < 30 ? 1 : 0));
const B = IDS.map((_, i) => ((i >= 9 && i < 30) || i < 3 ? 1 : 0));
const SAMPLES = 2000;
const SEED = 9;

const board = () =>
  buildLeaderboard({
    rows: IDS.flatMap((promptKey, i) => [
      { generator: "A", promptKey, dimension: "d", value: A[i]! },
      { generator: "B", promptKey, dimension: "d", value: B[i]! },
    ]),
    dimensions: ["d"],
    bootstrap: { samples: SAMPLES, seed: SEED },
  });

// The leaderboard draws a dimension's prompts from the stream of (dimension index, its sorted prompts); the others
// are given that stream's seed, so all four draw the same videos.
const stream = streamSeed(SEED, `dimension\u0000${["0", ...IDS].join("\u0000")}`);

const mean = (values: readonly number[]) => (items: Int32Array) => {
  let sum = 0;
  for (const i of items) sum += values[i]!;
  return sum / items.length;
};

describe("the paired-bootstrap p-value", () => {
  it("is the same for the leaderboard, the alignment, the calibration and pairedBootstrapDifference", () => {
    const pair = board().pairs[0]!;
    expect([pair.a, pair.b]).toEqual(["A", "B"]);
    expect(pair.difference).toBeCloseTo((27 - 24) / 40, 12);

    const direct = pairedBootstrapDifference(IDS.length, mean(A), mean(B), { iterations: SAMPLES, seed: stream });
    // No judge flags a negative, so F1 = 2·tp/(tp + positives drawn) rises with the positives it flags: the F1
    // difference has the sign of the flag-count difference on every resample, and a sign-based p comes out the same.
    const alignment = pairedDifference(
      TRUTH,
      A.map((v) => v === 1),
      B.map((v) => v === 1),
      { iterations: SAMPLES, seed: stream },
    ).f1;
    // A setup's graded score is 1 where it flags: its best threshold (1) flags what it flags.
    const setup = (runId: string, flags: readonly number[]) => ({
      runId,
      verdict: new Map(IDS.map((id, i) => [id, flags[i] === 1])),
      graded: new Map(IDS.map((id, i) => [id, flags[i]!])),
    });
    const calibration = compareSetups(new Map(IDS.map((id, i) => [id, TRUTH[i]!])), [setup("A", A), setup("B", B)], {
      iterations: SAMPLES,
      seed: stream,
    });
    expect(calibration.runs.map((r) => r.bestThreshold)).toEqual([1, 1]);

    expect(direct.p).not.toBeNull();
    expect(direct.p!).toBeGreaterThan(2 / (SAMPLES + 1));
    expect(direct.p!).toBeLessThan(1);
    expect(pair.p).toBe(direct.p);
    expect(alignment.p).toBe(direct.p);
    expect(calibration.pairs[0]!.bestF1.p).toBe(direct.p);
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

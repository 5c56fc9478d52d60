import { describe, expect, it } from "vitest";
import { mulberry32 } from "../stats/bootstrap";
import { allocate, majorityVerdict, planLabelling, stratify, type PlanVideo } from "./sampling-plan";

const video = (id: number, score: number, judge: number, human: number | null = null): PlanVideo => ({
  videoId: `v${String(id).padStart(4, "0")}`,
  score,
  judge,
  human,
});

describe("stratify", () => {
  it("cuts equal-count bins of the sorted scores and never splits equal scores", () => {
    const videos = [10, 20, 30, 40, 50, 60, 70, 80].map((s, i) => video(i, s, 1));
    expect(stratify(videos, 4).map((s) => [s.scoreMin, s.scoreMax, s.videos.length])).toEqual([
      [10, 20, 2],
      [30, 40, 2],
      [50, 60, 2],
      [70, 80, 2],
    ]);
    const tied = [5, 5, 5, 5, 9, 9].map((s, i) => video(i, s, 1));
    expect(stratify(tied, 3).map((s) => [s.scoreMin, s.scoreMax, s.videos.length])).toEqual([
      [5, 5, 4],
      [9, 9, 2],
    ]);
    expect(stratify([video(1, 3, 1)], 5)).toHaveLength(1);
  });
});

describe("allocate (greedy Neyman)", () => {
  it("gives an uncertain stratum more labels than an equally large certain one, about as N_h·S_h says", () => {
    // Stratum 0: 19 of 20 labels agree (p ≈ 0.91); stratum 1: 10 of 20 (p = 0.5); 500 unlabelled each.
    const given = allocate(
      [
        { alpha: 20, beta: 2, remaining: 500, agreeing: 19 },
        { alpha: 11, beta: 11, remaining: 500, agreeing: 10 },
      ],
      200,
    );
    expect(given[0]! + given[1]!).toBe(200);
    expect(given[1]!).toBeGreaterThan(given[0]!);
    // Neyman's share of the total labels (existing + new): S = √(p(1−p)) → 0.29 vs 0.5, so about 63 % to stratum 1.
    const share = (given[1]! + 20) / (given[0]! + given[1]! + 40);
    expect(share).toBeGreaterThan(0.55);
    expect(share).toBeLessThan(0.72);
  });

  it("never asks a stratum for more videos than it holds unlabelled, and stops when all are asked for", () => {
    expect(
      allocate(
        [
          { alpha: 1, beta: 1, remaining: 3, agreeing: 0 },
          { alpha: 1, beta: 1, remaining: 100, agreeing: 0 },
        ],
        200,
      ),
    ).toEqual([3, 100]);
    expect(allocate([{ alpha: 1, beta: 1, remaining: 4, agreeing: 0 }], 10)).toEqual([4]);
  });
});

describe("planLabelling", () => {
  it("gives the hand-worked interval for one stratum", () => {
    // N = 4, two labelled, both agree: Beta(3, 1), m = 2 → mean (2 + 2·0.75)/4 = 0.875,
    // variance of the agreements 2·3·1·(4 + 2)/(4²·5) = 0.45, sd 0.6708/4 = 0.1677, ±1.96·sd = 0.3287.
    const plan = planLabelling([video(1, 10, 1, 1), video(2, 20, 0, 0), video(3, 30, 1), video(4, 40, 0)], {
      budget: 0,
      strata: 1,
    });
    expect(plan.current.estimate).toBeCloseTo(0.875, 10);
    expect(plan.current.lower).toBeCloseTo(0.875 - (1.96 * Math.sqrt(0.45)) / 4, 10);
    expect(plan.current.upper).toBe(1);
    expect(plan.strata).toEqual([
      { index: 0, scoreMin: 10, scoreMax: 40, size: 4, labelled: 2, agreeing: 2, accuracy: 0.75, proposed: 0 },
    ]);
    expect(plan.videoIds).toEqual([]);
  });

  it("has no interval left when every video is labelled, and proposes nothing", () => {
    const plan = planLabelling([video(1, 10, 1, 1), video(2, 20, 0, 1), video(3, 90, 1, 1)], { budget: 5, strata: 2 });
    expect(plan.current).toEqual({ estimate: 2 / 3, lower: 2 / 3, upper: 2 / 3, halfWidth: 0 });
    expect(plan.videoIds).toEqual([]);
  });

  it("leaves out videos without a judge score or verdict, proposes only unlabelled ones, the same ones for the same seed", () => {
    const videos = [
      ...Array.from({ length: 40 }, (_, i) => video(i, i, i % 2, i < 10 ? i % 2 : null)),
      { videoId: "x", score: null, judge: 1, human: null },
      { videoId: "y", score: 3, judge: null, human: null },
    ];
    const plan = planLabelling(videos, { budget: 12, strata: 4, seed: 7 });
    expect(plan.eligible).toBe(40);
    expect(plan.excluded).toBe(2);
    expect(plan.videoIds).toHaveLength(12);
    expect(new Set(plan.videoIds).size).toBe(12);
    const labelled = new Set(videos.filter((v) => v.human !== null).map((v) => v.videoId));
    expect(plan.videoIds.filter((id) => labelled.has(id) || id === "x" || id === "y")).toEqual([]);
    expect(planLabelling(videos, { budget: 12, strata: 4, seed: 7 }).videoIds).toEqual(plan.videoIds);
    expect(planLabelling(videos, { budget: 12, strata: 4, seed: 8 }).videoIds).not.toEqual(plan.videoIds);
    expect(plan.expected.halfWidth).toBeLessThan(plan.current.halfWidth);
  });

  it("shrinks the interval around the known accuracy in a simulation, more than labelling at random", () => {
    // Known truth: 600 videos, scores 0–100, the judge says "hallucination" below 60. It agrees with the
    // humans 97 % of the time far from 60 and 60 % of the time within 20 points of it.
    const random = mulberry32(2026);
    const universe = Array.from({ length: 600 }, (_, i) => {
      const score = Math.round(random() * 1000) / 10;
      const judge = score < 60 ? 1 : 0;
      const agrees = random() < (Math.abs(score - 60) < 20 ? 0.6 : 0.97);
      return { videoId: `v${i}`, score, judge, truth: agrees ? judge : 1 - judge };
    });
    const trueAccuracy = universe.filter((v) => v.truth === v.judge).length / universe.length;
    const labelWith = (labelled: Set<string>): PlanVideo[] =>
      universe.map((v) => ({
        videoId: v.videoId,
        score: v.score,
        judge: v.judge,
        human: labelled.has(v.videoId) ? v.truth : null,
      }));

    let planWidth = 0;
    let randomWidth = 0;
    let covered = 0;
    const rounds = 30;
    for (let round = 0; round < rounds; round++) {
      const pick = mulberry32(100 + round);
      // 30 labels so far, at random.
      const start = new Set(
        [...universe]
          .sort(() => pick() - 0.5)
          .slice(0, 30)
          .map((v) => v.videoId),
      );
      const before = planLabelling(labelWith(start), { budget: 90, strata: 5, seed: round });
      expect(before.videoIds).toHaveLength(90);
      // The uncertain strata (scores near 60) get more labels than the certain ends.
      const nearThreshold = before.strata.filter((s) => s.scoreMax > 45 && s.scoreMin < 75);
      const farFrom = before.strata.filter((s) => s.scoreMax < 40 || s.scoreMin > 80);
      expect(Math.max(...nearThreshold.map((s) => s.proposed))).toBeGreaterThan(
        Math.min(...farFrom.map((s) => s.proposed)),
      );

      const after = planLabelling(labelWith(new Set([...start, ...before.videoIds])), { budget: 0, strata: 5 });
      expect(after.current.halfWidth).toBeLessThan(before.current.halfWidth);
      // The expected width is what labelling delivers, give or take.
      expect(Math.abs(after.current.halfWidth - before.expected.halfWidth)).toBeLessThan(0.02);
      if (after.current.lower <= trueAccuracy && trueAccuracy <= after.current.upper) covered++;
      planWidth += after.current.halfWidth;

      const others = [...universe]
        .filter((v) => !start.has(v.videoId))
        .sort(() => pick() - 0.5)
        .slice(0, 90);
      randomWidth += planLabelling(labelWith(new Set([...start, ...others.map((v) => v.videoId)])), {
        budget: 0,
        strata: 5,
      }).current.halfWidth;
    }
    expect(covered / rounds).toBeGreaterThanOrEqual(0.85);
    expect(planWidth).toBeLessThan(randomWidth);
  });
});

describe("majorityVerdict", () => {
  it("takes the majority and gives none on a tie", () => {
    expect(majorityVerdict([1, 1, 0])).toBe(1);
    expect(majorityVerdict([0])).toBe(0);
    expect(majorityVerdict([1, 0])).toBeNull();
    expect(majorityVerdict([])).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { StatsInputError } from "../../stats/input-error";
import { type CaptionResult, captionLeaderboard } from "./caption-leaderboard";

const result = (
  model: string,
  captionType: string,
  styleScore: number | null,
  hit: number | null,
  total: number | null,
  lengthViolation: boolean | null,
): CaptionResult => ({
  model,
  captionType,
  styleScore,
  keyPointsHit: hit,
  keyPointsTotal: total,
  lengthViolation,
});

const RESULTS: CaptionResult[] = [
  result("model-b", "brief", 3, null, null, false),
  result("model-a", "brief", 3, null, null, false),
  result("model-a", "brief", 1, null, null, true),
  result("model-a", "brief", 2, null, null, false),
  result("model-a", "action", null, 2, 4, null),
  result("model-a", "action", null, 1, 1, null),
  result("model-a", "action", null, 0, 0, null),
  result("model-a", "poem", 4, null, null, null),
];

describe("captionLeaderboard", () => {
  const rows = captionLeaderboard(RESULTS);
  const find = (model: string, type: string | null) => rows.find((r) => r.model === model && r.captionType === type)!;

  it("has one row per model × caption type and one overall row per model, sorted", () => {
    expect(rows.map((r) => [r.model, r.captionType])).toEqual([
      ["model-a", "action"],
      ["model-a", "brief"],
      ["model-a", "poem"],
      ["model-a", null],
      ["model-b", "brief"],
      ["model-b", null],
    ]);
  });

  it("computes the means, coverage and violation rates by hand", () => {
    const brief = find("model-a", "brief");
    expect(brief.styleScore).toMatchObject({ value: 2, n: 3 }); // (3 + 1 + 2) / 3
    expect(brief.lengthViolationRate).toMatchObject({ value: 1 / 3, n: 3 });
    expect(brief.contentCoverage).toBeNull();

    const action = find("model-a", "action");
    expect(action.contentCoverage).toMatchObject({ value: 3 / 5, n: 2 }); // (2 + 1) / (4 + 1); the caption with no key points is left out
    expect(action.styleScore).toBeNull();
    expect(action.lengthViolationRate).toBeNull();

    const overall = find("model-a", null);
    expect(overall.styleScore).toMatchObject({ value: 2.5, n: 4 }); // (3 + 1 + 2 + 4) / 4
    expect(overall.contentCoverage).toMatchObject({ value: 0.6, n: 2 });
    expect(overall.lengthViolationRate).toMatchObject({ value: 1 / 3, n: 3 });
  });

  it("gives a degenerate interval when every value is the same", () => {
    expect(find("model-b", "brief").styleScore).toEqual({ value: 3, ci: { lower: 3, upper: 3 }, n: 1 });
    expect(find("model-b", null).lengthViolationRate).toEqual({ value: 0, ci: { lower: 0, upper: 0 }, n: 1 });
  });

  it("gives the hand-computed percentile interval for two values 0 and 4", () => {
    // Resampled means are 0, 2 or 4 with probabilities 1/4, 1/2, 1/4: the 2.5% point is 0 and the 97.5% point 4.
    const [two] = captionLeaderboard([
      result("m", "brief", 0, null, null, null),
      result("m", "brief", 4, null, null, null),
    ]);
    expect(two!.styleScore).toEqual({ value: 2, ci: { lower: 0, upper: 4 }, n: 2 });
  });

  it("keeps intervals around the estimate and is the same on every call with the same seed", () => {
    const many = Array.from({ length: 40 }, (_, i) => result("m", "detail", i % 5, i % 3, 3, i % 4 === 0));
    const [first] = captionLeaderboard(many);
    const [again] = captionLeaderboard(many);
    expect(again).toEqual(first);
    for (const metric of [first!.styleScore!, first!.contentCoverage!, first!.lengthViolationRate!]) {
      expect(metric.ci!.lower).toBeLessThanOrEqual(metric.value);
      expect(metric.ci!.upper).toBeGreaterThanOrEqual(metric.value);
      expect(metric.ci!.upper).toBeGreaterThan(metric.ci!.lower);
      expect(metric.n).toBe(40);
    }
    expect(first!.styleScore!.value).toBe(2);
    expect(first!.contentCoverage!.value).toBeCloseTo(39 / 120, 12);
    expect(first!.lengthViolationRate!.value).toBe(0.25);
    const [otherSeed] = captionLeaderboard(many, { seed: 7 });
    expect(otherSeed!.styleScore!.value).toBe(2);
    expect(otherSeed!.styleScore!.ci).not.toEqual(first!.styleScore!.ci);
  });

  it("is empty without results", () => {
    expect(captionLeaderboard([])).toEqual([]);
  });

  it("refuses impossible inputs", () => {
    expect(() => captionLeaderboard([result("m", "brief", 5, null, null, null)])).toThrow(StatsInputError);
    expect(() => captionLeaderboard([result("m", "action", null, 3, 2, null)])).toThrow(/3 of 2 key points/);
    expect(() => captionLeaderboard([result("m", "action", null, 1, null, null)])).toThrow(
      /both be given or both be null/,
    );
  });
});

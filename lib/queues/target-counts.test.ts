import { describe, expect, it } from "vitest";
import { perItemText, queueTargetCounts, type CategoryScores } from "./target-counts";

/** A hallucination-shaped video: 8 key frames × 7 static categories and 8 clusters × 5 dynamic ones = 96 scores. */
function video(id: string, present: Record<string, number> = {}): CategoryScores[] {
  const statics = ["s1", "s2", "s3", "s4", "s5", "s6", "s7"].map((category) => ({
    videoId: id,
    category,
    count: 8,
    max: present[category] ?? 1,
  }));
  const dynamics = ["d1", "d2", "d3", "d4", "d5"].map((category) => ({
    videoId: id,
    category,
    count: 8,
    max: present[category] ?? 0,
  }));
  return [...statics, ...dynamics];
}
const ALL = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "d1", "d2", "d3", "d4", "d5"];

describe("targets per item of a judge's-scores queue", () => {
  it("counts every score per video, and presence first as one question per category plus the judge's present ones", () => {
    const counts = queueTargetCounts(["a", "b"], [...video("a", { s2: 7 }), ...video("b", { s2: 5, d1: 9 })], {
      categories: ALL,
      threshold: 5,
    });
    expect(counts.full).toEqual({ min: 96, max: 96, mean: 96 });
    expect(perItemText(counts.full)).toBe("96");
    expect(counts.presenceFirst).toEqual({ questions: 12, scores: { min: 8, max: 16, mean: 12 } });
    expect(perItemText(counts.presenceFirst!.scores)).toBe("8–16 (12 on average)");
  });

  it("always grades a category that has no presence question, and counts a video without scores as none", () => {
    const counts = queueTargetCounts(
      ["a", "c"],
      [...video("a"), { videoId: "elsewhere", category: "s1", count: 50, max: 9 }],
      { categories: ["s1", "s2"], threshold: 5 },
    );
    // s1 and s2 are asked first (absent by the judge); the other ten categories' 80 scores are graded as before.
    expect(counts.presenceFirst).toEqual({ questions: 2, scores: { min: 0, max: 80, mean: 40 } });
    expect(counts.full).toEqual({ min: 0, max: 96, mean: 48 });
    expect(queueTargetCounts(["a"], video("a"), null).presenceFirst).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import type { AnnotatedStep } from "./step-annotations";
import { clipRejection, trimIntoClips } from "./trim-into-clips";

/** Back-to-back steps of `length` seconds from `at`, with the given categories. */
function steps(categories: string[], length: number, at = 0): AnnotatedStep[] {
  return categories.map((category, i) => ({
    start: at + i * length,
    end: at + (i + 1) * length,
    text: `do ${category} (${i})`,
    category,
    substeps: [],
  }));
}
const distinct = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe("trimIntoClips (seed 004, Appendix C)", () => {
  it("closes a clip at the step that carries it past 4 minutes, starts the next after it, and drops a short tail", () => {
    // 20 steps of 40 s: steps 1–7 end at 280 s (> 240 s), steps 8–14 span 280–560 s, steps 15–20 span 560–800 s = exactly 240 s.
    const result = trimIntoClips(steps(distinct(20), 40));
    expect(result.clips.map((c) => [c.fromStep, c.toStep, c.start, c.end, c.steps.length])).toEqual([
      [0, 6, 0, 280, 7],
      [7, 13, 280, 560, 7],
    ]);
    expect(result.discarded).toEqual([
      { fromStep: 14, toStep: 19, reason: "the remaining steps last 240s, not more than 240s" },
    ]);
    // Times are from the clip's start.
    expect(result.clips[1]!.steps.map((s) => [s.start, s.end])).toEqual([
      [0, 40],
      [40, 80],
      [80, 120],
      [120, 160],
      [160, 200],
      [200, 240],
      [240, 280],
    ]);
  });

  it("rule 2: a clip past 4 minutes with fewer than 7 steps is discarded, and the next clip still starts after it", () => {
    // 60 s steps: the clip closes at step 5 (300 s), 5 steps.
    const result = trimIntoClips([...steps(distinct(5), 60), ...steps(distinct(7, "k"), 40, 300)]);
    expect(result.discarded[0]).toEqual({ fromStep: 0, toStep: 4, reason: "5 steps, fewer than 7" });
    expect(result.clips.map((c) => [c.fromStep, c.toStep, c.start])).toEqual([[5, 11, 300]]);
  });

  it("rule 3: distinct categories under half of the steps", () => {
    const result = trimIntoClips(steps(["a", "b", "a", "b", "a", "b", "a"], 35));
    expect(result.clips).toEqual([]);
    expect(result.discarded).toEqual([
      { fromStep: 0, toStep: 6, reason: "2 distinct step categories in 7 steps, fewer than 50%" },
    ]);
  });

  it("rule 4: one category repeated in a row for more than half of the steps", () => {
    expect(clipRejection(steps(["a", "a", "a", "a", "b", "c", "d"], 35))).toBe(
      "one category repeats 4 times in a row in 7 steps, more than 50%",
    );
    // The same counts spread out pass: runs of 1.
    expect(clipRejection(steps(["a", "b", "a", "c", "a", "d", "a"], 35))).toBeNull();
  });

  it("folds case and spaces of categories, and falls back to the text", () => {
    // Three spellings of one category in a row: a run of 3 in 7 steps (≤ 50%), 5 distinct categories.
    const s = steps(["Cut onion", "cut  onion", "CUT ONION", "x", "y", "z", "w"], 35);
    expect(clipRejection(s)).toBeNull();
    expect(clipRejection(s.map((step) => ({ ...step, category: null, text: step.category! })))).toBeNull();
    expect(clipRejection(steps(["Cut onion", "cut  onion", "CUT ONION", "cut onion", "y", "z", "w"], 35))).toBe(
      "one category repeats 4 times in a row in 7 steps, more than 50%",
    );
  });

  it("shifts substeps with their step and keeps decimal times exact", () => {
    const long = steps(distinct(7), 40, 100.16).map((step, i) =>
      i === 0
        ? { ...step, substeps: [{ start: 100.16, end: 118.61, text: "sub", category: null, substeps: [] }] }
        : step,
    );
    const [clip] = trimIntoClips(long).clips;
    expect(clip!.start).toBe(100.16);
    expect(clip!.steps[0]!.substeps[0]).toMatchObject({ start: 0, end: 18.45 });
    expect(clip!.steps[1]).toMatchObject({ start: 40, end: 80 });
  });
});

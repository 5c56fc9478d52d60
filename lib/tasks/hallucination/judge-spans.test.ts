import { describe, expect, it } from "vitest";
import { frameTimesFromTimestamps } from "../../frames/frame-times";
import type { JudgeSpanInput, SampledFrame } from "../../task-modules/judge-span-types";
import { hallucinationJudgeSpans, hallucinationSpanThreshold } from "./judge-spans";
import { hallucinationPipeline } from "./pipeline";

// A 25 fps video of 100 frames: frame i at i × 0.04 s.
const times = frameTimesFromTimestamps(Array.from({ length: 100 }, (_, i) => i * 0.04))!;

// Three key frames (sampled frames 1, 4, 7), each the middle of a cluster of three sampled frames 0.2 s apart.
const frames: SampledFrame[] = Array.from({ length: 9 }, (_, i) => ({
  index: i,
  timestampS: i * 0.2,
  isKeyFrame: i % 3 === 1,
  cluster: Math.floor(i / 3) * 3 + 1,
}));
const keyFrames = frames.filter((f) => f.isKeyFrame);
const clusters = keyFrames.map((key) => frames.filter((f) => f.cluster === key.index));

function input(scores: JudgeSpanInput["scores"], settings: unknown = {}): JudgeSpanInput {
  return { scores, context: { keyFrames, clusters, frames, items: [] }, settings, outputs: { get: () => null }, times };
}
const s = (scopeIndex: number, category: string, value: number) => ({
  stepId: "static_hallucination",
  scopeIndex,
  category,
  value,
});
const d = (scopeIndex: number, category: string, value: number) => ({
  stepId: "dynamic_hallucination",
  scopeIndex,
  category,
  value,
});

describe("hallucination judge spans", () => {
  it("puts a static category at or over the threshold on its key frame's video frame, one frame long", () => {
    // Key frame 2 (sampled frame 4) is at 0.8 s: video frame 20.
    expect(hallucinationJudgeSpans(input([s(1, "s3", 7), s(1, "s4", 4.9), s(0, "s5", 5)]))).toEqual([
      { label: "s3", startFrame: 20, endFrame: 20, note: "s3 7 on key frame 2" },
      { label: "s5", startFrame: 5, endFrame: 5, note: "s5 5 on key frame 1" },
    ]);
  });

  it("spans a dynamic category over its cluster's frames, first to last in the video", () => {
    // Cluster 3 is sampled frames 6–8: 1.2 s to 1.6 s, video frames 30–40.
    expect(hallucinationJudgeSpans(input([d(2, "d2", 8)]))).toEqual([
      { label: "d2", startFrame: 30, endFrame: 40, note: "d2 8 on cluster 3" },
    ]);
  });

  it("merges one label's spans that overlap or touch, and only those", () => {
    const twoClusters = hallucinationJudgeSpans(input([d(0, "d1", 6), d(1, "d1", 9), d(2, "d4", 6)]));
    // Cluster 1 is frames 0–10 and cluster 2 frames 15–25: apart, so two spans.
    expect(twoClusters.map((x) => [x.label, x.startFrame, x.endFrame])).toEqual([
      ["d1", 0, 10],
      ["d1", 15, 25],
      ["d4", 30, 40],
    ]);
    // Frames at 10 and 11 (touching) merge; 10 and 12 do not.
    const close = frameTimesFromTimestamps(Array.from({ length: 3 }, (_, i) => i))!;
    const touching = hallucinationJudgeSpans({
      ...input([s(0, "s1", 9), s(1, "s1", 6), s(2, "s1", 6)]),
      context: {
        keyFrames: [0, 1, 2].map((i) => ({ index: i, timestampS: i, isKeyFrame: true, cluster: i })),
        clusters: [],
        frames: [],
        items: [],
      },
      times: close,
    });
    expect(touching).toEqual([
      {
        label: "s1",
        startFrame: 0,
        endFrame: 2,
        note: "s1 9 on key frame 1; s1 6 on key frame 2; s1 6 on key frame 3",
      },
    ]);
    // A static span inside a dynamic one of another label stays apart: labels never merge with each other.
    expect(hallucinationJudgeSpans(input([s(2, "s1", 9), d(2, "d1", 9)])).map((x) => x.label)).toEqual(["d1", "s1"]);
  });

  it("uses the run's verdict threshold on the worst category, else the task's presence threshold", () => {
    expect(hallucinationSpanThreshold({})).toBe(5);
    expect(hallucinationSpanThreshold({ verdict: { on: "max_category", threshold: 8 } })).toBe(8);
    expect(hallucinationSpanThreshold({ verdict: { on: "overall", threshold: 70 } })).toBe(5);
    const scores = [s(0, "s1", 7), s(1, "s2", 9)];
    expect(hallucinationJudgeSpans(input(scores, { verdict: { threshold: 8 } })).map((x) => x.label)).toEqual(["s2"]);
    expect(hallucinationJudgeSpans(input(scores, { verdict: { on: "overall" } })).map((x) => x.label)).toEqual([
      "s1",
      "s2",
    ]);
  });

  it("gives the prompt inconsistency, other steps' rows and scopes the frame set lacks no span", () => {
    expect(
      hallucinationJudgeSpans(
        input([
          { stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: 10 },
          { stepId: "static_kg", scopeIndex: 0, category: "s1", value: 10 },
          s(7, "s1", 10),
          d(7, "d1", 10),
          s(0, "d1", 10),
        ]),
      ),
    ).toEqual([]);
  });

  it("is the pipeline's judgeSpans", () => {
    expect(hallucinationPipeline.judgeSpans).toBe(hallucinationJudgeSpans);
  });
});

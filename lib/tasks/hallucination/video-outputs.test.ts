import { describe, expect, it } from "vitest";
import { keyFramesAndClusters, scopeFocus, stepScope } from "../../judge/media/frame-scopes";

import { BUILT_IN_DECLARATIONS } from "../registry";
import { hallucinationPipeline } from "./pipeline";
import {
  describeScoreSettings,
  readableDynamicKg,
  readableReason,
  readableStaticKg,
  readableSummary,
  shortHash,
} from "./video-outputs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

// Two key frames (indexes 1 and 4) with clusters {0,1,2} and {3,4,5}; frame 6 belongs to no cluster.
const frames = [
  { id: "f4", index: 4, timestampS: 1.0, isKeyFrame: true, cluster: 4 },
  { id: "f0", index: 0, timestampS: 0.0, isKeyFrame: false, cluster: 1 },
  { id: "f1", index: 1, timestampS: 0.25, isKeyFrame: true, cluster: 1 },
  { id: "f2", index: 2, timestampS: 0.5, isKeyFrame: false, cluster: 1 },
  { id: "f3", index: 3, timestampS: 0.75, isKeyFrame: false, cluster: 4 },
  { id: "f5", index: 5, timestampS: 1.25, isKeyFrame: false, cluster: 4 },
  { id: "f6", index: 6, timestampS: 1.5, isKeyFrame: false, cluster: null },
];

describe("what a step looked at", () => {
  it("uses each pipeline's own scopes, as its task declares them", () => {
    for (const [id, pipeline] of Object.entries(builtInCatalogue().pipelines)) {
      expect(Object.fromEntries(pipeline.steps.map((step) => [step.id, step.scope])), id).toEqual(
        BUILT_IN_DECLARATIONS.taskOf(id).stepScopes,
      );
      const task = BUILT_IN_DECLARATIONS.taskOf(id);
      for (const step of pipeline.steps) expect(stepScope(step.id, task), `${id}.${step.id}`).toBe(step.scope);
    }
    expect(hallucinationPipeline.steps.length).toBeGreaterThan(0);
  });

  it("builds key frames and clusters in index order, as the engine does", () => {
    const { keyFrames, clusters } = keyFramesAndClusters(frames);
    expect(keyFrames.map((f) => f.index)).toEqual([1, 4]);
    expect(clusters.map((c) => c.map((f) => f.index))).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
  });

  it("points a static cell at its key frame, a dynamic cell at its cluster, a video-level step at all key frames", () => {
    const hallucination = BUILT_IN_DECLARATIONS.taskOf("hallucination");
    expect(scopeFocus(frames, "static_hallucination", 1, hallucination)).toEqual({
      seekS: 1.0,
      frameIndexes: [4],
      label: "key frame 2",
    });
    expect(scopeFocus(frames, "dynamic_hallucination", 1, hallucination)).toEqual({
      seekS: 1.0,
      frameIndexes: [3, 4, 5],
      label: "cluster 2",
    });
    expect(scopeFocus(frames, "dynamic_kg", 0, hallucination)).toMatchObject({ seekS: 0.25, frameIndexes: [0, 1, 2] });
    expect(scopeFocus(frames, "inconsistency", 0, hallucination)).toMatchObject({ seekS: 0.25, frameIndexes: [1, 4] });
  });

  it("points at nothing for a scope the frame set does not have", () => {
    expect(scopeFocus(frames, "static_hallucination", 7, BUILT_IN_DECLARATIONS.taskOf("hallucination"))).toMatchObject({
      seekS: null,
      frameIndexes: [],
    });
  });
});

describe("readable judge outputs", () => {
  it("turns a static KG into objects with attributes and subject — relation — object lines", () => {
    const kg = readableStaticKg({
      objects: ["cat", "table"],
      relations: [
        ["cat", "sits on", "table"],
        ["cat", "is", "orange"],
        { subject: "table", predicate: "made of", object: "wood" },
        ["sun", "shines on", "table"],
        ["broken"],
      ],
    });
    expect(kg).toEqual({
      objects: [
        { name: "cat", attributes: ["is orange"] },
        { name: "table", attributes: ["made of wood"] },
      ],
      relations: [
        { subject: "cat", relation: "sits on", object: "table" },
        { subject: "sun", relation: "shines on", object: "table" },
      ],
    });
  });

  it("reads objects given with their own attributes", () => {
    expect(readableStaticKg({ objects: [{ name: "ball", attributes: ["red", 3] }], relations: [] })).toEqual({
      objects: [{ name: "ball", attributes: ["red", "3"] }],
      relations: [],
    });
  });

  it("gives null for outputs that are no graph", () => {
    expect(readableStaticKg(null)).toBeNull();
    expect(readableStaticKg("objects: cat")).toBeNull();
    expect(readableStaticKg({ objects: [], relations: [] })).toBeNull();
    expect(readableDynamicKg({ changes: "none" })).toBeNull();
  });

  it("reads dynamic changes, the summary and reasons", () => {
    expect(readableDynamicKg({ changes: { cat: "jumps off the table", table: "unchanged", odd: { x: 1 } } })).toEqual([
      { object: "cat", change: "jumps off the table" },
      { object: "table", change: "unchanged" },
    ]);
    expect(readableSummary({ summary: " A cat jumps. " })).toBe("A cat jumps.");
    expect(readableSummary("plain text")).toBe("plain text");
    expect(readableSummary({ text: "x" })).toBeNull();
    expect(readableReason({ score: 3, reason: "the prompt says dog" })).toBe("the prompt says dog");
    expect(readableReason({ score: 3 })).toBeNull();
  });

  it("shortens template hashes and describes the score settings", () => {
    expect(shortHash("0123456789abcdef")).toBe("01234567");
    expect(shortHash(null)).toBeNull();
    expect(describeScoreSettings({ aggregation: "max-max", verdict: { on: "overall", threshold: 70 } })).toEqual({
      aggregation: "max-max",
      verdictRule: "hallucination when overall < 70",
    });
    expect(describeScoreSettings({})).toEqual({
      aggregation: "mean-max",
      verdictRule: "hallucination when I or a category's aggregate ≥ 5",
    });
  });
});

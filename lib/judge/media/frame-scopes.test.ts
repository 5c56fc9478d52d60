import { describe, expect, it } from "vitest";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { scopeFocus, stepScope } from "./frame-scopes";

/*
 * Which frames a step looked at is the core's: it reads each step's scope from the declaration of the step's own task
 * (a task of this test, no hallucination step ids, is focused as it declares); without it, from the built-in tasks'.
 */
const TOY_TASK: TaskDeclaration = {
  id: "toy_frames",
  label: "Toy frame judge",
  subject: "video",
  targets: [],
  metrics: [],
  groupings: [],
  stepScopes: { toy_look: "key_frame", toy_track: "cluster", toy_sum: "video" },
};

// Key frames 1 and 4 with clusters {0,1,2} and {3,4,5}; frame 6 in no cluster.
const frames = [
  { id: "f4", index: 4, timestampS: 1.0, isKeyFrame: true, cluster: 4 },
  { id: "f0", index: 0, timestampS: 0.0, isKeyFrame: false, cluster: 1 },
  { id: "f1", index: 1, timestampS: 0.25, isKeyFrame: true, cluster: 1 },
  { id: "f2", index: 2, timestampS: 0.5, isKeyFrame: false, cluster: 1 },
  { id: "f3", index: 3, timestampS: 0.75, isKeyFrame: false, cluster: 4 },
  { id: "f5", index: 5, timestampS: 1.25, isKeyFrame: false, cluster: 4 },
  { id: "f6", index: 6, timestampS: 1.5, isKeyFrame: false, cluster: null },
];

describe("scopeFocus (which frames a step looked at)", () => {
  it("focuses a task's steps by the scopes its declaration gives", () => {
    expect(stepScope("toy_track", TOY_TASK)).toBe("cluster");
    expect(scopeFocus(frames, "toy_look", 1, TOY_TASK)).toEqual({
      seekS: 1.0,
      frameIndexes: [4],
      label: "key frame 2",
    });
    expect(scopeFocus(frames, "toy_track", 0, TOY_TASK)).toEqual({
      seekS: 0.25,
      frameIndexes: [0, 1, 2],
      label: "cluster 1",
    });
    expect(scopeFocus(frames, "toy_sum", 3, TOY_TASK)).toEqual({
      seekS: 0.25,
      frameIndexes: [1, 4],
      label: "whole video (all key frames)",
    });
    expect(scopeFocus(frames, "toy_track", 2, TOY_TASK)).toEqual({ seekS: null, frameIndexes: [], label: "cluster 3" });
    // Without its task, a step is video-level.
    expect(stepScope("toy_track", undefined)).toBe("video");
    expect(scopeFocus(frames, "toy_look", 1, undefined).frameIndexes).toEqual([1, 4]);
  });
});

describe("a step name two tasks share", () => {
  it('is read from the step\'s own task when given: every rubric task names its step "rubric", at its own scope', () => {
    const perItem: TaskDeclaration = { ...TOY_TASK, id: "toy_items", stepScopes: { toy_shared: "item" } };
    const perVideo: TaskDeclaration = { ...TOY_TASK, id: "toy_videos", stepScopes: { toy_shared: "video" } };
    // Without its task, a step is video-level, whichever task it is of.
    expect(stepScope("toy_shared", undefined)).toBe("video");
    expect(stepScope("toy_shared", perVideo)).toBe("video");
    expect(stepScope("toy_shared", perItem)).toBe("item");
    expect(stepScope("toy_other", perVideo)).toBe("video");
  });
});

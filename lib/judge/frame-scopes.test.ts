import { describe, expect, it } from "vitest";
import { registerTaskDeclarations } from "../tasks/registry";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { scopeFocus, stepScope } from "./frame-scopes";

/*
 * Which frames a step looked at is the core's: it reads each step's scope from the registered tasks'
 * declarations when asked, so a task registered here (no hallucination step ids) is focused as it declares.
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
  it("focuses a task registered after import by the scopes it declares", () => {
    const unregister = registerTaskDeclarations({ id: "toy-frames", tasks: [TOY_TASK] });
    try {
      expect(stepScope("toy_track")).toBe("cluster");
      expect(scopeFocus(frames, "toy_look", 1)).toEqual({ seekS: 1.0, frameIndexes: [4], label: "key frame 2" });
      expect(scopeFocus(frames, "toy_track", 0)).toEqual({ seekS: 0.25, frameIndexes: [0, 1, 2], label: "cluster 1" });
      expect(scopeFocus(frames, "toy_sum", 3)).toEqual({
        seekS: 0.25,
        frameIndexes: [1, 4],
        label: "whole video (all key frames)",
      });
      expect(scopeFocus(frames, "toy_track", 2)).toEqual({ seekS: null, frameIndexes: [], label: "cluster 3" });
    } finally {
      unregister();
    }
    // Unregistered, its steps are no task's: video-level.
    expect(stepScope("toy_track")).toBe("video");
    expect(scopeFocus(frames, "toy_look", 1).frameIndexes).toEqual([1, 4]);
  });
});

describe("a step name two tasks share", () => {
  it('is read from the step\'s own task when given: every rubric task names its step "rubric", at its own scope', () => {
    const perItem: TaskDeclaration = { ...TOY_TASK, id: "toy_items", stepScopes: { toy_shared: "item" } };
    const perVideo: TaskDeclaration = { ...TOY_TASK, id: "toy_videos", stepScopes: { toy_shared: "video" } };
    const unregister = registerTaskDeclarations({ id: "toy-shared", tasks: [perItem, perVideo] });
    try {
      // Without its task, the first declaring task answers, whichever that is.
      expect(stepScope("toy_shared")).toBe("item");
      expect(stepScope("toy_shared", perVideo)).toBe("video");
      expect(stepScope("toy_shared", perItem)).toBe("item");
      expect(stepScope("toy_other", perVideo)).toBe("video");
    } finally {
      unregister();
    }
  });
});

import { describe, expect, it } from "vitest";
import { frameTimesFromTimestamps } from "../frames/frame-times";
import { videoFrameOfSample, videoFramesOfSamples } from "../judge/engine/judge-span-drafts";
import { consecutiveRuns, mergeNeighbouringSpans } from "./judge-spans";

// 10 frames at 10 fps.
const times = frameTimesFromTimestamps(Array.from({ length: 10 }, (_, i) => i / 10))!;

describe("judge span helpers", () => {
  it("maps a sampled frame's time to the video frame on screen then, never past the last", () => {
    expect(videoFrameOfSample(times, 0)).toBe(0);
    expect(videoFrameOfSample(times, 0.35)).toBe(3);
    expect(videoFrameOfSample(times, 0.4)).toBe(4);
    expect(videoFrameOfSample(times, 5)).toBe(9);
    expect(videoFramesOfSamples(times, [{ timestampS: 0.7 }, { timestampS: 0.2 }, { timestampS: 0.5 }])).toEqual({
      startFrame: 2,
      endFrame: 7,
    });
    expect(videoFramesOfSamples(times, [])).toBeNull();
  });

  it("merges one label and item's overlapping or touching spans, keeping labels, items and gaps apart", () => {
    expect(
      mergeNeighbouringSpans([
        { label: "a", startFrame: 5, endFrame: 6, note: "second" },
        { label: "a", startFrame: 0, endFrame: 4, note: "first" },
        { label: "a", startFrame: 2, endFrame: 3, note: "first" },
        { label: "a", startFrame: 8, endFrame: 8 },
        { label: "a", itemId: "q1", startFrame: 7, endFrame: 7 },
        { label: "b", startFrame: 6, endFrame: 7 },
      ]),
    ).toEqual([
      // 0–4 and 5–6 touch; 8 is a frame apart from 6; repeated notes are kept once.
      { label: "a", startFrame: 0, endFrame: 6, note: "first; second" },
      { label: "a", startFrame: 8, endFrame: 8 },
      { label: "a", itemId: "q1", startFrame: 7, endFrame: 7 },
      { label: "b", startFrame: 6, endFrame: 7 },
    ]);
    expect(mergeNeighbouringSpans([])).toEqual([]);
  });

  it("splits sorted numbers into runs of consecutive ones", () => {
    expect(consecutiveRuns([1, 2, 3, 5, 7, 8])).toEqual([
      { first: 1, last: 3 },
      { first: 5, last: 5 },
      { first: 7, last: 8 },
    ]);
    expect(consecutiveRuns([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { MAX_MARKED_INSTANTS, sampledInstants, sawOfFrames, storedSaw, videoFrameOf } from "./call-record";

describe("the record of what a call saw", () => {
  it("names each frame's index in the video from its time when the rate is known, and only for the judged video's frames", () => {
    const frames = [
      { id: "a", index: 3, timestampS: 0.75 },
      { id: "b", index: 4, timestampS: 1 },
      { id: "example", index: 9, timestampS: 2 },
    ];
    expect(sawOfFrames("video-frames", frames, 24, 2)).toEqual({
      mode: "video-frames",
      frames: [
        { index: 3, videoFrame: 18, frameId: "a", timestampS: 0.75 },
        { index: 4, videoFrame: 24, frameId: "b", timestampS: 1 },
        { index: 9, videoFrame: null, frameId: "example", timestampS: 2 },
      ],
    });
    expect(videoFrameOf(1, null)).toBeNull();
    expect(videoFrameOf(1, 0)).toBeNull();
    expect(videoFrameOf(-1, 24)).toBeNull();
  });

  it("reads a stored record, and nothing from a row that is not one", () => {
    const clip = { sha256: "a".repeat(64), durationS: 4, sampling: { numFrames: 8 } };
    expect(storedSaw({ mode: "video-file", frames: [], clip })).toEqual({ mode: "video-file", frames: [], clip });
    expect(storedSaw(null)).toBeNull();
    expect(storedSaw({ mode: "film", frames: [] })).toBeNull();
    expect(storedSaw({ mode: "images", frames: [{ index: -1, frameId: "a", timestampS: 0 }] })).toBeNull();
    expect(
      storedSaw({ mode: "video-file", frames: [], clip: { ...clip, sampling: { numFrames: 8, fps: 2 } } }),
    ).toBeNull();
  });

  it("marks the instants a clip was sampled at: a number of frames from first to last, or a rate from the start", () => {
    expect(sampledInstants({ durationS: 4, sampling: { numFrames: 5 } })).toEqual([0, 1, 2, 3, 4]);
    expect(sampledInstants({ durationS: 4, sampling: { numFrames: 1 } })).toEqual([0]);
    expect(sampledInstants({ durationS: 2, sampling: { fps: 2 } })).toEqual([0, 0.5, 1, 1.5]);
    const many = sampledInstants({ durationS: 600, sampling: { fps: 30 } });
    expect(many).toHaveLength(MAX_MARKED_INSTANTS);
    expect(many[0]).toBe(0);
    expect(many.at(-1)).toBeCloseTo(600 - 1 / 30, 2);
  });
});

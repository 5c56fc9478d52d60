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

  it("names the frame by the video's frame times when they are known: on a variable frame rate, not time × average fps", () => {
    // 30 frames at 30 fps, then 40 at 10 fps: at 3 s the average rate (15 fps) says frame 45, the frame times 50.
    const frameTimesS = [
      ...Array.from({ length: 30 }, (_, i) => i / 30),
      ...Array.from({ length: 40 }, (_, i) => 1 + i / 10),
    ];
    const frames = [{ id: "a", index: 7, timestampS: 3 }];
    expect(sawOfFrames("images", frames, 15).frames[0]!.videoFrame).toBe(45);
    expect(sawOfFrames("images", frames, { fps: 15, frameTimesS }).frames[0]!.videoFrame).toBe(50);
    // The frame on screen: a time between two frames names the earlier one; past the last, the last.
    expect(videoFrameOf(1.25, { fps: 15, frameTimesS })).toBe(32);
    expect(videoFrameOf(99, { fps: 15, frameTimesS })).toBe(69);
    expect(videoFrameOf(1, { fps: 24, frameTimesS: [] })).toBe(24);
    expect(videoFrameOf(1, { fps: null, frameTimesS: null })).toBeNull();
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
    // Without the video's rate and frame count: spread over the clip's duration.
    expect(sampledInstants({ durationS: 4, sampling: { numFrames: 5 } })).toEqual([0, 1, 2, 3, 4]);
    expect(sampledInstants({ durationS: 4, sampling: { numFrames: 1 } })).toEqual([0]);
    expect(sampledInstants({ durationS: 2, sampling: { fps: 2 } })).toEqual([0, 0.5, 1, 1.5]);
    const many = sampledInstants({ durationS: 600, sampling: { fps: 30 } });
    expect(many).toHaveLength(MAX_MARKED_INSTANTS);
    expect(many[0]).toBe(0);
    expect(many.at(-1)).toBeCloseTo(600 - 1 / 30, 2);
  });

  it("marks the frames vLLM's loader takes when the video's rate and frame count are known: first to last frame, cast to integers", () => {
    // 90 frames at 30 fps (3 s): linspace(0, 89, 8, dtype=int) = 0, 12, 25, 38, 50, 63, 76, 89.
    const clip = { durationS: 3, fps: 30, frameCount: 90 };
    expect(sampledInstants({ ...clip, sampling: { numFrames: 8 } })).toEqual(
      [0, 12, 25, 38, 50, 63, 76, 89].map((i) => Math.round((i / 30) * 1000) / 1000),
    );
    // A rate asks duration × fps frames (6), spread the same way: linspace(0, 89, 6, dtype=int).
    expect(sampledInstants({ ...clip, sampling: { fps: 2 } })).toEqual(
      [0, 17, 35, 53, 71, 89].map((i) => Math.round((i / 30) * 1000) / 1000),
    );
    // Asking for more frames than the video has takes every frame.
    expect(sampledInstants({ ...clip, sampling: { numFrames: 500 } })).toHaveLength(90);
    expect(sampledInstants({ ...clip, sampling: { numFrames: 1 } })).toEqual([0]);
  });
});

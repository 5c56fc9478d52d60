import { describe, expect, it } from "vitest";
import {
  type FrameTimes,
  frameAtTime,
  frameEndS,
  frameSeekS,
  framesOfSeconds,
  frameStartS,
  frameTimesFromTimestamps,
  spanSeconds,
} from "./frame-times";

/** Ten frames at 25 fps: 0, 0.04, …, 0.36; the video ends at 0.4 s. */
const constant: FrameTimes = frameTimesFromTimestamps(Array.from({ length: 10 }, (_, i) => i * 0.04))!;
/** Three frames at 25 fps then three at 10 fps: 0, 0.04, 0.08, 0.18, 0.28, 0.38; ends at 0.48 s. */
const variable: FrameTimes = frameTimesFromTimestamps([0, 0.04, 0.08, 0.18, 0.28, 0.38])!;

describe("frameTimesFromTimestamps", () => {
  it("a constant frame rate: times from the first frame, the end one frame after the last, not variable", () => {
    expect(constant.timesS).toHaveLength(10);
    expect(constant.timesS[0]).toBe(0);
    expect(constant.timesS[9]).toBeCloseTo(0.36, 9);
    expect(constant.endS).toBeCloseTo(0.4, 9);
    expect(constant.variable).toBe(false);
  });

  it("gaps that differ by container rounding (under a millisecond) are one frame rate", () => {
    // 24 fps written with millisecond timestamps: gaps of 41 and 42 ms.
    const rounded = frameTimesFromTimestamps([0, 0.042, 0.083, 0.125, 0.167, 0.208])!;
    expect(rounded.variable).toBe(false);
  });

  it("a variable frame rate is detected, and its times are the timestamps themselves", () => {
    expect(variable.variable).toBe(true);
    expect(variable.timesS).toEqual([0, 0.04, 0.08, 0.18, 0.28, 0.38]);
    // The last frame lasts as long as the one before it.
    expect(variable.endS).toBeCloseTo(0.48, 9);
  });

  it("sorts packets given in decode order and measures from the first frame, whatever the origin", () => {
    // B-frames: decode order differs from presentation order; the stream starts at 10 s.
    const times = frameTimesFromTimestamps([10, 10.12, 10.04, 10.08, 10.2, 10.16])!;
    expect(times.timesS.map((t) => Math.round(t * 1000))).toEqual([0, 40, 80, 120, 160, 200]);
    expect(times.endS).toBeCloseTo(0.24, 9);
    expect(times.variable).toBe(false);
  });

  it("a negative origin (an edit list's pre-roll) still starts at 0", () => {
    const times = frameTimesFromTimestamps([-0.08, -0.04, 0, 0.04])!;
    expect(times.timesS.map((t) => Math.round(t * 1000))).toEqual([0, 40, 80, 120]);
  });

  it("ignores timestamps that are not numbers; no packets at all is null", () => {
    expect(frameTimesFromTimestamps([0, Number.NaN, 0.04, Number.POSITIVE_INFINITY, 0.08])!.timesS).toHaveLength(3);
    expect(frameTimesFromTimestamps([])).toBeNull();
    expect(frameTimesFromTimestamps([Number.NaN])).toBeNull();
  });

  it("a single frame lasts to the container's end, or a thirtieth of a second when it has none", () => {
    expect(frameTimesFromTimestamps([2], 2.5)!.endS).toBeCloseTo(0.5, 9);
    expect(frameTimesFromTimestamps([0])!.endS).toBeCloseTo(1 / 30, 9);
    expect(frameTimesFromTimestamps([0], null)!.variable).toBe(false);
  });

  it("two frames are never called variable (one gap has nothing to differ from)", () => {
    expect(frameTimesFromTimestamps([0, 0.5])!.variable).toBe(false);
  });
});

describe("frameAtTime", () => {
  it("at a frame's own time is that frame, for every frame of a 24 fps clip (times as floats, n/24)", () => {
    const times = frameTimesFromTimestamps(Array.from({ length: 240 }, (_, i) => i / 24))!;
    for (let i = 0; i < 240; i++) expect(frameAtTime(times, times.timesS[i]!)).toBe(i);
    // The same times rounded as ffprobe prints them (six decimals) still name their frame.
    for (let i = 0; i < 240; i++) expect(frameAtTime(times, Number((i / 24).toFixed(6)))).toBe(i);
  });

  it("between two frames' times is the earlier frame (the one on screen)", () => {
    expect(frameAtTime(constant, 0.05)).toBe(1);
    expect(frameAtTime(constant, 0.0799)).toBe(1);
    expect(frameAtTime(variable, 0.1)).toBe(2);
    expect(frameAtTime(variable, 0.179)).toBe(2);
    expect(frameAtTime(variable, 0.18)).toBe(3);
  });

  it("before the first frame is frame 0; at or after the end is the last frame", () => {
    expect(frameAtTime(constant, -1)).toBe(0);
    expect(frameAtTime(constant, 0)).toBe(0);
    expect(frameAtTime(constant, 0.4)).toBe(9);
    expect(frameAtTime(constant, 100)).toBe(9);
  });
});

describe("frame seconds", () => {
  it("a frame starts at its time and ends at the next frame's, the last at the video's end", () => {
    expect(frameStartS(variable, 3)).toBe(0.18);
    expect(frameEndS(variable, 3)).toBe(0.28);
    expect(frameEndS(variable, 5)).toBeCloseTo(0.48, 9);
  });

  it("spanSeconds: from the first frame's time to the end of the last frame (frames are inclusive)", () => {
    expect(spanSeconds(variable, 1, 3)).toEqual({ startS: 0.04, endS: 0.28 });
    // A point in time: one frame, still a stretch of one frame's duration.
    expect(spanSeconds(variable, 2, 2)).toEqual({ startS: 0.08, endS: 0.18 });
    const whole = spanSeconds(constant, 0, 9);
    expect(whole.startS).toBe(0);
    expect(whole.endS).toBeCloseTo(0.4, 9);
  });

  it("frameSeekS is the middle of the frame, which frameAtTime maps back to the same frame", () => {
    expect(frameSeekS(variable, 3)).toBeCloseTo(0.23, 9);
    for (let i = 0; i < variable.timesS.length; i++) expect(frameAtTime(variable, frameSeekS(variable, i))).toBe(i);
  });
});

describe("framesOfSeconds", () => {
  it("a point in time (start = end) is one frame: the frame on screen then", () => {
    expect(framesOfSeconds(constant, 0.1, 0.1)).toEqual({ startFrame: 2, endFrame: 2 });
    expect(framesOfSeconds(variable, 0.2, 0.2)).toEqual({ startFrame: 3, endFrame: 3 });
    expect(framesOfSeconds(constant, 0.08, 0.08)).toEqual({ startFrame: 2, endFrame: 2 });
  });

  it("the end is open: a frame that starts exactly at the end is not covered", () => {
    expect(framesOfSeconds(constant, 0.04, 0.12)).toEqual({ startFrame: 1, endFrame: 2 });
    expect(framesOfSeconds(constant, 0.04, 0.13)).toEqual({ startFrame: 1, endFrame: 3 });
    expect(framesOfSeconds(variable, 0.08, 0.28)).toEqual({ startFrame: 2, endFrame: 3 });
  });

  it("the start is closed: a stretch starting between two frames starts on the frame then on screen", () => {
    expect(framesOfSeconds(constant, 0.05, 0.2)).toEqual({ startFrame: 1, endFrame: 4 });
  });

  it("round-trips with spanSeconds: a span's seconds name its frames again", () => {
    for (const times of [constant, variable])
      for (let start = 0; start < times.timesS.length; start++)
        for (let end = start; end < times.timesS.length; end++) {
          const { startS, endS } = spanSeconds(times, start, end);
          expect(framesOfSeconds(times, startS, endS)).toEqual({ startFrame: start, endFrame: end });
        }
  });

  it("the whole video, to its end, is every frame", () => {
    expect(framesOfSeconds(constant, 0, 0.4)).toEqual({ startFrame: 0, endFrame: 9 });
  });
});

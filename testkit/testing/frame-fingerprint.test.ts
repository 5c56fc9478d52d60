import { describe, expect, it } from "vitest";
import {
  DISTINCT_NEIGHBOUR_DISTANCE,
  type Fingerprint,
  distinctFrames,
  ffmpegFingerprints,
  ffmpegFrameFingerprint,
  fingerprintDistance,
  fingerprintOfPixels,
  matchFrame,
  pageFingerprintSource,
} from "./frame-fingerprint";
import { sharedDataPath } from "./shared-data";

// The frame-accuracy reference the span e2e checks the player against: ffmpeg's picture of frame i, fingerprinted,
// must match the picture of frame i and refuse the pictures of frames i − 1 and i + 1 on each real clip.

/** Chromium's canvas against ffmpeg on one frame, as measured on the sample clips: a blue tint of ~0.8 levels. */
function asChromiumDraws(fingerprint: Fingerprint): Fingerprint {
  return fingerprint.map((value, k) => value + (k % 3 === 2 ? 0.85 : k % 2 === 0 ? 0.1 : -0.1));
}

describe("fingerprintOfPixels", () => {
  // 4 × 2 pixels, grid 2: cells of 2 × 1 pixels.
  const rgb = [...[10, 20, 30, 30, 40, 50, 100, 0, 0, 200, 0, 0], ...[0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255]];
  const rgba = Array.from({ length: 8 }, (_, p) => [...rgb.slice(p * 3, p * 3 + 3), 255]).flat();

  it("gives each cell's mean red, green and blue, from RGB and from RGBA alike", () => {
    const expected = [20, 30, 40, 150, 0, 0, 0, 0, 0, 255, 255, 255];
    expect(fingerprintOfPixels(rgb, 4, 2, 3, 2)).toEqual(expected);
    expect(fingerprintOfPixels(rgba, 4, 2, 4, 2)).toEqual(expected);
  });

  it("runs from its own source text, as the page runs it (no helper it depends on)", () => {
    const fromSource = new Function(`return (${fingerprintOfPixels.toString()})`)() as typeof fingerprintOfPixels;
    expect(fromSource(rgba, 4, 2, 4, 2)).toEqual(fingerprintOfPixels(rgba, 4, 2, 4, 2));
    expect(pageFingerprintSource()).toContain(fingerprintOfPixels.toString());
  });

  it("refuses to compare fingerprints of different grids", () => {
    expect(() => fingerprintDistance([1, 2, 3], [1, 2, 3, 4, 5, 6])).toThrow("Fingerprints of 3 and 6 values");
  });
});

describe("ffmpeg's frame i", () => {
  it("is the same picture from select=eq(n,i) and from one pass over the clip", async () => {
    const clip = sharedDataPath("samples/t2vhalubench-12.mp4");
    const window = await ffmpegFingerprints(clip, { from: 37, to: 39 });
    const selected = ffmpegFrameFingerprint(clip, 38);
    expect(fingerprintDistance(selected, window[38]!)).toBe(0);
    expect(fingerprintDistance(selected, window[39]!)).toBeGreaterThan(DISTINCT_NEIGHBOUR_DISTANCE);
  });

  it("needs both neighbours of a frame inside the clip", async () => {
    const reference = [[1], undefined, [2], [3]] as Fingerprint[];
    expect(() => matchFrame([2], reference, 2)).toThrow("The reference lacks a neighbour of frame 2");
  });
});

// Boundary frames whose neighbours differ from them (distinctFrames): in t2vhalubench-5 (30 fps) every fifth frame
// repeats the one before it and stretches barely move; these three per clip are ones where an off-by-one shows.
const BOUNDARIES: Record<string, number[]> = {
  "t2vhalubench-5.mp4": [30, 150, 221],
  "t2vhalubench-12.mp4": [38, 94, 127],
  "t2vhalubench-31.mp4": [50, 62, 74],
};

describe.each(Object.entries(BOUNDARIES))("on %s", (name, frames) => {
  it("matches frame i's picture to i and refuses i − 1 and i + 1", async () => {
    const clip = sharedDataPath(`samples/${name}`);
    const reference = await ffmpegFingerprints(clip, { from: Math.min(...frames) - 2, to: Math.max(...frames) + 2 });
    for (const i of frames) {
      expect(distinctFrames(reference, DISTINCT_NEIGHBOUR_DISTANCE)).toContain(i);
      expect(matchFrame(asChromiumDraws(reference[i]!), reference, i)).toMatchObject({ index: i, same: true });
      expect(matchFrame(asChromiumDraws(reference[i + 1]!), reference, i).same).toBe(false);
      expect(matchFrame(asChromiumDraws(reference[i - 1]!), reference, i).same).toBe(false);
    }
  });
});

describe("a frame that repeats its neighbour", () => {
  it("is no boundary to check: neither picture can be told from the other", async () => {
    const clip = sharedDataPath("samples/t2vhalubench-5.mp4");
    const reference = await ffmpegFingerprints(clip, { from: 99, to: 103 });
    // Frames 101 and 102 are one picture repeated (30 fps made from 24).
    expect(fingerprintDistance(reference[101]!, reference[102]!)).toBeLessThan(DISTINCT_NEIGHBOUR_DISTANCE);
    expect(distinctFrames(reference, DISTINCT_NEIGHBOUR_DISTANCE)).not.toContain(101);
    expect(matchFrame(asChromiumDraws(reference[101]!), reference, 101).same).toBe(false);
  });
});

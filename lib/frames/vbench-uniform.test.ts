import { describe, expect, it } from "vitest";
import { validateManifest } from "./frame-set-parameters";
import { vbenchFrameTime, vbenchVideoTime } from "../../testkit/frames/vbench-times";
import { pythonFixed2, uniformFrameManifest, uniformFrameSetFrames, vbenchUniformIndices } from "./vbench-uniform";

// The expected lists are numpy's `np.linspace(0, total - 1, n, dtype=int).tolist()`. numpy is not installed
// here; they were printed by this pure-Python copy of numpy's linspace (numpy/_core/function_base.py: float64
// step, y = arange(num) * step + start, the last value set to stop, then astype(int)), with python3:
//
//   def linspace_int(start, stop, num):
//       div = num - 1
//       delta = float(stop - start)
//       y = [float(i) for i in range(num)]
//       if div > 0:
//           step = delta / div
//           y = [v / div * delta for v in y] if step == 0 else [v * step for v in y]
//       else:
//           y = [v * delta for v in y]
//       y = [v + start for v in y]
//       if num > 1:
//           y[-1] = float(stop)
//       return [int(v) for v in y]
//
// and the frame_time strings by `",".join(f"{i / fps:.2f}s" for i in idx)`.

const LINSPACE_0_78_64 = [
  0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 26, 27, 28, 29, 30, 32, 33, 34, 35, 37, 38,
  39, 40, 42, 43, 44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 56, 58, 59, 60, 61, 63, 64, 65, 66, 68, 69, 70, 71, 73, 74,
  75, 76, 78,
];
const LINSPACE_0_26_64 = [
  0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 9, 9, 9, 10, 10, 11, 11, 11, 12, 12, 13, 13, 14, 14,
  14, 15, 15, 16, 16, 16, 17, 17, 18, 18, 18, 19, 19, 20, 20, 21, 21, 21, 22, 22, 23, 23, 23, 24, 24, 25, 25, 26,
];

describe("vbenchUniformIndices (np.linspace(0, total - 1, n, dtype=int))", () => {
  it("gives numpy's lists", () => {
    // By hand: step = 78 / 15 = 5.2; i·5.2 = 0, 5.2, 10.4, 15.6, 20.8, 26, 31.2, 36.4, 41.6, 46.8, 52, 57.2, 62.4,
    // 67.6, 72.8 truncated, then stop = 78.
    expect(vbenchUniformIndices(79, 16)).toEqual([0, 5, 10, 15, 20, 26, 31, 36, 41, 46, 52, 57, 62, 67, 72, 78]);
    expect(vbenchUniformIndices(79, 64)).toEqual(LINSPACE_0_78_64);
    expect(vbenchUniformIndices(80, 16)).toEqual([0, 5, 10, 15, 21, 26, 31, 36, 42, 47, 52, 57, 63, 68, 73, 79]);
    expect(vbenchUniformIndices(27, 16)).toEqual([0, 1, 3, 5, 6, 8, 10, 12, 13, 15, 17, 19, 20, 22, 24, 26]);
    expect(vbenchUniformIndices(100, 8)).toEqual([0, 14, 28, 42, 56, 70, 84, 99]);
    expect(vbenchUniformIndices(130, 32)).toEqual([
      0, 4, 8, 12, 16, 20, 24, 29, 33, 37, 41, 45, 49, 54, 58, 62, 66, 70, 74, 79, 83, 87, 91, 95, 99, 104, 108, 112,
      116, 120, 124, 129,
    ]);
  });

  it("repeats frames, as numpy does, when asked for more frames than the video has", () => {
    expect(vbenchUniformIndices(27, 64)).toEqual(LINSPACE_0_26_64);
    expect(vbenchUniformIndices(1, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(vbenchUniformIndices(2, 1)).toEqual([0]);
    expect(vbenchUniformIndices(1, 1)).toEqual([0]);
  });

  it("multiplies in float64 as numpy does, so a product just under an integer truncates down", () => {
    // 11 · (30 / 22) = 14.999999999999998 in float64: numpy gives 14 where exact arithmetic (11·30/22 = 15) gives 15.
    expect(vbenchUniformIndices(31, 23)).toEqual([
      0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 19, 20, 21, 23, 24, 25, 27, 28, 30,
    ]);
    expect(vbenchUniformIndices(31, 23)[11]).toBe(14);
    expect(Math.floor((11 * 30) / 22)).toBe(15);
    // 21 · (153 / 63) = 50.99999999999999 → 50; 42 · (153 / 63) = 101.99999999999999 → 101.
    const long = vbenchUniformIndices(154, 64);
    expect([long[21], long[42], long[49]]).toEqual([50, 101, 118]);
  });

  it("refuses counts that are not whole numbers of at least 1", () => {
    expect(() => vbenchUniformIndices(0, 8)).toThrow(RangeError);
    expect(() => vbenchUniformIndices(10, 0)).toThrow(RangeError);
    expect(() => vbenchUniformIndices(10.5, 8)).toThrow(RangeError);
  });
});

describe('pythonFixed2 (Python\'s f"{x:.2f}")', () => {
  it("rounds exact ties to even, where toFixed rounds them up", () => {
    expect((0.125).toFixed(2)).toBe("0.13");
    expect([0.125, 0.375, 0.625, 0.875, 1.125, 2.5, 3.25].map(pythonFixed2)).toEqual([
      "0.12",
      "0.38",
      "0.62",
      "0.88",
      "1.12",
      "2.50",
      "3.25",
    ]);
  });

  it("rounds other values by their binary value, as Python does", () => {
    // 2.675 and 1.005 are stored just below the half: Python prints 2.67 and 1.00.
    expect([2.675, 1.005, 0, 78 / 24, 1 / 3, 0.005].map(pythonFixed2)).toEqual([
      "2.67",
      "1.00",
      "0.00",
      "3.25",
      "0.33",
      "0.01",
    ]);
    expect(pythonFixed2(-0.125)).toBe("-0.12");
  });
});

describe("vbenchFrameTime and vbenchVideoTime", () => {
  it("gives VBench-2.0's frame_time strings", () => {
    expect(vbenchFrameTime(vbenchUniformIndices(79, 16), 24)).toBe(
      "0.00s,0.21s,0.42s,0.62s,0.83s,1.08s,1.29s,1.50s,1.71s,1.92s,2.17s,2.38s,2.58s,2.79s,3.00s,3.25s",
    );
    expect(vbenchFrameTime(vbenchUniformIndices(27, 16), 8)).toBe(
      "0.00s,0.12s,0.38s,0.62s,0.75s,1.00s,1.25s,1.50s,1.62s,1.88s,2.12s,2.38s,2.50s,2.75s,3.00s,3.25s",
    );
    expect(vbenchFrameTime([], 24)).toBe("");
    expect(() => vbenchFrameTime([0], 0)).toThrow(RangeError);
  });

  it("gives video_time as total / fps", () => {
    expect(vbenchVideoTime(79, 24)).toBe(3.2916666666666665);
    expect(vbenchVideoTime(27, 8)).toBe(3.375);
    expect(vbenchVideoTime(250, 30000 / 1001)).toBe(8.341666666666667);
  });
});

describe("uniformFrameSetFrames and uniformFrameManifest", () => {
  it("stores each picked frame once, at index / avgFps", () => {
    expect(uniformFrameSetFrames(79, 24, 16)).toEqual(
      [0, 5, 10, 15, 20, 26, 31, 36, 41, 46, 52, 57, 62, 67, 72, 78].map((index) => ({
        index,
        timestampS: index / 24,
      })),
    );
    // 64 of a 27-frame video: numpy's list names every frame, some two or three times; each is stored once.
    expect(uniformFrameSetFrames(27, 8, 64)).toEqual(
      Array.from({ length: 27 }, (_, index) => ({ index, timestampS: index / 8 })),
    );
  });

  it("makes a manifest under the frame indices that the uniform check accepts and the key-frame check refuses", () => {
    const manifest = uniformFrameManifest(uniformFrameSetFrames(79, 24, 16));
    expect(manifest[1]).toEqual({
      name: "frame-000005.jpg",
      index: 5,
      timestampS: 5 / 24,
      isKeyFrame: true,
      cluster: 5,
    });
    expect(validateManifest(manifest, "uniform")).toEqual([]);
    expect(validateManifest(manifest, "density-peaks")).toEqual([
      expect.stringContaining("Frame indices must run from 0 to 15 without gaps; missing 1, 2, 3, 4, 6"),
    ]);
    const withoutKeyFrame = manifest.map((entry) =>
      entry.index === 10 ? { ...entry, isKeyFrame: false, cluster: null } : entry,
    );
    expect(validateManifest(withoutKeyFrame, "uniform")).toEqual([
      "In a uniform frame set every frame is a key frame; 10 are not.",
    ]);
  });
});

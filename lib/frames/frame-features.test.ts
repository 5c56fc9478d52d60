import { describe, expect, it } from "vitest";
import { computeFrameFeatures } from "../../testkit/frames/frame-features";
import {
  computeLumaFeatures,
  FEATURE_GRID,
  FEATURE_LEVELS,
  FRAME_FEATURE_LENGTH,
  featureDistance,
  lumaOfRgba,
} from "./frame-features";

type Rgb = readonly [number, number, number];

function image(width: number, height: number, colourAt: (x: number, y: number) => Rgb): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colourAt(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return data;
}

function plane(width: number, height: number, lumaAt: (x: number, y: number) => number): Uint8Array {
  const samples = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) samples[y * width + x] = lumaAt(x, y);
  return samples;
}

/** The quantised levels (0 … FEATURE_LEVELS − 1) of a descriptor. */
function levelsOf(features: Float32Array): number[] {
  return Array.from(features, (value) => Math.round(value * FEATURE_GRID * (FEATURE_LEVELS - 1)));
}

describe("computeLumaFeatures", () => {
  it("is a FEATURE_GRID² grid of quantised mean luma", () => {
    const features = computeLumaFeatures({ samples: plane(64, 36, () => 128), width: 64, height: 36 });
    expect(features).toHaveLength(FRAME_FEATURE_LENGTH);
    expect(FRAME_FEATURE_LENGTH).toBe(FEATURE_GRID * FEATURE_GRID);
    // floor(128·32 / 256) = 16.
    expect(new Set(levelsOf(features))).toEqual(new Set([16]));
  });

  it("puts black and white at distance 1 and equal planes at 0", () => {
    for (const [width, height] of [
      [64, 64],
      [64, 27],
      [5, 3],
      [1, 1],
    ] as const) {
      const black = computeLumaFeatures({ samples: plane(width, height, () => 0), width, height });
      const white = computeLumaFeatures({ samples: plane(width, height, () => 255), width, height });
      expect(featureDistance(black, white)).toBeCloseTo(1, 6);
      expect(
        featureDistance(white, computeLumaFeatures({ samples: plane(width, height, () => 255), width, height })),
      ).toBe(0);
    }
  });

  it("area-weights pixels straddling cells exactly, so mirroring the picture mirrors the grid", () => {
    const width = 37;
    const height = 23;
    const samples = plane(width, height, (x, y) => (x * 53 + y * 29 + ((x * y) % 7) * 17) % 256);
    const mirrored = plane(width, height, (x, y) => samples[y * width + (width - 1 - x)]!);
    const grid = levelsOf(computeLumaFeatures({ samples, width, height }));
    const mirroredGrid = levelsOf(computeLumaFeatures({ samples: mirrored, width, height }));
    for (let y = 0; y < FEATURE_GRID; y++) {
      for (let x = 0; x < FEATURE_GRID; x++)
        expect(mirroredGrid[y * FEATURE_GRID + x]).toBe(grid[y * FEATURE_GRID + (FEATURE_GRID - 1 - x)]);
    }
  });

  it("weights a pixel by its overlap: 3 pixels over 16 cells", () => {
    // Pixel 0 black, 1 and 2 white; cell 5 spans [15/16, 18/16) pixels: 1/16 of black, 2/16 of white, so its
    // mean is 170 and its level floor(170·32 / 256) = 21.
    const levels = levelsOf(
      computeLumaFeatures({ samples: plane(3, 1, (x) => (x === 0 ? 0 : 255)), width: 3, height: 1 }),
    );
    expect(levels.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(levels[5]).toBe(21);
    expect(levels[6]).toBe(31);
  });

  it("reads a strided plane and high bit depths", () => {
    const stride = 10;
    const samples = new Uint8Array(stride * 4).fill(255); // padding is white
    for (let y = 0; y < 4; y++) for (let x = 0; x < 8; x++) samples[y * stride + x] = 0;
    expect(new Set(levelsOf(computeLumaFeatures({ samples, width: 8, height: 4, stride })))).toEqual(new Set([0]));
    const tenBit = new Uint16Array(16).fill(1023);
    expect(new Set(levelsOf(computeLumaFeatures({ samples: tenBit, width: 4, height: 4, maxValue: 1023 })))).toEqual(
      new Set([31]),
    );
  });

  it("rejects sizes the samples do not fill", () => {
    expect(() => computeLumaFeatures({ samples: new Uint8Array(10), width: 4, height: 4 })).toThrow(RangeError);
    expect(() => computeLumaFeatures({ samples: new Uint8Array(16), width: 4, height: 4, stride: 3 })).toThrow(
      RangeError,
    );
    expect(() => computeLumaFeatures({ samples: new Uint8Array(0), width: 0, height: 0 })).toThrow(RangeError);
    expect(() => featureDistance(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });
});

describe("computeFrameFeatures (RGB frames)", () => {
  it("takes BT.601 luma in integers, then the luma grid", () => {
    expect(Array.from(lumaOfRgba([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255], 3, 1))).toEqual([77, 149, 29]);
    expect(Array.from(lumaOfRgba([0, 0, 255, 255], 1, 1, 4, "bgr"))).toEqual([77]);
    const red = computeFrameFeatures(
      image(8, 8, () => [255, 0, 0]),
      8,
      8,
    );
    expect(new Set(levelsOf(red))).toEqual(new Set([Math.floor((77 * FEATURE_LEVELS) / 256)]));
  });

  it("tells layouts with the same colours apart", () => {
    const topWhite = computeFrameFeatures(
      image(64, 64, (_, y) => (y < 32 ? [255, 255, 255] : [0, 0, 0])),
      64,
      64,
    );
    const bottomWhite = computeFrameFeatures(
      image(64, 64, (_, y) => (y < 32 ? [0, 0, 0] : [255, 255, 255])),
      64,
      64,
    );
    expect(featureDistance(topWhite, bottomWhite)).toBeCloseTo(1, 5);
  });

  it("rejects a buffer that does not match the size", () => {
    expect(() => computeFrameFeatures(new Uint8ClampedArray(10), 2, 2)).toThrow(RangeError);
  });
});

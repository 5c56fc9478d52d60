import { describe, expect, it } from "vitest";
import { computeFrameFeatures, FRAME_FEATURE_LENGTH, featureDistance, HISTOGRAM_OFFSET, HISTOGRAM_WEIGHT, THUMBNAIL_SIDE, THUMBNAIL_WEIGHT } from "./frame-features";

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

const solid = (width: number, height: number, colour: Rgb) => image(width, height, () => colour);
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];
const RED: Rgb = [255, 0, 0];

function thumbnailOf(features: Float32Array): number[] {
  return Array.from(features.subarray(0, THUMBNAIL_SIDE * THUMBNAIL_SIDE), (value) => value / THUMBNAIL_WEIGHT);
}

describe("computeFrameFeatures", () => {
  it("has the documented layout", () => {
    const features = computeFrameFeatures(solid(64, 36, RED), 64, 36);
    expect(features).toHaveLength(FRAME_FEATURE_LENGTH);
    expect(FRAME_FEATURE_LENGTH).toBe(HISTOGRAM_OFFSET + 64);
    for (const luma of thumbnailOf(features)) expect(luma).toBeCloseTo(0.299, 5);
    const histogram = Array.from(features.subarray(HISTOGRAM_OFFSET), (value) => value / HISTOGRAM_WEIGHT);
    expect(histogram.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 6);
    // Pure red: r >> 6 = 3, g = b = 0 → bin 48.
    expect(histogram[48]).toBeCloseTo(1, 6);
  });

  it("puts black, white and red far apart", () => {
    for (const [width, height] of [
      [64, 64],
      [64, 27],
      [5, 3],
      [1, 1],
    ] as const) {
      const black = computeFrameFeatures(solid(width, height, BLACK), width, height);
      const white = computeFrameFeatures(solid(width, height, WHITE), width, height);
      const red = computeFrameFeatures(solid(width, height, RED), width, height);
      expect(featureDistance(black, white)).toBeCloseTo(Math.SQRT2, 5);
      expect(featureDistance(black, red)).toBeCloseTo(Math.hypot(0.299, 1), 5);
      expect(featureDistance(white, red)).toBeCloseTo(Math.hypot(1 - 0.299, 1), 5);
    }
  });

  it("gives the same image the same features (distance 0)", () => {
    const noisy = image(48, 30, (x, y) => [(x * 37 + y * 11) % 256, (x * y) % 256, (x + 3 * y) % 256]);
    const first = computeFrameFeatures(noisy, 48, 30);
    const second = computeFrameFeatures(noisy.slice(), 48, 30);
    expect(featureDistance(first, second)).toBe(0);
    expect(Array.from(first)).toEqual(Array.from(second));
  });

  it("tells layouts with the same colours apart", () => {
    const topWhite = computeFrameFeatures(
      image(64, 64, (_, y) => (y < 32 ? WHITE : BLACK)),
      64,
      64,
    );
    const bottomWhite = computeFrameFeatures(
      image(64, 64, (_, y) => (y < 32 ? BLACK : WHITE)),
      64,
      64,
    );
    // Same histogram, every thumbnail cell differs by 1 → RMS 1.
    expect(featureDistance(topWhite, bottomWhite)).toBeCloseTo(1, 5);
  });

  it("area-averages sizes that do not divide into the thumbnail", () => {
    // 3 pixels over 8 cells: cell 2 spans [0.75, 1.125) → a quarter of black pixel 0 and an eighth of white pixel 1.
    const features = computeFrameFeatures(
      image(3, 1, (x) => (x === 0 ? BLACK : WHITE)),
      3,
      1,
    );
    const firstRow = thumbnailOf(features).slice(0, THUMBNAIL_SIDE);
    expect(firstRow[0]).toBeCloseTo(0, 6);
    expect(firstRow[1]).toBeCloseTo(0, 6);
    expect(firstRow[2]).toBeCloseTo(1 / 3, 6);
    expect(firstRow[3]).toBeCloseTo(1, 6);
    expect(firstRow[7]).toBeCloseTo(1, 6);
  });

  it("rejects a buffer that does not match the size", () => {
    expect(() => computeFrameFeatures(new Uint8ClampedArray(10), 2, 2)).toThrow(RangeError);
    expect(() => computeFrameFeatures(new Uint8ClampedArray(0), 0, 0)).toThrow(RangeError);
    expect(() => featureDistance(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });

  it("accepts a plain Uint8Array", () => {
    const bytes = new Uint8Array(solid(4, 4, WHITE));
    expect(thumbnailOf(computeFrameFeatures(bytes, 4, 4))[0]).toBeCloseTo(1, 6);
  });
});

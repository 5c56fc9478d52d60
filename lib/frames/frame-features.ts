/**
 * Per-frame descriptor used to tell sampled video frames apart (key-frame selection and scene changes).
 *
 * Layout of the returned Float32Array (FRAME_FEATURE_LENGTH = 128 values):
 *   [0, 64)    8×8 grayscale thumbnail, row-major, top row first. Each value is the area-weighted mean
 *              Rec. 601 luma (0..1) of its cell, multiplied by THUMBNAIL_WEIGHT = 1/8.
 *   [64, 128)  4×4×4 RGB colour histogram, bin = 16·(r >> 6) + 4·(g >> 6) + (b >> 6). Each value is the
 *              fraction of pixels in that bin (the bins sum to 1), multiplied by HISTOGRAM_WEIGHT = 1/√2.
 *
 * The weights make each part's Euclidean distance lie in [0, 1]: the thumbnail part is the RMS luma
 * difference and the histogram part is the histogram L2 distance over its maximum √2. So layout changes
 * and colour changes count equally, and featureDistance lies in [0, √2] (black vs white is √2).
 *
 * 8×8 rather than 16×16 because density peaks compares every pair of frames: at 128 values, 2,000 frames
 * (8 minutes at 4 fps) take a few hundred milliseconds; 320 values would take about a second.
 *
 * Alpha is ignored: decoded video frames drawn onto a canvas are opaque.
 */

export const THUMBNAIL_SIDE = 8;
const THUMBNAIL_LENGTH = THUMBNAIL_SIDE * THUMBNAIL_SIDE;
/** 4 levels per channel: the bin formula below takes the top two bits of each channel. */
const HISTOGRAM_LENGTH = 4 * 4 * 4;
export const FRAME_FEATURE_LENGTH = THUMBNAIL_LENGTH + HISTOGRAM_LENGTH;
export const HISTOGRAM_OFFSET = THUMBNAIL_LENGTH;
export const THUMBNAIL_WEIGHT = 1 / THUMBNAIL_SIDE;
export const HISTOGRAM_WEIGHT = 1 / Math.SQRT2;

/** The source pixels overlapping one thumbnail cell along one axis, with their overlap lengths. */
type AxisCoverage = { pixels: number[]; weights: number[] };

/**
 * Splits [0, sourceLength) into THUMBNAIL_SIDE equal cells; a source pixel straddling a cell border
 * contributes in proportion to its overlap, so any size (including fewer pixels than cells) averages exactly.
 */
function axisCoverage(sourceLength: number): AxisCoverage[] {
  const cellLength = sourceLength / THUMBNAIL_SIDE;
  const cells: AxisCoverage[] = [];
  for (let cell = 0; cell < THUMBNAIL_SIDE; cell++) {
    const start = cell * cellLength;
    const end = start + cellLength;
    const pixels: number[] = [];
    const weights: number[] = [];
    for (let pixel = Math.floor(start); pixel < Math.min(sourceLength, Math.ceil(end)); pixel++) {
      const overlap = Math.min(end, pixel + 1) - Math.max(start, pixel);
      if (overlap > 0) {
        pixels.push(pixel);
        weights.push(overlap);
      }
    }
    cells.push({ pixels, weights });
  }
  return cells;
}

export function computeFrameFeatures(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Float32Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Frame size must be positive integers, got ${width}×${height}.`);
  }
  const pixelCount = width * height;
  if (rgba.length !== pixelCount * 4) {
    throw new RangeError(`Expected ${pixelCount * 4} RGBA bytes for ${width}×${height}, got ${rgba.length}.`);
  }

  const luma = new Float64Array(pixelCount);
  const histogram = new Float64Array(HISTOGRAM_LENGTH);
  for (let pixel = 0, byte = 0; pixel < pixelCount; pixel++, byte += 4) {
    const red = rgba[byte] ?? 0;
    const green = rgba[byte + 1] ?? 0;
    const blue = rgba[byte + 2] ?? 0;
    luma[pixel] = (0.299 * red + 0.587 * green + 0.114 * blue) / 255;
    const bin = (red >> 6) * 16 + (green >> 6) * 4 + (blue >> 6);
    histogram[bin] = (histogram[bin] ?? 0) + 1;
  }

  const features = new Float32Array(FRAME_FEATURE_LENGTH);
  const columns = axisCoverage(width);
  const rows = axisCoverage(height);
  const cellArea = (width / THUMBNAIL_SIDE) * (height / THUMBNAIL_SIDE);
  for (let cellY = 0; cellY < THUMBNAIL_SIDE; cellY++) {
    const row = rows[cellY];
    if (!row) continue;
    for (let cellX = 0; cellX < THUMBNAIL_SIDE; cellX++) {
      const column = columns[cellX];
      if (!column) continue;
      let sum = 0;
      for (let r = 0; r < row.pixels.length; r++) {
        const rowOffset = (row.pixels[r] ?? 0) * width;
        const rowWeight = row.weights[r] ?? 0;
        for (let c = 0; c < column.pixels.length; c++) {
          sum += rowWeight * (column.weights[c] ?? 0) * (luma[rowOffset + (column.pixels[c] ?? 0)] ?? 0);
        }
      }
      features[cellY * THUMBNAIL_SIDE + cellX] = (sum / cellArea) * THUMBNAIL_WEIGHT;
    }
  }
  for (let bin = 0; bin < HISTOGRAM_LENGTH; bin++) {
    features[HISTOGRAM_OFFSET + bin] = ((histogram[bin] ?? 0) / pixelCount) * HISTOGRAM_WEIGHT;
  }
  return features;
}

/** Euclidean distance between two feature vectors of the same length. */
export function featureDistance(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`Feature lengths differ: ${a.length} vs ${b.length}.`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    sum += difference * difference;
  }
  return Math.sqrt(sum);
}

/**
 * Per-frame descriptor used to tell sampled video frames apart (key-frame selection and scene changes).
 *
 * It is computed from the decoded frame's LUMA PLANE (Y, before any colour conversion or scaling), because that
 * is the one thing every decoder agrees on: H.264, HEVC, VP9 and AV1 decoding is bit-exact, so WebCodecs,
 * ffmpeg.wasm and native ffmpeg give the same Y plane, while their YUV→RGB conversion and scalers differ by a
 * few levels (enough to move a density-peaks key frame). The descriptor is then derived from those samples in
 * integer arithmetic only, so equal planes give bit-identical features on every backend (docs/guide/frames.md).
 *
 * Layout of the returned Float32Array (FRAME_FEATURE_LENGTH = 256 values): a FEATURE_GRID × FEATURE_GRID
 * grey image, row-major, top row first (rows and columns of the coded picture: rotation metadata is not
 * applied, on any backend). Each value is the area-weighted mean luma of its cell, quantised to FEATURE_LEVELS
 * levels (q = floor(mean·LEVELS / (maxValue + 1))), stored as q / (LEVELS − 1) / FEATURE_GRID. The weight makes
 * featureDistance the RMS difference of the quantised means, in [0, 1], so scene-change thresholds keep their
 * meaning (featureDistance stays within [0, √2]).
 *
 * Area weighting is exact: each source pixel spans FEATURE_GRID units per axis and each cell `size` units, so
 * every overlap is an integer and the weighted sum is an integer below 2^53 for any real frame. Unlike pixel-
 * to-cell rounding it is symmetric, so mirroring the picture mirrors the grid.
 */

export const FEATURE_GRID = 16;
/** 5 bits: coarse enough that a decoder's last-bit differences (10-bit to 8-bit rounding) rarely cross a level. */
export const FEATURE_LEVELS = 32;
export const FRAME_FEATURE_LENGTH = FEATURE_GRID * FEATURE_GRID;
const CELL_WEIGHT = 1 / FEATURE_GRID;

/** A luma plane as a decoder hands it over: `width × height` samples, rows `stride` samples apart. */
interface LumaPlane {
  samples: ArrayLike<number>;
  width: number;
  height: number;
  /** Samples (not bytes) from one row's start to the next; defaults to width. */
  stride?: number;
  /** Largest sample value: 255 for 8-bit video, 1023 for 10-bit. Defaults to 255. */
  maxValue?: number;
}

/** For each cell along one axis of `length` pixels: the pixels it overlaps, with integer overlaps (units: 1/(length·GRID)). */
function axisOverlaps(length: number): { first: number; overlaps: number[] }[] {
  const cells: { first: number; overlaps: number[] }[] = [];
  for (let cell = 0; cell < FEATURE_GRID; cell++) {
    // In units where a pixel is FEATURE_GRID long and a cell `length` long, the cell spans [cell·length, (cell+1)·length).
    const start = cell * length;
    const end = start + length;
    const first = Math.floor(start / FEATURE_GRID);
    const overlaps: number[] = [];
    for (let pixel = first; pixel * FEATURE_GRID < end; pixel++) {
      overlaps.push(Math.min(end, (pixel + 1) * FEATURE_GRID) - Math.max(start, pixel * FEATURE_GRID));
    }
    cells.push({ first, overlaps });
  }
  return cells;
}

function checkSize(width: number, height: number) {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Frame size must be positive integers, got ${width}×${height}.`);
  }
}

/** The descriptor of a decoded frame's luma plane (see the file comment). */
export function computeLumaFeatures(plane: LumaPlane): Float32Array {
  const { samples, width, height } = plane;
  const stride = plane.stride ?? width;
  const maxValue = plane.maxValue ?? 255;
  checkSize(width, height);
  if (!Number.isInteger(stride) || stride < width)
    throw new RangeError(`Stride ${stride} is smaller than the width ${width}.`);
  if (!Number.isInteger(maxValue) || maxValue < 1)
    throw new RangeError(`maxValue must be a positive integer, got ${maxValue}.`);
  if (samples.length < (height - 1) * stride + width)
    throw new RangeError(
      `Expected at least ${(height - 1) * stride + width} samples for ${width}×${height} (stride ${stride}), got ${samples.length}.`,
    );

  const columns = axisOverlaps(width);
  const rows = axisOverlaps(height);
  // Each cell's weights sum to width·height (its area in these units), so mean = sum / (width·height).
  const cellArea = width * height;
  const features = new Float32Array(FRAME_FEATURE_LENGTH);
  const columnSums = new Float64Array(FEATURE_GRID);
  for (let cellY = 0; cellY < FEATURE_GRID; cellY++) {
    const row = rows[cellY]!;
    columnSums.fill(0);
    for (let r = 0; r < row.overlaps.length; r++) {
      const rowOffset = (row.first + r) * stride;
      const rowWeight = row.overlaps[r]!;
      for (let cellX = 0; cellX < FEATURE_GRID; cellX++) {
        const column = columns[cellX]!;
        let sum = 0;
        for (let c = 0; c < column.overlaps.length; c++)
          sum += column.overlaps[c]! * samples[rowOffset + column.first + c]!;
        columnSums[cellX] = columnSums[cellX]! + rowWeight * sum;
      }
    }
    for (let cellX = 0; cellX < FEATURE_GRID; cellX++) {
      // Integer division: floor(sum·LEVELS / (area·(maxValue+1))), exact because both sides are integers < 2^53.
      const level = Math.min(
        FEATURE_LEVELS - 1,
        Math.floor((columnSums[cellX]! * FEATURE_LEVELS) / (cellArea * (maxValue + 1))),
      );
      features[cellY * FEATURE_GRID + cellX] = (level / (FEATURE_LEVELS - 1)) * CELL_WEIGHT;
    }
  }
  return features;
}

/**
 * BT.601 luma of 8-bit RGB(A) pixels in integers, (77·R + 150·G + 29·B + 128) >> 8. Only for frames that come
 * as RGB (a hardware decoder that hands over no YUV planes, or a still image): its result is close to, not
 * equal to, the Y plane the frame was encoded from (docs/guide/frames.md gives the tolerance).
 */
export function lumaOfRgba(
  rgba: ArrayLike<number>,
  width: number,
  height: number,
  channels: 3 | 4 = 4,
  order: "rgb" | "bgr" = "rgb",
): Uint8Array {
  checkSize(width, height);
  if (rgba.length < width * height * channels)
    throw new RangeError(`Expected ${width * height * channels} bytes for ${width}×${height}, got ${rgba.length}.`);
  const luma = new Uint8Array(width * height);
  const [red, blue] = order === "rgb" ? [0, 2] : [2, 0];
  for (let pixel = 0, byte = 0; pixel < luma.length; pixel++, byte += channels) {
    luma[pixel] = (77 * rgba[byte + red]! + 150 * rgba[byte + 1]! + 29 * rgba[byte + blue]! + 128) >> 8;
  }
  return luma;
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

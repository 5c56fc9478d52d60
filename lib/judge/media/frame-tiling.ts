import jpeg from "jpeg-js";
import { averageInto } from "./frame-resize";

/**
 * For an endpoint that takes fewer images per request than a step sends (vLLM without
 * `--limit-mm-per-prompt` takes one): the step's frames tiled into one JPEG grid, in the order the step
 * sends them (the prompts name them in time order: "the first frame is the earliest"), read left to right,
 * top to bottom. The prompt gets a sentence saying so (tilingNote). jpeg-js decodes and encodes: pure
 * JavaScript, no native image library needed.
 */

/** The grid's longest side at most: larger grids are scaled down (area average), as a server would anyway. */
export const MAX_GRID_SIDE = 2048;
/** White lines between cells, so the model sees where one frame ends. */
const GAP = 8;
const BACKGROUND = 255;
const JPEG_QUALITY = 90;

export interface TiledFrames {
  jpeg: Buffer;
  columns: number;
  rows: number;
  width: number;
  height: number;
}

/** Columns and rows for n cells: the squarest grid, as wide as it is tall or one column wider. */
export function gridFor(count: number): { columns: number; rows: number } {
  const columns = Math.max(1, Math.ceil(Math.sqrt(count)));
  return { columns, rows: Math.max(1, Math.ceil(count / columns)) };
}

/** What the prompt says about a tiled image, so the model reads the frames in their order. */
export function tilingNote(count: number, grid: { columns: number; rows: number }): string {
  const empty = grid.columns * grid.rows - count;
  return (
    `(This endpoint takes fewer images per request than this step sends, so the ${count} frames are tiled into the one image below, ` +
    `in a ${grid.columns}×${grid.rows} grid separated by white lines, read left to right, top to bottom: the first frame is at the top left, ` +
    `the second to its right, and the last ${empty > 0 ? `is followed by ${empty} empty cell${empty > 1 ? "s" : ""}` : "is at the bottom right"}. ` +
    `Treat each cell as one frame.)`
  );
}

/** Tiles JPEG frames into one grid JPEG; every cell is as large as the largest frame, smaller frames centred in theirs. */
export function tileFrames(frames: Buffer[]): TiledFrames {
  if (frames.length === 0) throw new Error("No frames to tile.");
  const decoded = frames.map((bytes) =>
    jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 64, maxMemoryUsageInMB: 512 }),
  );
  const { columns, rows } = gridFor(frames.length);
  const cellWidth = Math.max(...decoded.map((d) => d.width));
  const cellHeight = Math.max(...decoded.map((d) => d.height));
  const fullWidth = columns * cellWidth + (columns - 1) * GAP;
  const fullHeight = rows * cellHeight + (rows - 1) * GAP;
  const scale = Math.min(1, MAX_GRID_SIDE / Math.max(fullWidth, fullHeight));
  const width = Math.max(1, Math.round(fullWidth * scale));
  const height = Math.max(1, Math.round(fullHeight * scale));
  const out = new Uint8Array(width * height * 4).fill(BACKGROUND);

  decoded.forEach((image, index) => {
    const column = index % columns;
    const row = Math.floor(index / columns);
    // The frame's place in the full-size grid, then scaled: each output pixel averages the source pixels it covers.
    const left = column * (cellWidth + GAP) + Math.floor((cellWidth - image.width) / 2);
    const top = row * (cellHeight + GAP) + Math.floor((cellHeight - image.height) / 2);
    const x0 = Math.round(left * scale);
    const y0 = Math.round(top * scale);
    const x1 = Math.min(width, Math.round((left + image.width) * scale));
    const y1 = Math.min(height, Math.round((top + image.height) * scale));
    for (let y = y0; y < y1; y++) {
      const sy0 = Math.min(image.height - 1, Math.floor((y - y0) / scale));
      const sy1 = Math.max(sy0 + 1, Math.min(image.height, Math.floor((y + 1 - y0) / scale)));
      for (let x = x0; x < x1; x++) {
        const sx0 = Math.min(image.width - 1, Math.floor((x - x0) / scale));
        const sx1 = Math.max(sx0 + 1, Math.min(image.width, Math.floor((x + 1 - x0) / scale)));
        averageInto(out, (y * width + x) * 4, image, sx0, sx1, sy0, sy1);
      }
    }
  });
  return { jpeg: jpeg.encode({ data: out, width, height }, JPEG_QUALITY).data, columns, rows, width, height };
}

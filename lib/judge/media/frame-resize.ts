import jpeg from "jpeg-js";

/**
 * A frame scaled down so its longest side is at most `px` (area average, aspect ratio kept), as the JPEG a step
 * sends; a frame already that small is returned as it is (never scaled up). Pure JavaScript (jpeg-js), like the
 * frame tiling beside it. Steps ask for it through StepInput.imageMaxSide (a rubric's frame size for key frames).
 */
const JPEG_QUALITY = 90;

export function scaleJpegToLongestSide(bytes: Buffer, px: number): Buffer {
  const image = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: 64,
    maxMemoryUsageInMB: 512,
  });
  const longest = Math.max(image.width, image.height);
  if (longest <= px) return bytes;
  const scale = px / longest;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor((y * image.height) / height);
    const sy1 = Math.max(sy0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor((x * image.width) / width);
      const sx1 = Math.max(sx0 + 1, Math.floor(((x + 1) * image.width) / width));
      averageInto(out, (y * width + x) * 4, image, sx0, sx1, sy0, sy1);
    }
  }
  return Buffer.from(jpeg.encode({ data: out, width, height }, JPEG_QUALITY).data);
}

/**
 * Writes the mean colour of the source pixels [sx0, sx1) × [sy0, sy1) of an RGBA image into `out` at `to`, opaque:
 * the area average that scaling a frame down here and tiling frames into a grid (frame-tiling.ts) both use.
 */
export function averageInto(
  out: Uint8Array,
  to: number,
  image: { width: number; data: ArrayLike<number> },
  sx0: number,
  sx1: number,
  sy0: number,
  sy1: number,
): void {
  let r = 0;
  let g = 0;
  let b = 0;
  for (let sy = sy0; sy < sy1; sy++) {
    for (let sx = sx0; sx < sx1; sx++) {
      const at = (sy * image.width + sx) * 4;
      r += image.data[at]!;
      g += image.data[at + 1]!;
      b += image.data[at + 2]!;
    }
  }
  const n = (sy1 - sy0) * (sx1 - sx0);
  out[to] = Math.round(r / n);
  out[to + 1] = Math.round(g / n);
  out[to + 2] = Math.round(b / n);
  out[to + 3] = 255;
}

/** The frame's bytes as sent: scaled to `maxSide` when one is asked for. */
export function frameAsSent(bytes: Buffer, maxSide: number | undefined): Buffer {
  return maxSide ? scaleJpegToLongestSide(bytes, maxSide) : bytes;
}

/** What the response cache keys a frame by: its hash, and the size it is sent at when scaled. */
export function sentFrameHash(sha256: string, maxSide: number | undefined): string {
  return maxSide ? `${sha256}@${maxSide}px` : sha256;
}

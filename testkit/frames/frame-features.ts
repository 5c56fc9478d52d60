import { computeLumaFeatures, lumaOfRgba } from "../../lib/frames/frame-features";

/** computeLumaFeatures of RGBA pixels through lumaOfRgba (see its caveat): the features of a frame a test draws. */
export function computeFrameFeatures(
  rgba: Uint8ClampedArray | Uint8Array,
  width: number,
  height: number,
): Float32Array {
  if (rgba.length !== width * height * 4)
    throw new RangeError(`Expected ${width * height * 4} RGBA bytes for ${width}×${height}, got ${rgba.length}.`);
  return computeLumaFeatures({ samples: lumaOfRgba(rgba, width, height), width, height });
}

/**
 * A frame's output size: what frame planning promises and every decoder (WebCodecs, ffmpeg.wasm, native ffmpeg)
 * scales to, so they all give frames of the same size.
 */

/** Scales (width, height) so the longest side is at most maxSide, keeping aspect, never upscaling. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

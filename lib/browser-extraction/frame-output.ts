// Worker-side helpers shared by both decoders: output size and JPEG encoding. Both decoders end with the
// frame at its output size on an OffscreenCanvas, so JPEG quality semantics are the same whichever decoder
// produced the pixels. (Features come from each decoder's luma plane instead: lib/frames/frame-features.ts.)

/** Scales (width, height) so the longest side is at most maxSide, keeping aspect, never upscaling. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** canvas.convertToBlob quality: accepts 0..1, or a percentage above 1. */
export function normalizeJpegQuality(quality: number): number {
  if (!Number.isFinite(quality) || quality <= 0) return 0.85;
  return Math.min(1, quality > 1 ? quality / 100 : quality);
}

export async function encodeJpeg(canvas: OffscreenCanvas, quality: number): Promise<Blob> {
  return canvas.convertToBlob({ type: "image/jpeg", quality: normalizeJpegQuality(quality) });
}

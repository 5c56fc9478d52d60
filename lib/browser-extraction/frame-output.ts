// Worker-side helpers shared by both decoders: JPEG encoding (the output size: lib/frames/frame-size.ts). Both
// decoders end with the frame at its output size on an OffscreenCanvas, so JPEG quality semantics are the same whichever decoder
// produced the pixels. (Features come from each decoder's luma plane instead: lib/frames/frame-features.ts.)

/** canvas.convertToBlob quality: accepts 0..1, or a percentage above 1. */
export function normalizeJpegQuality(quality: number): number {
  if (!Number.isFinite(quality) || quality <= 0) return 0.85;
  return Math.min(1, quality > 1 ? quality / 100 : quality);
}

export async function encodeJpeg(canvas: OffscreenCanvas, quality: number): Promise<Blob> {
  return canvas.convertToBlob({ type: "image/jpeg", quality: normalizeJpegQuality(quality) });
}

// Worker-side helpers shared by both decoders: output size, JPEG encoding and frame features.
// Both decoders end with the frame at its output size on an OffscreenCanvas, so JPEG quality semantics
// and features are identical whichever decoder produced the pixels.
import { computeFrameFeatures } from "../frames/frame-features";

/** Longest side of the canvas the features are computed on. */
export const FEATURE_SIDE = 64;

/** Scales (width, height) so the longest side is at most maxSide, keeping aspect, never upscaling. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Scales (width, height) so the longest side is exactly `side` (up or down). */
export function fitExactly(width: number, height: number, side: number): { width: number; height: number } {
  const scale = side / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** canvas.convertToBlob quality: accepts 0..1, or a percentage above 1. */
export function normalizeJpegQuality(quality: number): number {
  if (!Number.isFinite(quality) || quality <= 0) return 0.85;
  return Math.min(1, quality > 1 ? quality / 100 : quality);
}

let featureCanvas: OffscreenCanvas | null = null;
let featureContext: OffscreenCanvasRenderingContext2D | null = null;

/**
 * Draws `source` (already at output size) into a canvas whose longest side is FEATURE_SIDE and returns
 * computeFrameFeatures of its pixels. `displayWidth/Height` are the frame's display proportions, so the
 * feature canvas is the same size whatever maxSide was.
 */
export function featuresOf(source: OffscreenCanvas, displayWidth: number, displayHeight: number): Float32Array {
  const { width, height } = fitExactly(displayWidth, displayHeight, FEATURE_SIDE);
  if (!featureCanvas || !featureContext) {
    featureCanvas = new OffscreenCanvas(width, height);
    featureContext = featureCanvas.getContext("2d", { willReadFrequently: true, alpha: false });
    if (!featureContext) throw new Error("OffscreenCanvas 2D context unavailable");
  }
  if (featureCanvas.width !== width || featureCanvas.height !== height) {
    featureCanvas.width = width;
    featureCanvas.height = height;
  }
  featureContext.imageSmoothingEnabled = true;
  featureContext.imageSmoothingQuality = "high";
  featureContext.drawImage(source, 0, 0, source.width, source.height, 0, 0, width, height);
  const pixels = featureContext.getImageData(0, 0, width, height).data;
  return computeFrameFeatures(pixels, width, height);
}

export async function encodeJpeg(canvas: OffscreenCanvas, quality: number): Promise<Blob> {
  return canvas.convertToBlob({ type: "image/jpeg", quality: normalizeJpegQuality(quality) });
}

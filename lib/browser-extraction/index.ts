// Browser-only frame extraction (Web Worker + WebCodecs/mediabunny, ffmpeg.wasm fallback).
// Import from client components only.
export { FrameExtractor } from "./frame-extractor";
export { ExtractionError, type DecoderName } from "./types";

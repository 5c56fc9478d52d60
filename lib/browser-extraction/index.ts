// Browser-only frame extraction (Web Worker + WebCodecs/mediabunny, ffmpeg.wasm fallback).
// Import from client components only.
export { FrameExtractor, type FrameExtractorOptions, type SampleRequestOptions } from "./frame-extractor";
export { ExtractionError, type DecoderName, type ExtractionErrorCode, type SampledFrame, type VideoProbe } from "./types";

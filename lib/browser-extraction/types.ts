// Shared types of the browser frame-extraction layer: the public result types, the error class, and the
// message protocol between the main-thread wrapper (frame-extractor.ts) and its worker.

export type DecoderName = "webcodecs" | "ffmpeg.wasm";

export interface VideoProbe {
  /** End of the last video frame (or of the file), seconds. */
  durationS: number;
  /** Average frame rate from packet statistics; null when unknown. */
  fps: number | null;
  /** Display size (square pixels, after rotation metadata). */
  width: number;
  height: number;
  /** Normalized codec id: "avc", "hevc", "vp8", "vp9", "av1", or the demuxer's own name for others. */
  codec: string | null;
  /** Normalized container id: "mp4", "mov", "webm", "mkv", "mpegts", "ogg", "avi", ... */
  container: string | null;
  /** Number of video frames (packets) when it could be counted cheaply; null otherwise. */
  frameCount: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
}

export interface SampledFrame {
  /** The requested timestamp (seconds) this frame answers. */
  timestampS: number;
  /** Presentation timestamp of the frame actually shown at timestampS (start of its display interval). */
  frameTimestampS: number;
  jpeg: Blob;
  /** Size of the JPEG (longest side ≤ maxSide, aspect kept, never upscaled). */
  width: number;
  height: number;
  /** computeLumaFeatures() of the decoded frame's luma plane (lib/frames/frame-features.ts). */
  features: Float32Array;
}

/** One frame of a uniform set: picked by its index among the video's frames, not by a time. */
export interface IndexedFrame {
  /** The frame's index among the video's decoded frames (0-based, presentation order). */
  index: number;
  /** index / avgFps: the time VBench-2.0 gives the frame (lib/frames/vbench-uniform.ts). */
  timestampS: number;
  /** The frame's own presentation timestamp, for comparison. */
  frameTimestampS: number;
  jpeg: Blob;
  width: number;
  height: number;
}

/** A uniform set as a decoder took it: VBench-2.0's frames of a video of `totalFrames` frames at `avgFps`. */
export interface UniformSample {
  totalFrames: number;
  avgFps: number;
  /** Each picked frame once, ascending by index. */
  frames: IndexedFrame[];
}

/** A key-frame set's sampled frames, picked by frame index (keyFrameSampling in lib/frames/plan-frame-set.ts). */
export interface KeyFrameSetSample {
  /** The duration the frames' times give (keyFrameSampling): what the default key-frame count is taken from. */
  durationS: number;
  /** The video's decoded frames, as this decoder counted them. */
  frameCount: number;
  /** One per t_k = k / sampleFps, in order; `frameIndex` is the decoded frame shown then. */
  frames: (WorkerFrame & { frameIndex: number })[];
}

export type ExtractionErrorCode =
  "not_a_video" | "audio_only" | "corrupt" | "unsupported_codec" | "cancelled" | "internal";

export class ExtractionError extends Error {
  readonly code: ExtractionErrorCode;
  constructor(code: ExtractionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ExtractionError";
    this.code = code;
  }
}

export interface SampleOptions {
  /** Longest side of the output JPEG in pixels (frames are never upscaled). */
  maxSide: number;
  /** JPEG quality in (0, 1] like canvas.toBlob; values above 1 are read as percent (e.g. 85). */
  jpegQuality: number;
  forceDecoder?: DecoderName;
}

// ---- worker protocol ----

export interface WorkerConfig {
  /** Absolute URL of the folder holding core/ and core-mt/ (public/ffmpeg), e.g. "https://host/ffmpeg". */
  ffmpegBaseUrl: string;
}

export type WorkerRequest =
  | { id: number; kind: "probe"; file: Blob; config: WorkerConfig; forceDecoder?: DecoderName }
  | { id: number; kind: "sample"; file: Blob; config: WorkerConfig; timestampsS: number[]; options: SampleOptions }
  | { id: number; kind: "sample-uniform"; file: Blob; config: WorkerConfig; count: number; options: SampleOptions }
  | {
      id: number;
      kind: "sample-key-frame-set";
      file: Blob;
      config: WorkerConfig;
      sampleFps: number;
      options: SampleOptions;
    };

export interface WorkerFrame {
  timestampS: number;
  frameTimestampS: number;
  jpeg: Blob;
  width: number;
  height: number;
  features: Float32Array;
}

export type WorkerResponse =
  | { id: 0; type: "ready" }
  | { id: number; type: "progress"; done: number; total: number }
  | { id: number; type: "probe"; probe: VideoProbe; decoder: DecoderName }
  | { id: number; type: "sample"; frames: WorkerFrame[]; decoder: DecoderName }
  | { id: number; type: "sample-uniform"; sample: UniformSample; decoder: DecoderName; decoderVersion: string }
  | {
      id: number;
      type: "sample-key-frame-set";
      sample: KeyFrameSetSample;
      decoder: DecoderName;
      decoderVersion: string;
    }
  | { id: number; type: "error"; code: ExtractionErrorCode; message: string };

/// <reference lib="webworker" />
// The extraction worker: one request at a time (the main-thread wrapper serializes them). WebCodecs via
// mediabunny first; ffmpeg.wasm when mediabunny cannot demux the file, WebCodecs cannot decode its video
// track, or the caller forces it. Cancellation = the wrapper terminates this worker.
import {
  audioOnlyError,
  describe,
  emptyFileError,
  isExtractionError,
  notAVideoError,
  sniff,
  unsupportedCodecError,
} from "./diagnose";
import {
  ffmpegWasmVersion,
  probeWithFfmpeg,
  sampleKeyFrameSetWithFfmpeg,
  sampleUniformWithFfmpeg,
  sampleWithFfmpeg,
} from "./ffmpeg-backend";
import type {
  DecoderName,
  KeyFrameSetSample,
  UniformSample,
  VideoProbe,
  WorkerFrame,
  WorkerRequest,
  WorkerResponse,
} from "./types";
import { ExtractionError } from "./types";
import {
  NeedsFallback,
  probeWithWebCodecs,
  sampleKeyFrameSetWithWebCodecs,
  sampleUniformWithWebCodecs,
  sampleWithWebCodecs,
} from "./webcodecs-backend";

const scope = self as unknown as DedicatedWorkerGlobalScope;

function post(message: WorkerResponse, transfer: Transferable[] = []) {
  scope.postMessage(message, transfer);
}

/** Text files and other obviously non-media files are rejected without loading ffmpeg.wasm (32 MB). */
async function rejectObviousNonMedia(file: Blob): Promise<void> {
  const sniffed = await sniff(file);
  if (sniffed.kind === "text" || sniffed.kind === "image") throw notAVideoError(sniffed);
}

async function withFallback<T>(
  file: Blob,
  forceDecoder: DecoderName | undefined,
  webcodecs: () => Promise<T>,
  ffmpeg: () => Promise<T>,
): Promise<{ value: T; decoder: DecoderName }> {
  if (file.size === 0) throw emptyFileError();
  if (forceDecoder === "ffmpeg.wasm") {
    await rejectObviousNonMedia(file);
    return { value: await ffmpeg(), decoder: "ffmpeg.wasm" };
  }
  try {
    return { value: await webcodecs(), decoder: "webcodecs" };
  } catch (error) {
    if (!(error instanceof NeedsFallback)) throw error;
    if (forceDecoder === "webcodecs") {
      if (error.reason === "decode") throw unsupportedCodecError(error.codec);
      const sniffed = await sniff(file);
      if (sniffed.kind === "audio") throw audioOnlyError();
      if (sniffed.kind !== "video-container") throw notAVideoError(sniffed);
      throw new ExtractionError(
        "unsupported_codec",
        `This browser cannot read ${sniffed.name} files without the built-in decoder (${error.message}).`,
      );
    }
    if (error.reason === "demux") await rejectObviousNonMedia(file);
    return { value: await ffmpeg(), decoder: "ffmpeg.wasm" };
  }
}

function validateTimestamps(timestamps: number[]) {
  for (const t of timestamps) {
    if (typeof t !== "number" || !Number.isFinite(t) || t < 0)
      throw new ExtractionError("internal", `Invalid timestamp ${String(t)}: timestamps must be finite numbers ≥ 0.`);
  }
}

/**
 * The browser and its version, e.g. "Chrome 156.0.0.0" (Chromium reduces its user agent to the major version):
 * WebCodecs decodes with the browser's own decoders.
 */
function browserVersion(): string {
  const agent = scope.navigator.userAgent;
  const match = /(Firefox|Edg|OPR|Chrome|Version)\/(\S+)/.exec(agent);
  if (!match) return agent.slice(0, 30);
  const name =
    match[1] === "Version" ? "Safari" : match[1] === "Edg" ? "Edge" : match[1] === "OPR" ? "Opera" : match[1]!;
  return `${name} ${match[2]}`;
}

/** What a frame set records as its decoder's build: the browser's for WebCodecs, ffmpeg's for the wasm core. */
async function versionOf(decoder: DecoderName, ffmpegBaseUrl: string): Promise<string> {
  return decoder === "ffmpeg.wasm" ? `ffmpeg ${await ffmpegWasmVersion(ffmpegBaseUrl)}` : browserVersion();
}

scope.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  const { id, file, config } = request;
  try {
    if (request.kind === "probe") {
      const { value, decoder } = await withFallback<VideoProbe>(
        file,
        request.forceDecoder,
        () => probeWithWebCodecs(file),
        () => probeWithFfmpeg(file, config.ffmpegBaseUrl),
      );
      post({ id, type: "probe", probe: value, decoder });
    } else if (request.kind === "sample-key-frame-set") {
      if (!(Number.isFinite(request.sampleFps) && request.sampleFps > 0))
        throw new ExtractionError(
          "internal",
          `Invalid sampling rate ${String(request.sampleFps)}: it must be a positive number.`,
        );
      const progress = (done: number, total: number) => post({ id, type: "progress", done, total });
      const { value, decoder } = await withFallback<KeyFrameSetSample>(
        file,
        request.options.forceDecoder,
        () => sampleKeyFrameSetWithWebCodecs(file, request.sampleFps, request.options, progress),
        () => sampleKeyFrameSetWithFfmpeg(file, request.sampleFps, request.options, config.ffmpegBaseUrl, progress),
      );
      const decoderVersion = await versionOf(decoder, config.ffmpegBaseUrl);
      const transfer = [...new Set(value.frames.map((f) => f.features.buffer as ArrayBuffer))];
      post({ id, type: "sample-key-frame-set", sample: value, decoder, decoderVersion }, transfer);
    } else if (request.kind === "sample-uniform") {
      if (!(Number.isInteger(request.count) && request.count >= 1))
        throw new ExtractionError(
          "internal",
          `Invalid frame count ${String(request.count)}: it must be an integer ≥ 1.`,
        );
      const progress = (done: number, total: number) => post({ id, type: "progress", done, total });
      const { value, decoder } = await withFallback<UniformSample>(
        file,
        request.options.forceDecoder,
        () => sampleUniformWithWebCodecs(file, request.count, request.options, progress),
        () => sampleUniformWithFfmpeg(file, request.count, request.options, config.ffmpegBaseUrl, progress),
      );
      post({
        id,
        type: "sample-uniform",
        sample: value,
        decoder,
        decoderVersion: await versionOf(decoder, config.ffmpegBaseUrl),
      });
    } else {
      validateTimestamps(request.timestampsS);
      const progress = (done: number, total: number) => post({ id, type: "progress", done, total });
      const { value, decoder } = await withFallback<WorkerFrame[]>(
        file,
        request.options.forceDecoder,
        () => sampleWithWebCodecs(file, request.timestampsS, request.options, progress),
        () => sampleWithFfmpeg(file, request.timestampsS, request.options, config.ffmpegBaseUrl, progress),
      );
      const transfer = [...new Set(value.map((f) => f.features.buffer as ArrayBuffer))];
      post({ id, type: "sample", frames: value, decoder }, transfer);
    }
  } catch (error) {
    if (isExtractionError(error)) post({ id, type: "error", code: error.code, message: error.message });
    else
      post({
        id,
        type: "error",
        code: "internal",
        message: `Frame extraction failed unexpectedly: ${describe(error)}`,
      });
  }
};

// Tells the wrapper the script loaded and runs (a worker that errors before this never started).
post({ id: 0, type: "ready" });

// Browser entry of the extraction test/benchmark harness (bundled by esbuild, see harness-server.ts).
// Exposes window.harness so Playwright can drive lib/browser-extraction without the Next.js app.
import { FrameExtractor } from "../../lib/browser-extraction/frame-extractor";
import { ExtractionError, type DecoderName } from "../../lib/browser-extraction/types";

export interface HarnessFrame {
  timestampS: number;
  frameTimestampS: number;
  width: number;
  height: number;
  jpegBytes: number;
  jpegType: string;
  features: number[];
  /** The JPEG decoded by the browser, then downscaled to grayWidth × grayHeight 8-bit luma. */
  gray: number[];
  /** Natural size of the decoded JPEG. */
  decodedWidth: number;
  decodedHeight: number;
}

export type HarnessResult<T> =
  { ok: true; value: T; ms: number } | { ok: false; code: string; message: string; name: string; ms: number };

const extractor = new FrameExtractor({
  // A classic worker, like the one Turbopack emits (see harness-server.ts).
  createWorker: () => new Worker("/bundle/extract-frames.worker.js", { name: "frame-extraction" }),
  ffmpegBaseUrl: "/ffmpeg",
});

const files = new Map<string, File>();
async function load(url: string): Promise<File> {
  let file = files.get(url);
  if (!file) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`fetch ${url}: ${response.status}`);
    file = new File([await response.blob()], url.split("/").pop() ?? "video", {
      type: response.headers.get("content-type") ?? "",
    });
    files.set(url, file);
  }
  return file;
}

async function settle<T>(fn: () => Promise<T>): Promise<HarnessResult<T>> {
  const start = performance.now();
  try {
    const value = await fn();
    return { ok: true, value, ms: performance.now() - start };
  } catch (error) {
    const ms = performance.now() - start;
    if (error instanceof ExtractionError)
      return { ok: false, code: error.code, message: error.message, name: error.name, ms };
    return {
      ok: false,
      code: "thrown",
      message: error instanceof Error ? error.message : String(error),
      name: error instanceof Error ? error.name : "",
      ms,
    };
  }
}

async function grayOf(jpeg: Blob, width: number, height: number) {
  const bitmap = await createImageBitmap(jpeg);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, width, height);
  const rgba = context.getImageData(0, 0, width, height).data;
  const gray: number[] = [];
  for (let i = 0; i < rgba.length; i += 4)
    gray.push(Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!));
  const size = { decodedWidth: bitmap.width, decodedHeight: bitmap.height };
  bitmap.close();
  return { gray, ...size };
}

const harness = {
  async preload(url: string) {
    await load(url);
  },
  probe(url: string, forceDecoder?: DecoderName) {
    return settle(async () => extractor.probe(await load(url), { forceDecoder }));
  },
  sample(
    url: string,
    timestampsS: number[],
    opts: { maxSide: number; jpegQuality: number; forceDecoder?: DecoderName; grayWidth?: number; grayHeight?: number },
  ) {
    return settle(async () => {
      const progress: [number, number][] = [];
      const file = await load(url);
      const { frames, decoder } = await extractor.sample(file, timestampsS, {
        ...opts,
        onProgress: (d, t) => progress.push([d, t]),
      });
      const out: HarnessFrame[] = [];
      for (const f of frames) {
        const g =
          opts.grayWidth && opts.grayHeight
            ? await grayOf(f.jpeg, opts.grayWidth, opts.grayHeight)
            : { gray: [], decodedWidth: 0, decodedHeight: 0 };
        out.push({
          timestampS: f.timestampS,
          frameTimestampS: f.frameTimestampS,
          width: f.width,
          height: f.height,
          jpegBytes: f.jpeg.size,
          jpegType: f.jpeg.type,
          features: Array.from(f.features),
          ...g,
        });
      }
      return { frames: out, decoder, progress };
    });
  },
  /** A key-frame set's sampled frames (FrameExtractor.sampleKeyFrameSet), without the JPEGs' bytes. */
  keyFrameSet(
    url: string,
    sampleFps: number,
    opts: { maxSide: number; jpegQuality: number; forceDecoder?: DecoderName },
  ) {
    return settle(async () => {
      const { sample, decoder, decoderVersion } = await extractor.sampleKeyFrameSet(await load(url), sampleFps, opts);
      const frames = sample.frames.map((f) => ({
        timestampS: f.timestampS,
        frameIndex: f.frameIndex,
        frameTimestampS: f.frameTimestampS,
        width: f.width,
        height: f.height,
        features: Array.from(f.features),
      }));
      return { durationS: sample.durationS, frameCount: sample.frameCount, frames, decoder, decoderVersion };
    });
  },
  /** Starts a sample and aborts it after `abortAfterMs` (0: before starting; -1: at the first progress event). */
  cancel(
    url: string,
    timestampsS: number[],
    opts: { maxSide: number; jpegQuality: number; forceDecoder?: DecoderName; abortAfterMs: number },
  ) {
    return settle(async () => {
      const file = await load(url);
      const controller = new AbortController();
      let settled = false;
      let progressAfterAbort = 0;
      // Whether the sample had settled when the first task queued after the abort ran: "promptly" as an order,
      // not a duration (null: never aborted).
      const afterAbort: { settledBeforeNextTask?: Promise<boolean> } = {};
      const abort = () => {
        if (controller.signal.aborted) return;
        controller.abort();
        afterAbort.settledBeforeNextTask = new Promise((resolve) => setTimeout(() => resolve(settled), 0));
      };
      if (opts.abortAfterMs === 0) abort();
      else if (opts.abortAfterMs > 0) setTimeout(abort, opts.abortAfterMs);
      const result = await extractor
        .sample(file, timestampsS, {
          ...opts,
          signal: controller.signal,
          onProgress: () => {
            if (controller.signal.aborted) progressAfterAbort++;
            else if (opts.abortAfterMs < 0) abort();
          },
        })
        .then(
          () => ({ code: "resolved", message: "" }),
          (error: unknown) => ({
            code: error instanceof ExtractionError ? error.code : "thrown",
            message: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => void (settled = true));
      return {
        ...result,
        settledBeforeNextTask: (await afterAbort.settledBeforeNextTask) ?? null,
        progressAfterAbort,
      };
    });
  },
  /** What a <video> element shows at each currentTime, downscaled to gray like sample() does. */
  async videoElementFrames(url: string, timestampsS: number[], grayWidth: number, grayHeight: number) {
    const video = document.createElement("video");
    video.muted = true;
    video.preload = "auto";
    video.src = url;
    document.body.append(video);
    try {
      await new Promise((resolve, reject) => {
        video.onloadeddata = resolve;
        video.onerror = () =>
          reject(new Error(`<video> could not load ${url}: ${video.error?.message ?? "unknown error"}`));
      });
      const canvas = new OffscreenCanvas(grayWidth, grayHeight);
      const context = canvas.getContext("2d", { willReadFrequently: true })!;
      context.imageSmoothingQuality = "high";
      const out: { currentTime: number; gray: number[] }[] = [];
      for (const t of timestampsS) {
        const painted = new Promise<void>((resolve) => video.requestVideoFrameCallback(() => resolve()));
        await new Promise((resolve) => {
          video.onseeked = resolve;
          video.currentTime = t;
        });
        await Promise.race([painted, new Promise((resolve) => setTimeout(resolve, 500))]);
        context.drawImage(video, 0, 0, grayWidth, grayHeight);
        const rgba = context.getImageData(0, 0, grayWidth, grayHeight).data;
        const gray: number[] = [];
        for (let i = 0; i < rgba.length; i += 4)
          gray.push(Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!));
        out.push({ currentTime: video.currentTime, gray });
      }
      return { duration: video.duration, frames: out };
    } finally {
      video.remove();
    }
  },
  crossOriginIsolated: () => globalThis.crossOriginIsolated === true,
};

(window as unknown as { harness: typeof harness }).harness = harness;
export type Harness = typeof harness;

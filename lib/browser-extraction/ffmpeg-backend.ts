// Fallback path: the ffmpeg.wasm Emscripten core, loaded directly inside the extraction worker.
//
// Why not @ffmpeg/ffmpeg's FFmpeg class: it runs the core in a second worker of its own (nested in ours)
// and proxies every call and every output file through messages. Loading the core's factory here instead
// lets us (1) mount the user's File read-only with WORKERFS (no copy, any size), (2) run ffprobe and ffmpeg
// synchronously next to the rest of the pipeline, taking raw RGBA out of ffmpeg and encoding JPEGs with
// OffscreenCanvas like the WebCodecs path (same quality semantics and features; it also sidesteps core
// 0.12.10's crash when writing several JPEGs without -huffman default), and (3) cancel by terminating the
// one worker.
//
// The core files are served from public/ffmpeg/ (copied there by scripts/copy-browser-assets.mjs) and
// imported at run time by URL, never bundled. The multi-thread core needs SharedArrayBuffer, so it is used
// only when the page is cross-origin isolated (COOP/COEP headers); otherwise the single-thread core.
//
// What ffprobe and ffmpeg are asked, and how their answers are read, is shared with native ffmpeg in Node
// (lib/frames/ffmpeg-sampling.ts), so both pick the same frames at the same size and colours.
import {
  DAMAGE_PATTERN,
  diagnoseFailure,
  inspectionArgs,
  keyIndexBefore,
  lastMeaningfulLine,
  lumaOutput,
  lumaOutputFeatures,
  lumaPlaneBytes,
  planFrameSampling,
  planSampling,
  probeFromInspection,
  readInspection,
  segmentDecoding,
  vbenchFrameCountAndRate,
  type FfmpegInfo,
  type SamplingPlan,
} from "./ffmpeg-sampling";
import { keyFrameSampling } from "../frames/plan-frame-set";
import { uniformFrameSetFrames } from "../frames/vbench-uniform";
import { corruptError, describe } from "./diagnose";
import { fitWithin } from "../frames/frame-size";
import { encodeJpeg } from "./frame-output";
import type { KeyFrameSetSample, SampleOptions, UniformSample, VideoProbe, WorkerFrame } from "./types";
import { ExtractionError } from "./types";

interface EmscriptenFS {
  mkdir(path: string): void;
  mount(type: unknown, options: unknown, mountpoint: string): void;
  unmount(mountpoint: string): void;
  readFile(path: string): Uint8Array;
  unlink(path: string): void;
  readdir(path: string): string[];
  filesystems: Record<string, unknown>;
}

interface FFmpegCore {
  FS: EmscriptenFS;
  exec(...args: string[]): number;
  ffprobe(...args: string[]): number;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  setTimeout(ms: number): void;
  reset(): void;
  ret: number;
}

type CoreFactory = (module: Record<string, unknown>) => Promise<FFmpegCore>;

let corePromise: Promise<FFmpegCore> | null = null;

/**
 * The multi-thread core needs SharedArrayBuffer (cross-origin isolation) and starts its threads from
 * core-mt/ffmpeg-core.worker.js, which Chromium refuses under isolation unless that script is served with
 * a COEP header; a refused thread worker would hang the core, so check the header first.
 */
async function ffmpegVariant(baseUrl: string): Promise<"core" | "core-mt"> {
  const isolated =
    typeof crossOriginIsolated !== "undefined" && crossOriginIsolated && typeof SharedArrayBuffer === "function";
  if (!isolated) return "core";
  try {
    const response = await fetch(`${baseUrl}/core-mt/ffmpeg-core.worker.js`, { method: "HEAD", cache: "no-store" });
    const coep = response.headers.get("cross-origin-embedder-policy") ?? "";
    if (response.ok && /require-corp|credentialless/.test(coep)) return "core-mt";
    console.warn(
      `[frame-extraction] using the single-thread ffmpeg core: ${baseUrl}/core-mt/ffmpeg-core.worker.js is not served with Cross-Origin-Embedder-Policy (got "${coep}")`,
    );
  } catch {
    /* fall through */
  }
  return "core";
}

async function loadCore(baseUrl: string): Promise<FFmpegCore> {
  const variant = await ffmpegVariant(baseUrl.replace(/\/$/, ""));
  const dir = `${baseUrl.replace(/\/$/, "")}/${variant}`;
  const coreURL = `${dir}/ffmpeg-core.js`;
  let factory: CoreFactory;
  try {
    const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ coreURL)) as {
      default: CoreFactory;
    };
    factory = mod.default;
  } catch (error) {
    throw new ExtractionError(
      "internal",
      `Could not load the built-in video decoder from ${coreURL} (${describe(error)}). Run "npm install" so public/ffmpeg/ is populated.`,
    );
  }
  // The core's locateFile reads the wasm/worker URLs from this fragment (the same convention @ffmpeg/ffmpeg uses).
  const urls = btoa(JSON.stringify({ wasmURL: `${dir}/ffmpeg-core.wasm`, workerURL: `${dir}/ffmpeg-core.worker.js` }));
  return factory({ mainScriptUrlOrBlob: `${coreURL}#${urls}` });
}

function getCore(baseUrl: string): Promise<FFmpegCore> {
  corePromise ??= loadCore(baseUrl).catch((error) => {
    corePromise = null;
    throw error;
  });
  return corePromise;
}

interface RunResult {
  ret: number;
  stdout: string[];
  stderr: string[];
}

function run(core: FFmpegCore, tool: "ffmpeg" | "ffprobe", args: string[]): RunResult {
  const stdout: string[] = [];
  const stderr: string[] = [];
  core.setLogger(({ type, message }) => (type === "stdout" ? stdout : stderr).push(message));
  core.setTimeout(-1);
  try {
    if (tool === "ffmpeg") core.exec(...args);
    else core.ffprobe(...args);
  } catch (error) {
    // A wasm trap (not ffmpeg's normal exit) may leave the core unusable: load a fresh one next time.
    stderr.push(describe(error));
    corePromise = null;
  }
  const ret = core.ret;
  core.reset();
  core.setLogger(() => {});
  return { ret, stdout, stderr };
}

const INPUT_DIR = "/input";
const OUTPUT_DIR = "/output";

/** Mounts `file` read-only at /input/<name> for the duration of `fn`. */
async function withMountedFile<T>(core: FFmpegCore, file: Blob, fn: (path: string) => Promise<T>): Promise<T> {
  const fs = core.FS;
  for (const dir of [INPUT_DIR, OUTPUT_DIR]) {
    try {
      fs.mkdir(dir);
    } catch {
      /* exists */
    }
  }
  const original = (file as File).name ?? "";
  const ext = /\.[A-Za-z0-9]{1,5}$/.exec(original)?.[0] ?? "";
  const name = `video${ext.toLowerCase()}`;
  fs.mount(fs.filesystems.WORKERFS, { blobs: [{ name, data: file }] }, INPUT_DIR);
  try {
    return await fn(`${INPUT_DIR}/${name}`);
  } finally {
    try {
      fs.unmount(INPUT_DIR);
    } catch {
      /* already unmounted */
    }
    for (const leftover of safeReaddir(fs, OUTPUT_DIR)) fs.unlink(`${OUTPUT_DIR}/${leftover}`);
  }
}

function safeReaddir(fs: EmscriptenFS, dir: string): string[] {
  try {
    return fs.readdir(dir).filter((n) => n !== "." && n !== "..");
  } catch {
    return [];
  }
}

/** One ffprobe pass (see inspectionArgs): format, streams and every packet's timestamps. */
async function inspect(core: FFmpegCore, file: Blob, path: string): Promise<FfmpegInfo> {
  const result = run(core, "ffprobe", inspectionArgs(path));
  return readInspection(file, result.stdout.join("\n"), result.stderr);
}

export async function probeWithFfmpeg(file: Blob, baseUrl: string): Promise<VideoProbe> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => probeFromInspection(await inspect(core, file, path)));
}

export async function sampleWithFfmpeg(
  file: Blob,
  timestampsS: number[],
  options: SampleOptions,
  baseUrl: string,
  onProgress: (done: number, total: number) => void,
): Promise<WorkerFrame[]> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => {
    const info = await inspect(core, file, path);
    const { width, height } = fitWithin(info.display.width, info.display.height, options.maxSide);
    const plan = planSampling(info, timestampsS, maxFramesPerSegment(info, width, height));
    const decoded = await decodePlannedFrames(core, file, path, info, plan, options, onProgress);
    return timestampsS.map((timestampS, i) => {
      const index = plan.requestedIndex[i]!;
      return { timestampS, frameTimestampS: info.frames[index]!.pts, width, height, ...decoded.get(index)! };
    });
  });
}

/** A key-frame set's sampled frames at `sampleFps`, picked by frame index (keyFrameSampling), as native ffmpeg does in Node. */
export async function sampleKeyFrameSetWithFfmpeg(
  file: Blob,
  sampleFps: number,
  options: SampleOptions,
  baseUrl: string,
  onProgress: (done: number, total: number) => void,
): Promise<KeyFrameSetSample> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => {
    const info = await inspect(core, file, path);
    const { width, height } = fitWithin(info.display.width, info.display.height, options.maxSide);
    const { durationS, samples } = keyFrameSampling(
      info.frames.map((frame) => frame.pts),
      sampleFps,
    );
    const plan = planFrameSampling(
      info,
      samples.map((sample) => sample.frameIndex),
      maxFramesPerSegment(info, width, height),
    );
    const decoded = await decodePlannedFrames(core, file, path, info, plan, options, onProgress);
    return {
      durationS,
      frameCount: info.frames.length,
      frames: samples.map(({ timestampS, frameIndex }) => ({
        timestampS,
        frameIndex,
        frameTimestampS: info.frames[frameIndex]!.pts,
        width,
        height,
        ...decoded.get(frameIndex)!,
      })),
    };
  });
}

let ffmpegVersion: string | null = null;

/**
 * The core's ffmpeg version ("5.1.4"), asked once per worker; recorded with the frame set. Asked of a core of
 * its own, dropped afterwards: a core that ran `-version` fails the next file it is given.
 */
export async function ffmpegWasmVersion(baseUrl: string): Promise<string> {
  if (ffmpegVersion) return ffmpegVersion;
  const core = await loadCore(baseUrl);
  const result = run(core, "ffmpeg", ["-hide_banner", "-version"]);
  const line = [...result.stdout, ...result.stderr].find((entry) => /ffmpeg version/i.test(entry)) ?? "";
  ffmpegVersion = /ffmpeg version (\S+)/i.exec(line)?.[1] ?? "unknown";
  return ffmpegVersion;
}

/** VBench-2.0's uniform set of `count` frames (uniformFrameSetFrames), each decoded by its index, as native ffmpeg does in Node. */
export async function sampleUniformWithFfmpeg(
  file: Blob,
  count: number,
  options: SampleOptions,
  baseUrl: string,
  onProgress: (done: number, total: number) => void,
): Promise<UniformSample> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => {
    const info = await inspect(core, file, path);
    const { width, height } = fitWithin(info.display.width, info.display.height, options.maxSide);
    const { totalFrames, avgFps } = vbenchFrameCountAndRate(info);
    const picked = uniformFrameSetFrames(totalFrames, avgFps, count);
    const plan = planFrameSampling(
      info,
      picked.map(({ index }) => index),
      maxFramesPerSegment(info, width, height),
    );
    const decoded = await decodePlannedFrames(core, file, path, info, plan, options, onProgress);
    return {
      totalFrames,
      avgFps,
      frames: picked.map(({ index, timestampS }) => ({
        index,
        timestampS,
        frameTimestampS: info.frames[index]!.pts,
        width,
        height,
        jpeg: decoded.get(index)!.jpeg,
      })),
    };
  });
}

/** Raw RGBA output kept in the in-memory FS per run. */
const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;

/** Frames per ffmpeg run so its RGBA frames and luma planes (lumaPlaneBytes) stay within MAX_SEGMENT_BYTES. */
function maxFramesPerSegment(info: FfmpegInfo, width: number, height: number): number {
  return Math.max(1, Math.floor(MAX_SEGMENT_BYTES / (width * height * 4 + lumaPlaneBytes(lumaOutput(info)))));
}

/** Each planned frame (by its index into info.frames) as a JPEG of longest side ≤ maxSide, with its features. */
async function decodePlannedFrames(
  core: FFmpegCore,
  file: Blob,
  path: string,
  info: FfmpegInfo,
  plan: SamplingPlan,
  options: SampleOptions,
  onProgress: (done: number, total: number) => void,
): Promise<Map<number, { jpeg: Blob; features: Float32Array }>> {
  const frames = info.frames;
  const { width, height } = fitWithin(info.display.width, info.display.height, options.maxSide);
  const frameBytes = width * height * 4;
  const { requestedIndex, segments, epsilon } = plan;
  const out = `${OUTPUT_DIR}/frames.rgba`;
  const lumaOut = `${OUTPUT_DIR}/frames.luma`;
  const readOutput = (file: string) => {
    try {
      const data = core.FS.readFile(file);
      core.FS.unlink(file);
      return data;
    } catch {
      return null;
    }
  };
  const decodeSegment = (segment: number[], seek: boolean) => {
    const { inputArgs, graph, luma } = segmentDecoding(info, path, segment, seek, epsilon, { width, height });
    const count = String(segment.length);
    const args = [...inputArgs, "-filter_complex", graph];
    args.push("-map", "[frame]", "-fps_mode", "passthrough", "-frames:v", count, "-f", "rawvideo", "-y", out);
    args.push("-map", "[luma]", "-fps_mode", "passthrough", "-frames:v", count, "-f", "rawvideo", "-y", lumaOut);
    const result = run(core, "ffmpeg", args);
    const data = readOutput(out);
    const planes = readOutput(lumaOut);
    const planeBytes = lumaPlaneBytes(luma);
    // A frame counts as decoded when both outputs hold it.
    const decodedCount = Math.min(
      data ? Math.floor(data.length / frameBytes) : 0,
      planes ? Math.floor(planes.length / planeBytes) : 0,
    );
    return { result, data, planes, luma, planeBytes, count: decodedCount };
  };

  const total = requestedIndex.length;
  const results = new Map<number, { jpeg: Blob; features: Float32Array }>();
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext("2d", { alpha: false });
  if (!context) throw new ExtractionError("internal", "OffscreenCanvas 2D context unavailable in the worker");
  let done = 0;

  for (const segment of segments) {
    let decoded = decodeSegment(segment, true);
    // A demuxer that seeks imprecisely may land after the first wanted frame: decode from the start instead.
    if (decoded.count < segment.length && keyIndexBefore(info, segment[0]!) > 0)
      decoded = decodeSegment(segment, false);
    const { result, data, count } = decoded;
    if (result.ret !== 0 && count < segment.length) throw await diagnoseFailure(file, result.stderr);
    // ffmpeg conceals damaged data and carries on; the WebCodecs path fails on it, and so do we.
    const damage = result.stderr.find((l) => DAMAGE_PATTERN.test(l));
    if (damage) throw corruptError(`the video data could not be decoded (${lastMeaningfulLine([damage])})`);
    if (!data || count < segment.length) {
      const detail = lastMeaningfulLine(result.stderr);
      throw corruptError(
        `only ${count} of ${segment.length} frames near ${frames[segment[0]!]!.pts.toFixed(2)} s could be decoded${detail ? ` (${detail})` : ""}`,
      );
    }
    // Encode this run's frames before the next run, so at most one run of raw frames is held.
    for (const [k, index] of segment.entries()) {
      const pixels = new Uint8ClampedArray(data.buffer as ArrayBuffer, data.byteOffset + k * frameBytes, frameBytes);
      context.putImageData(new ImageData(pixels, width, height), 0, 0);
      const features = lumaOutputFeatures(
        decoded.luma,
        decoded.planes!.subarray(k * decoded.planeBytes, (k + 1) * decoded.planeBytes),
      );
      const jpeg = await encodeJpeg(canvas, options.jpegQuality);
      results.set(index, { jpeg, features });
      done += requestedIndex.filter((r) => r === index).length;
      onProgress(done, total);
    }
  }
  return results;
}

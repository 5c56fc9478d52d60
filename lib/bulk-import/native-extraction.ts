// Frame extraction in Node for `npm run import` and `npm run extract-worker`, with native ffmpeg/ffprobe
// when on PATH, else the ffmpeg.wasm core run in Node (ffmpeg-tools.ts); both get the same arguments and
// give the same frames. The same frames as the browser: ffprobe and ffmpeg get the arguments the
// ffmpeg.wasm path gives them (lib/frames/ffmpeg-sampling.ts), a key-frame set samples frames by index
// (keyFrameSampling), features come from each frame's own luma plane (computeLumaFeatures), and the same
// planFrameSet picks the key frames and clusters (a uniform set: the same VBench-2.0 frames by index,
// vbenchFrameCountAndRate and uniformFrameSetFrames).
import fs from "node:fs";
import { corruptError } from "../browser-extraction/diagnose";
import { normalizeJpegQuality } from "../browser-extraction/frame-output";
import { fitWithin } from "../frames/frame-size";
import { ExtractionError, type VideoProbe } from "../browser-extraction/types";
import {
  DAMAGE_PATTERN,
  diagnoseFailure,
  inspectionArgs,
  keyIndexBefore,
  lastMeaningfulLine,
  lumaOutputFeatures,
  lumaPlaneBytes,
  planFrameSampling,
  probeFromInspection,
  readInspection,
  segmentDecoding,
  vbenchFrameCountAndRate,
  type FfmpegInfo,
  type SamplingPlan,
} from "../browser-extraction/ffmpeg-sampling";
import {
  normaliseFrameSetParameters,
  type FrameManifest,
  type FrameSetParameters,
} from "../frames/frame-set-parameters";
import { framesToUpload } from "../frames/frames-to-upload";
import { keyFrameSampling, planFrameSet } from "../frames/plan-frame-set";
import { uniformFrameManifest, uniformFrameSetFrames } from "../frames/vbench-uniform";
import { defaultFfmpegTools, type FfmpegTools, type HeadlessDecoder } from "./ffmpeg-tools";

export interface InspectedVideo {
  info: FfmpegInfo;
  probe: VideoProbe;
}

/** ffprobe's look at a file (no decoding): its probe, or an ExtractionError saying why it is not a usable video. */
export async function inspectVideoFile(
  filePath: string,
  signal?: AbortSignal,
  tools: FfmpegTools = defaultFfmpegTools(),
): Promise<InspectedVideo> {
  const file = await fs.promises.stat(filePath);
  if (file.size === 0)
    throw new ExtractionError(
      "corrupt",
      "The file is damaged or truncated: it is empty (0 bytes). The upload or copy was probably interrupted.",
    );
  const result = await tools.withFile(filePath, (staged) =>
    staged.run("ffprobe", inspectionArgs(staged.input), signal),
  );
  const info = await readInspection(await fs.openAsBlob(filePath), result.stdout, result.stderr);
  return { info, probe: probeFromInspection(info) };
}

export interface NativeFrame {
  timestampS: number;
  frameTimestampS: number;
  jpeg: Uint8Array;
  width: number;
  height: number;
  features: Float32Array;
}

/**
 * ffmpeg's mjpeg quality scale (2 best … 31) nearest to a canvas JPEG quality (0–1): libjpeg's quality Q
 * scales its tables by 200 − 2Q percent above Q 50, ffmpeg's qscale by about 10·q percent; q 0.85 gives 3.
 */
export function mjpegQscale(jpegQuality: number): number {
  const percent = normalizeJpegQuality(jpegQuality) * 100;
  const tableScale = percent < 50 ? 5000 / percent : 200 - 2 * percent;
  return Math.min(31, Math.max(2, Math.round(tableScale / 10)));
}

/**
 * The frames a key-frame set samples at `sampleFps`, picked by frame index from the decoded frames' times
 * (keyFrameSampling, as every backend does), with the duration they give.
 */
export async function sampleKeyFrameSetFile(
  filePath: string,
  inspected: InspectedVideo,
  sampleFps: number,
  options: { maxSide: number; jpegQuality: number; signal?: AbortSignal; tools?: FfmpegTools },
): Promise<{ durationS: number; frames: (NativeFrame & { frameIndex: number })[] }> {
  const { durationS, samples } = keyFrameSampling(
    inspected.info.frames.map((frame) => frame.pts),
    sampleFps,
  );
  const plan = planFrameSampling(
    inspected.info,
    samples.map((sample) => sample.frameIndex),
    Number.MAX_SAFE_INTEGER,
  );
  const decoded = await decodePlannedFrames(filePath, inspected, plan, options);
  return {
    durationS,
    frames: samples.map(({ timestampS, frameIndex }) => ({
      timestampS,
      frameIndex,
      frameTimestampS: inspected.info.frames[frameIndex]!.pts,
      ...decoded.get(frameIndex)!,
    })),
  };
}

/**
 * Each planned frame (by its index into info.frames) as a JPEG of longest side ≤ maxSide, with its features (one
 * ffmpeg run per segment of nearby frames).
 */
export async function decodePlannedFrames(
  filePath: string,
  inspected: InspectedVideo,
  plan: SamplingPlan,
  options: { maxSide: number; jpegQuality: number; signal?: AbortSignal; tools?: FfmpegTools },
): Promise<Map<number, Omit<NativeFrame, "timestampS" | "frameTimestampS">>> {
  const { info } = inspected;
  const tools = options.tools ?? defaultFfmpegTools();
  const size = fitWithin(info.display.width, info.display.height, options.maxSide);
  const { segments, epsilon } = plan;
  const qscale = String(mjpegQscale(options.jpegQuality));
  return tools.withFile(filePath, async ({ input, scratch, read, run }) => {
    const decodeSegment = async (segmentNumber: number, segment: number[], seek: boolean) => {
      const { inputArgs, graph, luma } = segmentDecoding(info, input, segment, seek, epsilon, size);
      const jpegPattern = `${scratch}/s${segmentNumber}-%05d.jpg`;
      const lumaFile = `${scratch}/s${segmentNumber}.luma`;
      const count = String(segment.length);
      const args = [...inputArgs, "-filter_complex", graph];
      args.push(
        "-map",
        "[frame]",
        "-fps_mode",
        "passthrough",
        "-frames:v",
        count,
        "-pix_fmt",
        "yuvj420p",
        "-c:v",
        "mjpeg",
        "-q:v",
        qscale,
        ...tools.jpegArgs,
        "-start_number",
        "0",
        "-f",
        "image2",
        "-y",
        jpegPattern,
      );
      args.push("-map", "[luma]", "-fps_mode", "passthrough", "-frames:v", count, "-f", "rawvideo", "-y", lumaFile);
      const result = await run("ffmpeg", args, options.signal);
      const planes = await read(lumaFile);
      const planeBytes = lumaPlaneBytes(luma);
      return {
        result,
        planes,
        luma,
        planeBytes,
        count: planes ? Math.floor(planes.length / planeBytes) : 0,
        jpegPattern,
      };
    };

    const results = new Map<number, Omit<NativeFrame, "timestampS" | "frameTimestampS">>();
    for (const [segmentNumber, segment] of segments.entries()) {
      let decoded = await decodeSegment(segmentNumber, segment, true);
      // A demuxer that seeks imprecisely may land after the first wanted frame: decode from the start instead.
      if (decoded.count < segment.length && keyIndexBefore(info, segment[0]!) > 0)
        decoded = await decodeSegment(segmentNumber, segment, false);
      const { result, planes, count } = decoded;
      if (result.code !== 0 && count < segment.length)
        throw await diagnoseFailure(await fs.openAsBlob(filePath), result.stderr);
      // ffmpeg conceals damaged data and carries on; the browser fails on it, and so do we.
      const damage = result.stderr.find((line) => DAMAGE_PATTERN.test(line));
      if (damage) throw corruptError(`the video data could not be decoded (${lastMeaningfulLine([damage])})`);
      if (!planes || count < segment.length) {
        const detail = lastMeaningfulLine(result.stderr);
        throw corruptError(
          `only ${count} of ${segment.length} frames near ${info.frames[segment[0]!]!.pts.toFixed(2)} s could be decoded${detail ? ` (${detail})` : ""}`,
        );
      }
      for (const [k, index] of segment.entries()) {
        const bytes = planes.subarray(k * decoded.planeBytes, (k + 1) * decoded.planeBytes);
        const jpeg = await read(decoded.jpegPattern.replace("%05d", String(k).padStart(5, "0")));
        if (!jpeg)
          throw new ExtractionError(
            "internal",
            `ffmpeg decoded frame ${k} near ${info.frames[segment[0]!]!.pts.toFixed(2)} s but wrote no JPEG of it`,
          );
        results.set(index, {
          jpeg,
          width: size.width,
          height: size.height,
          features: lumaOutputFeatures(decoded.luma, bytes),
        });
      }
    }
    return results;
  });
}

export interface ExtractedFrames {
  parameters: FrameSetParameters;
  /** Key frames and their clusters only, renumbered from 0 (what the frame-set upload wants); a uniform set's frames under their frame indices. */
  manifest: FrameManifest;
  /** The JPEG of each manifest entry, by its name. */
  files: Map<string, Uint8Array>;
  /** Indices (among the sampled frames; in a uniform set, the frame indices) of the key frames. */
  keyFrameIndices: number[];
  decoder: HeadlessDecoder;
  /** The decoder's build, e.g. "ffmpeg 5.1.9" (FfmpegTools.version). */
  decoderVersion: string;
}

/**
 * Samples a video file, picks key frames and clusters with the browser's planFrameSet, and returns the
 * frames the judge will see, as the Import page uploads them. A uniform set takes VBench-2.0's frames by
 * index instead (uniformFrameSetFrames), as the browser does.
 */
export async function extractFrameSetFromFile(
  filePath: string,
  parametersInput: unknown,
  options: { inspected?: InspectedVideo; signal?: AbortSignal; tools?: FfmpegTools } = {},
): Promise<ExtractedFrames> {
  const parameters = normaliseFrameSetParameters(parametersInput);
  const tools = options.tools ?? defaultFfmpegTools();
  const inspected = options.inspected ?? (await inspectVideoFile(filePath, options.signal, tools));
  const sampling = { maxSide: parameters.maxSide, jpegQuality: parameters.jpegQuality, signal: options.signal, tools };
  if (parameters.mode === "uniform") {
    const { totalFrames, avgFps } = vbenchFrameCountAndRate(inspected.info);
    const frames = uniformFrameSetFrames(totalFrames, avgFps, parameters.count);
    const plan = planFrameSampling(
      inspected.info,
      frames.map((frame) => frame.index),
      Number.MAX_SAFE_INTEGER,
    );
    const decoded = await decodePlannedFrames(filePath, inspected, plan, sampling);
    const manifest = uniformFrameManifest(frames);
    const files = new Map(manifest.map((entry) => [entry.name, decoded.get(entry.index)!.jpeg]));
    return {
      parameters,
      manifest,
      files,
      keyFrameIndices: manifest.map((entry) => entry.index),
      decoder: tools.decoder,
      decoderVersion: await tools.version(),
    };
  }
  const { durationS, frames: sampled } = await sampleKeyFrameSetFile(
    filePath,
    inspected,
    parameters.sampleFps,
    sampling,
  );
  const plan = planFrameSet(
    parameters,
    sampled.map((frame) => ({ timestampS: frame.timestampS, features: frame.features })),
    durationS,
  );
  const { manifest, sampledIndex } = framesToUpload(plan);
  const files = new Map(manifest.map((entry, position) => [entry.name, sampled[sampledIndex[position]!]!.jpeg]));
  return {
    parameters,
    manifest,
    files,
    keyFrameIndices: plan.keyFrameIndices,
    decoder: tools.decoder,
    decoderVersion: await tools.version(),
  };
}

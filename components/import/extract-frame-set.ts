import type { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import {
  normaliseFrameSetParameters,
  type FrameManifest,
  type FrameSetParameters,
} from "@/lib/frames/frame-set-parameters";
import { framesToUpload } from "@/lib/frames/frames-to-upload";
import { planFrameSet } from "@/lib/frames/plan-frame-set";
import { uniformFrameManifest } from "@/lib/frames/vbench-uniform";
import { apiFetch } from "@/lib/api-client";

export interface ExtractedFrameSet {
  frameSetId: string;
  created: boolean;
  keyFrames: number;
  frames: number;
  decoder: string;
  decoderVersion: string;
}

/**
 * Samples a video in the browser, picks key frames and clusters, and uploads only the frames the
 * judge will see (key frames and their clusters), renumbered from 0. A uniform set takes VBench-2.0's
 * frames by index instead (lib/frames/vbench-uniform.ts), as `npm run import` does headless.
 */
export async function extractAndUploadFrameSet(options: {
  extractor: FrameExtractor;
  videoId: string;
  file: Blob;
  parameters: unknown;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}): Promise<ExtractedFrameSet> {
  const parameters: FrameSetParameters = normaliseFrameSetParameters(options.parameters);
  const sampling = {
    maxSide: parameters.maxSide,
    jpegQuality: parameters.jpegQuality,
    signal: options.signal,
    onProgress: options.onProgress,
  };
  let manifest: FrameManifest;
  let jpegs: Blob[];
  let decoder: string;
  let decoderVersion: string;
  if (parameters.mode === "uniform") {
    const uniform = await options.extractor.sampleUniform(options.file, parameters.count, sampling);
    manifest = uniformFrameManifest(uniform.sample.frames);
    jpegs = uniform.sample.frames.map((frame) => frame.jpeg);
    ({ decoder, decoderVersion } = uniform);
  } else {
    // Sampled by frame index, with the duration the frames give (not the probe's): what `npm run import` does.
    const sampled = await options.extractor.sampleKeyFrameSet(options.file, parameters.sampleFps, sampling);
    const plan = planFrameSet(
      parameters,
      sampled.sample.frames.map((frame) => ({ timestampS: frame.timestampS, features: frame.features })),
      sampled.sample.durationS,
    );
    const kept = framesToUpload(plan);
    manifest = kept.manifest;
    jpegs = kept.sampledIndex.map((index) => sampled.sample.frames[index]!.jpeg);
    ({ decoder, decoderVersion } = sampled);
  }

  const form = new FormData();
  form.set("parameters", JSON.stringify(parameters));
  form.set("manifest", JSON.stringify(manifest));
  form.set("decoder", decoder);
  form.set("decoderVersion", decoderVersion);
  manifest.forEach((entry, position) => form.append(entry.name, jpegs[position]!, entry.name));
  options.signal?.throwIfAborted();
  const result = await apiFetch<{ frameSetId: string; created: boolean }>(
    `/api/v1/videos/${encodeURIComponent(options.videoId)}/frame-sets`,
    {
      method: "POST",
      body: form,
      signal: options.signal,
    },
  );
  return {
    ...result,
    keyFrames: manifest.filter((frame) => frame.isKeyFrame).length,
    frames: manifest.length,
    decoder,
    decoderVersion,
  };
}

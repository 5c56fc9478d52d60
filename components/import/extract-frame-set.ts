import type { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import type { VideoProbe } from "@/lib/browser-extraction/types";
import { normaliseFrameSetParameters, type FrameManifest, type FrameSetParameters } from "@/lib/frames/frame-set-parameters";
import { framesToUpload } from "@/lib/frames/frames-to-upload";
import { frameSetTimestamps, planFrameSet } from "@/lib/frames/plan-frame-set";
import { uniformFrameManifest } from "@/lib/frames/vbench-uniform";
import { apiFetch } from "@/lib/api-client";

export interface ExtractedFrameSet {
  frameSetId: string;
  created: boolean;
  keyFrames: number;
  frames: number;
  decoder: string;
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
  probe: VideoProbe;
  parameters: unknown;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}): Promise<ExtractedFrameSet> {
  const parameters: FrameSetParameters = normaliseFrameSetParameters(options.parameters);
  const sampling = { maxSide: parameters.maxSide, jpegQuality: parameters.jpegQuality, signal: options.signal, onProgress: options.onProgress };
  let manifest: FrameManifest;
  let jpegs: Blob[];
  let decoder: string;
  if (parameters.mode === "uniform") {
    const uniform = await options.extractor.sampleUniform(options.file, parameters.count, sampling);
    manifest = uniformFrameManifest(uniform.sample.frames);
    jpegs = uniform.sample.frames.map((frame) => frame.jpeg);
    decoder = uniform.decoder;
  } else {
    const durationS = options.probe.durationS;
    const sampled = await options.extractor.sample(options.file, frameSetTimestamps(parameters, durationS), sampling);
    const plan = planFrameSet(
      parameters,
      sampled.frames.map((frame) => ({ timestampS: frame.timestampS, features: frame.features })),
      durationS,
    );
    const kept = framesToUpload(plan);
    manifest = kept.manifest;
    jpegs = kept.sampledIndex.map((index) => sampled.frames[index]!.jpeg);
    decoder = sampled.decoder;
  }

  const form = new FormData();
  form.set("parameters", JSON.stringify(parameters));
  form.set("manifest", JSON.stringify(manifest));
  form.set("decoder", decoder);
  manifest.forEach((entry, position) => form.append(entry.name, jpegs[position]!, entry.name));
  options.signal?.throwIfAborted();
  const result = await apiFetch<{ frameSetId: string; created: boolean }>(`/api/v1/videos/${encodeURIComponent(options.videoId)}/frame-sets`, {
    method: "POST",
    body: form,
    signal: options.signal,
  });
  return { ...result, keyFrames: manifest.filter((frame) => frame.isKeyFrame).length, frames: manifest.length, decoder };
}

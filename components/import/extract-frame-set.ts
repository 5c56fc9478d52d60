import type { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import type { VideoProbe } from "@/lib/browser-extraction/types";
import { normaliseFrameSetParameters, type FrameSetParameters } from "@/lib/frames/frame-set-parameters";
import { framesToUpload } from "@/lib/frames/frames-to-upload";
import { frameSetTimestamps, planFrameSet } from "@/lib/frames/plan-frame-set";
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
 * judge will see (key frames and their clusters), renumbered from 0.
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
  const durationS = options.probe.durationS;
  const sampled = await options.extractor.sample(options.file, frameSetTimestamps(parameters, durationS), {
    maxSide: parameters.maxSide,
    jpegQuality: parameters.jpegQuality,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const plan = planFrameSet(
    parameters,
    sampled.frames.map((frame) => ({ timestampS: frame.timestampS, features: frame.features })),
    durationS,
  );

  const { manifest, sampledIndex } = framesToUpload(plan);

  const form = new FormData();
  form.set("parameters", JSON.stringify(parameters));
  form.set("manifest", JSON.stringify(manifest));
  form.set("decoder", sampled.decoder);
  manifest.forEach((entry, position) => form.append(entry.name, sampled.frames[sampledIndex[position]!]!.jpeg, entry.name));
  options.signal?.throwIfAborted();
  const result = await apiFetch<{ frameSetId: string; created: boolean }>(`/api/v1/videos/${encodeURIComponent(options.videoId)}/frame-sets`, {
    method: "POST",
    body: form,
    signal: options.signal,
  });
  return { ...result, keyFrames: manifest.filter((frame) => frame.isKeyFrame).length, frames: manifest.length, decoder: sampled.decoder };
}

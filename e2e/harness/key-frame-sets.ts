// A default key-frame set of one clip as each backend makes it, and how far two of them agree: shared by the
// backend-equality spec (e2e/backend-equality.spec.ts) and `npm run bench:extract`.
import path from "node:path";
import type { Page } from "playwright-core";
import { nativeTools } from "../../lib/bulk-import/ffmpeg-tools";
import { inspectVideoFile, sampleKeyFrameSetFile } from "../../lib/bulk-import/native-extraction";
import { densityPeaksParametersSchema } from "../../lib/frames/frame-set-parameters";
import { planFrameSet } from "../../lib/frames/plan-frame-set";
import { SHARED_DIR } from "../../testkit/testing/shared-data";
import type { Harness as HarnessApi } from "./extraction-harness";

/** The shared T2VHaluBench samples, next to the repository (CI clones into /work/<dir>, so ../shared resolves). */
export const SHARED_SAMPLES = path.join(SHARED_DIR, "samples");
export const SHARED_CLIPS = ["t2vhalubench-5.mp4", "t2vhalubench-12.mp4", "t2vhalubench-31.mp4"];
/** What the Import page and `npm run import` use when nothing is chosen. */
export const DEFAULT_PARAMETERS = densityPeaksParametersSchema.parse({ mode: "density-peaks" });

export type Backend = "webcodecs" | "ffmpeg.wasm" | "native ffmpeg";
export const BACKENDS: Backend[] = ["webcodecs", "ffmpeg.wasm", "native ffmpeg"];

export interface BackendSet {
  backend: Backend;
  decoderVersion: string;
  ms: number;
  durationS: number;
  frameIndices: number[];
  features: number[][];
  keyFrameIndices: number[];
  clusters: (number | null)[];
}

function planned(
  backend: Backend,
  decoderVersion: string,
  ms: number,
  durationS: number,
  frames: { timestampS: number; frameIndex: number; features: ArrayLike<number> }[],
): BackendSet {
  const plan = planFrameSet(
    DEFAULT_PARAMETERS,
    frames.map((frame) => ({ timestampS: frame.timestampS, features: Float32Array.from(frame.features) })),
    durationS,
  );
  return {
    backend,
    decoderVersion,
    ms,
    durationS,
    frameIndices: frames.map((frame) => frame.frameIndex),
    features: frames.map((frame) => Array.from(frame.features)),
    keyFrameIndices: plan.keyFrameIndices,
    clusters: plan.frames.map((frame) => frame.cluster),
  };
}

/**
 * One clip's default key-frame set from `backend`: in Chromium through the harness page (served with the clips
 * under /clips/), or with native ffmpeg in this process.
 */
export async function keyFrameSetOf(page: Page, clipsDir: string, clip: string, backend: Backend): Promise<BackendSet> {
  const { sampleFps, maxSide, jpegQuality } = DEFAULT_PARAMETERS;
  if (backend === "native ffmpeg") {
    const start = performance.now();
    const file = path.join(clipsDir, clip);
    const inspected = await inspectVideoFile(file, undefined, nativeTools);
    const sample = await sampleKeyFrameSetFile(file, inspected, sampleFps, {
      maxSide,
      jpegQuality,
      tools: nativeTools,
    });
    return planned(backend, await nativeTools.version(), performance.now() - start, sample.durationS, sample.frames);
  }
  const result = await page.evaluate(
    ([url, fps, side, quality, forceDecoder]) =>
      (window as unknown as { harness: HarnessApi }).harness.keyFrameSet(url, fps, {
        maxSide: side,
        jpegQuality: quality,
        forceDecoder,
      }),
    [`/clips/${clip}`, sampleFps, maxSide, jpegQuality, backend] as const,
  );
  if (!result.ok) throw new Error(`${clip} with ${backend}: ${result.code}: ${result.message}`);
  if (result.value.decoder !== backend) throw new Error(`${clip}: asked for ${backend}, got ${result.value.decoder}`);
  return planned(backend, result.value.decoderVersion, result.ms, result.value.durationS, result.value.frames);
}

function sameAt<T>(a: readonly T[], b: readonly T[]): number {
  let same = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (i < a.length && i < b.length && JSON.stringify(a[i]) === JSON.stringify(b[i])) same++;
  return same;
}

/** How far `other` agrees with `reference`: equal entries at the same position, over the longer list. */
export function agreement(reference: BackendSet, other: BackendSet) {
  const share = (a: readonly unknown[], b: readonly unknown[]) => ({
    same: sameAt(a, b),
    of: Math.max(a.length, b.length),
  });
  return {
    sampledFrames: share(reference.frameIndices, other.frameIndices),
    features: share(reference.features, other.features),
    keyFrames: share(reference.keyFrameIndices, other.keyFrameIndices),
    clusters: share(reference.clusters, other.clusters),
  };
}

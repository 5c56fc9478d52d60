import type { FrameManifest } from "./frame-set-parameters";
import type { FrameSetPlan } from "./plan-frame-set";

/**
 * The frames worth storing: key frames and their clusters, renumbered from 0 (the manifest wants
 * contiguous indices), with `cluster` pointing at the key frame's new index. `sampledIndex` says
 * which sampled frame each manifest entry is.
 */
export function framesToUpload(plan: FrameSetPlan): { manifest: FrameManifest; sampledIndex: number[] } {
  const kept = plan.frames.filter((frame) => frame.isKeyFrame || frame.cluster !== null);
  const renumber = new Map(kept.map((frame, position) => [frame.index, position]));
  return {
    manifest: kept.map((frame, position) => ({
      name: `frame-${String(position).padStart(5, "0")}.jpg`,
      index: position,
      timestampS: frame.timestampS,
      isKeyFrame: frame.isKeyFrame,
      cluster: frame.cluster === null ? null : (renumber.get(frame.cluster) ?? null),
    })),
    sampledIndex: kept.map((frame) => frame.index),
  };
}

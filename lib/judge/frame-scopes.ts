/**
 * Which frames each judge step looks at: the one definition the engine (building a video's
 * context), the video page (highlighting a heat-map cell's frames) and the export (the frames'
 * timestamps) share. Plain functions over the tasks' declarations, so the browser can use them.
 */
import type { StepScope } from "./engine/pipeline";
import { TASKS } from "../tasks/registry";

/** Each registered pipeline's step scopes, from the tasks' declarations (plain data, safe in the browser). */
const STEP_SCOPES: ReadonlyMap<string, StepScope> = new Map(TASKS.flatMap((task) => Object.entries(task.stepScopes ?? {})));

export function stepScope(stepId: string): StepScope {
  return STEP_SCOPES.get(stepId) ?? "video";
}

export interface ScopedFrame {
  index: number;
  isKeyFrame: boolean;
  /** Index of the key frame whose cluster the frame belongs to; null when in none. */
  cluster: number | null;
}

/**
 * Key frames in index order; cluster k = key frame k and the frames whose `cluster` is its index,
 * in index order.
 */
export function keyFramesAndClusters<F extends ScopedFrame>(frames: readonly F[]): { keyFrames: F[]; clusters: F[][] } {
  const ordered = [...frames].sort((a, b) => a.index - b.index);
  const keyFrames = ordered.filter((frame) => frame.isKeyFrame);
  return { keyFrames, clusters: keyFrames.map((key) => ordered.filter((frame) => frame.cluster === key.index || frame === key)) };
}

/**
 * The frames a step saw at one scope index: a key frame's step its key frame, a cluster's step the
 * cluster (whose key frame is `keyFrame`), a video-level step every key frame (`keyFrame` null).
 * Nothing when the frame set has no such key frame or cluster.
 */
export function framesSeenBy<F extends ScopedFrame>(context: { keyFrames: F[]; clusters: F[][] }, stepId: string, scopeIndex: number): { keyFrame: F | null; frames: F[] } {
  const scope = stepScope(stepId);
  if (scope === "video") return { keyFrame: null, frames: context.keyFrames };
  const keyFrame = context.keyFrames[scopeIndex] ?? null;
  if (!keyFrame) return { keyFrame: null, frames: [] };
  return { keyFrame, frames: scope === "key_frame" ? [keyFrame] : (context.clusters[scopeIndex] ?? []) };
}

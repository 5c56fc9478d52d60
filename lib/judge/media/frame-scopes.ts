/**
 * Which frames each judge step looks at: the one definition the engine (building a video's
 * context), the video page (highlighting a heat-map cell's frames) and the export (the frames'
 * timestamps) share. Plain functions over the tasks' declarations, so the browser can use them.
 */
import type { StepScope } from "../../task-modules/pipeline-types";
import type { TaskDeclaration } from "../../task-modules/task-declaration";

/**
 * A step's scope, from its own task's declaration (plain data, safe in the browser): every rubric task names its step
 * "judge", one judged per video and another per item, so only the step's task can say. A step its task does not
 * declare (or without a task) is video-level.
 */
export function stepScope(stepId: string, ownTask: Pick<TaskDeclaration, "stepScopes"> | undefined): StepScope {
  return ownTask?.stepScopes?.[stepId] ?? "video";
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
  return {
    keyFrames,
    clusters: keyFrames.map((key) => ordered.filter((frame) => frame.cluster === key.index || frame === key)),
  };
}

/**
 * The frames a step saw at one scope index: a key frame's step its key frame, a cluster's step the
 * cluster (whose key frame is `keyFrame`), a video-level step every key frame (`keyFrame` null).
 * Nothing when the frame set has no such key frame or cluster.
 */
export function framesSeenBy<F extends ScopedFrame>(
  context: { keyFrames: F[]; clusters: F[][] },
  stepId: string,
  scopeIndex: number,
  ownTask: Pick<TaskDeclaration, "stepScopes"> | undefined,
): { keyFrame: F | null; frames: F[] } {
  const scope = stepScope(stepId, ownTask);
  if (scope === "video") return { keyFrame: null, frames: context.keyFrames };
  const keyFrame = context.keyFrames[scopeIndex] ?? null;
  if (!keyFrame) return { keyFrame: null, frames: [] };
  return { keyFrame, frames: scope === "key_frame" ? [keyFrame] : (context.clusters[scopeIndex] ?? []) };
}

export interface FrameLike extends ScopedFrame {
  id: string;
  timestampS: number;
}

export interface ScopeFocus {
  /** Where the player goes: the key frame of the key frame / cluster, the first key frame for video-level steps. */
  seekS: number | null;
  /** Indexes (Frame.index) of the frames the judge saw for that step. */
  frameIndexes: number[];
  label: string;
}

/** What a heat-map cell (or any step result) points at in the video: where to seek, which frames to highlight. */
export function scopeFocus(
  frames: readonly FrameLike[],
  stepId: string,
  scopeIndex: number,
  ownTask: Pick<TaskDeclaration, "stepScopes"> | undefined,
): ScopeFocus {
  const seen = framesSeenBy(keyFramesAndClusters(frames), stepId, scopeIndex, ownTask);
  const scope = stepScope(stepId, ownTask);
  const label =
    scope === "key_frame"
      ? `key frame ${scopeIndex + 1}`
      : scope === "cluster"
        ? `cluster ${scopeIndex + 1}`
        : "whole video (all key frames)";
  return {
    seekS: (seen.keyFrame ?? seen.frames[0])?.timestampS ?? null,
    frameIndexes: seen.frames.map((frame) => frame.index),
    label,
  };
}

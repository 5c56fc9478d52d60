/** A rubric's scopes: how many calls a video gets, and the frames each attaches. Plain functions over the definition. */
import type { RubricDefinition } from "./rubric-definition";

/** The frames a scope's call attaches (its own: few-shot examples' follow them). */
export function scopeFrames<F>(
  definition: RubricDefinition,
  scopeIndex: number,
  context: { frames: readonly F[]; keyFrames: readonly F[]; clusters: readonly (readonly F[])[] },
): F[] {
  switch (definition.frames.mode) {
    case "uniform":
      return [...context.frames];
    case "key_frames":
      return [...context.keyFrames];
    case "each_key_frame":
      return context.keyFrames[scopeIndex] ? [context.keyFrames[scopeIndex]] : [];
    case "each_cluster":
      return [...(context.clusters[scopeIndex] ?? [])];
  }
}

/** How many calls (scopes) a video gets: one, or one per key frame or cluster. */
export function scopeCount(
  definition: RubricDefinition,
  context: { keyFrames: readonly unknown[]; clusters: readonly unknown[]; items?: readonly unknown[] },
): number {
  if (definition.subject.kind === "item") return context.items?.length ?? 0;
  if (definition.frames.mode === "each_key_frame") return context.keyFrames.length;
  if (definition.frames.mode === "each_cluster") return context.clusters.length;
  return 1;
}

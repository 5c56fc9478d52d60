import type { StepDefinition, VideoContext, PipelineDefinition, StepRef } from "../../task-modules/pipeline-types";

/** The template a step renders for a scope. */
export function templateIdOf(step: StepDefinition, scopeIndex: number, context: VideoContext): string {
  return step.templateIdFor?.(scopeIndex, context) ?? step.templateId;
}

/** Every step instance the pipeline needs for this video. */
export function planSteps(pipeline: PipelineDefinition, context: VideoContext): StepRef[] {
  const refs: StepRef[] = [];
  for (const step of pipeline.steps) {
    if (step.planned && !step.planned(context)) continue;
    const count =
      step.scope === "video"
        ? 1
        : step.scope === "key_frame"
          ? context.keyFrames.length
          : step.scope === "item"
            ? context.items.length
            : context.clusters.length;
    for (let i = 0; i < count; i++) refs.push({ stepId: step.id, scopeIndex: i });
  }
  return refs;
}

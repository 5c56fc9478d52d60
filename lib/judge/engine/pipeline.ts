import type { z } from "zod";
import type { TaskDeclaration } from "../../tasks/task-declaration";

/** A frame the judge sees, as stored. */
export interface FrameRef {
  id: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
  storageKey: string;
  sha256: string;
}

/** What every step of every pipeline can draw on for one video. */
export interface VideoContext {
  videoId: string;
  prompt: string | null;
  dimensions: string[];
  model: string | null;
  keyFrames: FrameRef[];
  /** clusters[k] = the frames of key frame k's cluster, in time order (key frame included). */
  clusters: FrameRef[][];
}

export type StepScope = "video" | "key_frame" | "cluster";

export interface StepRef {
  stepId: string;
  scopeIndex: number;
}

/** Outputs of finished steps of the same video, for building later steps' inputs. */
export interface StepOutputs {
  get(stepId: string, scopeIndex: number): unknown;
  all(stepId: string): unknown[];
}

export interface StepInput {
  values: Record<string, string>;
  frames: FrameRef[];
}

export interface ScoreValue {
  category: string;
  value: number;
}

/**
 * One step of a pipeline: which template it renders, for which scope, from which inputs, and how
 * its output is validated and turned into scores. Nothing here is specific to one pipeline.
 */
export interface StepDefinition<Output = unknown> {
  id: string;
  label: string;
  scope: StepScope;
  templateId: string;
  schema: z.ZodType<Output>;
  /** JSON schema for structured output, when the endpoint supports it. */
  responseFormat?: Record<string, unknown>;
  dependsOn(scopeIndex: number, context: VideoContext): StepRef[];
  /**
   * Why this step cannot be run for this video at all (say, it compares the video with a prompt
   * the video does not have): the step is then `skipped` with this reason and makes no call.
   */
  skipReason?(scopeIndex: number, context: VideoContext): string | null;
  input(scopeIndex: number, context: VideoContext, outputs: StepOutputs): StepInput;
  scores?(output: Output): ScoreValue[];
}

export interface PipelineDefinition {
  id: string;
  label: string;
  /** What the pipeline scores: its targets, headline metrics and groupings, read by everything downstream. */
  task: TaskDeclaration;
  steps: StepDefinition[];
  /** Per-video aggregates from the steps' scores; must never invent values. */
  summarize(scores: { stepId: string; scopeIndex: number; category: string; value: number }[], context: VideoContext, settings: unknown): unknown;
  /**
   * The summary's headline numbers by declared metric id (a yes/no metric as 1/0), stored as
   * run_metric rows so lists filter and sort on an index; null: unknown, no row.
   */
  metricValues(summary: unknown): Record<string, number | null>;
}

/** Every step instance the pipeline needs for this video. */
export function planSteps(pipeline: PipelineDefinition, context: VideoContext): StepRef[] {
  const refs: StepRef[] = [];
  for (const step of pipeline.steps) {
    const count = step.scope === "video" ? 1 : step.scope === "key_frame" ? context.keyFrames.length : context.clusters.length;
    for (let i = 0; i < count; i++) refs.push({ stepId: step.id, scopeIndex: i });
  }
  return refs;
}

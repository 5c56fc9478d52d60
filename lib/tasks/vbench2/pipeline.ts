/**
 * VBench-2.0's twelve VLM-judged dimensions as one pipeline (each dimension's steps in ./dimensions/). A video is
 * judged in the dimensions it belongs to (its folder, or its prompt's dimensions) that the run asks for; its frames
 * are VBench's 64 uniform frames (./frames.ts). The summary keeps, per dimension, every question with the judge's
 * answer and the frames it saw, the video's value and why it is excluded where VBench gives -1.
 */
import type { RegisteredPipeline, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import { answerText, isNotAsked, saidYes } from "./answers";
import { judgeAnswers, type VideoValue } from "./dimension";
import { DIMENSIONS } from "./dimensions";
import { sampledFrames } from "./frames";
import { vbench2SettingsSchema } from "./settings";
import { runAsks } from "./steps";
import { VBENCH2_TASK } from "./vbench2-task";
import { dimensionSlug, JUDGED_DIMENSIONS, type JudgedDimension } from "./vbench2-dimensions";

export interface QuestionSummary {
  question: string;
  stepId: string;
  /** The judge's answer as given; null when it was not asked (with why) or its call failed. */
  answer: string | null;
  yes: boolean | null;
  notAsked: string | null;
  /** The times (s) of the frames the question was asked with. */
  frames: number[];
}

export interface DimensionSummary extends VideoValue {
  questions: QuestionSummary[];
  /** The judge's exclusion that no question decides (Motion_Order_Understanding's unparsable order). */
  judgeExclusion: string | null;
  deviation: string | null;
}

export interface Vbench2VideoSummary {
  dimensions: Partial<Record<JudgedDimension, DimensionSummary>>;
  /** Every dimension asked has a value or VBench's -1 (a failed call leaves it unknown). */
  complete: boolean;
  /** Each asked dimension's value under its metric id ("material"), where the video page reads headline metrics. */
  [metricId: string]: unknown;
}

export function summarizeDimension(
  dimension: JudgedDimension,
  context: VideoContext,
  outputs: StepOutputs,
): DimensionSummary {
  const definition = DIMENSIONS[dimension];
  const steps = new Map(definition.steps.map((step) => [step.id, step]));
  const sampled = sampledFrames(context);
  const questions = definition.questions(context).map((question): QuestionSummary => {
    const output = outputs.get(question.stepId, 0);
    const step = steps.get(question.stepId);
    let frames: number[] = [];
    try {
      frames =
        step && output !== undefined && !isNotAsked(output)
          ? step.input(0, context, outputs).frames.map((f) => (context.fps ? f.index / context.fps : f.timestampS))
          : [];
    } catch {
      frames = [];
    }
    return {
      question: question.text,
      stepId: question.stepId,
      answer: answerText(output),
      yes: saidYes(output),
      notAsked: isNotAsked(output) ? output.notAsked : null,
      frames,
    };
  });
  const judgeExclusion = definition.judgeExclusion?.(context, outputs) ?? null;
  const value = definition.videoValue(judgeAnswers(definition, context, outputs), context, judgeExclusion);
  return { ...value, questions, judgeExclusion, deviation: sampled.deviation };
}

export const vbench2Pipeline: RegisteredPipeline = {
  id: "vbench2",
  label: "VBench-2.0 (12 VLM-judged dimensions)",
  task: VBENCH2_TASK,
  steps: JUDGED_DIMENSIONS.flatMap((dimension) => DIMENSIONS[dimension].steps),
  settingsSchema: vbench2SettingsSchema,
  frames: () => ({ mode: "uniform", count: 64, label: "VBench-2.0's 64 uniform frames" }),
  endpointIds: (settings) => ({ text: vbench2SettingsSchema.parse(settings ?? {}).textEndpointId }),
  summarize: (_scores, context, _settings, outputs): Vbench2VideoSummary => {
    const dimensions: Vbench2VideoSummary["dimensions"] = {};
    for (const dimension of JUDGED_DIMENSIONS)
      if (runAsks(dimension, context)) dimensions[dimension] = summarizeDimension(dimension, context, outputs);
    const values = Object.fromEntries(
      Object.entries(dimensions).map(([dimension, result]) => [dimensionSlug(dimension), result?.value ?? null]),
    );
    const complete = Object.values(dimensions).every(
      (result) => result && (result.value !== null || result.excludedReason !== null),
    );
    return { ...values, dimensions, complete };
  },
  metricValues: (summary) => {
    const values: Record<string, number | null> = {};
    for (const [dimension, result] of Object.entries((summary as Vbench2VideoSummary).dimensions))
      values[dimensionSlug(dimension)] = result?.value ?? null;
    return values;
  },
};

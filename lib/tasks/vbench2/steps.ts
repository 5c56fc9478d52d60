/**
 * The two kinds of step every VBench-2.0 dimension is made of: a question to the VLM about the video's frames,
 * and a question to the text LLM about the VLM's answers. Both keep the answer as given (VBench reads "yes" in it
 * itself), make one call each, and are settled without a call where VBench would not have asked.
 */
import { z } from "zod";
import type {
  FrameRef,
  StepDefinition,
  StepInput,
  StepOutputs,
  StepRef,
  VideoContext,
} from "../../task-modules/pipeline-types";
import { isNotAsked, saidYes, type Vbench2Output } from "./answers";
import { sampledFrames, timeInstructionValues, type SampledFrames } from "./frames";
import { vbench2SettingsOf } from "./settings";

export type StepGuard = (context: VideoContext, outputs: StepOutputs) => string | null;

interface CommonSpec {
  dimension: string;
  id: string;
  label: string;
  templateId: string;
  /** The score category its yes/no answer is stored under (`material:q1`), when it answers a question people check. */
  category?: string | ((context: VideoContext) => string);
  /** Whether the video gets this step at all (its auxiliary info has that many questions). */
  planned?(context: VideoContext): boolean;
  /** The steps whose answers it needs, or waits for (VBench asks in order and stops at a gate's no). */
  after?: string[] | ((context: VideoContext) => string[]);
  /** Why VBench would not ask it for this video, given the answers so far; null: ask. */
  notAsked?: StepGuard;
  /** Why the step cannot be run at all (no auxiliary info for the dimension). */
  missing?(context: VideoContext): string | null;
}

export interface VlmStepSpec extends CommonSpec {
  values?(context: VideoContext, sampled: SampledFrames): Record<string, string>;
  frames?(sampled: SampledFrames, context: VideoContext): FrameRef[];
}

export interface TextStepSpec extends CommonSpec {
  values(context: VideoContext, outputs: StepOutputs): Record<string, string>;
}

/** The run asks this dimension of this video: the video is in it and the run's settings name it (or name none). */
export function runAsks(dimension: string, context: VideoContext): boolean {
  const asked = vbench2SettingsOf(context).dimensions;
  return context.dimensions.includes(dimension) && (!asked || asked.includes(dimension as never));
}

function baseStep(
  spec: CommonSpec,
  input: StepDefinition<Vbench2Output>["input"],
  endpoint?: string,
): StepDefinition<Vbench2Output> {
  const refs = (_scopeIndex: number, context: VideoContext): StepRef[] =>
    (typeof spec.after === "function" ? spec.after(context) : (spec.after ?? [])).map((stepId) => ({
      stepId,
      scopeIndex: 0,
    }));
  const category = (context: VideoContext) =>
    typeof spec.category === "function" ? spec.category(context) : (spec.category ?? null);
  return {
    id: spec.id,
    label: spec.label,
    scope: "video",
    templateId: spec.templateId,
    rawAnswer: true,
    schema: z.custom<Vbench2Output>(),
    ...(endpoint ? { endpoint } : {}),
    planned: (context) => runAsks(spec.dimension, context) && (spec.planned?.(context) ?? true),
    dependsOn: refs,
    skipReason: (_scopeIndex, context) => spec.missing?.(context) ?? null,
    // The category rides in the input's data: scores() sees the input, not the video.
    input: (scopeIndex, context, outputs) => ({
      ...input(scopeIndex, context, outputs),
      data: { category: category(context) },
    }),
    settle: (_input, context, outputs) => {
      const reason = spec.notAsked?.(context, outputs) ?? null;
      return reason === null ? null : { notAsked: reason };
    },
    scores: (output, stepInput) => {
      const scored = (stepInput.data as { category: string | null } | undefined)?.category ?? null;
      const yes = saidYes(output);
      return scored && yes !== null && !isNotAsked(output) ? [{ category: scored, value: yes ? 1 : 0 }] : [];
    },
  };
}

/** A question to the VLM with the video's frames before the text and VBench's time instruction. */
export function vlmStep(spec: VlmStepSpec): StepDefinition<Vbench2Output> {
  return baseStep(spec, (_scopeIndex, context): StepInput => {
    const sampled = sampledFrames(context);
    return {
      values: spec.values ? spec.values(context, sampled) : timeInstructionValues(sampled),
      frames: spec.frames ? spec.frames(sampled, context) : sampled.frames,
    };
  });
}

/** A question to the text LLM (the run's `textEndpointId`, else the run's endpoint), with no frames. */
export function textStep(spec: TextStepSpec): StepDefinition<Vbench2Output> {
  return baseStep(
    spec,
    (_scopeIndex, context, outputs): StepInput => ({ values: spec.values(context, outputs), frames: [] }),
    "text",
  );
}

/** Not asked after an earlier step answered no (a gate, or VBench's `break` at the first plot not found). */
export function afterNo(stepId: string, reason: string): StepGuard {
  return (_context, outputs) => {
    const earlier = outputs.get(stepId, 0);
    if (isNotAsked(earlier)) return earlier.notAsked;
    return saidYes(earlier) === false ? reason : null;
  };
}

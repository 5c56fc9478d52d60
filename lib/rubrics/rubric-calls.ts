/**
 * The calls a rubric makes for each scope. A criterion may ask for its frames as stills or as video
 * (`criteria[].input`, else the rubric's `frames.input`); one call shows its frames one way, so in a video input mode
 * the criteria that ask for the other way are judged in a second call, with the same frames and a prompt that lists
 * only them. In an `images` run every frame is an image anyway, and the rubric's one call judges every criterion.
 * Plain functions over the definition: the declaration (its metric steps), the pipeline and the judge spans read them.
 */
import type { InputMode } from "../judge/input-modes";
import type { RubricCriterion, RubricDefinition } from "./rubric-definition";

/** The step every rubric pipeline runs (once per scope); the step of the rubric's own input. */
export const RUBRIC_STEP = "judge";

type FramesInput = "images" | "video";

/** One call per scope: its step and how it sends its frames in a video input mode. */
export interface RubricCall {
  stepId: string;
  input: FramesInput;
}

/** How a criterion's frames go to the judge in a video input mode: its own, else the rubric's (video by default). */
export function criterionInput(definition: RubricDefinition, criterion: RubricCriterion): FramesInput {
  return criterion.input ?? definition.frames.input ?? "video";
}

/**
 * The rubric's calls: `judge` for the rubric's own input; when some criteria ask for the other, a second call,
 * `judge_images` or `judge_video`. A rubric whose criteria all ask alike makes one call, `judge`, that way.
 */
export function rubricCalls(definition: RubricDefinition): RubricCall[] {
  const inputs = new Set(definition.criteria.map((c) => criterionInput(definition, c)));
  if (inputs.size === 1) return [{ stepId: RUBRIC_STEP, input: [...inputs][0]! }];
  const own = definition.frames.input ?? "video";
  const other: FramesInput = own === "video" ? "images" : "video";
  return [
    { stepId: RUBRIC_STEP, input: own },
    { stepId: `${RUBRIC_STEP}_${other}`, input: other },
  ];
}

/**
 * The definition one call sends (its criteria, and its frames' input as the rubric's), or null when the call is not
 * made: in an `images` run the `judge` call judges every criterion and a second call none.
 */
export function callDefinition(
  definition: RubricDefinition,
  stepId: string,
  inputMode: InputMode | undefined,
): RubricDefinition | null {
  const calls = rubricCalls(definition);
  const call = calls.find((c) => c.stepId === stepId);
  if (!call) return null;
  if (calls.length === 1) return definition;
  if (inputMode === undefined || inputMode === "images") return stepId === RUBRIC_STEP ? definition : null;
  const criteria = definition.criteria.filter((c) => criterionInput(definition, c) === call.input);
  const ids = new Set(criteria.map((c) => c.id));
  return {
    ...definition,
    frames: { ...definition.frames, input: call.input },
    criteria,
    // A few-shot example's expected answer names only this call's criteria, as its answer instruction does.
    ...(definition.examples
      ? {
          examples: definition.examples.map((e) => ({
            ...e,
            answer: Object.fromEntries(Object.entries(e.answer).filter(([id]) => ids.has(id))),
          })),
        }
      : {}),
  };
}

/**
 * What a rubric task sends and reads: the prompt rendered from the template, the answer-format instruction
 * FrameJury writes from the criteria (the same words whatever the endpoint), the JSON schema sent as
 * `response_format` to endpoints that take one, and the schema an answer is parsed with (a malformed answer
 * goes through the engine's repair request like any step's). Browser-safe: the Rubric tasks form renders its
 * live preview with these same functions (the template's hash is in rubric-template-hash.ts, server-side).
 */
import { z } from "zod";
import { formatValue } from "../task-modules/task-declaration";
import { criterionScale } from "./rubric-declaration";
import type { RubricCriterion, RubricDefinition, RubricExample } from "./rubric-definition";
import {
  FRAMES_KEY,
  framesAnswerSchema,
  framesJsonSchema,
  localizedCriteria,
  localizeInstructionLines,
} from "./rubric-localize";

/** The line the answer instruction starts with; the stub LLM reads the format after it (testkit/llm-stub). */
export const RUBRIC_ANSWER_MARKER = "FrameJury rubric answer format:";

function scaleWords(criterion: RubricCriterion): string {
  switch (criterion.type) {
    case "numeric":
      return `a number from ${criterion.min} to ${criterion.max}${criterion.step ? ` in steps of ${criterion.step}` : ""} (${criterion.higherIsBetter ? "higher is better" : "higher is worse"})`;
    case "categorical":
      return `one of ${criterion.labels.map((l) => JSON.stringify(l.label)).join(", ")}`;
    case "boolean":
      return "true or false";
  }
}

/** `{{criteria}}`: each criterion with its definition, scale and labels, as a Markdown list. */
export function criteriaText(definition: RubricDefinition): string {
  return definition.criteria
    .map((c) => {
      const labels =
        c.type === "categorical"
          ? c.labels.filter((l) => l.definition).map((l) => `\n  - "${l.label}": ${l.definition}`)
          : [];
      return `- ${c.name} (\`${c.id}\`, ${scaleWords(c)}): ${c.definition.trim().replace(/\n/g, "\n  ")}${labels.join("")}`;
    })
    .join("\n");
}

/** The answer's JSON shape: each criterion's value by id, and (when asked for) a reason per criterion. */
export interface RubricAnswerShape {
  criteria: {
    id: string;
    type: RubricCriterion["type"];
    min?: number;
    max?: number;
    step?: number | null;
    labels?: string[];
    /** The answer names the frames where it fails. */
    localize?: true;
  }[];
  reasons: boolean;
  /** How many frames the call numbers, when a criterion localises. */
  frameCount?: number;
}

export function answerShape(definition: RubricDefinition, frameCount?: number): RubricAnswerShape {
  const localize = (c: RubricCriterion) => (c.localize ? { localize: true as const } : {});
  return {
    criteria: definition.criteria.map((c) =>
      c.type === "numeric"
        ? { id: c.id, type: c.type, min: c.min, max: c.max, step: c.step ?? null, ...localize(c) }
        : c.type === "categorical"
          ? { id: c.id, type: c.type, labels: c.labels.map((l) => l.label), ...localize(c) }
          : { id: c.id, type: c.type, ...localize(c) },
    ),
    reasons: definition.reasons,
    ...(frameCount !== undefined && localizedCriteria(definition).length > 0 ? { frameCount } : {}),
  };
}

/** The call's frames, numbered, for the instruction of a definition whose criteria localise. */
export interface NumberedFrames {
  /** numberedFramesText of the frames. */
  text: string;
  count: number;
}

/**
 * The instruction appended to every rubric prompt: written from the criteria, so a rubric never states the format
 * itself. With `numbered`, criteria that localise are asked where, among the frames it numbers.
 */
export function answerInstruction(definition: RubricDefinition, numbered?: NumberedFrames): string {
  const example: Record<string, unknown> = {};
  for (const c of definition.criteria)
    example[c.id] = c.type === "numeric" ? c.min : c.type === "categorical" ? (c.labels[0]?.label ?? "") : false;
  if (definition.reasons) example.reasons = Object.fromEntries(definition.criteria.map((c) => [c.id, "one sentence"]));
  const localized = localizedCriteria(definition);
  if (localized.length > 0) example[FRAMES_KEY] = Object.fromEntries(localized.map((c) => [c.id, []]));
  return [
    "Answer with only a JSON object, no other text, with one key per criterion id:",
    ...definition.criteria.map((c) => `- "${c.id}": ${scaleWords(c)}`),
    ...(definition.reasons ? ['- "reasons": an object giving, for each criterion id, one sentence saying why'] : []),
    ...localizeInstructionLines(definition, numbered?.text),
    `For example: ${JSON.stringify(example)}`,
    `${RUBRIC_ANSWER_MARKER} ${JSON.stringify(answerShape(definition, numbered?.count))}`,
  ].join("\n");
}

/** The JSON schema of the answer, for `response_format: {type: "json_schema"}` (strict: every key required). */
export function answerJsonSchema(definition: RubricDefinition): Record<string, unknown> {
  const property = (c: RubricCriterion): Record<string, unknown> =>
    c.type === "numeric"
      ? { type: "number", minimum: c.min, maximum: c.max }
      : c.type === "categorical"
        ? { type: "string", enum: c.labels.map((l) => l.label) }
        : { type: "boolean" };
  const properties: Record<string, unknown> = Object.fromEntries(definition.criteria.map((c) => [c.id, property(c)]));
  if (definition.reasons) {
    properties.reasons = {
      type: "object",
      properties: Object.fromEntries(definition.criteria.map((c) => [c.id, { type: "string" }])),
      required: definition.criteria.map((c) => c.id),
      additionalProperties: false,
    };
  }
  const frames = framesJsonSchema(definition);
  if (frames) properties[FRAMES_KEY] = frames;
  return {
    type: "json_schema",
    json_schema: {
      name: "rubric_answer",
      strict: true,
      schema: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
    },
  };
}

/** A parsed answer: each criterion's value as stored (a label's position, yes 1 / no 0) and its reason. */
export interface RubricAnswer {
  values: Record<string, number>;
  reasons: Record<string, string>;
  /** Where each localising criterion fails: frame numbers of the call (1 = its first frame), sorted, once each. */
  frames?: Record<string, number[]>;
}

function valueSchema(c: RubricCriterion): z.ZodType<number> {
  switch (c.type) {
    case "numeric": {
      const scale = criterionScale(c);
      return z
        .preprocess(
          (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
          z.number(),
        )
        .superRefine((value, ctx) => {
          if (value < c.min || value > c.max)
            ctx.addIssue({ code: "custom", message: `${c.id}: ${value} is outside ${c.min}–${c.max}` });
          else if (c.step && Math.abs((value - c.min) / c.step - Math.round((value - c.min) / c.step)) > 1e-9) {
            ctx.addIssue({
              code: "custom",
              message: `${c.id}: ${value} is not on the scale (${formatValue({ scale }, c.min)}, ${formatValue({ scale }, c.min + c.step)}, …)`,
            });
          }
        });
    }
    case "categorical": {
      const labels = c.labels.map((l) => l.label.trim().toLowerCase());
      return z.string().transform((answer, ctx) => {
        const index = labels.indexOf(answer.trim().toLowerCase());
        if (index < 0) {
          ctx.addIssue({
            code: "custom",
            message: `${c.id}: "${answer}" is not one of ${c.labels.map((l) => `"${l.label}"`).join(", ")}`,
          });
          return z.NEVER;
        }
        return index;
      });
    }
    case "boolean":
      return z
        .union([z.boolean(), z.enum(["yes", "no", "true", "false"])])
        .transform((v) => (v === true || v === "yes" || v === "true" ? 1 : 0));
  }
}

/**
 * Parses an answer: every criterion must be there and on its scale; extra keys are ignored. Criteria that localise
 * need their frames, numbers of the call's `frameCount` frames (rubric-localize.ts).
 */
export function answerSchema(definition: RubricDefinition, frameCount?: number): z.ZodType<RubricAnswer> {
  const shape = Object.fromEntries(definition.criteria.map((c) => [c.id, valueSchema(c)]));
  const frames = framesAnswerSchema(definition, frameCount);
  return z
    .object({
      ...shape,
      reasons: z.record(z.string(), z.unknown()).optional(),
      ...(frames ? { [FRAMES_KEY]: frames } : {}),
    })
    .transform((answer) => ({
      values: Object.fromEntries(
        definition.criteria.map((c) => [c.id, (answer as Record<string, unknown>)[c.id] as number]),
      ),
      reasons: Object.fromEntries(
        definition.criteria.flatMap((c) => {
          const reason = answer.reasons?.[c.id];
          return typeof reason === "string" && reason.trim() ? [[c.id, reason.trim().slice(0, 2000)]] : [];
        }),
      ),
      ...(frames ? { frames: (answer as Record<string, unknown>)[FRAMES_KEY] as Record<string, number[]> } : {}),
    })) as unknown as z.ZodType<RubricAnswer>;
}

const VARIABLE = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The values a step fills in; the definition's own ({{criteria}}, {{guidelines}}) are filled from the definition. */
export interface RubricPromptValues {
  prompt: string;
  frames: string;
  item?: Record<string, string>;
  /** The few-shot examples' text (examplesText), when the definition has examples for this video. */
  examples?: string;
  /** The call's own frames, numbered, when a criterion localises. */
  numbered?: NumberedFrames;
}

/** The line the few-shot block starts with; the stub LLM reads the examples after it (testkit/llm-stub). */
export const RUBRIC_EXAMPLES_MARKER = "FrameJury few-shot examples:";
export const RUBRIC_EXAMPLES_END = "End of the examples.";

/**
 * The few-shot block: each example's prompt, which attached images are its frames (they follow the judged video's
 * `ownImages`), and the expected answer as JSON.
 */
export function examplesText(examples: readonly RubricExample[], ownImages: number): string {
  if (examples.length === 0) return "";
  let next = ownImages + 1;
  const lines = examples.map((e, i) => {
    const first = next;
    next += e.frames.length;
    const images = e.frames.length === 1 ? `image ${first}` : `images ${first}–${next - 1}`;
    return `Example ${i + 1} (${images}): prompt "${e.prompt}". The expected answer: ${JSON.stringify(e.answer)}`;
  });
  return [
    `${RUBRIC_EXAMPLES_MARKER} ${examples.length} labelled example video(s), their frames attached after this video's. Judge this video as these were judged.`,
    ...lines,
    RUBRIC_EXAMPLES_END,
  ].join("\n");
}

/** The prompt a step sends: the template with its variables filled, then the answer instruction. */
export function renderRubricPrompt(definition: RubricDefinition, values: RubricPromptValues): string {
  const filled = definition.prompt.replace(VARIABLE, (_, name: string) => {
    if (name === "criteria") return criteriaText(definition);
    if (name === "guidelines") return definition.guidelines || "(none)";
    if (name === "prompt") return values.prompt;
    if (name === "frames") return values.frames;
    const field = /^item\.(.+)$/.exec(name)?.[1];
    // `{{item.constructor}}` is a field like any other: only the item's own keys are its fields.
    return field !== undefined && values.item && Object.hasOwn(values.item, field) ? (values.item[field] ?? "") : "";
  });
  return `${filled.trimEnd()}\n\n${values.examples ? `${values.examples}\n\n` : ""}${answerInstruction(definition, values.numbered)}`;
}

/** `{{frames}}`: what the attached images are, in the order they are attached. */
export function framesText(frames: readonly { timestampS: number; isKeyFrame: boolean }[], what: string): string {
  return `${frames.length} ${what}, attached in time order: ${frames.map((f, i) => `image ${i + 1} at ${f.timestampS.toFixed(2)} s`).join("; ")}.`;
}

/**
 * Criteria that ask where (`localize: true`): the answer instruction numbers the call's frames with their times, and
 * the answer's `"frames"` gives, for each such criterion, the numbers of the frames where it fails. A number that is
 * not a frame of the call fails the answer's schema, so the engine asks once for a repair and otherwise records the
 * step parse_failed with the reason, as for any value off its scale; the same frame named twice is read once.
 * Browser-safe: the Rubric tasks form previews the same words.
 */
import { z } from "zod";
import type { RubricCriterion, RubricDefinition } from "./rubric-definition";

/** The answer's key that holds where each localising criterion fails. */
export const FRAMES_KEY = "frames";

export function localizedCriteria(definition: Pick<RubricDefinition, "criteria">): RubricCriterion[] {
  return definition.criteria.filter((c) => c.localize === true);
}

/** The call's frames as the instruction numbers them: "Frame 1 (t = 0.00 s); Frame 2 (t = 0.50 s)". */
export function numberedFramesText(frames: readonly { timestampS: number }[]): string {
  return frames.map((f, i) => `Frame ${i + 1} (t = ${f.timestampS.toFixed(2)} s)`).join("; ");
}

/** The instruction's lines for the criteria that localise: what `"frames"` holds, and the numbered frames. */
export function localizeInstructionLines(definition: RubricDefinition, numberedFrames?: string): string[] {
  const ids = localizedCriteria(definition).map((c) => JSON.stringify(c.id));
  if (ids.length === 0) return [];
  return [
    `- "${FRAMES_KEY}": an object giving, for each of ${ids.join(", ")}, the numbers of the frames where it fails (say [3, 4, 7]; [] where it fails on none)`,
    ...(numberedFrames ? [`The attached frames, numbered in the order attached: ${numberedFrames}.`] : []),
  ];
}

/** The `"frames"` property of the answer's JSON schema, or null when no criterion localises. */
export function framesJsonSchema(definition: RubricDefinition): Record<string, unknown> | null {
  const criteria = localizedCriteria(definition);
  if (criteria.length === 0) return null;
  return {
    type: "object",
    properties: Object.fromEntries(
      criteria.map((c) => [c.id, { type: "array", items: { type: "integer", minimum: 1 } }]),
    ),
    required: criteria.map((c) => c.id),
    additionalProperties: false,
  };
}

/** A frame number as a model may write it: a whole number, or a string of one ("3"). */
const frameNumber = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: (issue) => `${JSON.stringify(issue.input)} is not a frame number` }).int({
    error: (issue) => `${JSON.stringify(issue.input)} is not a frame number`,
  }),
);

/**
 * The `"frames"` answer of the localising criteria: each a list of frame numbers from 1 to `frameCount` (any number
 * from 1 when the count is unknown), read sorted and once each. Null when no criterion localises.
 */
export function framesAnswerSchema(
  definition: RubricDefinition,
  frameCount?: number,
): z.ZodType<Record<string, number[]>> | null {
  const criteria = localizedCriteria(definition);
  if (criteria.length === 0) return null;
  const list = (id: string) =>
    z
      .array(frameNumber, { error: `give the numbers of the frames where ${id} fails, as a list ([] for none)` })
      .superRefine((numbers, ctx) => {
        for (const n of numbers)
          if (n < 1 || (frameCount !== undefined && n > frameCount))
            ctx.addIssue({
              code: "custom",
              message: `${n} is not one of the frames (${frameCount === undefined ? "from 1" : `1–${frameCount}`})`,
            });
      })
      .transform((numbers) => [...new Set(numbers)].sort((a, b) => a - b));
  return z.object(Object.fromEntries(criteria.map((c) => [c.id, list(c.id)])), {
    error: `give "${FRAMES_KEY}": an object with the frames where each of ${criteria.map((c) => c.id).join(", ")} fails`,
  }) as unknown as z.ZodType<Record<string, number[]>>;
}

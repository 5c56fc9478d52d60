import { z } from "zod";

const id = z.string().min(1).max(64);

/** Where the labels come from: a label set of the project, or the project's gold values (adjudicated). */
export const alignmentLabelsSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("labelSet"), id }),
  z.strictObject({ kind: z.literal("gold") }),
]);
export type AlignmentLabels = z.output<typeof alignmentLabelsSchema>;

const common = {
  labels: alignmentLabelsSchema,
  judgeEndpointId: id,
  optimizerEndpointId: id,
  maxCalls: z.int().min(1).max(100_000),
  maxCostUsd: z.number().min(0).max(10_000),
  heldOutShare: z.number().min(0.1).max(0.9).default(0.4),
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
  rewrites: z.int().min(0).max(10).default(2),
};

/** What an owner picks to align a rubric task's judge. */
const startRubricAlignmentSchema = z.strictObject({
  rubricTaskId: id,
  criterionId: z.string().regex(/^[a-z][a-z0-9_]{0,19}$/),
  ...common,
  /** Train videos the few-shot candidate shows as examples, frames included (0: no few-shot candidate). */
  fewShot: z.int().min(0).max(8).default(4),
});

/** What an owner picks to align a built-in task's judge: its pipeline and one alignable target (lib/alignment/align-builtin.ts). */
const startBuiltinAlignmentSchema = z.strictObject({
  pipeline: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/),
  targetId: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/),
  /** The step whose template the optimizer rewrites (a reviewed metric's choice; a score target's own step when absent). */
  rewriteStepId: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/)
    .optional(),
  ...common,
  /** Train videos the few-shot candidate shows as examples, frames included (0: none); absent: 4 for a score target, none for a metric. */
  fewShot: z.int().min(0).max(8).optional(),
});

/** A rubric task's alignment or a built-in task's. */
export const startAlignmentSchema = z.union([startRubricAlignmentSchema, startBuiltinAlignmentSchema]);
export type StartAlignmentInput = z.output<typeof startAlignmentSchema>;
export type StartBuiltinAlignmentInput = z.output<typeof startBuiltinAlignmentSchema>;

/** The labels of a stored alignment's input (alignments started before gold was offered stored `labelSetId`). */
export function alignmentLabelsOf(input: StartAlignmentInput | { labelSetId: string }): AlignmentLabels {
  return "labels" in input ? input.labels : { kind: "labelSet", id: input.labelSetId };
}

import { z } from "zod";

const id = z.string().min(1).max(64);

/** What an owner picks to align a rubric task's judge. */
export const startAlignmentSchema = z.strictObject({
  rubricTaskId: id,
  criterionId: z.string().regex(/^[a-z][a-z0-9_]{0,19}$/),
  labelSetId: id,
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
});
export type StartAlignmentInput = z.output<typeof startAlignmentSchema>;

import { z } from "zod";

/** `PATCH /api/v1/queues/:id` without guidelines: archive / restore, assign. Browser-safe: the owner controls type their body with QueueStateInput. */
export const queueStateSchema = z
  .object({
    archived: z.boolean().optional(),
    /** Emails of the only reviewers who may claim the queue's items; an empty list opens it to every reviewer again. */
    assignees: z.array(z.string().trim().toLowerCase().email().max(320)).max(100).optional(),
  })
  .refine((v) => v.archived !== undefined || v.assignees !== undefined, { message: "Give archived, assignees, or both." });
export type QueueStateInput = z.input<typeof queueStateSchema>;

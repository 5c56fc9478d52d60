import { z } from "zod";

/**
 * Which item a reviewer gets next (lib/queues/next-item.ts): "overlap" first gives every reviewer the first item by
 * position they have not reviewed that still needs a reviewer, so two reviewers meet on the same items and their
 * agreement can be measured early; "coverage" first gives the items with the fewest reviews first, so every item
 * gets one reviewer before any gets a second.
 */
export const QUEUE_HAND_OUTS = ["overlap", "coverage"] as const;
export type QueueHandOut = (typeof QUEUE_HAND_OUTS)[number];

/**
 * `PATCH /api/v1/queues/:id` without guidelines: archive / restore, assign, hand-out order. Browser-safe: the owner
 * controls type their body with QueueStateInput.
 */
export const queueStateSchema = z
  .object({
    archived: z.boolean().optional(),
    /** Emails of the only reviewers who may claim the queue's items; an empty list opens it to every reviewer again. */
    assignees: z.array(z.string().trim().toLowerCase().email().max(320)).max(100).optional(),
    /** The order items are handed out in from now on (claims already taken stay). */
    handOut: z.enum(QUEUE_HAND_OUTS).optional(),
  })
  .refine((v) => v.archived !== undefined || v.assignees !== undefined || v.handOut !== undefined, {
    message: "Give archived, assignees or handOut (one or more).",
  });
export type QueueStateInput = z.input<typeof queueStateSchema>;

import { z } from "zod";

/*
 * A queue item's submission (`POST /api/v1/queues/:id/items/:itemId/submit`). Browser-safe (zod only): the review
 * screen and the presence step type what they send with these.
 */

/** One judgment in a submission: the target is a reviewed metric's id (e.g. the verdict) or a judge score's id. */
const itemJudgmentSchema = z.object({
  target: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Unknown target."),
  value: z.number().finite(),
  note: z.string().trim().max(5000).nullable().optional(),
  reason: z.string().trim().max(200).nullable().optional(),
  expectedVersion: z.number().int().min(0).optional(),
  /** The reviewer took the judge's value with the accept action (`a` / `A`). */
  acceptedJudge: z.boolean().optional(),
});

/** A presence-first item's answer for one category: present (1) or absent (0) in the whole video. */
export const presenceJudgmentSchema = z.object({
  category: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:-]{1,64}$/, "Unknown category."),
  value: z.union([z.literal(0), z.literal(1)], { error: "A presence is 1 (present) or 0 (absent)." }),
  note: z.string().trim().max(5000).nullable().optional(),
  expectedVersion: z.number().int().min(0).optional(),
});
export type PresenceJudgment = z.infer<typeof presenceJudgmentSchema>;

export const submitItemSchema = z.object({
  judgments: z.array(itemJudgmentSchema).max(1000),
  /** Presence-first queues: every category of the item, present or absent (the absent ones' scores are stored as the declared absent value). */
  presence: z.array(presenceJudgmentSchema).max(200).optional(),
});
export type SubmitItemInput = z.input<typeof submitItemSchema>;

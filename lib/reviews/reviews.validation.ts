import { z } from "zod";

export const reviewInputSchema = z.object({
  value: z.number().finite(),
  note: z.string().trim().max(5000).nullable().optional(),
  reason: z.string().trim().max(200).nullable().optional(),
  /** The version the reviewer saw: optional for a first judgment, required to update one (else a conflict). */
  expectedVersion: z.number().int().min(0).optional(),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

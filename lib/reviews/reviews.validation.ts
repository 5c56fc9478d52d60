import { z } from "zod";

export const reviewInputSchema = z.object({
  value: z.number().finite(),
  note: z.string().trim().max(5000).nullable().optional(),
  reason: z.string().trim().max(200).nullable().optional(),
  /** The version the reviewer saw: optional for a first judgment, required to update one (else a conflict). */
  expectedVersion: z.number().int().min(0).optional(),
  /** Set by the explicit "accept the judge's value" action: the value must then be the judge's. */
  acceptedJudge: z.boolean().optional(),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
/** What a client sends (`PUT …/review`): the schema's input. Browser-safe: the judgment editor types its body with it. */
export type ReviewRequest = z.input<typeof reviewInputSchema>;

export const withdrawInputSchema = z.object({
  /** The version the reviewer saw: a judgment changed elsewhere since is not withdrawn (409). */
  expectedVersion: z.number().int().min(1),
});
export type WithdrawInput = z.infer<typeof withdrawInputSchema>;

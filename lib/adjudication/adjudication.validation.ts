import { z } from "zod";

/** `PUT /api/v1/projects/:id/gold`: an owner sets a target's gold value. Browser-safe: the adjudication screen types its body with GoldInput. */
export const goldInputSchema = z.object({
  targetKey: z.string().min(1).max(1000),
  value: z.number().finite(),
  note: z.string().trim().max(5000).default(""),
  /** The version the owner saw: optional for the first gold of a target, required to change it (else a 409). */
  expectedVersion: z.number().int().min(0).optional(),
});
export type GoldInput = z.input<typeof goldInputSchema>;

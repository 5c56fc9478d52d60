import { z } from "zod";

const intParam = (min: number, max: number, fallback: number, label: string) =>
  z
    .preprocess(
      (v) => (v === "" || v === null || v === undefined ? undefined : v),
      z.coerce.number().int(`${label} must be a whole number.`).min(min, `${label}: at least ${min}.`).max(max, `${label}: at most ${max}.`).optional(),
    )
    .transform((v) => v ?? fallback);

/** The "what to label next" query: the budget of videos and the number of score strata. */
export const labelNextQuerySchema = z.object({
  budget: intParam(1, 10_000, 20, "Budget"),
  strata: intParam(1, 20, 5, "Strata"),
});
export type LabelNextQuery = z.output<typeof labelNextQuerySchema>;

/** The run id in `GET /api/v1/runs/{runId}/label-next`. */
export const labelNextRunIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid run id.");

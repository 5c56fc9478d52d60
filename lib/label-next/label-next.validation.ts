import { z } from "zod";

const intParam = (min: number, max: number, fallback: number, label: string) =>
  z
    .preprocess(
      (v) => (v === "" || v === null || v === undefined ? undefined : v),
      z.coerce
        .number()
        .int(`${label} must be a whole number.`)
        .min(min, `${label}: at least ${min}.`)
        .max(max, `${label}: at most ${max}.`)
        .optional(),
    )
    .transform((v) => v ?? fallback);

/** The "what to label next" query: the budget of videos, the number of score strata and the criterion. */
export const labelNextQuerySchema = z.object({
  budget: intParam(1, 10_000, 20, "Budget"),
  strata: intParam(1, 20, 5, "Strata"),
  /**
   * The criterion to plan on: a per-video target, or a target with a presence rule, of the run's task (a rubric
   * task's criterion), by its target id; checked against the task's declaration. Absent: the task's verdict.
   */
  criterion: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a criterion id.")
      .optional(),
  ),
});
export type LabelNextQuery = z.output<typeof labelNextQuerySchema>;

/** The run id in `GET /api/v1/runs/{runId}/label-next`. */
export const labelNextRunIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid run id.");

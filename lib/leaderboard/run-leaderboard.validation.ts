import { z } from "zod";
import { blankAsMissing, intQueryParam } from "../validation/query-params";

/**
 * `GET /api/v1/runs/{runId}/leaderboard`: the metric (one the run's task declares, checked against it; absent: the
 * task's headline metric), the format, the bootstrap's resamples and seed, and whether the LaTeX shows intervals.
 */
export const runLeaderboardQuerySchema = z
  .object({
    metric: z.preprocess(
      blankAsMissing,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_.:-]{1,80}$/, "Not a metric id.")
        .optional(),
    ),
    format: z.enum(["json", "csv", "latex"]).default("json"),
    samples: intQueryParam(100, 10_000, 1000, "Samples"),
    seed: intQueryParam(0, 2 ** 31 - 1, 1, "Seed"),
    /** LaTeX only: each cell's 95% interval after its score. */
    intervals: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((v) => v === "1" || v === "true"),
  })
  .strict();
export type RunLeaderboardQuery = z.output<typeof runLeaderboardQuerySchema>;

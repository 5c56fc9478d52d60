import { z } from "zod";
import { runLeaderboardQuerySchema } from "../../leaderboard/run-leaderboard.validation";

export const vbench2ResultsQuerySchema = z.strictObject({
  format: z.enum(["json", "eval_results"]).default("json"),
  /** eval_results: the generator whose videos the file holds (VBench evaluates one model at a time). */
  model: z.string().min(1).max(200).optional(),
  /** A VBench results label set: VBench's own values beside the judge's, and the six dimensions FrameJury does not judge. */
  labelSetId: z.string().min(1).max(64).optional(),
});

/** `GET /api/v1/projects/:id/vbench2-leaderboard`: the run, VBench's results label set, the format, the bootstrap's resamples and seed. */
export const vbench2LeaderboardQuerySchema = runLeaderboardQuerySchema.omit({ metric: true }).extend({
  runId: z.string().min(1).max(64),
  labelSetId: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(1).max(64).optional()),
});

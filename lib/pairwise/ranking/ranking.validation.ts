import { z } from "zod";

/** The most bootstrap draws a leaderboard may ask for: beyond this the interval's percentiles no longer move. */
export const MAX_BOOTSTRAP_DRAWS = 10_000;

/** RankingOptions as an API receives them: every field checked, so bad options are a 400 and not a wrong board. */
export const rankingOptionsSchema = z
  .object({
    tieModel: z.enum(["bradley_terry", "davidson"]),
    bootstrapDraws: z.number().int().min(0).max(MAX_BOOTSTRAP_DRAWS),
    seed: z.number().int().min(0).max(0xffffffff),
    minVotes: z.number().int().min(0),
    generators: z.array(z.string().min(1)).max(100_000).optional(),
  })
  .strict();

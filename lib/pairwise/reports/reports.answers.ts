import { z } from "zod";

/**
 * The JSON answers of the pair-set leaderboard and agreement routes, as the OpenAPI document shows them (the types in
 * reports.types.ts and the contract types are what the code builds; these say the same to a client).
 */
const nullableNumber = z.number().nullable();

const pairSetHeaderSchema = z.object({
  id: z.string(),
  name: z.string(),
  aspects: z.array(z.object({ id: z.string(), label: z.string(), guideline: z.string(), levels: z.number() })),
  blind: z.boolean(),
  votesPerPromptCap: z.number().nullable(),
});

const rankingSchema = z.object({
  ratings: z.array(
    z.object({
      generator: z.string(),
      rating: z.number(),
      lower: nullableNumber,
      upper: nullableNumber,
      rankUb: z.number(),
      votes: z.number(),
      wins: z.number(),
      losses: z.number(),
      tiesGood: z.number(),
      tiesBad: z.number(),
      preliminary: z.boolean(),
    }),
  ),
  generators: z.array(z.string()),
  winRate: z.array(z.array(nullableNumber)),
  bothBadRate: z.array(z.array(nullableNumber)),
  voteCount: z.array(z.array(z.number())),
  votes: z.number(),
  prompts: z.number(),
  tieParameter: nullableNumber,
  unrated: z.array(z.string()),
  robustness: z
    .object({
      leader: z.string(),
      votesToChangeLeader: nullableNumber,
      newLeader: z.string().nullable(),
      method: z.literal("greedy"),
      searchLimit: z.number(),
    })
    .nullable(),
  options: z.object({
    tieModel: z.enum(["bradley_terry", "davidson"]),
    bootstrapDraws: z.number(),
    seed: z.number(),
    minVotes: z.number(),
  }),
});

const boardCounts = {
  raters: z.string(),
  label: z.string(),
  cappedVotesDropped: z.number(),
  honeypotVotesLeftOut: z.number(),
};

export const pairwiseLeaderboardAnswerSchema = z.object({
  pairSet: pairSetHeaderSchema,
  aspect: z.object({ id: z.string(), label: z.string(), pooled: z.boolean() }),
  boards: z.array(
    z.discriminatedUnion("status", [
      z.object({ ...boardCounts, status: z.literal("ranked"), ranking: rankingSchema }),
      z.object({ ...boardCounts, status: z.literal("withheld"), reason: z.string() }),
    ]),
  ),
  correlations: z.array(
    z.object({
      raters: z.string(),
      label: z.string(),
      correlation: z
        .object({ kendallTau: nullableNumber, lower: nullableNumber, upper: nullableNumber, generators: z.number() })
        .nullable(),
      reason: z.string().nullable(),
    }),
  ),
  honeypotPairs: z.number(),
  generators: z.array(z.string()),
  judgeRuns: z.array(z.object({ id: z.string(), label: z.string() })),
  labelSets: z.array(z.object({ id: z.string(), label: z.string() })),
});

const figureSchema = z.object({ value: nullableNumber, lower: nullableNumber, upper: nullableNumber, n: z.number() });

export const pairwiseAgreementAnswerSchema = z.object({
  pairSet: pairSetHeaderSchema,
  aspects: z.array(
    z.object({
      aspect: z.string(),
      label: z.string(),
      rows: z.array(
        z.object({
          aspect: z.string(),
          rater: z.string(),
          raterKind: z.enum(["reviewer", "judge", "label_set"]),
          reference: z.string(),
          agreement: z.object({
            accuracy4: figureSchema,
            accuracy3: figureSchema,
            accuracy2: figureSchema,
            cohenKappa: figureSchema,
            krippendorffAlpha: figureSchema,
          }),
        }),
      ),
      noise: z.array(
        z.object({
          aspect: z.string(),
          judge: z.string(),
          judgeAccuracy3: figureSchema,
          humanAccuracy3: figureSchema,
          within: z.boolean().nullable(),
          reason: z.string().nullable(),
        }),
      ),
      peopleAlpha: figureSchema.nullable(),
      withheld: z.string().nullable(),
    }),
  ),
  raterNames: z.record(z.string(), z.string()),
  honeypotVotesLeftOut: z.number(),
  cappedVotesDropped: z.number(),
});

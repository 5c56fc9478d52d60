import { z } from "zod";
import { AppError } from "../../errors";
import { RATER_KINDS, verdictSchema } from "../verdicts";

/** An adjudicator's gold verdict on one aspect of a pair; `version` is the one they edit (none for the first). */
export const setGoldVerdictSchema = z
  .object({
    aspect: z.string().min(1).max(64),
    verdict: verdictSchema,
    strength: z.union([z.literal(1), z.literal(2)]).default(1),
    note: z.string().max(4000).default(""),
    version: z.number().int().min(1).optional(),
  })
  .strict();
export type SetGoldVerdictInput = z.output<typeof setGoldVerdictSchema> & { pairId: string };

export const goldVerdictAnswerSchema = z.object({
  id: z.string(),
  pairId: z.string(),
  aspect: z.string(),
  verdict: verdictSchema,
  strength: z.number().int(),
  note: z.string(),
  version: z.number().int(),
  updatedAt: z.string().describe("ISO 8601."),
});
export type GoldVerdictAnswer = z.infer<typeof goldVerdictAnswerSchema>;

/** The gold verdict as it is now, which a stale or missing `version` did not overwrite. */
export class GoldVersionConflictError extends AppError {
  constructor(
    current: { version: number; verdict: string; strength: number; note: string },
    cause: "stale_version" | "missing_version",
  ) {
    super(
      409,
      "conflict",
      cause === "missing_version"
        ? `This pair already has a gold verdict on this aspect (version ${current.version}, ${current.verdict}); send version ${current.version} to change it.`
        : `The gold verdict was changed elsewhere (now version ${current.version}, ${current.verdict}). Reload it, then save again.`,
      { current },
    );
  }
}

export const disagreementsQuerySchema = z.object({
  aspect: z.string().min(1).max(64),
  after: z.coerce.number().int().min(-1).default(-1),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

const raterVerdictSchema = z.object({
  raterId: z.string(),
  raterKind: z.enum(RATER_KINDS),
  verdict: verdictSchema,
  strength: z.number().int(),
  aShownOn: z.enum(["left", "right"]).nullable(),
});

export const disagreementListAnswerSchema = z.object({
  disagreements: z.array(
    z.object({
      pairId: z.string(),
      position: z.number().int(),
      prompt: z.string(),
      generatorA: z.string(),
      generatorB: z.string(),
      /** People's verdicts (reviewers and label-set annotators), not withdrawn. */
      verdicts: z.array(raterVerdictSchema),
      gold: goldVerdictAnswerSchema.nullable(),
    }),
  ),
  nextAfter: z.number().int().nullable(),
});
export type DisagreementListAnswer = z.infer<typeof disagreementListAnswerSchema>;

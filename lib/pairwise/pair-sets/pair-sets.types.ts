import { z } from "zod";
import { recordIdSchema } from "../../validation/ids";
import { aspectSchema } from "../aspects";
import { HONEYPOT_KINDS } from "./honeypot-pairs";

export const pairSetIdSchema = recordIdSchema;
export const pairIdSchema = recordIdSchema;

/**
 * How a set's pairs came about (PairSet.origin): made from the project's videos with a design, or imported from a
 * file (lib/pairwise/import writes the second kind).
 */
export const pairSetOriginSchema = z.discriminatedUnion("source", [
  z.object({
    source: z.literal("project"),
    design: z.enum(["all_pairs", "round_robin", "k_per_prompt", "explicit"]),
    k: z.number().int().optional(),
    sample: z.enum(["same_index", "random"]),
    seed: z.number().int(),
    /** "all", or the prompt list the prompts came from, or the count of prompts named. */
    prompts: z.union([
      z.literal("all"),
      z.object({ promptListId: z.string() }),
      z.object({ promptCount: z.number().int() }),
    ]),
    generators: z.array(z.string()).optional(),
    honeypots: z.object({ count: z.number().int(), kinds: z.array(z.enum(HONEYPOT_KINDS)) }).optional(),
  }),
  z.object({
    source: z.literal("import"),
    format: z.string(),
    fileName: z.string(),
    sha256: z.string(),
  }),
]);
export type PairSetOrigin = z.infer<typeof pairSetOriginSchema>;

/** A pair set as lists show it. */
export const pairSetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  aspects: z.array(aspectSchema),
  origin: pairSetOriginSchema,
  crossPrompt: z.boolean(),
  blind: z.boolean(),
  reviewersPerPair: z.number().int(),
  assigneeIds: z.array(z.string()),
  guidelines: z.string(),
  votesPerPromptCap: z.number().int().nullable(),
  pairCount: z.number().int(),
  createdById: z.string(),
  createdAt: z.string().describe("ISO 8601."),
  archivedAt: z.string().nullable().describe("ISO 8601; null while in use."),
});
export type PairSetSummary = z.infer<typeof pairSetSummarySchema>;

export const listPairSetsQuerySchema = z.object({
  archived: z.enum(["include", "exclude", "only"]).default("exclude"),
});
export const pairSetListAnswerSchema = z.object({ pairSets: z.array(pairSetSummarySchema) });

/** The verdicts of one aspect, not withdrawn, by who gave them. */
export const aspectVerdictCountSchema = z.object({
  aspect: z.string(),
  verdicts: z.number().int(),
  byKind: z.object({
    reviewer: z.number().int(),
    judge: z.number().int(),
    label_set: z.number().int(),
    gold: z.number().int(),
  }),
});

export const pairSetDetailSchema = pairSetSummarySchema.extend({
  counts: z.object({
    pairs: z.number().int(),
    honeypots: z.number().int(),
    /** Pairs submitted by at least reviewersPerPair reviewers. */
    donePairs: z.number().int(),
    prompts: z.number().int(),
    generators: z.number().int(),
    verdictsPerAspect: z.array(aspectVerdictCountSchema),
    judgeRuns: z.number().int(),
  }),
});
export type PairSetDetail = z.infer<typeof pairSetDetailSchema>;

/** User ids of reviewers (members who may review) the set is assigned to; empty: any reviewer may claim its pairs. */
export const assigneeIdsSchema = z.array(recordIdSchema).max(500);

/** What an owner may change of a set: archived or not, its name, guidelines, assignees, reviewers per pair, cap. */
export const updatePairSetSchema = z
  .object({
    archived: z.boolean().optional(),
    name: z.string().trim().min(1).max(200).optional(),
    guidelines: z.string().max(20_000).optional(),
    assigneeIds: assigneeIdsSchema.optional(),
    reviewersPerPair: z.number().int().min(1).max(50).optional(),
    votesPerPromptCap: z.number().int().min(1).max(1_000_000).nullable().optional(),
  })
  .strict()
  .refine((change) => Object.values(change).some((value) => value !== undefined), "nothing to change");
export type PairSetChange = z.output<typeof updatePairSetSchema>;

export const listPairsQuerySchema = z.object({
  /** The position after which the page starts (the previous page's `nextAfter`). */
  after: z.coerce.number().int().min(-1).default(-1),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** One side's video as it is now: still there (with its status) or deleted since the pair was made. */
export const pairVideoStateSchema = z.union([
  z.object({ id: z.string(), deleted: z.literal(false), status: z.string(), fileName: z.string() }),
  z.object({ id: z.null(), deleted: z.literal(true) }),
]);

export const pairRowSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  prompt: z.string(),
  /** Null to a reviewer while the set is blind. */
  generatorA: z.string().nullable(),
  generatorB: z.string().nullable(),
  nameA: z.string().nullable(),
  nameB: z.string().nullable(),
  videoA: pairVideoStateSchema,
  videoB: pairVideoStateSchema,
  honeypot: z.object({ kind: z.enum(HONEYPOT_KINDS) }).nullable(),
  doneCount: z.number().int(),
});
export type PairRow = z.infer<typeof pairRowSchema>;

export const pairListAnswerSchema = z.object({
  pairs: z.array(pairRowSchema),
  /** The `after` of the next page; null on the last. */
  nextAfter: z.number().int().nullable(),
});
export type PairListAnswer = z.infer<typeof pairListAnswerSchema>;

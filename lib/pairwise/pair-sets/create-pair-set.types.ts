import { z } from "zod";
import { recordIdSchema } from "../../validation/ids";
import { aspectListSchema, DEFAULT_ASPECTS } from "../aspects";
import { HONEYPOT_KINDS, honeypotKindSchema } from "./honeypot-pairs";
import { assigneeIdsSchema, pairSetSummarySchema } from "./pair-sets.types";

export const PAIR_DESIGNS = ["all_pairs", "round_robin", "k_per_prompt", "explicit"] as const;
export const PAIR_SAMPLES = ["same_index", "random"] as const;
export type PairSample = (typeof PAIR_SAMPLES)[number];

/** A generator's name as videos store it (Video.model); any text, `__proto__` too (kept in Maps, never as keys). */
const generatorNameSchema = z.string().trim().min(1).max(200);
const promptTextSchema = z.string().trim().min(1).max(10_000);

/**
 * Which prompts make pairs: every prompt of the project ("all"), a prompt list's prompts, or prompts named here. A
 * video belongs to a prompt when its full prompt equals it (Unicode NFC, trimmed).
 */
export const pairSetPromptsSchema = z.union([
  z.literal("all"),
  z.object({ promptListId: recordIdSchema }).strict(),
  z.object({ prompts: z.array(promptTextSchema).min(1).max(20_000) }).strict(),
]);

/** Two videos the maker names for an `explicit` design, A first. */
export const explicitPairSchema = z.object({ videoAId: recordIdSchema, videoBId: recordIdSchema }).strict();

export const honeypotRequestSchema = z
  .object({
    count: z.number().int().min(0).max(10_000),
    kinds: z
      .array(honeypotKindSchema)
      .min(1)
      .default([...HONEYPOT_KINDS]),
  })
  .strict();

/**
 * A pair set made from the project's videos. Designs: `all_pairs` (every two generators on every prompt),
 * `round_robin` (each prompt a round of a round-robin schedule: each generator meets each other about equally often
 * across prompts; see pair-design.ts), `k_per_prompt` (K random generator pairs per prompt), `explicit` (the pairs
 * named in `pairs`). `sample` picks the two videos of a generator pair: `same_index` (videos of one sample index
 * both generators have) or `random` (a random video of each), drawn from `seed`.
 */
export const createPairSetSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    aspects: aspectListSchema.default(DEFAULT_ASPECTS),
    prompts: pairSetPromptsSchema.default("all"),
    design: z.enum(PAIR_DESIGNS).default("all_pairs"),
    /** Generator pairs per prompt (k_per_prompt). */
    k: z.number().int().min(1).max(1000).optional(),
    sample: z.enum(PAIR_SAMPLES).default("same_index"),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    /** Only these generators (Video.model); at least two. */
    generators: z.array(generatorNameSchema).min(2).max(500).optional(),
    /** The pairs of an `explicit` design. */
    pairs: z.array(explicitPairSchema).min(1).max(100_000).optional(),
    /** Pairs of two different prompts are allowed (explicit pairs only). */
    crossPrompt: z.boolean().default(false),
    reviewersPerPair: z.number().int().min(1).max(50).default(1),
    /** Reviewers the set is assigned to (only they claim its pairs); empty: any reviewer. */
    assigneeIds: assigneeIdsSchema.default([]),
    blind: z.boolean().default(true),
    guidelines: z.string().max(20_000).default(""),
    votesPerPromptCap: z.number().int().min(1).max(1_000_000).nullable().default(null),
    honeypots: honeypotRequestSchema.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.design === "k_per_prompt" && input.k === undefined)
      ctx.addIssue({ code: "custom", path: ["k"], message: "k_per_prompt needs k: the generator pairs per prompt" });
    if (input.design !== "k_per_prompt" && input.k !== undefined)
      ctx.addIssue({ code: "custom", path: ["k"], message: "k is for the k_per_prompt design only" });
    if (input.design === "explicit" && !input.pairs)
      ctx.addIssue({ code: "custom", path: ["pairs"], message: "an explicit design needs its pairs" });
    if (input.design !== "explicit" && input.pairs)
      ctx.addIssue({ code: "custom", path: ["pairs"], message: "pairs are for the explicit design only" });
    if (input.design === "explicit" && (input.generators || input.honeypots || input.prompts !== "all"))
      ctx.addIssue({
        code: "custom",
        path: ["design"],
        message: "an explicit design names its pairs: no prompts, generators or honeypots",
      });
    if (input.crossPrompt && input.design !== "explicit")
      ctx.addIssue({ code: "custom", path: ["crossPrompt"], message: "crossPrompt is for explicit pairs only" });
    if (input.generators && new Set(input.generators).size !== input.generators.length)
      ctx.addIssue({ code: "custom", path: ["generators"], message: "generators repeat" });
  });
export type CreatePairSetInput = z.output<typeof createPairSetSchema>;

/** What making a set did: the set, the pairs made, and what was left out and why (never a silent drop). */
export const createPairSetAnswerSchema = z.object({
  pairSet: pairSetSummarySchema,
  pairs: z.number().int(),
  honeypots: z.number().int(),
  leftOut: z.object({
    videosWithoutModel: z.number().int(),
    videosWithoutPrompt: z.number().int(),
    failedVideos: z.number().int(),
    promptsWithOneGenerator: z.number().int(),
    promptsWithoutVideos: z.number().int(),
    generatorPairsWithoutCommonSample: z.number().int(),
  }),
  /** The left-out counts in words, e.g. "left out: 3 videos without a model". */
  notes: z.array(z.string()),
});
export type CreatePairSetAnswer = z.infer<typeof createPairSetAnswerSchema>;

import { z } from "zod";
import { aspectSchema, type Aspect } from "../aspects";
import { verdictSchema, type Side, type Strength, type Verdict } from "../verdicts";

/** How a broken copy of video A is drawn in place of video B (a honeypot pair; lib/pairwise/honeypots.ts). */
export const BROKEN_RENDERINGS = ["frozen", "shuffled", "corrupted"] as const;
export type BrokenRendering = (typeof BROKEN_RENDERINGS)[number];

/** One video of a pair as a reviewer's browser plays it. Names and generators are absent when the set is blind. */
export const reviewVideoSchema = z.object({
  /** Null when the video was deleted after the pair was made (nothing to play). */
  videoId: z.string().nullable(),
  url: z.string().nullable(),
  fps: z.number().nullable(),
  durationS: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  name: z.string().optional(),
  generator: z.string().optional(),
  /** Draw this video broken (from video A's file) rather than as it is. */
  rendering: z.enum(BROKEN_RENDERINGS).optional(),
});
export type ReviewVideo = z.infer<typeof reviewVideoSchema>;

/** The reviewer's own verdict on one aspect, with the version a later save names. */
export const reviewVerdictSchema = z.object({
  aspect: z.string(),
  verdict: verdictSchema,
  strength: z.union([z.literal(1), z.literal(2)]),
  version: z.number().int(),
  withdrawn: z.boolean(),
  note: z.string(),
});
export type ReviewVerdict = z.infer<typeof reviewVerdictSchema> & { strength: Strength; verdict: Verdict };

/** A pair as its reviewer sees it: the side A is shown on was drawn at the claim and stays for this reviewer. */
export const pairForReviewSchema = z.object({
  pairId: z.string(),
  position: z.number().int(),
  prompt: z.string(),
  blind: z.boolean(),
  aShownOn: z.enum(["left", "right"]),
  status: z.enum(["claimed", "done"]),
  a: reviewVideoSchema,
  b: reviewVideoSchema,
  aspects: z.array(aspectSchema),
  /** The set's instructions for its reviewers (Markdown). */
  guidelines: z.string(),
  verdicts: z.array(reviewVerdictSchema),
});
export type PairForReview = z.infer<typeof pairForReviewSchema> & { aShownOn: Side; aspects: Aspect[] };

export const reviewProgressSchema = z.object({
  /** Pairs of the set this reviewer submitted. */
  done: z.number().int(),
  /** Pairs in the set. */
  total: z.number().int(),
});
export type ReviewProgress = z.infer<typeof reviewProgressSchema>;

export const nextPairResponseSchema = z.object({
  pair: pairForReviewSchema.nullable(),
  progress: reviewProgressSchema,
});
export type NextPairResponse = { pair: PairForReview | null; progress: ReviewProgress };

const pairIdSchema = z.string().min(1).max(64);

/** One aspect's verdict as a reviewer saves it; `verdict: null` withdraws it (the row stays, marked withdrawn). */
export const pairVerdictInputSchema = z.strictObject({
  aspect: z.string().min(1).max(64),
  verdict: verdictSchema.nullable(),
  /** 2: a strong preference (A>>B), only on an aspect of five levels and never for a tie. */
  strength: z.union([z.literal(1), z.literal(2)]).optional(),
  /** The version this save edits (from the pair's `verdicts`); a newer saved one answers 409. Absent: no check. */
  version: z.number().int().min(1).optional(),
});
export type PairVerdictInput = z.infer<typeof pairVerdictInputSchema>;

export const savePairVerdictsSchema = z.strictObject({
  pairId: pairIdSchema,
  verdicts: z.array(pairVerdictInputSchema).max(20),
  /** Milliseconds from the pair shown to this save; kept on a verdict's first save. */
  msToVerdict: z.number().int().min(0).max(86_400_000).optional(),
  note: z.string().max(4000).optional(),
  /** Mark the pair done for this reviewer (every aspect must then hold a verdict). */
  submit: z.boolean().default(false),
});
export type SavePairVerdictsInput = z.input<typeof savePairVerdictsSchema>;

export const savePairVerdictsResponseSchema = z.object({
  verdicts: z.array(reviewVerdictSchema),
  status: z.enum(["claimed", "done"]),
  progress: reviewProgressSchema,
});
export type SavePairVerdictsResponse = z.infer<typeof savePairVerdictsResponseSchema>;

export const releasePairSchema = z.strictObject({ pairId: pairIdSchema });

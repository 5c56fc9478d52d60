import { z } from "zod";
import { aspectIdSchema } from "../aspects";
import { runEstimateAnswerSchema } from "../../judge/runs/run-estimate.types";
import { PANEL_SIZE } from "../../judge/runs/ensemble-settings";

/** POST /api/v1/pair-sets/{pairSetId}/runs: a pairwise judge run over the set's pairs, each asked in both orders. */
export const createPairwiseRunSchema = z
  .object({
    endpointId: z.string().min(1).max(100),
    /** The aspects to ask (ids of the set's aspects); all of them when absent. */
    aspects: z.array(aspectIdSchema).min(1).max(20).optional(),
    /**
     * How the judge sees the two videos: "images" (each one's frames as pictures, labelled with their video and
     * times) or "video-file" (the two files as two video parts; a pair that cannot goes as pictures). Absent: the
     * endpoint's own mode when it is "video-file", else "images". "video-frames" is refused: two frame lists in one
     * request share one timing (vLLM's per-request media_io_kwargs).
     */
    inputMode: z.enum(["images", "video-frames", "video-file"]).optional(),
    budgetUsd: z.number().positive().max(1_000_000).nullable().optional(),
    framesPerVideo: z.number().int().min(1).max(64).optional(),
    /** Self-consistency samples: this many member runs asked apart, their verdicts combined by majority. */
    samples: z.number().int().min(2).max(10).optional(),
    /** The samples' temperature (the endpoint's when absent). */
    temperature: z.number().min(0).max(2).optional(),
    /**
     * A panel: one member run per endpoint (2–5 distinct endpoints of the project, `endpointId` among them), each
     * reconciling its two orders, their verdicts combined by majority. Not with `samples`.
     */
    panel: z
      .array(z.string().min(1).max(100))
      .min(PANEL_SIZE.min)
      .max(PANEL_SIZE.max)
      .refine((ids) => new Set(ids).size === ids.length, "a panel's endpoints must differ")
      .optional(),
    /** Only these pairs of the set (the active plan's next pairs); every pair of the set when absent. */
    pairIds: z.array(z.string().min(1).max(100)).min(1).max(10_000).optional(),
    /** Answer with the cost estimate only; no run is made. */
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine((body) => !(body.samples && body.panel), {
    message: "A run is either self-consistency samples or a panel of endpoints, not both.",
    path: ["panel"],
  });
export type CreatePairwiseRunInput = z.infer<typeof createPairwiseRunSchema>;

/** What starting (or, with `dryRun`, estimating) a pairwise run answers: `id` null for a dry run. */
export const createPairwiseRunAnswerSchema = z.object({
  id: z.string().nullable(),
  pairs: z.number().int(),
  /** Pair × aspect questions. */
  questions: z.number().int(),
  /** Calls: two per question (both orders), times the samples or the panel's judges. */
  calls: z.number().int(),
  estimate: runEstimateAnswerSchema,
  /** The member runs of a run of self-consistency samples or of a panel. */
  members: z.array(z.string()).optional(),
});

/** One aspect's judge-trust figures of a pairwise run (judge-trust.ts AspectTrust). */
export const aspectTrustSchema = z.object({
  aspect: z.string(),
  answers: z.number().int(),
  answersWithoutVerdict: z.number().int(),
  pairsBothOrders: z.number().int(),
  positionFlips: z.number().int(),
  positionFlipRate: z.number().nullable(),
  inconsistentPairs: z.number().int(),
  decidedAnswers: z.number().int(),
  firstPositionWins: z.number().int(),
  firstPositionWinShare: z.number().nullable(),
});
export const pairwiseTrustAnswerSchema = z.object({ runId: z.string(), aspects: z.array(aspectTrustSchema) });

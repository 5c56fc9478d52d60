/**
 * A run's cost estimate as the API answers it (in a dry run of POST /projects/{projectId}/runs, and as `estimate` of
 * GET /runs/{runId}; runs.types.ts holds those answers). The estimate (cost-estimate.ts RunEstimate) is checked
 * against it, and the browser imports the type. Plain data: no server-only import.
 */
import { z } from "zod";

const range = z.tuple([z.number(), z.number()]).describe("[least, most].");

export const runEstimateAnswerSchema = z.object({
  calls: z.number().int(),
  images: z.number().int(),
  videoFrames: z.number().int(),
  videoSeconds: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  outputTokensRange: range
    .optional()
    .describe("The least and the most the output tokens may come to (absent from estimates stored before ranges)."),
  costUsd: z.number().nullable().describe("Null when no endpoint the run calls has prices."),
  costUsdRange: range.nullable().optional(),
  inputMode: z.string().describe("How the run shows videos: `images`, `video-frames` or `video-file`."),
  rule: z
    .object({ source: z.string(), charsPerToken: z.number() })
    .describe("The token rule the input tokens were counted by."),
  defaultOutputTokens: z.number().int(),
  steps: z.array(
    z.object({
      stepId: z.string(),
      calls: z.number().int(),
      images: z.number().int(),
      videoFrames: z.number().int(),
      videoSeconds: z.number(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      outputTokensRange: range.optional(),
      costUsd: z.number().nullable().describe("At the prices of the endpoint the step calls; null when it has none."),
      costUsdRange: range.nullable().optional(),
      outputFrom: z.enum(["history", "schema", "default"]).describe("Where the answer tokens per call come from."),
    }),
  ),
  sampledVideos: z
    .number()
    .int()
    .optional()
    .describe("Set when the estimate read an even sample of this many of the run's videos and scaled it."),
});
export type RunEstimateAnswer = z.infer<typeof runEstimateAnswerSchema>;

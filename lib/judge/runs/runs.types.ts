/**
 * What the run routes answer (runs.ts): a dry run of POST /projects/{projectId}/runs and GET /runs/{runId}. The
 * routes' `responses` name these schemas, runs.ts's answers are checked against them, and the browser imports the
 * types. Plain data: no server-only import.
 */
import { z } from "zod";
import { runEstimateAnswerSchema } from "./run-estimate.types";

/** A dry run's answer: what the run would take and cost; nothing started. */
export const runDryRunAnswerSchema = z.object({
  dryRun: z.literal(true),
  videos: z.number().int().describe("The videos the run would judge."),
  withoutFramesCount: z.number().int().describe("Videos left out for lack of the frame set the pipeline needs."),
  beingDeletedCount: z.number().int().describe("Videos left out because a queued or running deletion removes them."),
  items: z.number().int().optional().describe("An item pipeline's run: the items it would judge."),
  excludedItems: z.number().int().optional(),
  estimate: runEstimateAnswerSchema.nullable(),
  estimateError: z.string().nullable().describe("Why `estimate` is null: a template that would not render."),
});
export type RunDryRunAnswer = z.infer<typeof runDryRunAnswerSchema>;

const count = z.number().int();

/** GET /runs/{runId}: the run, its progress, calls, tokens and cost. */
export const runStatusAnswerSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  pipeline: z.string(),
  status: z.string().describe("queued, running, done, failed or cancelled."),
  simulated: z.boolean(),
  batchMode: z.boolean(),
  ensemble: z.unknown().describe("An ensemble run's settings; null for a plain run."),
  parentRunId: z.string().nullable().describe("An ensemble member's parent run."),
  memberIndex: z.number().int().nullable(),
  batch: z
    .object({
      number: count,
      status: z.string(),
      completed: count,
      failed: count,
      total: count,
      error: z.string().nullable(),
    })
    .nullable()
    .describe("A batch run's latest batch."),
  endpoint: z.object({ name: z.string(), model: z.string() }),
  settings: z.unknown(),
  budgetUsd: z.number().nullable(),
  stopReason: z.string().nullable().describe('Why it stopped ("budget": resumable with a higher one).'),
  callsInFlightAtStop: count.nullable(),
  estimate: runEstimateAnswerSchema.nullable().describe("The cost estimate at start."),
  createdAt: z.string().describe("ISO 8601."),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  videos: z.object({ total: count }).catchall(count).describe("The run's videos, in total and by status."),
  steps: z.object({
    total: count,
    pending: count,
    running: count,
    done: count,
    failed: count,
    parse_failed: count,
    skipped: count,
    cancelled: count,
  }),
  calls: z
    .object({
      total: count,
      cached: count,
      errors: count,
      repairs: count,
      lost: count,
      inFlight: count,
      withoutUsage: count,
    })
    .describe("`lost`: sent by a worker that died before the answer was stored; `inFlight`: sent, not answered yet."),
  tokens: z
    .object({
      prompt: z.number().nullable(),
      completion: z.number().nullable(),
      atLeast: z.object({ prompt: z.number(), completion: z.number() }),
    })
    .describe("Null when some call was answered without `usage`; `atLeast` is what the others add up to."),
  costUsd: z.number().nullable(),
  costUsdAtLeast: z.number(),
});
export type RunStatusAnswer = z.infer<typeof runStatusAnswerSchema>;

import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { LlmError, type ChatRequest, type ChatResult, type LlmErrorKind } from "../calls/llm-client";
import { errorBodyExcerpt } from "../calls/step-errors";

/** Batch API calls cost half the endpoint's prices (OpenAI's batch discount). */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * Thrown by the engine's call of a batch-mode step whose request waits for a batch: the step stays
 * pending and its video is judged again once the batch has answered (lib/judge/batch/batch-runner.ts).
 */
export class AwaitingBatch extends Error {
  override readonly name = "AwaitingBatch";
  constructor() {
    super("The request waits for a batch.");
  }
}

/** A chat request as a batch line will carry it, with its frames as storage keys: the images are read when the batch is written. */
export interface StoredBatchRequest extends Omit<ChatRequest, "images"> {
  /** `maxSide`: the frame is scaled down to this longest side before it is sent (StepInput.imageMaxSide). */
  frames: { storageKey: string; detail: ChatRequest["images"][number]["detail"]; maxSide?: number }[];
  /** The size of the line's body as the batch's file carried it; set when the batch is written. */
  bodyBytes?: number;
}

/** What a batch line answered for a request, as stored by the batch runner. */
export interface StoredLineError {
  /** In the app's words: step errors are shown to every member. */
  message: string;
  kind: LlmErrorKind;
  status: number | null;
  /** What the provider said, sanitised: for owners only (the call inspector). */
  excerpt: string | null;
}

/**
 * The batch's answer to one request of a step: the line's result, or its error (which is then
 * forgotten, so the step's next attempt asks again), or null when it has none yet: the request is then
 * queued for the next batch (once, however often a pass asks). A request is one step's first call or
 * its repair: the cache key tells them apart.
 */
export async function batchAnswer(
  prisma: PrismaClient,
  request: {
    runId: string;
    stepResultId: string;
    videoId: string;
    endpointId: string;
    cacheKey: string;
    body: StoredBatchRequest;
  },
): Promise<{ result: ChatResult; bodyBytes: number } | { error: LlmError; bodyBytes: number } | null> {
  const rows = await prisma.$queryRaw<
    {
      id: string;
      result: ChatResult | null;
      error: string | null;
      errorKind: string | null;
      errorStatus: number | null;
      errorExcerpt: string | null;
      bodyBytes: number | null;
    }[]
  >`
    WITH added AS (
      INSERT INTO batch_request (id, "runId", "stepResultId", "videoId", "endpointId", "cacheKey", request)
      VALUES (${randomUUID()}, ${request.runId}, ${request.stepResultId}, ${request.videoId}, ${request.endpointId}, ${request.cacheKey}, ${JSON.stringify(request.body)}::jsonb)
      ON CONFLICT ("stepResultId", "cacheKey") DO NOTHING
      RETURNING id
    )
    SELECT id, result, error, "errorKind", "errorStatus", "errorExcerpt", (request->>'bodyBytes')::int AS "bodyBytes" FROM batch_request WHERE "stepResultId" = ${request.stepResultId} AND "cacheKey" = ${request.cacheKey}`;
  const row = rows[0];
  if (!row || (row.result === null && row.error === null)) return null;
  const bodyBytes = row.bodyBytes ?? 0;
  if (row.result !== null) return { result: row.result, bodyBytes };
  await prisma.batchRequest.deleteMany({ where: { id: row.id, error: { not: null } } });
  return {
    error: new LlmError(
      (row.errorKind as LlmErrorKind | null) ?? "server",
      row.error!,
      row.errorStatus,
      null,
      row.errorExcerpt,
    ),
    bodyBytes,
  };
}

/**
 * The error a failed batch line stores: a message in our words with the line's status and error code (a
 * plain identifier only), the kind its status implies, and the provider's message as an owners-only excerpt.
 */
export function lineError(
  status: number | null,
  code: string | null,
  message: string | null,
  secrets: (string | null)[] = [],
): StoredLineError {
  const kind: LlmErrorKind =
    status === 429
      ? "rate_limited"
      : status === null || status >= 500
        ? "server"
        : status === 408
          ? "timeout"
          : "client";
  const plainCode = code && /^[A-Za-z0-9_.-]{1,60}$/.test(code) ? code : null;
  const details = [status !== null ? String(status) : null, plainCode].filter(Boolean).join(", ");
  return {
    kind,
    status,
    message: `Batch line failed${details ? ` (${details})` : ""}.`,
    excerpt: errorBodyExcerpt(message, secrets),
  };
}

/**
 * A batch-mode step whose request waits for a batch goes back to pending, its attempt not counted:
 * it is attempted when the batch has answered.
 */
export async function stepAwaitsBatch(prisma: PrismaClient, stepResultId: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE step_result SET status = 'pending', attempts = greatest(attempts - 1, 0), "startedAt" = NULL
    WHERE id = ${stepResultId} AND status = 'running'`;
}

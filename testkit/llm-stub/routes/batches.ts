/**
 * TEST TOOL. The stub LLM's Batch API (`/v1/batches`): a batch is created over an uploaded input file, moves on each
 * time it is looked at (its lines are answered, ./batch-line.ts, once its completion delay has passed, some failing by
 * the failed share), and can be cancelled.
 */
import { createHash, randomUUID } from "node:crypto";
import { readBody, sendJson } from "../stub-http";
import type { StubBatchRecord, StubState } from "../stub-types";
import { answerBatchLine } from "./batch-line";
import { createBatchSchema } from "./batch-schemas";
import type { StubRouteContext } from "./route";

/** `POST /v1/batches`: a batch of the lines of an uploaded `batch` file. */
export async function createBatch({ req, res, state }: StubRouteContext) {
  const parsed = createBatchSchema.safeParse(JSON.parse(await readBody(req)));
  if (!parsed.success)
    return sendJson(res, 400, {
      error: { message: `invalid request: ${parsed.error.message}`, type: "invalid_request_error" },
    });
  const input = state.files.get(parsed.data.input_file_id);
  if (!input || input.purpose !== "batch")
    return sendJson(res, 400, {
      error: { message: `No batch input file ${parsed.data.input_file_id}`, type: "invalid_request_error" },
    });
  const lineCount = input.bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim()).length;
  const now = Date.now();
  const batch: StubBatchRecord = {
    id: `batch_${randomUUID()}`,
    inputFileId: input.id,
    status: "in_progress",
    lineCount,
    createdAt: now,
    completeAt: now + state.batchOptions.completionDelayMs,
    outputFileId: null,
    errorFileId: null,
    counts: { total: lineCount, completed: 0, failed: 0 },
    cancelledAt: null,
    metadata: parsed.data.metadata ?? null,
  };
  state.batches.set(batch.id, batch);
  state.log(`batch ${batch.id}: ${lineCount} lines`);
  return sendJson(res, 200, batchObject(batch));
}

/** `GET /v1/batches/{id}` (the batch, moved on) and `/v1/batches/{id}/cancel` (cancels a batch still running). */
export function getOrCancelBatch({ res, params, state }: StubRouteContext) {
  const batch = state.batches.get(params[1]!);
  if (!batch)
    return sendJson(res, 404, { error: { message: `No such batch ${params[1]}`, type: "invalid_request_error" } });
  if (params[2]) {
    if (batch.status === "validating" || batch.status === "in_progress" || batch.status === "finalizing") {
      batch.status = "cancelling";
      batch.cancelledAt = Date.now();
    }
  } else advanceBatch(state, batch);
  return sendJson(res, 200, batchObject(batch));
}

/** A batch moves on when it is looked at: its lines are answered once its completion delay has passed. */
function advanceBatch(state: StubState, batch: StubBatchRecord) {
  const { files, batchOptions } = state;
  if (batch.status === "cancelling") {
    batch.status = "cancelled";
    return;
  }
  if (batch.status !== "in_progress") return;
  const now = Date.now();
  if (now < batch.completeAt) {
    const share = (now - batch.createdAt) / Math.max(1, batch.completeAt - batch.createdAt);
    batch.counts.completed = Math.floor(batch.lineCount * share);
    return;
  }
  const lines = files
    .get(batch.inputFileId)!
    .bytes.toString("utf8")
    .split("\n")
    .filter((line) => line.trim());
  // The failed share is exact: the lines whose custom_id hashes lowest fail.
  const hashOf = (line: string) =>
    createHash("sha256")
      .update(String((JSON.parse(line) as { custom_id?: unknown }).custom_id))
      .digest("hex");
  const failing = new Set(
    lines
      .map((line, i) => ({ i, h: hashOf(line) }))
      .sort((a, b) => a.h.localeCompare(b.h))
      .slice(0, Math.round(lines.length * batchOptions.failedShare))
      .map((x) => x.i),
  );
  const output: string[] = [];
  const errors: string[] = [];
  lines.forEach((line, i) => {
    const answered = answerBatchLine(state, batch.id, line, failing.has(i));
    (answered.ok ? output : errors).push(JSON.stringify(answered.line));
  });
  const store = (content: string[]) => {
    if (content.length === 0) return null;
    const file = {
      id: `file-${randomUUID()}`,
      purpose: "batch_output",
      filename: `${batch.id}.jsonl`,
      bytes: Buffer.from(content.join("\n") + "\n"),
      createdAt: now,
    };
    files.set(file.id, file);
    return file.id;
  };
  batch.outputFileId = store(output);
  batch.errorFileId = store(errors);
  batch.counts = { total: lines.length, completed: output.length, failed: errors.length };
  batch.status = "completed";
}

function batchObject(batch: StubBatchRecord) {
  const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
  const done = batch.status === "completed";
  return {
    id: batch.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    errors: null,
    input_file_id: batch.inputFileId,
    completion_window: "24h",
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: seconds(batch.createdAt),
    in_progress_at: seconds(batch.createdAt),
    expires_at: seconds(batch.createdAt + 86_400_000),
    finalizing_at: done ? seconds(batch.completeAt) : null,
    completed_at: done ? seconds(batch.completeAt) : null,
    failed_at: null,
    expired_at: null,
    cancelling_at: seconds(batch.cancelledAt),
    cancelled_at: batch.status === "cancelled" ? seconds(batch.cancelledAt) : null,
    request_counts: batch.counts,
    metadata: batch.metadata,
  };
}

import OpenAI, { toFile } from "openai";
import { frameAsSent } from "../media/frame-resize";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { EndpointConfig } from "../engine/judge-video";
import { guardedFetch } from "../calls/guarded-fetch";
import { chatCompletionBody, chatResultOf, LlmError, toLlmError, type ChatResult } from "../calls/llm-client";
import { errorBodyExcerpt } from "../calls/step-errors";
import { lineError, type StoredBatchRequest, type StoredLineError } from "./batch-requests";

/** OpenAI's limit on the lines of one batch. */
export const MAX_LINES_PER_BATCH = 50_000;
/**
 * OpenAI's limit on a batch input file is 200 MB; frames go in the lines as data URLs, so a batch can reach it
 * long before 50,000 lines. A batch's file stops short of it, with room for the multipart envelope.
 */
export const MAX_BATCH_FILE_BYTES = 190 * 1024 * 1024;
/** The provider's batch statuses after which a batch answers no more lines. */
const FINISHED = new Set(["completed", "failed", "expired", "cancelled"]);

/** The OpenAI SDK's Files and Batches APIs, as the runner uses them. */
export type BatchApi = Pick<OpenAI, "files" | "batches">;

export interface BatchRunnerDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  endpointConfig(runId: string, endpointId?: string): Promise<EndpointConfig>;
  batchApiFor(endpoint: EndpointConfig): BatchApi;
  /** Judges these videos again (their jobs go on the judge queue). */
  enqueueVideos(jobs: { runId: string; videoId: string }[]): Promise<void>;
  /** How many of the run's video jobs are queued or being judged. */
  videoJobsInFlight(runId: string): Promise<number>;
  log?(line: string): void;
  /** The largest input file a batch sends (default MAX_BATCH_FILE_BYTES); the lines past it go in a new batch. */
  maxFileBytes?: number;
}

/** The SDK client for an endpoint's Files and Batches APIs: through the same SSRF guard as chat calls. */
export function openAiBatchApi(endpoint: EndpointConfig): BatchApi {
  return new OpenAI({
    baseURL: endpoint.baseUrl,
    apiKey: endpoint.apiKey ?? "not-needed",
    maxRetries: 2,
    fetch: guardedFetch({ answers: "streamed" }),
  });
}

/**
 * One look at a batch-mode run, run by the batch check job (lib/judge/workers/queue.ts) until it says "finished":
 *
 * - a cancelled run cancels its unfinished batches at the provider;
 * - an unfinished batch is retrieved (its status and counts stored); once finished, its output and error
 *   files are read into its requests' rows, and the videos they belong to are judged again, which parses,
 *   repairs and scores the answers like online answers;
 * - when no batch is open and no video is being judged, the requests that wait (repairs, steps whose inputs
 *   came with the last batch, lines that failed and were retried) go out as the next batch.
 *
 * Every state lives in the database (judge_batch, batch_request): a look after a restart carries on.
 */
export async function advanceBatchRun(deps: BatchRunnerDeps, runId: string): Promise<"again" | "finished"> {
  const { prisma } = deps;
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { status: true, batchMode: true } });
  if (!run || !run.batchMode) return "finished";
  const open = await prisma.judgeBatch.findMany({ where: { runId, ingestedAt: null }, orderBy: { number: "asc" } });
  if (run.status === "cancelled") {
    for (const batch of open) await cancelBatch(deps, runId, batch);
    return "finished";
  }
  if (run.status === "done" || run.status === "failed") return "finished";

  for (const batch of open) {
    if (batch.providerBatchId === null) await submitBatch(deps, runId, batch.id);
    else await checkBatch(deps, runId, batch.id);
  }
  if ((await prisma.judgeBatch.count({ where: { runId, ingestedAt: null } })) > 0) return "again";
  // The next batch waits for every video's pass: the requests a pass adds go in one batch, not one per video.
  if ((await deps.videoJobsInFlight(runId)) > 0) return "again";
  const next = await openNextBatches(prisma, runId);
  if (next.length > 0) {
    for (const id of next) await submitBatch(deps, runId, id);
    return "again";
  }
  // Videos left running with nothing to wait for (their jobs were lost between a batch's answers and their
  // enqueueing): judged again; a video that has finished or waits for nothing more ends its run.
  const stuck = await prisma.runVideo.findMany({
    where: { runId, status: { in: ["queued", "running"] } },
    select: { videoId: true },
  });
  if (stuck.length > 0) {
    await deps.enqueueVideos(stuck.map((v) => ({ runId, videoId: v.videoId })));
    return "again";
  }
  return "finished";
}

/** The waiting requests of a run as new batches (one per endpoint, at most MAX_LINES_PER_BATCH lines each), not yet sent. */
async function openNextBatches(prisma: PrismaClient, runId: string): Promise<string[]> {
  return prisma.$transaction(async (tx) => {
    // One opener at a time per run: the check job is one per run, but a retried job may overlap a slow one.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`judge-batch:${runId}`}))`;
    const waiting = await tx.batchRequest.findMany({
      where: { runId, batchId: null, result: { equals: Prisma.DbNull }, error: null },
      select: { id: true, endpointId: true },
      orderBy: { createdAt: "asc" },
    });
    if (waiting.length === 0) return [];
    const last = await tx.judgeBatch.aggregate({ where: { runId }, _max: { number: true } });
    let number = last._max.number ?? 0;
    const byEndpoint = new Map<string, string[]>();
    for (const request of waiting)
      byEndpoint.set(request.endpointId, [...(byEndpoint.get(request.endpointId) ?? []), request.id]);
    const ids: string[] = [];
    for (const [endpointId, requestIds] of byEndpoint) {
      for (let i = 0; i < requestIds.length; i += MAX_LINES_PER_BATCH) {
        const lines = requestIds.slice(i, i + MAX_LINES_PER_BATCH);
        const batch = await tx.judgeBatch.create({
          data: { runId, endpointId, number: ++number, requestCount: lines.length },
        });
        await tx.batchRequest.updateMany({ where: { id: { in: lines } }, data: { batchId: batch.id } });
        ids.push(batch.id);
      }
    }
    return ids;
  });
}

/** Writes the batch's JSONL (its lines' bodies rendered as the online engine sends them), uploads it and creates the batch. */
async function submitBatch(deps: BatchRunnerDeps, runId: string, batchId: string) {
  const { prisma } = deps;
  const batch = await prisma.judgeBatch.findUniqueOrThrow({ where: { id: batchId } });
  const requests = await prisma.batchRequest.findMany({
    where: { batchId },
    select: { id: true, request: true },
    orderBy: { createdAt: "asc" },
  });
  const endpoint = await deps.endpointConfig(runId, batch.endpointId);
  const frames = new Map<string, Promise<string>>();
  const lines: string[] = [];
  // Each line's body size, kept on its request: the call rows of its answer record it as the bytes sent.
  const bodySizes: { id: string; bytes: number }[] = [];
  const maxBytes = deps.maxFileBytes ?? MAX_BATCH_FILE_BYTES;
  let bytes = 0;
  for (const [index, row] of requests.entries()) {
    const stored = row.request as unknown as StoredBatchRequest;
    const { frames: frameRefs, bodyBytes: _bodyBytes, ...request } = stored;
    const images = await Promise.all(
      frameRefs.map(async (frame) => ({
        url: await frameDataUrl(deps.storage, frames, frame.storageKey, frame.maxSide),
        detail: frame.detail,
      })),
    );
    const body = JSON.stringify(chatCompletionBody({ ...request, images }));
    const line = `{"custom_id":${JSON.stringify(row.id)},"method":"POST","url":"/v1/chat/completions","body":${body}}`;
    const size = Buffer.byteLength(line) + 1;
    if (lines.length > 0 && bytes + size > maxBytes) {
      await splitBatch(
        prisma,
        runId,
        batch,
        requests.slice(index).map((r) => r.id),
      );
      requests.length = index;
      break;
    }
    lines.push(line);
    bodySizes.push({ id: row.id, bytes: Buffer.byteLength(body) });
    bytes += size;
  }
  await prisma.$executeRaw`
    UPDATE batch_request br SET request = br.request || jsonb_build_object('bodyBytes', u.bytes)
    FROM jsonb_to_recordset(${JSON.stringify(bodySizes)}::jsonb) AS u(id text, bytes int)
    WHERE br.id = u.id`;
  const api = deps.batchApiFor(endpoint);
  try {
    const file = await api.files.create({
      file: await toFile(Buffer.from(lines.join("\n") + "\n"), `framejury-${runId}-batch-${batch.number}.jsonl`),
      purpose: "batch",
    });
    await prisma.judgeBatch.update({ where: { id: batchId }, data: { inputFileId: file.id } });
    const created = await api.batches.create({
      input_file_id: file.id,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
      metadata: { framejury_run: runId, framejury_batch: batchId },
    });
    await prisma.judgeBatch.update({
      where: { id: batchId },
      data: { providerBatchId: created.id, status: created.status, requestCount: requests.length },
    });
    deps.log?.(`run ${runId}: batch ${batch.number} (${created.id}) sent with ${requests.length} lines`);
  } catch (error) {
    const llmError = toLlmError(error, undefined, [endpoint.apiKey]);
    // A network hiccup or a 5xx: the check job is retried. A refusal fails the batch's lines, which fail their steps.
    if (llmError.retryable) throw llmError;
    const message = `The batch could not be created: ${llmError.message}`;
    await storeAnswers(prisma, batchId, "failed", message, new Map(), {
      message,
      kind: llmError.kind,
      status: llmError.status,
      excerpt: llmError.excerpt,
    });
    await judgeVideosOf(deps, runId, batchId);
  }
}

/** Moves `requestIds` (the lines that did not fit the batch's file) to a new batch of the run, sent at the next check. */
async function splitBatch(
  prisma: PrismaClient,
  runId: string,
  batch: { id: string; endpointId: string },
  requestIds: string[],
) {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`judge-batch:${runId}`}))`;
    const last = await tx.judgeBatch.aggregate({ where: { runId }, _max: { number: true } });
    const rest = await tx.judgeBatch.create({
      data: {
        runId,
        endpointId: batch.endpointId,
        number: (last._max.number ?? 0) + 1,
        requestCount: requestIds.length,
      },
    });
    await tx.batchRequest.updateMany({
      where: { id: { in: requestIds }, batchId: batch.id },
      data: { batchId: rest.id },
    });
    await tx.judgeBatch.update({ where: { id: batch.id }, data: { requestCount: { decrement: requestIds.length } } });
  });
}

/** Retrieves a sent batch; once it has finished, reads its answers in and judges its videos again. */
async function checkBatch(deps: BatchRunnerDeps, runId: string, batchId: string) {
  const { prisma } = deps;
  const batch = await prisma.judgeBatch.findUniqueOrThrow({ where: { id: batchId } });
  const endpoint = await deps.endpointConfig(runId, batch.endpointId);
  const api = deps.batchApiFor(endpoint);
  const remote = await api.batches.retrieve(batch.providerBatchId!);
  const counts = remote.request_counts ?? { total: batch.requestCount, completed: 0, failed: 0 };
  await prisma.judgeBatch.update({
    where: { id: batchId },
    data: { status: remote.status, completedCount: counts.completed, failedCount: counts.failed },
  });
  if (!FINISHED.has(remote.status)) return;

  const answers = new Map<string, { result: ChatResult } | { error: StoredLineError }>();
  for (const fileId of [remote.output_file_id, remote.error_file_id]) {
    if (!fileId) continue;
    const text = await (await api.files.content(fileId)).text();
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const parsed = readOutputLine(line, [endpoint.apiKey]);
      if (parsed) answers.set(parsed.customId, parsed.answer);
    }
  }
  const batchProblem = remote.errors?.data
    ?.map((e) => e.message)
    .filter(Boolean)
    .join("; ");
  const unanswered: StoredLineError = {
    kind: "server",
    status: null,
    message:
      remote.status === "failed" ? "The batch failed." : `The batch ended ${remote.status} before answering this line.`,
    excerpt: errorBodyExcerpt(batchProblem, [endpoint.apiKey]),
  };
  await storeAnswers(
    prisma,
    batchId,
    remote.status,
    remote.status === "failed" ? unanswered.message : null,
    answers,
    unanswered,
  );
  deps.log?.(
    `run ${runId}: batch ${batch.number} (${batch.providerBatchId}) ${remote.status}: ${counts.completed} answered, ${counts.failed} failed`,
  );
  await judgeVideosOf(deps, runId, batchId);
}

/** One line of an output or error file: a custom_id with its answer, or its error. Null for a line without a custom_id. */
function readOutputLine(
  line: string,
  secrets: (string | null)[],
): { customId: string; answer: { result: ChatResult } | { error: StoredLineError } } | null {
  let parsed: {
    custom_id?: unknown;
    response?: { status_code?: number; body?: unknown } | null;
    error?: { code?: string | null; message?: string | null } | null;
  };
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof parsed.custom_id !== "string") return null;
  const customId = parsed.custom_id;
  const status = parsed.response?.status_code ?? null;
  if (parsed.error || status !== 200) {
    const bodyError = (
      parsed.response?.body as
        { error?: { code?: string | null; type?: string | null; message?: string | null } } | undefined
    )?.error;
    return {
      customId,
      answer: {
        error: lineError(
          status,
          parsed.error?.code ?? bodyError?.code ?? bodyError?.type ?? null,
          parsed.error?.message ?? bodyError?.message ?? null,
          secrets,
        ),
      },
    };
  }
  try {
    return { customId, answer: { result: chatResultOf(parsed.response!.body as Parameters<typeof chatResultOf>[0]) } };
  } catch (error) {
    const e =
      error instanceof LlmError ? error : new LlmError("bad_response", "Unreadable answer in the batch output.");
    return { customId, answer: { error: { kind: e.kind, status: 200, message: e.message, excerpt: e.excerpt } } };
  }
}

/** Every line of the batch gets its answer or its error (a line the provider never answered gets `unanswered`); then the batch is closed. */
async function storeAnswers(
  prisma: PrismaClient,
  batchId: string,
  status: string,
  batchError: string | null,
  answers: Map<string, { result: ChatResult } | { error: StoredLineError }>,
  unanswered: StoredLineError,
) {
  const lines = await prisma.batchRequest.findMany({ where: { batchId }, select: { id: true } });
  const rows = lines.map(({ id }) => {
    const answer = answers.get(id) ?? { error: unanswered };
    return "result" in answer
      ? { id, result: answer.result, error: null, errorKind: null, errorStatus: null, errorExcerpt: null }
      : {
          id,
          result: null,
          error: answer.error.message,
          errorKind: answer.error.kind,
          errorStatus: answer.error.status,
          errorExcerpt: answer.error.excerpt,
        };
  });
  const failed = rows.filter((r) => r.error !== null).length;
  await prisma.$transaction([
    prisma.$executeRaw`
      UPDATE batch_request br SET result = u.result, error = u.error, "errorKind" = u."errorKind", "errorStatus" = u."errorStatus", "errorExcerpt" = u."errorExcerpt"
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS u(id text, result jsonb, error text, "errorKind" text, "errorStatus" int, "errorExcerpt" text)
      WHERE br.id = u.id`,
    prisma.judgeBatch.update({
      where: { id: batchId },
      data: {
        status,
        error: batchError,
        ingestedAt: new Date(),
        completedCount: rows.length - failed,
        failedCount: failed,
      },
    }),
  ]);
}

async function judgeVideosOf(deps: BatchRunnerDeps, runId: string, batchId: string) {
  const videos = await deps.prisma.batchRequest.findMany({
    where: { batchId },
    distinct: ["videoId"],
    select: { videoId: true },
  });
  await deps.enqueueVideos(videos.map((v) => ({ runId, videoId: v.videoId })));
}

/** A cancelled run's batch: cancelled at the provider (when sent and still open) and closed here. */
async function cancelBatch(
  deps: BatchRunnerDeps,
  runId: string,
  batch: { id: string; endpointId: string; providerBatchId: string | null; status: string },
) {
  let status = "cancelled";
  if (batch.providerBatchId !== null && !FINISHED.has(batch.status)) {
    const endpoint = await deps.endpointConfig(runId, batch.endpointId);
    try {
      status = (await deps.batchApiFor(endpoint).batches.cancel(batch.providerBatchId)).status;
    } catch (error) {
      const llmError = toLlmError(error, undefined, [endpoint.apiKey]);
      if (llmError.retryable) throw llmError;
      // A batch that finished meanwhile cannot be cancelled: nothing is left to stop.
      deps.log?.(`run ${runId}: cancelling batch ${batch.providerBatchId} was refused: ${llmError.message}`);
    }
  }
  await deps.prisma.judgeBatch.update({
    where: { id: batch.id },
    data: { status, error: "Cancelled with the run.", ingestedAt: new Date() },
  });
}

/** A frame as a data URL (scaled to `maxSide` when asked), read once per batch and size however many lines send it. */
function frameDataUrl(
  storage: ObjectStorage,
  read: Map<string, Promise<string>>,
  storageKey: string,
  maxSide?: number,
): Promise<string> {
  const key = maxSide ? `${storageKey}@${maxSide}` : storageKey;
  let url = read.get(key);
  if (!url) {
    url = (async () => {
      return `data:image/jpeg;base64,${frameAsSent(await storage.getBytes(storageKey), maxSide).toString("base64")}`;
    })();
    read.set(key, url);
  }
  return url;
}

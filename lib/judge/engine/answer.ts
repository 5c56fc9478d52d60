/**
 * One answer to one request of a step: from the response cache, from a batch line, or from the endpoint (an attempt at
 * a time, under its limiter), each with the call row that records it.
 */
import { randomUUID } from "node:crypto";
import { attemptError, LlmError, type ChatRequest, type ChatResult } from "../calls/llm-client";
import { stepErrorMessage } from "../calls/step-errors";
import { callCostUsd, estimatedPromptTokens } from "../calls/lost-calls";
import { AwaitingBatch, BATCH_PRICE_FACTOR, batchAnswer } from "../batch/batch-requests";
import { reserveCallCost, settleCallCost, stopForBudget } from "../runs/run-budget";
import { promptShapeOf, requestBodyBytes } from "../calls/call-record";
import type { BatchFrames, CallRecord } from "./build-request";
import type { EndpointConfig, JudgeDeps } from "./judge-deps";
import { runWatch } from "./run-watch";
import type { CachedAnswer, CallRow, JudgeStore } from "./step-store";

export type Answer = ChatResult & { fromCache: boolean };
export type Answered = { ok: true; answer: Answer; call: CallRow } | { ok: false; error: LlmError; call: CallRow };

/**
 * A step's start, marked with its first cache look-up that misses (a step that makes a call is running before the
 * call); `lookedUp` tells the video that the step has looked up its answer.
 */
export interface StepStart {
  id: string;
  at: Date;
  done: boolean;
  lookedUp(): void;
}

/** What every call row of one request shares; each outcome adds its own fields. */
type CallBase = Pick<CallRow, "runId" | "stepResultId" | "videoId" | "model" | "request" | "isRepair" | "saw">;

const NO_USAGE = {
  httpStatus: null,
  error: null,
  errorExcerpt: null,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  latencyMs: 0,
  retries: 0,
} satisfies Partial<CallRow>;

/**
 * The answer to a request from the cache or a batch line, with the call row that records it (not written yet); or,
 * when it goes to the endpoint, the call that sends it.
 */
export async function answer(
  deps: JudgeDeps,
  store: JudgeStore,
  endpoint: EndpointConfig,
  request: Omit<ChatRequest, "images" | "video" | "videos">,
  /** The request's images and video part, read only for a call that goes out. */
  media: () => Promise<Pick<ChatRequest, "images" | "video" | "videos">>,
  cacheKey: string,
  record: CallRecord & { isRepair: boolean },
  start: StepStart,
  batch: BatchFrames | null = null,
): Promise<Answered | EndpointCall> {
  const callBase: CallBase = {
    runId: record.runId,
    stepResultId: record.stepResultId,
    videoId: record.videoId,
    model: endpoint.model,
    request: {
      text: record.text,
      frameIds: record.frameIds,
      temperature: request.temperature ?? null,
      imageDetail: endpoint.imageDetail,
      responseFormat: request.responseFormat ?? null,
      followUp: request.followUp ?? null,
      ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
      ...promptShapeOf(request, record.sent),
    },
    isRepair: record.isRepair,
    saw: record.saw,
  };
  const found = await store.lookUp(cacheKey, start.done ? null : start);
  start.lookedUp();
  if (found.cached) return cachedAnswered(found.cached, callBase);
  if (!start.done) {
    if (!found.started) throw new LlmError("cancelled", "Cancelled.");
    start.done = true;
  }
  if (batch) return batchAnswered(deps, endpoint, request, batch.frames, cacheKey, record, callBase);
  return endpointCall(deps, store, endpoint, { ...request, ...(await media()) }, record, callBase);
}

function cachedAnswered(cached: CachedAnswer, callBase: CallBase): Answered {
  return {
    ok: true,
    answer: {
      text: cached.responseText,
      refusal: null,
      finishReason: cached.finishReason,
      promptTokens: 0,
      completionTokens: 0,
      logprobs: cached.logprobs,
      fromCache: true,
    },
    call: {
      ...callBase,
      ...NO_USAGE,
      responseText: cached.responseText,
      finishReason: cached.finishReason,
      cached: true,
      createdAt: new Date(),
    },
  };
}

/**
 * A request going to the endpoint, sent by the recovery loop one attempt at a time (it decides whether a failed
 * attempt is sent again). Its attempts share one call row: recorded as "sent" before the first goes out, with the
 * outcome of the last, the attempts after the first and the whole time they took.
 */
export interface EndpointCall {
  /**
   * One attempt, under the endpoint's limiter; throws the database's error when the call could not be recorded.
   * `notSent`: the run's budget refused the request's first attempt, which did not go out; its call row is gone.
   */
  attempt(): Promise<{ ok: true; result: ChatResult } | { ok: false; error: LlmError; notSent?: true }>;
  /** The failed attempt is sent again after `delayMs`. */
  retrying(error: LlmError, delayMs: number): void;
  answered(result: ChatResult): Answered;
  failed(error: LlmError): Answered;
}

function endpointCall(
  deps: JudgeDeps,
  store: JudgeStore,
  endpoint: EndpointConfig,
  full: ChatRequest,
  record: CallRecord,
  callBase: CallBase,
): EndpointCall {
  const client = deps.llmFor(endpoint);
  const limiter = deps.limiterFor(endpoint);
  const bytesSent = requestBodyBytes(full);
  const sent = sentCall(store, endpoint, full, record, { ...callBase, bytesSent });
  const budget = callBudget(deps, record.runId, endpoint, sent.estimateUsd);
  const started = Date.now();
  let lastStatus: number | null = null;
  let retries = 0;
  // What every outcome's row shares: the outcome updates the "sent" row, which keeps the request.
  const outcome = () => ({
    ...callBase,
    ...NO_USAGE,
    request: sent.stored() ? null : callBase.request,
    id: sent.id,
    cached: false,
    bytesSent,
    latencyMs: Date.now() - started,
    retries,
    createdAt: new Date(),
  });
  return {
    async attempt() {
      try {
        const result = await limiter.run(
          async () => {
            await sent.record();
            // With its slot, right before it goes out: a call its run's budget no longer holds is not sent.
            if (!(await budget.reserve())) throw BUDGET_REFUSED;
            // A retry sends a clip URL of its own: the failed attempt's may have been fetched (it serves once).
            const request = retries > 0 && full.video?.renew ? { ...full, video: full.video.renew() } : full;
            return client.complete(request, { timeoutMs: endpoint.timeoutSeconds * 1000 });
          },
          // Its failure is the task's: the task awaits the same write and fails the step with it.
          () => void sent.record().catch(() => {}),
        );
        await budget.settle(
          result.usageKnown !== false ? callCostUsd(endpoint, result.promptTokens, result.completionTokens) : null,
        );
        return { ok: true, result };
      } catch (error) {
        await budget.settle(0);
        const notRecorded = sent.notRecorded();
        if (notRecorded) throw notRecorded.error;
        if (error === BUDGET_REFUSED && retries === 0) {
          // Never sent: no call to show. Its "sent" row is written (the task awaited it) and goes.
          await deps.prisma.llmCall.deleteMany({ where: { id: sent.id, status: "sent" } });
          return { ok: false, error: notSentError(), notSent: true };
        }
        return { ok: false, error: error === BUDGET_REFUSED ? notSentError() : attemptError(error) };
      }
    },
    retrying(error, delayMs) {
      lastStatus = error.status;
      retries++;
      deps.log?.(`retrying after ${error.kind} in ${Math.round(delayMs)} ms`);
    },
    answered(result) {
      // Without `usage` the call's tokens and cost are unknown: stored as 0 with usageKnown false, never as free.
      const usageKnown = result.usageKnown !== false;
      return {
        ok: true,
        answer: { ...result, fromCache: false },
        call: {
          ...outcome(),
          responseText: result.text ?? result.refusal,
          reasoning: result.reasoning ?? null,
          finishReason: result.finishReason,
          httpStatus: 200,
          promptTokens: result.promptTokens,
          completionTokens: result.completionTokens,
          costUsd: usageKnown ? callCostUsd(endpoint, result.promptTokens, result.completionTokens) : 0,
          usageKnown,
          reportedModel: result.reportedModel ?? null,
        },
      };
    },
    failed(error) {
      return {
        ok: false,
        error,
        call: {
          ...outcome(),
          responseText: null,
          finishReason: null,
          error: `${error.kind}: ${stepErrorMessage(error)}`,
          errorExcerpt: error.excerpt,
          httpStatus: error.status ?? lastStatus,
        },
      };
    },
  };
}

/** Thrown inside the limiter's task when the run's budget refuses the call. */
const BUDGET_REFUSED = new Error("budget refused");

const notSentError = () =>
  new LlmError("cancelled", "Not sent: the run's budget was reached, or the run was cancelled.");

/**
 * A call's hold on its run's budget (lib/judge/runs/run-budget.ts): reserved at its estimate right before each attempt is
 * sent, settled after it. A run without a budget, or an endpoint without prices, reserves nothing.
 */
function callBudget(deps: JudgeDeps, runId: string, endpoint: EndpointConfig, estimateUsd: number) {
  const priced = endpoint.pricePer1kInput !== null || endpoint.pricePer1kOutput !== null;
  let held = false;
  return {
    /** False when the call must not be sent: the run stops for its budget (or was cancelled). */
    async reserve(): Promise<boolean> {
      if (!priced) return true;
      const watch = runWatch(deps, runId);
      if (!(await watch.budgeted())) return true;
      if (await reserveCallCost(deps.prisma, runId, estimateUsd)) return (held = true);
      await stopForBudget(deps.prisma, runId);
      watch.lookAgain();
      return false;
    },
    /**
     * Replaces the reservation by the attempt's cost (0 for a failed attempt: stored so too); a cost unknown (an
     * answer without usage) keeps the estimate. A settlement the database missed leaves the estimate reserved.
     */
    async settle(costUsd: number | null): Promise<void> {
      if (!held) return;
      held = false;
      await settleCallCost(deps.prisma, runId, { reservedUsd: estimateUsd, costUsd: costUsd ?? estimateUsd }).catch(
        (error: unknown) => (deps.log ?? console.error)(`settling a call of run ${runId} failed: ${String(error)}`),
      );
    },
  };
}

/**
 * The call's "sent" row, with tokens and cost estimated from the request, written before its request goes out:
 * a worker that dies before the answer is stored leaves it to be counted as lost (lib/judge/calls/lost-calls.ts). Its
 * outcome later updates the same row. The row is written as the call nears its slot (the limiter's head start),
 * so the write overlaps the wait instead of holding the slot; however often asked, it is written once.
 */
function sentCall(
  store: JudgeStore,
  endpoint: EndpointConfig,
  full: ChatRequest,
  record: CallRecord,
  callBase: CallBase & { bytesSent: number },
) {
  const id = randomUUID();
  const estimatedTokens = estimatedPromptTokens({
    text: record.text,
    imageCount: full.images.length,
    followUp: full.followUp ?? null,
  });
  const row: CallRow = {
    ...callBase,
    ...NO_USAGE,
    id,
    status: "sent",
    responseText: null,
    finishReason: null,
    cached: false,
    promptTokens: estimatedTokens,
    costUsd: callCostUsd(endpoint, estimatedTokens, 0),
    createdAt: new Date(),
  };
  let written: Promise<void> | null = null;
  let stored = false;
  let notRecorded: { error: unknown } | null = null;
  return {
    id,
    /** The call's cost estimated from its request, which its run's budget reserves. */
    estimateUsd: row.costUsd,
    stored: () => stored,
    notRecorded: () => notRecorded,
    async record() {
      try {
        await (written ??= store.call(row));
        stored = true;
      } catch (error) {
        // Never sent unrecorded: the database's error fails the step, not a retryable "bad answer".
        notRecorded = { error };
        throw new LlmError("client", "The call could not be recorded before sending it.");
      }
    },
  };
}

/** A batch line's answer to a request (at the batch price), or AwaitingBatch once the request is queued for the next batch. */
async function batchAnswered(
  deps: JudgeDeps,
  endpoint: EndpointConfig,
  request: Omit<ChatRequest, "images">,
  frames: BatchFrames["frames"],
  cacheKey: string,
  record: { runId: string; stepResultId: string; videoId: string },
  callBase: CallBase,
): Promise<Answered> {
  const line = await batchAnswer(deps.prisma, {
    runId: record.runId,
    stepResultId: record.stepResultId,
    videoId: record.videoId,
    endpointId: endpoint.id,
    cacheKey,
    body: { ...request, frames },
  });
  if (line === null) throw new AwaitingBatch();
  if ("error" in line) {
    const error = line.error;
    return {
      ok: false,
      error,
      call: {
        ...callBase,
        ...NO_USAGE,
        responseText: null,
        finishReason: null,
        cached: false,
        error: `${error.kind}: ${stepErrorMessage(error)}`,
        errorExcerpt: error.excerpt,
        httpStatus: error.status,
        bytesSent: line.bodyBytes,
        createdAt: new Date(),
      },
    };
  }
  const result = line.result;
  const usageKnown = result.usageKnown !== false;
  const cost = usageKnown ? callCostUsd(endpoint, result.promptTokens, result.completionTokens, BATCH_PRICE_FACTOR) : 0;
  return {
    ok: true,
    answer: { ...result, fromCache: false },
    call: {
      ...callBase,
      ...NO_USAGE,
      usageKnown,
      reportedModel: result.reportedModel ?? null,
      reasoning: result.reasoning ?? null,
      responseText: result.text ?? result.refusal,
      finishReason: result.finishReason,
      cached: false,
      httpStatus: 200,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      costUsd: cost,
      bytesSent: line.bodyBytes,
      createdAt: new Date(),
    },
  };
}

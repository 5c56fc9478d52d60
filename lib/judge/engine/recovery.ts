/**
 * The recovery loop of a step that asks an LLM: it sends, reads what came back, and `nextMove` alone decides what
 * happens next. A failed attempt (a 429, a 5xx, a timeout) is sent again after a backoff while attempts are left, on
 * the same call row; an answer cut off at the token limit is asked again once with a larger max_tokens; an answer
 * that fails its schema gets one repair request carrying the validation error; otherwise the step ends, done or
 * parse_failed, or fails.
 */
import {
  DEFAULT_RETRY_POLICY,
  LlmError,
  type ChatRequest,
  type ChatResult,
  type RetryPolicy,
} from "../calls/llm-client";
import { parseStructuredOutput, type StructuredOutput } from "../calls/parse-llm-output";
import { expectedScore } from "../calls/expected-score";
import { targetIdOfCategory, type TaskDeclaration } from "../../task-modules/task-declaration";
import { responseCacheKey } from "./cache-key";
import { answer, type Answer, type Answered, type EndpointCall, type StepStart } from "./answer";
import type { BatchFrames, BuiltRequest } from "./build-request";
import type { EndpointConfig, JudgeDeps } from "./judge-deps";
import type { RawAnswer, ScoreValue, StepDefinition, StepInput } from "../../task-modules/pipeline-types";
import type { CacheRow, CallRow, JudgeStore, StepFinish } from "./step-store";
import type { Writes } from "./writes";

/** Why a request of a step was sent: the step's own, the same asked again for a longer answer, or a repair. */
export type AskReason = "first" | "longer" | "repair";

export interface Ask {
  why: AskReason;
  request: Omit<ChatRequest, "images">;
  cacheKey: string;
  batch: BatchFrames | null;
}

export interface Asked {
  why: AskReason;
  request: Omit<ChatRequest, "images">;
  answer: Answer;
}

/** How a step that got its answers ends (the rest of its row, its calls and its start are the step's). */
export type StepEnd = Pick<StepFinish, "status" | "output" | "rawText" | "error" | "scores" | "cache">;

/** What follows an answer: another request, the step's end, or its failure. */
export type AnswerMove = { next: "ask"; ask: Ask } | { next: "fail"; error: LlmError } | { next: "end"; end: StepEnd };
/** What follows a failed attempt: the same request again after a wait, or the step's failure. */
export type AttemptMove = { next: "resend"; delayMs: number } | { next: "fail"; error: LlmError };
export type Move = AnswerMove | AttemptMove;

/** An attempt of the request in flight that failed, and its number (1 for the first). */
export interface FailedAttempt {
  error: LlmError;
  attempt: number;
}

/** What `nextMove` reads besides the answers: the step, its input and request, the endpoint and the task. */
export interface RecoveryPlan {
  step: StepDefinition;
  input: StepInput;
  built: BuiltRequest;
  endpoint: Pick<EndpointConfig, "model" | "maxTokens">;
  task: TaskDeclaration;
  /** How failed attempts are sent again: the policy, and the jitter's source. */
  retry?: { policy?: RetryPolicy; random?: () => number };
  /** Why the plan's own request is sent, when it is not the step's first: a repair its caller asks for itself. */
  firstWhy?: AskReason;
}

/**
 * Sends until `nextMove` ends the step: returns its end, or throws the error that fails it (a call's, or an answer
 * cut off for good). Each request's call row goes in `calls`; the row of a request that a further one follows is
 * written through `earlier` before the step's end.
 */
export async function recover(
  deps: JudgeDeps,
  store: JudgeStore,
  plan: RecoveryPlan & { endpoint: EndpointConfig },
  progress: { start: StepStart; calls: CallRow[]; earlier: Writes },
): Promise<StepEnd> {
  const { built, endpoint } = plan;
  const { calls, earlier } = progress;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const asked: Asked[] = [];
  let ask: Ask = {
    why: plan.firstWhy ?? "first",
    request: built.request,
    cacheKey: built.cacheKey,
    batch: built.batch,
  };
  // The request going to the endpoint, and how many of its attempts went out.
  let call: EndpointCall | null = null;
  let attempts = 0;
  let firstCall: CallRow | null = null;
  for (;;) {
    let got: Answered;
    if (call === null) {
      const record = { ...built.callRecord, isRepair: ask.why !== "first" };
      const opened = await answer(
        deps,
        store,
        endpoint,
        ask.request,
        built.media,
        ask.cacheKey,
        record,
        progress.start,
        ask.batch,
      );
      if (!("ok" in opened)) {
        [call, attempts] = [opened, 0];
        continue;
      }
      got = opened;
    } else {
      const tried = await call.attempt();
      // Refused by the run's budget before it went out: no call row, the step ends cancelled.
      if (!tried.ok && tried.notSent) throw tried.error;
      attempts++;
      if (tried.ok) got = call.answered(tried.result);
      else {
        const move = nextMove(asked, plan, { error: tried.error, attempt: attempts });
        if (move.next === "resend") {
          call.retrying(tried.error, move.delayMs);
          await sleep(move.delayMs);
          continue;
        }
        got = call.failed(tried.error);
      }
      call = null;
    }
    // The inspector lists a step's calls by time: a later call's comes after the first's, even within a millisecond.
    if (firstCall && got.call.createdAt <= firstCall.createdAt)
      got.call.createdAt = new Date(firstCall.createdAt.getTime() + 1);
    firstCall ??= got.call;
    calls.push(got.call);
    if (!got.ok) throw got.error;
    asked.push({ why: ask.why, request: ask.request, answer: got.answer });
    const move = nextMove(asked, plan);
    if (move.next === "fail") throw move.error;
    if (move.next === "end") return move.end;
    // The call before a further one is written first, except a batch step's first answer: it is read again from its
    // batch line in the pass that gets the repair's, and its call row goes with the step's end.
    if (!move.ask.batch) earlier.add(store.call(calls.pop()!));
    ask = move.ask;
  }
}

/**
 * The one place that decides, from the answers so far (and the failed attempt of the request in flight, if one
 * failed), whether a step sends a request again, asks another, ends or fails. A failed attempt's move reads only the
 * plan's retry settings.
 */
export function nextMove(asked: readonly Asked[], plan: RecoveryPlan): AnswerMove;
export function nextMove(
  asked: readonly Asked[],
  plan: Pick<RecoveryPlan, "retry">,
  failed: FailedAttempt,
): AttemptMove;
export function nextMove(
  asked: readonly Asked[],
  plan: RecoveryPlan | Pick<RecoveryPlan, "retry">,
  failed?: FailedAttempt,
): Move {
  if (failed) return attemptMove(failed, plan.retry);
  return answerMove(asked, plan as RecoveryPlan);
}

/**
 * A failed attempt is sent again while attempts are left and a retry may mend it (a 429, a 5xx, a timeout, a broken
 * connection, an unreadable answer), after exponential backoff with full jitter and at least as long as
 * `retry-after` says; otherwise the step fails with the error as it is.
 */
function attemptMove(failed: FailedAttempt, retry: RecoveryPlan["retry"]): AttemptMove {
  const policy = retry?.policy ?? DEFAULT_RETRY_POLICY;
  const { error, attempt } = failed;
  if (!error.retryable || attempt >= policy.maxAttempts) return { next: "fail", error };
  const backoff =
    Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * (retry?.random ?? Math.random)();
  return { next: "resend", delayMs: Math.max(backoff, error.retryAfterMs ?? 0) };
}

function answerMove(asked: readonly Asked[], plan: RecoveryPlan): AnswerMove {
  const { step, input, built, endpoint } = plan;
  const first = asked[0]!;
  const last = asked[asked.length - 1]!;
  const endpointMax = endpoint.maxTokens ?? null;
  // An answer cut off at the token limit is asked again once with a larger max_tokens (within the endpoint's
  // setting); that answer counts as the step's repair. Cut off again (or no larger budget allowed): the step fails.
  if (last.answer.finishReason === "length" && !built.batch) {
    const cutAt = answerTokens(last.answer);
    if (last.why === "longer") return fail(cutOffMessage(cutAt, endpointMax, last.request.maxTokens ?? undefined));
    if (last.why === "first") {
      const maxTokens = largerMaxTokens(endpointMax, cutAt);
      if (maxTokens === null) return fail(cutOffMessage(cutAt, endpointMax));
      const cacheKey = responseCacheKey({ ...built.cacheParts, repairOf: `max_tokens ${maxTokens}` });
      return { next: "ask", ask: { why: "longer", request: { ...built.request, maxTokens }, cacheKey, batch: null } };
    }
  }
  const second = asked.length > 1 ? last.answer : null;
  if (step.rawAnswer) return { next: "end", end: rawAnswerEnd(plan, first.answer, second) };
  const schema = step.schemaFor?.(input) ?? step.schema;
  const firstText = first.answer.text ?? first.answer.refusal ?? "";
  const firstParsed = parse(first.answer, schema);
  if (asked.length === 1) {
    if (firstParsed.ok) return { next: "end", end: parsedEnd(plan, firstParsed, firstText, first.answer, null) };
    // One repair request carrying the validation error; if that fails too, the step is parse_failed.
    // Repair answers are not cached under their own key; entries an older version cached that way still count.
    const request = {
      ...built.request,
      followUp: { previousAnswer: firstText || "(empty answer)", correction: firstParsed.repairHint },
    };
    const cacheKey = responseCacheKey({ ...built.cacheParts, repairOf: firstText });
    return { next: "ask", ask: { why: "repair", request, cacheKey, batch: built.batch } };
  }
  const parsed = parse(last.answer, schema);
  const lastText = last.answer.text ?? last.answer.refusal ?? "";
  if (last.why === "longer") {
    const rawText = `${first.answer.text ?? ""}\n\n--- answer asked again with a larger max_tokens ---\n${lastText}`;
    return { next: "end", end: parsedEnd(plan, parsed, rawText, first.answer, last.answer) };
  }
  const rawText = `${firstText}\n\n--- repair answer ---\n${lastText}`;
  const repaired =
    parsed.ok || firstParsed.ok ? parsed : { ...parsed, error: `${firstParsed.error} Repair: ${parsed.error}` };
  return { next: "end", end: parsedEnd(plan, repaired, rawText, first.answer, last.answer) };
}

const fail = (message: string): AnswerMove => ({ next: "fail", error: new LlmError("client", message) });

function parse(answered: Answer, schema: StepDefinition["schema"]): StructuredOutput<unknown> {
  return parseStructuredOutput(answered.text, schema, {
    finishReason: answered.finishReason,
    refusal: answered.refusal,
    reasoning: answered.reasoning,
  });
}

/** The answer as the model gave it is the result: no JSON, no validation, no repair. */
function rawAnswerEnd(plan: RecoveryPlan, first: Answer, second: Answer | null): StepEnd {
  const answered = second ?? first;
  const output: RawAnswer = {
    text: answered.text ?? "",
    refusal: answered.refusal,
    finishReason: answered.finishReason,
  };
  return {
    status: "done",
    output,
    rawText: answered.text ?? answered.refusal ?? "",
    error: null,
    scores: plan.step.scores?.(output, plan.input) ?? [],
    // The cache keeps text only: a refusal read back from it would come back as an empty answer.
    cache:
      answered.fromCache || answered.refusal
        ? []
        : validAnswerToCache(plan.built.cacheKey, plan.endpoint.model, first, second),
  };
}

function parsedEnd(
  plan: RecoveryPlan,
  parsed: StructuredOutput<unknown>,
  rawText: string,
  first: Answer,
  second: Answer | null,
): StepEnd {
  if (!parsed.ok) return { status: "parse_failed", rawText, error: parsed.error, scores: [], cache: [] };
  const { step, input } = plan;
  return {
    status: "done",
    output: parsed.value,
    rawText,
    error: null,
    scores: withExpectedScores(
      step.scores?.(parsed.value, input) ?? [],
      (second ?? first).logprobs,
      plan.task,
      step.scoreKeys?.(input) ?? {},
    ),
    cache: validAnswerToCache(plan.built.cacheKey, plan.endpoint.model, first, second),
  };
}

/**
 * Each score with its logprob-weighted value beside it, from the answer's logprobs (null without them:
 * a cached answer stored before logprobs were asked for has none, and says so).
 */
function withExpectedScores(
  scores: ScoreValue[],
  logprobs: ChatResult["logprobs"],
  task: TaskDeclaration,
  keys: Record<string, string>,
): ScoreValue[] {
  if (!logprobs?.length) return scores;
  return scores.map((score) => {
    const target = task.targets.find((t) => t.id === targetIdOfCategory(task, score.category)) ?? null;
    return { ...score, expected: expectedScore(logprobs, keys[score.category] ?? score.category, score.value, target) };
  });
}

/**
 * What a valid result puts in the response cache: under the original request's key, the answer that
 * passed validation, so an identical request later gets it with no call, repaired or not. Nothing
 * when it came from the cache as it is; an answer found there that failed validation (cached before
 * only valid answers were) is replaced. Errors and invalid answers are never cached.
 */
function validAnswerToCache(key: string, model: string, first: Answer, repaired: Answer | null): CacheRow[] {
  if (repaired === null) {
    return first.fromCache
      ? []
      : [
          {
            key,
            model,
            responseText: first.text ?? "",
            finishReason: first.finishReason,
            promptTokens: first.promptTokens,
            completionTokens: first.completionTokens,
            logprobs: first.logprobs ?? null,
            replace: false,
          },
        ];
  }
  return [
    {
      key,
      model,
      responseText: repaired.text ?? "",
      finishReason: repaired.finishReason,
      // What getting the valid answer took: the first call and the repair.
      promptTokens: first.promptTokens + repaired.promptTokens,
      completionTokens: first.completionTokens + repaired.completionTokens,
      logprobs: repaired.logprobs ?? null,
      replace: first.fromCache,
    },
  ];
}

/** The answer's length in tokens: as the endpoint reported it, else estimated at 4 characters a token. */
function answerTokens(answer: ChatResult): number {
  if (answer.usageKnown !== false && answer.completionTokens > 0) return answer.completionTokens;
  return Math.ceil(((answer.reasoning ?? "").length + (answer.text ?? "").length) / 4);
}

/** Without an endpoint setting, an answer cut off is asked again with twice its length, at most this. */
export const CUT_OFF_RETRY_MAX_TOKENS = 16_384;

/**
 * The max_tokens for asking again an answer cut off at `cutAt` tokens: the endpoint's setting when it is larger,
 * else (no setting) twice the cut, at least 1,024 and at most CUT_OFF_RETRY_MAX_TOKENS; null when nothing larger is allowed.
 */
export function largerMaxTokens(endpointMax: number | null, cutAt: number): number | null {
  const larger = endpointMax ?? Math.min(CUT_OFF_RETRY_MAX_TOKENS, Math.max(1024, 2 * cutAt));
  return larger > cutAt ? larger : null;
}

function cutOffMessage(cutAt: number, endpointMax: number | null, askedFor?: number): string {
  const again = askedFor === undefined ? "" : `, also when asked again with max_tokens ${askedFor}`;
  const raise =
    endpointMax === null
      ? "Set the endpoint's max answer tokens higher, or make the server allow longer answers (vLLM: a larger --max-model-len)."
      : `Raise the endpoint's max answer tokens (now ${endpointMax}), or make the server allow longer answers (vLLM: a larger --max-model-len).`;
  return `Answer cut off at ${cutAt} tokens (finish_reason "length")${again}. ${raise}`;
}

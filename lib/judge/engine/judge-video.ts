import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { CallLimiter } from "../endpoint-limiter";
import {
  callWithRetries,
  LlmError,
  type ChatImage,
  type ChatRequest,
  type ChatResult,
  type LlmClient,
  type RetryPolicy,
} from "../llm-client";
import { parseStructuredOutput } from "../parse-llm-output";
import { keyFramesAndClusters } from "../frame-scopes";
import { stepErrorMessage } from "../step-errors";
import { callCostUsd, estimatedPromptTokens } from "../lost-calls";
import { AwaitingBatch, BATCH_PRICE_FACTOR, batchAnswer, stepAwaitsBatch } from "../batch/batch-requests";
import { responseCacheKey } from "./cache-key";
import { withPromptVersions, type TemplateSource } from "../template-source";
import { imagesFirst, splitSystemMessage, templateTurns } from "../prompt-templates";
import { templateExamplesText, type TemplateExample } from "../template-examples";
import { ValidationError } from "../../errors";
import { ensureRubricTasks } from "../../rubrics/rubric-registry";
import { combineEnsembleWhenDone } from "../../ensembles/ensemble-runs";
import { asStoredJson } from "./stored-json";
import { imageLimitOf, responseFormatFor, type EndpointCapabilities } from "../endpoint-capabilities";
import { frameAsSent, sentFrameHash } from "../frame-resize";
import { gridFor, tileFrames, tilingNote } from "../frame-tiling";
import { expectedScore } from "../expected-score";
import { targetIdOfCategory, type TaskDeclaration } from "../../tasks/task-declaration";
import {
  planSteps,
  templateIdOf,
  type FrameRef,
  type PipelineDefinition,
  type RawAnswer,
  type ScoreValue,
  type StepDefinition,
  type StepOutputs,
  type VideoContext,
} from "./pipeline";
import {
  judgeStoreFor,
  type CacheRow,
  type CallRow,
  type JudgeStore,
  type RunSampling,
  type StepFinish,
  type StepRow,
} from "./step-store";

export interface EndpointConfig {
  id: string;
  baseUrl: string;
  model: string;
  apiKey: string | null;
  imageDetail: "low" | "high" | "auto";
  temperature: number | null;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  timeoutSeconds: number;
  structuredOutput: boolean;
  pricePer1kInput: number | null;
  pricePer1kOutput: number | null;
  /** The endpoint serves the Batch API: a batch-mode run's calls to it go in batches. */
  supportsBatchApi?: boolean;
  /** The most answer tokens a request may ask for: the ceiling of the retry of an answer cut off; null: the server's default. */
  maxTokens?: number | null;
  /** Azure OpenAI's `api-version`; set, the client speaks Azure's dialect (lib/judge/llm-client.ts). */
  apiVersion?: string | null;
  /** False: images go without a `detail` field (Gemini, Ollama). */
  sendImageDetail?: boolean;
  /** What the endpoint's last probe found; null: never probed (everything is asked for). */
  capabilities?: EndpointCapabilities | null;
  /** Ask for the answer's token logprobs (`topLogprobs` alternatives each), for expected scores. */
  requestLogprobs?: boolean;
  topLogprobs?: number;
}

/**
 * What the engine needs from the outside, passed in so tests can hand it fakes: the database,
 * frame storage, an LLM client and a limiter per endpoint, the templates and the clock.
 */
export interface JudgeDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  pipelines: Record<string, PipelineDefinition>;
  templates: TemplateSource;
  llmFor(endpoint: EndpointConfig): LlmClient;
  limiterFor(endpoint: EndpointConfig): CallLimiter;
  /** The run's endpoint, or (with `endpointId`) another endpoint of the run's project that a step calls. */
  endpointConfig(runId: string, endpointId?: string): Promise<EndpointConfig>;
  retryPolicy?: RetryPolicy;
  sleep?(ms: number): Promise<void>;
  log?(line: string): void;
}

const TERMINAL: StepStatus[] = ["done", "failed", "parse_failed", "skipped", "cancelled"];
const key = (stepId: string, scopeIndex: number) => `${stepId}#${scopeIndex}`;

/**
 * Runs every step of one video of one run. Steps start as soon as their inputs exist; finished
 * steps are never redone, so a job retried after a crash picks up where the dead worker stopped.
 *
 * The database work is batched (see step-store.ts): the job is read and its steps planned in two
 * statements; cache reads and finished steps of every video this process judges share round trips.
 * A step counts as finished only once its row, scores, calls and cache entries are committed
 * together, and only then do the steps that depend on it start.
 */
/**
 * "waiting": a batch-mode run's video whose steps wait for a batch (lib/judge/batch); the batch runner
 * judges it again once the batch has answered.
 */
export async function judgeVideo(
  workerDeps: JudgeDeps,
  job: { runId: string; videoId: string },
  /** The job's own log, in place of deps.log for this video's lines (a worker's names the job). */
  jobLog?: (line: string) => void,
  /**
   * What the video tells its job (lib/judge/job-taker.ts): `ready` once it is set up (a first step has looked up its
   * answer, or ended), `windDown` once every step it will start has started and only their ends are left.
   */
  taken?: { ready?(): void; windDown?(): void },
): Promise<"done" | "cancelled" | "waiting"> {
  const deps = jobLog ? { ...workerDeps, log: jobLog } : workerDeps;
  const { prisma } = deps;
  const store = judgeStoreFor(prisma);
  const loaded = await store.loadJob(job);
  if (!loaded) throw new Error(`Run ${job.runId} has no video ${job.videoId}`);
  let pipeline = deps.pipelines[loaded.run.pipeline];
  if (!pipeline) {
    // A rubric task saved by another process since this one last looked (lib/rubrics registers them).
    await ensureRubricTasks(prisma, { force: true });
    pipeline = deps.pipelines[loaded.run.pipeline];
  }
  if (!pipeline) throw new Error(`Unknown pipeline ${loaded.run.pipeline}`);
  const watch = runWatch(deps, job.runId);
  watch.saw(loaded.run.status);
  if (loaded.run.status === "cancelled") {
    await cancelPending(prisma, job.runId, job.videoId);
    return "cancelled";
  }
  const { frames, items, video } = loaded;
  const templates = withPromptVersions(deps.templates, loaded.run.promptVersions);
  const context: VideoContext = {
    videoId: job.videoId,
    prompt: video.prompt,
    dimensions: video.dimensions,
    model: video.model,
    fps: video.fps,
    frameCount: video.frameCount,
    auxiliaryInfo: video.auxiliaryInfo,
    ...keyFramesAndClusters(frames),
    frames,
    items,
    settings: loaded.run.settings,
    imageLimit: null,
  };
  // A self-consistency sample asks at its own temperature, and under its own cache salt (lib/ensembles).
  const sampling = loaded.run.sampling;
  const endpoint = withSampling(await watch.endpoint(), sampling);
  context.imageLimit = imageLimitOf(endpoint.capabilities ?? null);
  // Steps may call another endpoint of the project by role (say, a judge that differs from the evaluated model).
  const endpointByRole = new Map<string, EndpointConfig>();
  for (const [role, id] of Object.entries(pipeline.endpointIds?.(loaded.run.settings) ?? {})) {
    if (id && id !== endpoint.id) endpointByRole.set(role, withSampling(await watch.endpoint(id), sampling));
  }
  const endpointOf = (step: StepDefinition) =>
    (step.endpoint ? endpointByRole.get(step.endpoint) : undefined) ?? endpoint;

  // Every step instance gets its row; a worker that died left "running" rows behind.
  const planned = planSteps(pipeline, context).map((ref) => ({
    stepId: ref.stepId,
    scopeIndex: ref.scopeIndex,
    itemId: stepOf(pipeline, ref.stepId).scope === "item" ? context.items[ref.scopeIndex]!.id : "",
    templateId: templateIdOf(stepOf(pipeline, ref.stepId), ref.scopeIndex, context),
  }));
  const rows = new Map<string, StepRow>();
  for (const row of await store.planSteps(job, planned)) rows.set(key(row.stepId, row.scopeIndex), row);
  const outputs: StepOutputs = {
    get: (stepId, scopeIndex) => rows.get(key(stepId, scopeIndex))?.output,
    all: (stepId) =>
      [...rows.values()]
        .filter((r) => r.stepId === stepId)
        .sort((a, b) => a.scopeIndex - b.scopeIndex)
        .map((r) => r.output),
  };

  // A step write that finds its step closed means the run was cancelled: look again at once.
  const closedByCancel = (row: StepRow) => {
    row.status = "cancelled";
    watch.lookAgain();
  };
  // Batch mode: steps whose requests wait for a batch; they stay pending and are not started again in this pass.
  const awaiting = new Set<string>();
  let isReady = false;
  const ready = () => {
    if (isReady) return;
    isReady = true;
    taken?.ready?.();
  };
  const work = {
    runId: job.runId,
    projectId: loaded.run.projectId,
    batchMode: loaded.run.batchMode,
    sampleSalt: sampling?.salt ?? null,
    task: pipeline.task,
    context,
    outputs,
    templates,
    frameUrls: new Map<string, Promise<string>>(),
    chatImages: new Map<string, ChatImage>(),
    closedByCancel,
    awaitBatch: (row: StepRow) => awaiting.add(row.id),
    ready,
  };
  const skips = new Writes();
  const inFlight = new Map<string, Promise<void>>();
  let finishedAll = false;
  let woundDown = false;
  while (true) {
    if (await watch.cancelled()) {
      await Promise.allSettled(inFlight.values());
      await skips.settled();
      await cancelPending(prisma, job.runId, job.videoId);
      return "cancelled";
    }
    if (inFlight.size === 0 && finishedAll) break;
    let progressed = false;
    let waitingForInputs = false;
    for (const row of rows.values()) {
      if (row.status !== "pending" || inFlight.has(row.id) || awaiting.has(row.id)) continue;
      const step = stepOf(pipeline, row.stepId);
      const deps_ = step.dependsOn(row.scopeIndex, context).map((ref) => rows.get(key(ref.stepId, ref.scopeIndex)));
      const blocked = deps_.find((dep) => !dep || (TERMINAL.includes(dep.status) && dep.status !== "done"));
      // A step the video cannot have is skipped at once, with its own reason rather than its inputs'.
      const cannotRun = step.skipReason?.(row.scopeIndex, context) ?? null;
      if (cannotRun !== null || blocked !== undefined) {
        const reason =
          cannotRun ??
          (blocked ? `${blocked.stepId}[${blocked.scopeIndex}] ended ${blocked.status}` : "an input step is missing");
        // Nothing depends on this write but the video's end, which waits for it.
        const skipped = store.finishStep({
          ...stepKeys(job, row),
          status: "skipped",
          error: `Not run: ${reason}.`,
          finishedAt: new Date(),
          scores: [],
          calls: [],
          cache: [],
        });
        skips.add(skipped.then((written) => written || closedByCancel(row)));
        row.status = "skipped";
        progressed = true;
        continue;
      }
      if (deps_.every((dep) => dep!.status === "done")) {
        const promise = executeStep(deps, store, { ...work, endpoint: endpointOf(step), step, row }).finally(() => {
          inFlight.delete(row.id);
          ready();
        });
        inFlight.set(row.id, promise);
        progressed = true;
      } else waitingForInputs = true;
    }
    // Every step this video will start has started: the worker may take its next video while these finish.
    if (!waitingForInputs && inFlight.size > 0 && !woundDown) {
      woundDown = true;
      taken?.windDown?.();
    }
    if (inFlight.size === 0 && !progressed) {
      // Once more through the cancellation check: a step found closed (above) asked for a fresh look.
      await skips.settled();
      finishedAll = true;
    }
    if (inFlight.size > 0) await Promise.race(inFlight.values());
  }
  // Steps waiting for a batch, and the steps after them, are judged in a later pass.
  if (awaiting.size > 0) return "waiting";

  const scores = [...rows.values()]
    .filter((row) => row.status === "done")
    .flatMap((row) =>
      row.scores.map((s) => ({ stepId: row.stepId, scopeIndex: row.scopeIndex, category: s.category, value: s.value })),
    );
  const summary = pipeline.summarize(scores, context, loaded.run.settings, outputs);
  // An item pipeline's metrics are per item (run_metric rows with the item's id).
  const metrics = [
    ...metricRows("", pipeline.metricValues(summary)),
    ...(pipeline.itemMetrics?.(summary) ?? []).flatMap((item) => metricRows(item.itemId, item.values)),
  ];
  await store.finishVideo({ runId: job.runId, videoId: job.videoId, summary, metrics, finishedAt: new Date() });
  // An ensemble's member: the worker that finishes the last member's last video combines them into the parent.
  if (loaded.run.parentRunId) await combineEnsembleWhenDone(prisma, deps.pipelines, loaded.run.parentRunId);
  if (pipeline.afterRun) {
    const run = await prisma.judgeRun.findUnique({ where: { id: job.runId }, select: { status: true } });
    if (run?.status === "done") {
      await pipeline
        .afterRun(prisma, job.runId)
        .catch((error: unknown) =>
          (deps.log ?? console.error)(`after run ${job.runId} finished: ${describeForLog(error)}`),
        );
    }
  }
  return "done";
}

/**
 * How many `top_logprobs` a step asks for: the endpoint's setting when it requests logprobs, unless its probe
 * found they do not come back (`capabilities.topLogprobs` false: refused or absent), then none, so the calls
 * are not refused for it; never probed or not settled: asked.
 */
export function logprobsToAsk(
  endpoint: Pick<EndpointConfig, "requestLogprobs" | "topLogprobs" | "capabilities">,
): number | null {
  if (!endpoint.requestLogprobs || endpoint.capabilities?.topLogprobs === false) return null;
  return endpoint.topLogprobs ?? 5;
}

function withSampling(endpoint: EndpointConfig, sampling: RunSampling | null): EndpointConfig {
  return sampling?.temperature === undefined || sampling.temperature === null
    ? endpoint
    : { ...endpoint, temperature: sampling.temperature };
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

/** Only known values get a row: a missing row is how "unknown" is stored, so filters and sorts never meet a NULL. */
function metricRows(itemId: string, values: Record<string, number | null>) {
  return Object.entries(values).flatMap(([metric, value]) =>
    value === null || !Number.isFinite(value) ? [] : [{ itemId, metric, value }],
  );
}

function stepOf(pipeline: PipelineDefinition, stepId: string): StepDefinition {
  const step = pipeline.steps.find((s) => s.id === stepId);
  if (!step) throw new Error(`Pipeline ${pipeline.id} has no step ${stepId}`);
  return step;
}

const stepKeys = (job: { runId: string; videoId: string }, row: StepRow) => ({
  id: row.id,
  runId: job.runId,
  videoId: job.videoId,
  itemId: row.itemId,
  stepId: row.stepId,
  scopeIndex: row.scopeIndex,
});

/** Writes nobody waits for one by one, but all of them before the video ends (a failure is handled at once and thrown then). */
class Writes {
  private readonly all: Promise<unknown>[] = [];
  add(write: Promise<unknown>) {
    this.all.push(
      write.then(
        () => null,
        (error: unknown) => ({ error }),
      ),
    );
  }
  async settled() {
    const failed = (await Promise.all(this.all)).find((outcome) => outcome !== null) as { error: unknown } | undefined;
    if (failed) throw failed.error;
  }
}

async function executeStep(
  deps: JudgeDeps,
  store: JudgeStore,
  work: {
    runId: string;
    projectId: string;
    batchMode: boolean;
    sampleSalt: string | null;
    task: TaskDeclaration;
    endpoint: EndpointConfig;
    step: StepDefinition;
    row: StepRow;
    context: VideoContext;
    outputs: StepOutputs;
    templates: TemplateSource;
    frameUrls: Map<string, Promise<string>>;
    /** The video's frames as request images, one object per frame, size and detail for all its calls (the client encodes each object once). */
    chatImages: Map<string, ChatImage>;
    closedByCancel(row: StepRow): void;
    awaitBatch(row: StepRow): void;
    /** The video is set up: called once a step has looked up its answer. */
    ready(): void;
  },
): Promise<void> {
  const { step, row, endpoint } = work;
  const base = stepKeys({ runId: work.runId, videoId: work.context.videoId }, row);
  const startedAt = new Date();
  // A step that makes a call is marked running before the call, with its cache look-up (and makes none
  // when it is no longer pending); one answered from the cache, or computed, only when it is finished.
  const start = { id: row.id, at: startedAt, done: false, lookedUp: work.ready };
  const attempt = () => (start.done ? {} : { startedAt });
  // Call rows not written yet: they go with the step's end, in the same statement.
  const calls: CallRow[] = [];
  // Call rows written before the step ends (an answer that a repair follows): the step waits for them.
  const earlier = new Writes();
  let finish: StepFinish;
  try {
    const input = step.input(row.scopeIndex, work.context, work.outputs);
    // Computed without an LLM, or settled by the step's finished inputs: recorded like any step, with no call.
    const settled = step.compute ? null : (step.settle?.(input, work.context, work.outputs) ?? null);
    if (step.compute || settled !== null) {
      const output = step.compute ? step.compute(input, work.context, work.outputs) : settled;
      finish = {
        ...base,
        status: "done",
        output,
        rawText: null,
        templateHash: null,
        ...attempt(),
        finishedAt: new Date(),
        scores: step.scores?.(output, input) ?? [],
        calls,
        cache: [],
      };
    } else {
      const template: ReturnType<TemplateSource["get"]> =
        step.inlineTemplate?.(work.context) ?? work.templates.get(templateIdOf(step, row.scopeIndex, work.context));
      // A template's few-shot examples (a prompt version's, lib/judge/template-examples.ts) follow its body, never the
      // judged video itself; their frames follow the video's own, sized as those are, and count as images as those do.
      const examples = (template.examples ?? []).filter((e) => e.videoId !== work.context.videoId);
      const rendered = template.render(input.values);
      const text = examples.length ? `${rendered}\n\n${templateExamplesText(examples)}` : rendered;
      const frames = examples.length
        ? [...input.frames, ...(await exampleFrames(deps.prisma, work.projectId, examples))]
        : input.frames;
      const messages = splitSystemMessage(template.meta, text);
      // The strongest JSON mode the endpoint's probe found (json_schema > json_object > none); never probed: json_schema is asked for.
      const responseFormat = responseFormatFor(endpoint, step.responseFormatFor?.(input) ?? step.responseFormat);
      const detail = endpoint.sendImageDetail === false ? null : endpoint.imageDetail;
      // Batch mode: the request goes in a batch line (with the same body the online call sends); its frames are read when the batch is written.
      const batch =
        work.batchMode && endpoint.supportsBatchApi
          ? {
              frames: frames.map((f) => ({
                storageKey: f.storageKey,
                detail: endpoint.imageDetail,
                ...(input.imageMaxSide ? { maxSide: input.imageMaxSide } : {}),
              })),
            }
          : null;
      // More frames than the endpoint takes per request: one grid image of them all, which the prompt describes.
      const imageLimit = imageLimitOf(endpoint.capabilities ?? null);
      const grid = !batch && imageLimit !== null && frames.length > imageLimit ? gridFor(frames.length) : null;
      const note = grid ? tilingNote(frames.length, grid) : null;
      const topLogprobs = logprobsToAsk(endpoint);
      const turns = templateTurns(template.meta);
      const request = {
        model: endpoint.model,
        system: messages.system,
        text: note ? `${messages.user}\n\n${note}` : messages.user,
        temperature: endpoint.temperature,
        responseFormat,
        topLogprobs,
        ...(turns.length ? { turns } : {}),
        ...(imagesFirst(template.meta) ? { imagesFirst: true } : {}),
      };
      // Frames are read only for a call that goes out: a cached answer needs their hashes alone.
      const frameUrls = () =>
        Promise.all(frames.map((frame) => frameDataUrl(deps.storage, work.frameUrls, frame, input.imageMaxSide)));
      const images = grid
        ? async () => [
            {
              url: `data:image/jpeg;base64,${tileFrames((await frameUrls()).map(bytesOfDataUrl)).jpeg.toString("base64")}`,
              detail,
            },
          ]
        : async () =>
            (await frameUrls()).map((url, i) =>
              chatImageOf(work.chatImages, frames[i]!, input.imageMaxSide, url, detail),
            );
      const cacheParts = {
        model: endpoint.model,
        templateHash: template.hash,
        text: note ? `${text}\n\n${note}` : text,
        frameSha256s: frames.map((f) => sentFrameHash(f.sha256, input.imageMaxSide)),
        temperature: endpoint.temperature,
        imageDetail: detail ?? "omitted",
        responseFormat,
        salt: work.sampleSalt === null ? (input.cacheSalt ?? null) : `${work.sampleSalt}|${input.cacheSalt ?? ""}`,
        systemRole: messages.system !== null,
      };
      const cacheKey = responseCacheKey(cacheParts);
      const callRecord = {
        runId: work.runId,
        stepResultId: row.id,
        videoId: work.context.videoId,
        text: cacheParts.text,
        frameIds: frames.map((f) => f.id),
      };

      const first = await answer(
        deps,
        store,
        endpoint,
        request,
        images,
        cacheKey,
        { ...callRecord, isRepair: false },
        start,
        batch,
      );
      calls.push(first.call);
      if (!first.ok) throw first.error;
      // An answer cut off at the token limit is asked again once with a larger max_tokens (within the endpoint's
      // setting); that answer counts as the step's repair. Cut off again (or no larger budget allowed): the step fails.
      let longer: Answer | null = null;
      if (first.answer.finishReason === "length" && !batch) {
        const cutAt = answerTokens(first.answer);
        const maxTokens = largerMaxTokens(endpoint.maxTokens ?? null, cutAt);
        if (maxTokens === null) throw new LlmError("client", cutOffMessage(cutAt, endpoint.maxTokens ?? null));
        earlier.add(store.call(calls.pop()!));
        const again = await answer(
          deps,
          store,
          endpoint,
          { ...request, maxTokens },
          images,
          responseCacheKey({ ...cacheParts, repairOf: `max_tokens ${maxTokens}` }),
          { ...callRecord, isRepair: true },
          start,
        );
        if (again.call.createdAt <= first.call.createdAt)
          again.call.createdAt = new Date(first.call.createdAt.getTime() + 1);
        calls.push(again.call);
        if (!again.ok) throw again.error;
        if (again.answer.finishReason === "length")
          throw new LlmError(
            "client",
            cutOffMessage(answerTokens(again.answer), endpoint.maxTokens ?? null, maxTokens),
          );
        longer = again.answer;
      }
      if (step.rawAnswer) {
        // The answer as the model gave it is the result: no JSON, no validation, no repair.
        const answered = longer ?? first.answer;
        const output: RawAnswer = {
          text: answered.text ?? "",
          refusal: answered.refusal,
          finishReason: answered.finishReason,
        };
        // The cache keeps text only: a refusal read back from it would come back as an empty answer.
        const cache: CacheRow[] =
          answered.fromCache || answered.refusal
            ? []
            : validAnswerToCache(cacheKey, endpoint.model, first.answer, longer);
        finish = {
          ...base,
          status: "done",
          output,
          rawText: answered.text ?? answered.refusal ?? "",
          error: null,
          templateHash: template.hash,
          ...attempt(),
          finishedAt: new Date(),
          scores: step.scores?.(output, input) ?? [],
          calls,
          cache,
        };
      } else {
        const schema = step.schemaFor?.(input) ?? step.schema;
        const answered = longer ?? first.answer;
        let parsed = parseStructuredOutput(answered.text, schema, {
          finishReason: answered.finishReason,
          refusal: answered.refusal,
          reasoning: answered.reasoning,
        });
        let rawText = longer
          ? `${first.answer.text ?? ""}\n\n--- answer asked again with a larger max_tokens ---\n${longer.text ?? longer.refusal ?? ""}`
          : (first.answer.text ?? first.answer.refusal ?? "");
        let repaired: Answer | null = longer;
        if (!parsed.ok && !longer) {
          // A batch step's first answer is read again from its batch line in the pass that gets the repair's: its call row goes with the step's end.
          if (!batch) earlier.add(store.call(calls.pop()!));
          // One repair request carrying the validation error; if that fails too, the step is parse_failed.
          const repairRequest = {
            ...request,
            followUp: { previousAnswer: rawText || "(empty answer)", correction: parsed.repairHint },
          };
          // Repair answers are not cached under their own key; entries an older version cached that way still count.
          const repairKey = responseCacheKey({ ...cacheParts, repairOf: rawText });
          const second = await answer(
            deps,
            store,
            endpoint,
            repairRequest,
            images,
            repairKey,
            { ...callRecord, isRepair: true },
            start,
            batch,
          );
          // The inspector lists a step's calls by time: the repair's comes after the first's, even within a millisecond.
          if (second.call.createdAt <= first.call.createdAt)
            second.call.createdAt = new Date(first.call.createdAt.getTime() + 1);
          calls.push(second.call);
          if (!second.ok) throw second.error;
          repaired = second.answer;
          const firstError = parsed.error;
          parsed = parseStructuredOutput(repaired.text, schema, {
            finishReason: repaired.finishReason,
            refusal: repaired.refusal,
            reasoning: repaired.reasoning,
          });
          rawText = `${rawText}\n\n--- repair answer ---\n${repaired.text ?? repaired.refusal ?? ""}`;
          if (!parsed.ok) parsed = { ...parsed, error: `${firstError} Repair: ${parsed.error}` };
        }
        if (parsed.ok) {
          finish = {
            ...base,
            status: "done",
            output: parsed.value,
            rawText,
            error: null,
            templateHash: template.hash,
            ...attempt(),
            finishedAt: new Date(),
            scores: withExpectedScores(
              step.scores?.(parsed.value, input) ?? [],
              (repaired ?? first.answer).logprobs,
              work.task,
              step.scoreKeys?.(input) ?? {},
            ),
            calls,
            cache: validAnswerToCache(cacheKey, endpoint.model, first.answer, repaired),
          };
        } else {
          finish = {
            ...base,
            status: "parse_failed",
            rawText,
            error: parsed.error,
            templateHash: template.hash,
            ...attempt(),
            finishedAt: new Date(),
            scores: [],
            calls,
            cache: [],
          };
        }
      }
    }
  } catch (error) {
    if (error instanceof AwaitingBatch) {
      await earlier.settled();
      await stepAwaitsBatch(deps.prisma, row.id);
      return work.awaitBatch(row);
    }
    const status = error instanceof LlmError && error.kind === "cancelled" ? "cancelled" : "failed";
    // Members read the stored error: a short message and the class. The stack stays in the log.
    finish = {
      ...base,
      status,
      error: stepErrorMessage(error),
      ...attempt(),
      finishedAt: new Date(),
      scores: [],
      calls,
      cache: [],
    };
    if (!(error instanceof LlmError) || error.cause !== undefined) {
      (deps.log ?? console.error)(
        `step ${step.id}[${row.scopeIndex}] of video ${work.context.videoId} in run ${work.runId} failed: ${describeForLog(error)}`,
      );
    }
  }
  let written: boolean;
  try {
    // Earlier calls are written before the step's end (writes may run side by side).
    await earlier.settled();
    written = await store.finishStep(finish);
  } catch (error) {
    // A result the database refused (not a lost connection: that fails the next write too) fails its step only.
    if (finish.status !== "done") throw error;
    (deps.log ?? console.error)(
      `storing step ${step.id}[${row.scopeIndex}] of video ${work.context.videoId} in run ${work.runId} failed: ${describeForLog(error)}`,
    );
    finish = {
      ...base,
      status: "failed",
      error: stepErrorMessage(error),
      ...attempt(),
      finishedAt: new Date(),
      scores: [],
      calls: finish.calls,
      cache: [],
    };
    written = await store.finishStep(finish);
  }
  if (!written) return work.closedByCancel(row);
  if (finish.status === "done") {
    // As the database keeps it: steps after this one render the same prompt in this pass as in any later one.
    row.output = asStoredJson(finish.output) as Prisma.JsonValue;
    row.scores = finish.scores;
  }
  row.status = finish.status;
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

type Answer = ChatResult & { fromCache: boolean };
type Answered = { ok: true; answer: Answer; call: CallRow } | { ok: false; error: LlmError; call: CallRow };

/** The answer to a request, from the cache or from the endpoint, with the call row that records it (not written yet). */
async function answer(
  deps: JudgeDeps,
  store: JudgeStore,
  endpoint: EndpointConfig,
  request: Omit<ChatRequest, "images">,
  images: () => Promise<ChatImage[]>,
  cacheKey: string,
  record: { runId: string; stepResultId: string; videoId: string; text: string; frameIds: string[]; isRepair: boolean },
  start: { id: string; at: Date; done: boolean; lookedUp(): void },
  batch: { frames: { storageKey: string; detail: ChatImage["detail"]; maxSide?: number }[] } | null = null,
): Promise<Answered> {
  const requestLog = {
    text: record.text,
    frameIds: record.frameIds,
    temperature: request.temperature ?? null,
    imageDetail: endpoint.imageDetail,
    responseFormat: request.responseFormat ?? null,
    followUp: request.followUp ?? null,
    ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
  };
  // What every call row of this request shares; each outcome adds its own fields.
  const callBase = {
    runId: record.runId,
    stepResultId: record.stepResultId,
    videoId: record.videoId,
    model: endpoint.model,
    request: requestLog,
    isRepair: record.isRepair,
  };
  const noUsage = {
    httpStatus: null,
    error: null,
    errorExcerpt: null,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    latencyMs: 0,
    retries: 0,
  };
  const found = await store.lookUp(cacheKey, start.done ? null : start);
  start.lookedUp();
  const cached = found.cached;
  if (cached) {
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
        ...noUsage,
        responseText: cached.responseText,
        finishReason: cached.finishReason,
        cached: true,
        createdAt: new Date(),
      },
    };
  }
  if (!start.done) {
    if (!found.started) throw new LlmError("cancelled", "Cancelled.");
    start.done = true;
  }
  if (batch) return batchAnswered(deps, endpoint, request, batch.frames, cacheKey, record, callBase, noUsage);
  const full: ChatRequest = { ...request, images: await images() };
  const client = deps.llmFor(endpoint);
  const limiter = deps.limiterFor(endpoint);
  // The call is recorded, "sent" with tokens and cost estimated from the request, before its request goes
  // out: a worker that dies before the answer is stored leaves it to be counted as lost
  // (lib/judge/lost-calls.ts). Its outcome later updates the same row. The row is written as the call nears
  // its slot (the limiter's head start), so the write overlaps the wait instead of holding the slot.
  const callId = randomUUID();
  const estimatedTokens = estimatedPromptTokens({
    text: record.text,
    imageCount: full.images.length,
    followUp: request.followUp ?? null,
  });
  const sentRow: CallRow = {
    ...callBase,
    ...noUsage,
    id: callId,
    status: "sent",
    responseText: null,
    finishReason: null,
    cached: false,
    promptTokens: estimatedTokens,
    costUsd: callCostUsd(endpoint, estimatedTokens, 0),
    createdAt: new Date(),
  };
  let sentWritten: Promise<void> | null = null;
  let sentStored = false;
  let notRecorded: { error: unknown } | null = null;
  const recordSent = async () => {
    try {
      await (sentWritten ??= store.call(sentRow));
      sentStored = true;
    } catch (error) {
      // Never sent unrecorded: the database's error fails the step (below), not a retryable "bad answer".
      notRecorded = { error };
      throw new LlmError("client", "The call could not be recorded before sending it.");
    }
  };
  const started = Date.now();
  let lastStatus: number | null = null;
  let retries = 0;
  try {
    const result = await callWithRetries(
      () =>
        limiter.run(
          async () => {
            await recordSent();
            return client.complete(full, { timeoutMs: endpoint.timeoutSeconds * 1000 });
          },
          // Its failure is the task's: the task awaits the same write and fails the step with it.
          () => void recordSent().catch(() => {}),
        ),
      {
        policy: deps.retryPolicy,
        sleep: deps.sleep,
        onRetry: (error, delayMs) => {
          lastStatus = error.status;
          retries++;
          deps.log?.(`retrying after ${error.kind} in ${Math.round(delayMs)} ms`);
        },
      },
    );
    // Without `usage` the call's tokens and cost are unknown: stored as 0 with usageKnown false, never as free.
    const usageKnown = result.usageKnown !== false;
    return {
      ok: true,
      answer: { ...result, fromCache: false },
      call: {
        ...callBase,
        ...noUsage,
        // The outcome updates the "sent" row, which keeps the request.
        request: sentStored ? null : callBase.request,
        id: callId,
        responseText: result.text ?? result.refusal,
        reasoning: result.reasoning ?? null,
        finishReason: result.finishReason,
        cached: false,
        httpStatus: 200,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
        costUsd: usageKnown ? callCostUsd(endpoint, result.promptTokens, result.completionTokens) : 0,
        usageKnown,
        latencyMs: Date.now() - started,
        retries,
        createdAt: new Date(),
      },
    };
  } catch (error) {
    if (notRecorded) throw (notRecorded as { error: unknown }).error;
    if (!(error instanceof LlmError)) throw error;
    return {
      ok: false,
      error,
      call: {
        ...callBase,
        ...noUsage,
        request: sentStored ? null : callBase.request,
        id: callId,
        responseText: null,
        finishReason: null,
        cached: false,
        error: `${error.kind}: ${stepErrorMessage(error)}`,
        errorExcerpt: error.excerpt,
        httpStatus: error.status ?? lastStatus,
        latencyMs: Date.now() - started,
        retries,
        createdAt: new Date(),
      },
    };
  }
}

/** A batch line's answer to a request (at the batch price), or AwaitingBatch once the request is queued for the next batch. */
async function batchAnswered(
  deps: JudgeDeps,
  endpoint: EndpointConfig,
  request: Omit<ChatRequest, "images">,
  frames: { storageKey: string; detail: ChatImage["detail"]; maxSide?: number }[],
  cacheKey: string,
  record: { runId: string; stepResultId: string; videoId: string },
  callBase: Omit<
    CallRow,
    | "responseText"
    | "finishReason"
    | "cached"
    | "httpStatus"
    | "error"
    | "errorExcerpt"
    | "promptTokens"
    | "completionTokens"
    | "costUsd"
    | "latencyMs"
    | "retries"
    | "createdAt"
  >,
  noUsage: Pick<
    CallRow,
    "httpStatus" | "error" | "errorExcerpt" | "promptTokens" | "completionTokens" | "costUsd" | "latencyMs" | "retries"
  >,
): Promise<Answered> {
  const line = await batchAnswer(deps.prisma, {
    ...record,
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
        ...noUsage,
        responseText: null,
        finishReason: null,
        cached: false,
        error: `${error.kind}: ${stepErrorMessage(error)}`,
        errorExcerpt: error.excerpt,
        httpStatus: error.status,
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
      ...noUsage,
      usageKnown,
      reasoning: result.reasoning ?? null,
      responseText: result.text ?? result.refusal,
      finishReason: result.finishReason,
      cached: false,
      httpStatus: 200,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      costUsd: cost,
      createdAt: new Date(),
    },
  };
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

function bytesOfDataUrl(url: string): Buffer {
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}

/** A frame as a data URL (scaled to `maxSide` when asked), read once per video and size however many steps send it. */
function frameDataUrl(
  storage: ObjectStorage,
  read: Map<string, Promise<string>>,
  frame: FrameRef,
  maxSide?: number,
): Promise<string> {
  const key = maxSide ? `${frame.id}@${maxSide}` : frame.id;
  let url = read.get(key);
  if (!url) {
    url = (async () => {
      return `data:image/jpeg;base64,${frameAsSent(await storage.getBytes(frame.storageKey), maxSide).toString("base64")}`;
    })();
    read.set(key, url);
    // A failed read is not kept: the next step that needs the frame tries again.
    url.catch(() => read.delete(key));
  }
  return url;
}

function chatImageOf(
  images: Map<string, ChatImage>,
  frame: FrameRef,
  maxSide: number | undefined,
  url: string,
  detail: ChatImage["detail"],
): ChatImage {
  const key = `${maxSide ? `${frame.id}@${maxSide}` : frame.id}|${detail ?? ""}`;
  let image = images.get(key);
  if (!image || image.url !== url) {
    image = { url, detail };
    images.set(key, image);
  }
  return image;
}

/**
 * The frames of a template's few-shot examples, in the examples' order, from the run's project only (a version
 * naming another project's frame set shows nothing of it). An example whose frame is gone (its video deleted)
 * fails the step with words that say so: the version's examples are part of its hashed text, so it cannot drop one.
 */
async function exampleFrames(
  prisma: PrismaClient,
  projectId: string,
  examples: readonly TemplateExample[],
): Promise<FrameRef[]> {
  const wanted = examples.flatMap((e) =>
    e.frames.map((f) => ({ videoId: e.videoId, frameSetId: f.frameSetId, index: f.index })),
  );
  const rows = await prisma.frame.findMany({
    where: {
      OR: wanted.map(({ videoId, frameSetId, index }) => ({
        frameSetId,
        index,
        frameSet: { videoId, video: { projectId } },
      })),
    },
    select: { id: true, frameSetId: true, index: true, timestampS: true, storageKey: true, sha256: true },
  });
  return wanted.map((w) => {
    const row = rows.find((r) => r.frameSetId === w.frameSetId && r.index === w.index);
    if (!row)
      throw new ValidationError(
        `The prompt version's few-shot example video ${w.videoId} has no frame ${w.index} of frame set ${w.frameSetId} in this project (deleted?): save a version without that example.`,
      );
    return {
      id: row.id,
      index: row.index,
      timestampS: row.timestampS,
      isKeyFrame: false,
      cluster: null,
      storageKey: row.storageKey,
      sha256: row.sha256,
    };
  });
}

/** How fresh a worker's view of a run's status (cancelled or not) and of its endpoint's settings is. */
const RUN_STATUS_MAX_AGE_MS = 500;
const ENDPOINT_MAX_AGE_MS = 2000;

interface RunView {
  usedAt: number;
  status: { at: number; cancelled: boolean; reading: Promise<boolean> | null };
  /** By endpoint id ('' for the run's own endpoint). */
  endpoints: Map<string, { at: number; config: Promise<EndpointConfig> }>;
}
/** By database client: every video a process judges against one database shares its views of the runs. */
const runViews = new WeakMap<PrismaClient, Map<string, RunView>>();

/**
 * What every video of a run in this process shares: whether the run was cancelled (read at most every
 * 500 ms, however many videos ask) and the settings of the endpoints it calls (read at most every 2 s, so
 * a change reaches the next videos).
 */
function runWatch(deps: JudgeDeps, runId: string) {
  let views = runViews.get(deps.prisma);
  if (!views) runViews.set(deps.prisma, (views = new Map()));
  const now = Date.now();
  let view = views.get(runId);
  if (!view) {
    for (const [id, old] of views) if (now - old.usedAt > 10 * 60_000) views.delete(id);
    views.set(
      runId,
      (view = { usedAt: now, status: { at: 0, cancelled: false, reading: null }, endpoints: new Map() }),
    );
  }
  view.usedAt = now;
  const v = view;
  return {
    saw(status: string) {
      v.status.at = Date.now();
      v.status.cancelled ||= status === "cancelled";
    },
    lookAgain() {
      v.status.at = 0;
    },
    async cancelled(): Promise<boolean> {
      if (v.status.cancelled || Date.now() - v.status.at < RUN_STATUS_MAX_AGE_MS) return v.status.cancelled;
      v.status.reading ??= deps.prisma.judgeRun
        .findUnique({ where: { id: runId }, select: { status: true } })
        .then((run) => {
          v.status.at = Date.now();
          v.status.cancelled ||= run?.status === "cancelled";
          return v.status.cancelled;
        })
        .finally(() => (v.status.reading = null));
      return v.status.reading;
    },
    /** The run's endpoint, or another endpoint of its project that a step calls. */
    endpoint(endpointId?: string): Promise<EndpointConfig> {
      const key = endpointId ?? "";
      let entry = v.endpoints.get(key);
      if (!entry || Date.now() - entry.at >= ENDPOINT_MAX_AGE_MS) {
        const fresh = { at: Date.now(), config: deps.endpointConfig(runId, endpointId) };
        v.endpoints.set(key, (entry = fresh));
        fresh.config.catch(() => {
          if (v.endpoints.get(key) === fresh) v.endpoints.delete(key);
        });
      }
      return entry.config;
    },
  };
}

async function cancelPending(prisma: PrismaClient, runId: string, videoId: string) {
  await prisma.stepResult.updateMany({
    where: { runId, videoId, status: { in: ["pending", "running"] } },
    data: { status: "cancelled", finishedAt: new Date() },
  });
  await prisma.runVideo.updateMany({
    where: { runId, videoId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled" },
  });
}

/** An error with its stack and causes, for the server log only. */
function describeForLog(error: unknown): string {
  const parts: string[] = [];
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && depth < 5;
    e = e instanceof Error ? e.cause : undefined, depth++
  ) {
    parts.push(e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e));
  }
  return parts.join("\ncaused by: ");
}

import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { CallLimiter } from "../endpoint-limiter";
import { callWithRetries, LlmError, type ChatRequest, type ChatResult, type LlmClient, type RetryPolicy } from "../llm-client";
import { parseStructuredOutput } from "../parse-llm-output";
import { keyFramesAndClusters } from "../frame-scopes";
import { stepErrorMessage } from "../step-errors";
import { responseCacheKey } from "./cache-key";
import { writeRunMetrics } from "../run-metrics";
import { planSteps, templateIdOf, type FrameRef, type ItemRef, type PipelineDefinition, type RawAnswer, type StepDefinition, type StepInput, type StepOutputs, type VideoContext } from "./pipeline";

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
}

export interface TemplateSource {
  get(id: string): { hash: string; render(values: Record<string, string>): string };
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

type StepRow = { id: string; itemId: string; stepId: string; scopeIndex: number; status: StepStatus; output: Prisma.JsonValue };
const TERMINAL: StepStatus[] = ["done", "failed", "parse_failed", "skipped", "cancelled"];
const key = (stepId: string, scopeIndex: number) => `${stepId}#${scopeIndex}`;

/**
 * Runs every step of one video of one run. Steps start as soon as their inputs exist; finished
 * steps are never redone, so a job retried after a crash picks up where the dead worker stopped.
 */
export async function judgeVideo(deps: JudgeDeps, job: { runId: string; videoId: string }): Promise<"done" | "cancelled"> {
  const { prisma } = deps;
  const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: job.runId } });
  const pipeline = deps.pipelines[run.pipeline];
  if (!pipeline) throw new Error(`Unknown pipeline ${run.pipeline}`);
  const runVideo = await prisma.runVideo.findUniqueOrThrow({ where: { runId_videoId: { runId: job.runId, videoId: job.videoId } } });
  if (run.status === "cancelled") {
    await cancelPending(prisma, job.runId, job.videoId);
    return "cancelled";
  }
  const context = await loadContext(prisma, job.videoId, runVideo.frameSetId, { id: job.runId, settings: run.settings });
  const endpoint = await deps.endpointConfig(job.runId);
  // Steps may call another endpoint of the project by role (say, a judge that differs from the evaluated model).
  const endpointByRole = new Map<string, EndpointConfig>();
  for (const [role, id] of Object.entries(pipeline.endpointIds?.(run.settings) ?? {})) {
    if (id && id !== endpoint.id) endpointByRole.set(role, await deps.endpointConfig(job.runId, id));
  }
  const endpointOf = (step: StepDefinition) => (step.endpoint ? endpointByRole.get(step.endpoint) : undefined) ?? endpoint;

  // Make sure every step instance has its row; a worker that died left "running" rows behind.
  await prisma.stepResult.createMany({
    data: planSteps(pipeline, context).map((ref) => ({
      runId: job.runId,
      videoId: job.videoId,
      stepId: ref.stepId,
      scopeIndex: ref.scopeIndex,
      itemId: stepOf(pipeline, ref.stepId).scope === "item" ? context.items[ref.scopeIndex]!.id : "",
      templateId: templateIdOf(stepOf(pipeline, ref.stepId), ref.scopeIndex, context),
    })),
    skipDuplicates: true,
  });
  await prisma.stepResult.updateMany({ where: { runId: job.runId, videoId: job.videoId, status: "running" }, data: { status: "pending" } });
  await prisma.$transaction([
    prisma.runVideo.update({ where: { runId_videoId: { runId: job.runId, videoId: job.videoId } }, data: { status: "running" } }),
    prisma.judgeRun.updateMany({ where: { id: job.runId, status: "queued" }, data: { status: "running", startedAt: new Date() } }),
  ]);

  const rows = new Map<string, StepRow>();
  for (const row of await prisma.stepResult.findMany({
    where: { runId: job.runId, videoId: job.videoId },
    select: { id: true, itemId: true, stepId: true, scopeIndex: true, status: true, output: true },
  })) {
    rows.set(key(row.stepId, row.scopeIndex), row);
  }
  const outputs: StepOutputs = {
    get: (stepId, scopeIndex) => rows.get(key(stepId, scopeIndex))?.output,
    all: (stepId) => [...rows.values()].filter((r) => r.stepId === stepId).sort((a, b) => a.scopeIndex - b.scopeIndex).map((r) => r.output),
  };

  const cancelled = cancellationWatch(prisma, job.runId);
  const inFlight = new Map<string, Promise<void>>();
  while (true) {
    if (await cancelled()) {
      await Promise.allSettled(inFlight.values());
      await cancelPending(prisma, job.runId, job.videoId);
      return "cancelled";
    }
    let progressed = false;
    for (const row of rows.values()) {
      if (row.status !== "pending" || inFlight.has(row.id)) continue;
      const step = stepOf(pipeline, row.stepId);
      const deps_ = step.dependsOn(row.scopeIndex, context).map((ref) => rows.get(key(ref.stepId, ref.scopeIndex)));
      const blocked = deps_.find((dep) => !dep || (TERMINAL.includes(dep.status) && dep.status !== "done"));
      // A step the video cannot have is skipped at once, with its own reason rather than its inputs'.
      const cannotRun = step.skipReason?.(row.scopeIndex, context) ?? null;
      if (cannotRun !== null || blocked !== undefined) {
        const reason = cannotRun ?? (blocked ? `${blocked.stepId}[${blocked.scopeIndex}] ended ${blocked.status}` : "an input step is missing");
        await prisma.stepResult.update({ where: { id: row.id }, data: { status: "skipped", error: `Not run: ${reason}.`, finishedAt: new Date() } });
        row.status = "skipped";
        progressed = true;
        continue;
      }
      if (deps_.every((dep) => dep!.status === "done")) {
        const promise = executeStep(deps, { run: { id: job.runId }, endpoint: endpointOf(step), step, row, context, outputs }).finally(() => inFlight.delete(row.id));
        inFlight.set(row.id, promise);
        progressed = true;
      }
    }
    if (inFlight.size === 0 && !progressed) break;
    if (inFlight.size > 0) await Promise.race(inFlight.values());
  }

  const scores = await prisma.score.findMany({ where: { runId: job.runId, videoId: job.videoId }, select: { stepId: true, scopeIndex: true, category: true, value: true } });
  const summary = pipeline.summarize(scores, context, run.settings, outputs);
  await prisma.$transaction(async (tx) => {
    await tx.runVideo.update({ where: { runId_videoId: { runId: job.runId, videoId: job.videoId } }, data: { status: "done", summary: summary as Prisma.InputJsonValue } });
    await writeRunMetrics(tx, { runId: job.runId, videoId: job.videoId }, pipeline.metricValues(summary));
    // An item pipeline's metrics are per item (run_metric rows with the item's id).
    for (const item of pipeline.itemMetrics?.(summary) ?? []) await writeRunMetrics(tx, { runId: job.runId, videoId: job.videoId, itemId: item.itemId }, item.values);
  });
  await finishRunIfComplete(prisma, job.runId);
  return "done";
}

function stepOf(pipeline: PipelineDefinition, stepId: string): StepDefinition {
  const step = pipeline.steps.find((s) => s.id === stepId);
  if (!step) throw new Error(`Pipeline ${pipeline.id} has no step ${stepId}`);
  return step;
}

async function executeStep(
  deps: JudgeDeps,
  work: { run: { id: string }; endpoint: EndpointConfig; step: StepDefinition; row: StepRow; context: VideoContext; outputs: StepOutputs },
): Promise<void> {
  const { prisma } = deps;
  const { step, row, endpoint } = work;
  await prisma.stepResult.update({ where: { id: row.id }, data: { status: "running", attempts: { increment: 1 }, startedAt: new Date() } });
  row.status = "running";
  let status: StepStatus;
  let data: Prisma.StepResultUpdateInput;
  try {
    const input = step.input(row.scopeIndex, work.context, work.outputs);
    if (step.compute) {
      // Computed without an LLM: recorded like any step, with no call.
      const output = step.compute(input, work.context, work.outputs);
      await saveOutput(prisma, { runId: work.run.id, videoId: work.context.videoId, step, row, input, output, stepData: { rawText: null, templateHash: null }, cacheWrites: [] });
      return;
    }
    const settled = step.settle?.(input, work.context, work.outputs) ?? null;
    if (settled !== null) {
      await saveOutput(prisma, { runId: work.run.id, videoId: work.context.videoId, step, row, input, output: settled, stepData: { rawText: null, templateHash: null }, cacheWrites: [] });
      return;
    }
    const template = deps.templates.get(templateIdOf(step, row.scopeIndex, work.context));
    const text = template.render(input.values);
    const images = await Promise.all(
      input.frames.map(async (frame) => ({ url: await frameDataUrl(deps.storage, frame), detail: endpoint.imageDetail })),
    );
    const responseFormat = endpoint.structuredOutput && step.responseFormat ? step.responseFormat : null;
    const request: ChatRequest = { model: endpoint.model, text, images, temperature: endpoint.temperature, responseFormat };
    const cacheParts = {
      model: endpoint.model,
      templateHash: template.hash,
      text,
      frameSha256s: input.frames.map((f) => f.sha256),
      temperature: endpoint.temperature,
      imageDetail: endpoint.imageDetail,
      responseFormat,
    };
    const cacheKey = responseCacheKey(cacheParts);
    const callRecord = { runId: work.run.id, stepResultId: row.id, videoId: work.context.videoId, text, frameIds: input.frames.map((f) => f.id) };

    const first = await answer(deps, endpoint, request, cacheKey, { ...callRecord, isRepair: false });
    if (step.rawAnswer) {
      const output: RawAnswer = { text: first.text ?? "", refusal: first.refusal, finishReason: first.finishReason };
      await saveOutput(prisma, {
        runId: work.run.id,
        videoId: work.context.videoId,
        step,
        row,
        input,
        output,
        stepData: { rawText: first.text ?? first.refusal ?? "", templateHash: template.hash },
        // The cache keeps text only: a refusal read back from it would come back as an empty answer.
        cacheWrites:
          first.fromCache || first.refusal
            ? []
            : [prisma.responseCache.createMany({ data: [{ key: cacheKey, model: endpoint.model, responseText: first.text ?? "", finishReason: first.finishReason, promptTokens: first.promptTokens, completionTokens: first.completionTokens }], skipDuplicates: true })],
      });
      return;
    }
    const schema = step.schemaFor?.(input) ?? step.schema;
    let parsed = parseStructuredOutput(first.text, schema, { finishReason: first.finishReason, refusal: first.refusal });
    let rawText = first.text ?? first.refusal ?? "";
    const cacheWrites = [{ key: cacheKey, result: first }];
    if (!parsed.ok) {
      // One repair request carrying the validation error; if that fails too, the step is parse_failed.
      const repairRequest: ChatRequest = { ...request, followUp: { previousAnswer: rawText || "(empty answer)", correction: parsed.repairHint } };
      const repairKey = responseCacheKey({ ...cacheParts, repairOf: rawText });
      const repaired = await answer(deps, endpoint, repairRequest, repairKey, { ...callRecord, isRepair: true });
      const firstError = parsed.error;
      parsed = parseStructuredOutput(repaired.text, schema, { finishReason: repaired.finishReason, refusal: repaired.refusal });
      rawText = `${rawText}\n\n--- repair answer ---\n${repaired.text ?? repaired.refusal ?? ""}`;
      cacheWrites.push({ key: repairKey, result: repaired });
      if (!parsed.ok) parsed = { ...parsed, error: `${firstError} Repair: ${parsed.error}` };
    }
    if (parsed.ok) {
      await saveOutput(prisma, {
        runId: work.run.id,
        videoId: work.context.videoId,
        step,
        row,
        input,
        output: parsed.value,
        stepData: { rawText, templateHash: template.hash },
        // Only answers that led to a valid result are cached; errors never are. Another step with
        // the same key (identical frames) may have stored its answer meanwhile: ON CONFLICT DO
        // NOTHING keeps the first, where an upsert's insert would fail this step.
        cacheWrites: [
          prisma.responseCache.createMany({
            data: cacheWrites
              .filter((w) => !w.result.fromCache)
              .map((w) => ({ key: w.key, model: endpoint.model, responseText: w.result.text ?? "", finishReason: w.result.finishReason, promptTokens: w.result.promptTokens, completionTokens: w.result.completionTokens })),
            skipDuplicates: true,
          }),
        ],
      });
      return;
    }
    status = "parse_failed";
    data = { status, rawText, error: parsed.error, templateHash: template.hash, finishedAt: new Date() };
  } catch (error) {
    status = error instanceof LlmError && error.kind === "cancelled" ? "cancelled" : "failed";
    // Members read the stored error: a short message and the class. The stack stays in the log.
    data = { status, error: stepErrorMessage(error), finishedAt: new Date() };
    if (!(error instanceof LlmError) || error.cause !== undefined) {
      (deps.log ?? console.error)(`step ${step.id}[${row.scopeIndex}] of video ${work.context.videoId} in run ${work.run.id} failed: ${describeForLog(error)}`);
    }
  }
  await prisma.stepResult.update({ where: { id: row.id }, data });
  row.status = status;
}

/**
 * How long a finished step waits for a connection to save its result. Prisma's default (2 s) failed paid-for
 * answers whenever many steps of many jobs saved at once on a busy server; a busy pool is not an error.
 */
const SAVE_MAX_WAIT_MS = 60_000;

/** A finished step's output, its scores (with the step's item) and any cache writes, in one transaction. */
async function saveOutput(
  prisma: PrismaClient,
  work: {
    runId: string;
    videoId: string;
    step: StepDefinition;
    row: StepRow;
    input: StepInput;
    output: unknown;
    stepData: { rawText: string | null; templateHash: string | null };
    cacheWrites: Prisma.PrismaPromise<unknown>[];
  },
) {
  const { step, row } = work;
  const scores = step.scores?.(work.output, work.input) ?? [];
  await prisma.$transaction([
    prisma.stepResult.update({
      where: { id: row.id },
      data: { status: "done", output: work.output as Prisma.InputJsonValue, rawText: work.stepData.rawText, error: null, templateHash: work.stepData.templateHash, finishedAt: new Date() },
    }),
    prisma.score.deleteMany({ where: { stepResultId: row.id } }),
    prisma.score.createMany({
      data: scores.map((s) => ({ runId: work.runId, videoId: work.videoId, itemId: row.itemId, stepResultId: row.id, stepId: step.id, scopeIndex: row.scopeIndex, category: s.category, value: s.value })),
    }),
    ...work.cacheWrites,
  ], { maxWait: SAVE_MAX_WAIT_MS });
  row.output = work.output as Prisma.JsonValue;
  row.status = "done";
}

type Answer = ChatResult & { fromCache: boolean };

async function answer(
  deps: JudgeDeps,
  endpoint: EndpointConfig,
  request: ChatRequest,
  cacheKey: string,
  record: { runId: string; stepResultId: string; videoId: string; text: string; frameIds: string[]; isRepair: boolean },
): Promise<Answer> {
  const { prisma } = deps;
  const requestLog = {
    text: record.text,
    frameIds: record.frameIds,
    temperature: request.temperature ?? null,
    imageDetail: endpoint.imageDetail,
    responseFormat: request.responseFormat ?? null,
    followUp: request.followUp ?? null,
  } as Prisma.InputJsonValue;
  // What every call row of this request shares; each outcome adds its own fields.
  const callBase = { runId: record.runId, stepResultId: record.stepResultId, videoId: record.videoId, model: endpoint.model, request: requestLog, isRepair: record.isRepair };
  const cached = await prisma.responseCache.findUnique({ where: { key: cacheKey } });
  if (cached) {
    await prisma.llmCall.create({ data: { ...callBase, responseText: cached.responseText, finishReason: cached.finishReason, cached: true } });
    return { text: cached.responseText, refusal: null, finishReason: cached.finishReason, promptTokens: 0, completionTokens: 0, fromCache: true };
  }
  const client = deps.llmFor(endpoint);
  const limiter = deps.limiterFor(endpoint);
  const started = Date.now();
  let lastStatus: number | null = null;
  let retries = 0;
  try {
    const result = await callWithRetries(
      () => limiter.run(() => client.complete(request, { timeoutMs: endpoint.timeoutSeconds * 1000 })),
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
    const cost = ((result.promptTokens / 1000) * (endpoint.pricePer1kInput ?? 0)) + ((result.completionTokens / 1000) * (endpoint.pricePer1kOutput ?? 0));
    await prisma.llmCall.create({
      data: {
        ...callBase,
        responseText: result.text ?? result.refusal,
        finishReason: result.finishReason,
        httpStatus: 200,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
        costUsd: cost,
        latencyMs: Date.now() - started,
        retries,
      },
    });
    return { ...result, fromCache: false };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    const llmError = error;
    await prisma.llmCall.create({
      data: {
        ...callBase,
        error: `${llmError.kind}: ${stepErrorMessage(llmError)}`,
        errorExcerpt: llmError.excerpt,
        httpStatus: llmError.status ?? lastStatus,
        latencyMs: Date.now() - started,
        retries,
      },
    });
    throw llmError;
  }
}

async function frameDataUrl(storage: ObjectStorage, frame: FrameRef): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(frame.storageKey)) chunks.push(chunk as Buffer);
  return `data:image/jpeg;base64,${Buffer.concat(chunks).toString("base64")}`;
}

export async function loadContext(prisma: PrismaClient, videoId: string, frameSetId: string, run?: { id: string; settings: unknown }): Promise<VideoContext> {
  const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true, dimensions: true, model: true } });
  const frames = await prisma.frame.findMany({
    where: { frameSetId },
    orderBy: { index: "asc" },
    select: { id: true, index: true, timestampS: true, isKeyFrame: true, cluster: true, storageKey: true, sha256: true },
  });
  const runItems = run
    ? await prisma.runItem.findMany({
        where: { runId: run.id, videoId },
        orderBy: { position: "asc" },
        select: {
          item: {
            select: { id: true, externalId: true, kind: true, group: true, model: true, payload: true, referenceItem: { select: { id: true, externalId: true, payload: true } } },
          },
        },
      })
    : [];
  const items: ItemRef[] = runItems.map(({ item }) => ({
    id: item.id,
    externalId: item.externalId,
    kind: item.kind,
    group: item.group,
    model: item.model,
    payload: item.payload,
    reference: item.referenceItem,
  }));
  return { videoId, prompt: video.prompt, dimensions: video.dimensions, model: video.model, ...keyFramesAndClusters(frames), frames, items, settings: run?.settings ?? {} };
}

function cancellationWatch(prisma: PrismaClient, runId: string) {
  let checkedAt = 0;
  let cancelled = false;
  return async () => {
    if (cancelled || Date.now() - checkedAt < 500) return cancelled;
    checkedAt = Date.now();
    const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { status: true } });
    cancelled = run?.status === "cancelled";
    return cancelled;
  };
}

async function cancelPending(prisma: PrismaClient, runId: string, videoId: string) {
  await prisma.stepResult.updateMany({ where: { runId, videoId, status: { in: ["pending", "running"] } }, data: { status: "cancelled", finishedAt: new Date() } });
  await prisma.runVideo.updateMany({ where: { runId, videoId, status: { in: ["queued", "running"] } }, data: { status: "cancelled" } });
}

/** When no video of the run is left to do, the run is done (failed steps are reported, not fatal). */
export async function finishRunIfComplete(prisma: PrismaClient, runId: string) {
  const open = await prisma.runVideo.count({ where: { runId, status: { in: ["queued", "running"] } } });
  if (open === 0) await prisma.judgeRun.updateMany({ where: { id: runId, status: { in: ["queued", "running"] } }, data: { status: "done", finishedAt: new Date() } });
}

/** An error with its stack and causes, for the server log only. */
function describeForLog(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; e = e instanceof Error ? e.cause : undefined, depth++) {
    parts.push(e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e));
  }
  return parts.join("\ncaused by: ");
}

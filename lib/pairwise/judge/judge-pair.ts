/**
 * One job of a pairwise run: one pair, every aspect of the run, in both orders. Each question goes through the
 * engine's call path (lib/judge/engine: response cache, LlmCall rows, the endpoint's limiter, retries on 429s and
 * timeouts, the run's budget) as a step of the run whose "video" is the pair. An order already answered is never asked
 * again (a retried job skips it); two workers asking the same order meet at the step's start, where only one may
 * begin it. Once both orders of an aspect are in, they are reconciled into the run's verdict.
 */
import { z } from "zod";
import { LlmError } from "../../judge/calls/llm-client";
import { stepErrorMessage } from "../../judge/calls/step-errors";
import type { EndpointConfig, JudgeDeps } from "../../judge/engine/judge-deps";
import { recover, type RecoveryPlan, type StepEnd } from "../../judge/engine/recovery";
import { responseCacheKey } from "../../judge/engine/cache-key";
import type { StepStart } from "../../judge/engine/answer";
import { judgeStoreFor, type CallRow, type JudgeStore } from "../../judge/engine/step-store";
import { runWatch } from "../../judge/engine/run-watch";
import { Writes } from "../../judge/engine/writes";
import type { StepDefinition } from "../../task-modules/pipeline-types";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { aspectListSchema, type Aspect } from "../aspects";
import type { Strength, Verdict } from "../verdicts";
import { loadPairVideos, type PairVideos } from "./pair-frames";
import {
  buildPairwiseRequest,
  newPairMedia,
  PAIRWISE_TEMPLATE_ID,
  type PairMedia,
  type ShownVideo,
} from "./pairwise-request";
import { combineSamplesWhenDone } from "./pairwise-samples";
import { upsertRunVerdict } from "./run-verdicts";
import { pairwiseSettingsSchema, questionStepId } from "./pairwise-settings";
import { inPairTerms, PAIR_ORDERS, reconcileOrders, type PairOrder } from "./reconcile";
import { readVerdictLabel } from "./verdict-label";
import { PAIRWISE_RUN } from "../../run-records/run-name";
import { inputModeOf, type InputMode } from "../../judge/input-modes";

export interface PairJob {
  runId: string;
  pairId: string;
}

/** "done": every question of the pair has ended; "cancelled": the run stopped; "gone": no such run or pair. */
export type PairOutcome = "done" | "cancelled" | "gone";

/** The step every question runs as: its answer is kept as written, and the verdict label read from it here. */
const QUESTION_STEP: StepDefinition = {
  id: PAIRWISE_RUN.pipeline,
  label: PAIRWISE_RUN.label,
  scope: "video",
  templateId: PAIRWISE_TEMPLATE_ID,
  schema: z.unknown(),
  rawAnswer: true,
  dependsOn: () => [],
  input: () => ({ values: {}, frames: [] }),
};
const PAIRWISE_TASK: TaskDeclaration = {
  id: PAIRWISE_RUN.pipeline,
  label: PAIRWISE_RUN.label,
  subject: "pair",
  targets: [],
  metrics: [],
  groupings: [],
};

interface Question {
  aspect: Aspect;
  order: PairOrder;
  step: { id: string; stepId: string; status: string };
}

interface PairContext {
  deps: JudgeDeps;
  store: JudgeStore;
  job: PairJob;
  prompt: string;
  videos: PairVideos;
  sampleSalt: string | null;
  sampleTemperature: number | null;
  media: PairMedia;
  /** The run's input mode: `video-file` sends the pair's files (./pairwise-request.ts pairShowing). */
  inputMode: InputMode;
}

/** `ready`: told once the pair is set up and its questions wait on the endpoint (a job taker then starts the next job). */
export async function judgePair(deps: JudgeDeps, job: PairJob, ready: () => void = () => {}): Promise<PairOutcome> {
  const { prisma } = deps;
  const run = await prisma.judgeRun.findFirst({
    where: { id: job.runId, pipeline: PAIRWISE_RUN.pipeline },
    select: { status: true, settings: true, pairSetId: true, sampling: true, inputMode: true },
  });
  if (!run?.pairSetId) return "gone";
  if (run.status !== "queued" && run.status !== "running") return "cancelled";
  const pair = await prisma.pair.findFirst({
    where: { id: job.pairId, pairSetId: run.pairSetId },
    include: { pairSet: { select: { aspects: true } } },
  });
  if (!pair) return "gone";
  const settings = pairwiseSettingsSchema.parse(run.settings);
  const setAspects = aspectListSchema.parse(pair.pairSet.aspects);
  const aspects = settings.aspects.flatMap((id) => setAspects.filter((a) => a.id === id));
  const now = new Date();
  // A worker that died left its questions running: they are this job's now (as a video job's steps are). The calls
  // it sent and never stored the answer of were paid: they stay in the run's cost as "lost" (lib/judge/calls/
  // lost-calls.ts), unless a still-living attempt's answer lands and replaces the row.
  await prisma.stepResult.updateMany({
    where: { runId: job.runId, videoId: job.pairId, status: "running" },
    data: { status: "pending" },
  });
  await prisma.llmCall.updateMany({
    where: { runId: job.runId, videoId: job.pairId, status: "sent" },
    data: { status: "lost" },
  });
  await prisma.judgeRun.updateMany({
    where: { id: job.runId, status: "queued" },
    data: { status: "running", startedAt: now },
  });
  const [steps, answered] = await Promise.all([
    prisma.stepResult.findMany({
      where: { runId: job.runId, videoId: job.pairId },
      select: { id: true, stepId: true, status: true },
    }),
    prisma.pairJudgeAnswer.findMany({
      where: { runId: job.runId, pairId: job.pairId },
      select: { aspect: true, order: true },
    }),
  ]);
  const answeredSteps = new Set(answered.map((a) => questionStepId(a.aspect, a.order)));
  const pending: Question[] = aspects.flatMap((aspect) =>
    PAIR_ORDERS.flatMap((order) => {
      const step = steps.find((s) => s.stepId === questionStepId(aspect.id, order));
      return step && step.status === "pending" ? [{ aspect, order, step }] : [];
    }),
  );
  const questions = pending.filter((q) => !answeredSteps.has(q.step.stepId));
  // A self-consistency sample (JudgeRun.sampling): its own salt in the cache key and its temperature over the endpoint's.
  const sampling = z
    .object({ salt: z.string(), temperature: z.number().nullable().optional() })
    .safeParse(run.sampling);
  const context: PairContext = {
    deps,
    store: judgeStoreFor(prisma),
    job,
    prompt: pair.prompt,
    videos: questions.length
      ? await loadPairVideos(prisma, pair, settings.framesPerVideo)
      : { a: null, b: null, missing: null },
    sampleSalt: sampling.success ? sampling.data.salt : null,
    sampleTemperature: sampling.success ? (sampling.data.temperature ?? null) : null,
    media: newPairMedia(),
    inputMode: inputModeOf(run.inputMode),
  };
  // A question's answer decides only its own aspect's verdict.
  const reconcile = (aspect: Aspect) =>
    reconcileAspect(deps, { ...job, projectId: pair.projectId, pairSetId: pair.pairSetId }, aspect);
  // An answer stored by a job that stopped before it ended its step (a killed worker, a cancelled run): the step
  // ends from that answer now, and is not asked again.
  const closed = pending
    .filter((q) => answeredSteps.has(q.step.stepId))
    .map(async (question) => {
      await reconcile(question.aspect);
      return closeAnsweredStep(context, question);
    });
  const asked = questions.map((question) => askQuestion(context, question, reconcile));
  ready();
  const outcomes = await Promise.all([...closed, ...asked]);
  await finishRunWhenDone(deps, job.runId);
  return outcomes.includes("cancelled") || (await runWatch(deps, job.runId).cancelled()) ? "cancelled" : "done";
}

type QuestionOutcome = "answered" | "cancelled" | "failed";

/**
 * Asks one question (or answers it "not judged" when a video cannot be shown). Its answer is stored and the pair
 * reconciled before its step ends, so a run whose steps have all ended holds every verdict: another worker that ends
 * the run's last step cannot mark it done between this answer and its verdict.
 */
async function askQuestion(
  context: PairContext,
  question: Question,
  reconcile: (aspect: Aspect) => Promise<void>,
): Promise<QuestionOutcome> {
  const { deps, store, job, videos } = context;
  const { aspect, order, step } = question;
  const keys = {
    id: step.id,
    runId: job.runId,
    videoId: job.pairId,
    itemId: "",
    stepId: questionStepId(aspect.id, order),
    scopeIndex: 0,
  };
  if (!videos.a || !videos.b) {
    const reason = `not judged: ${videos.missing ?? "a video cannot be shown"}`;
    await storeAnswer(deps, job, question, { verdict: null, strength: null, answer: reason, callId: null });
    await reconcile(aspect);
    await store.finishStep({
      ...keys,
      status: "skipped",
      error: reason,
      startedAt: new Date(),
      finishedAt: new Date(),
      scores: [],
      calls: [],
      cache: [],
    });
    return "answered";
  }
  const { built, endpoint } = await questionRequest(context, question, { a: videos.a, b: videos.b });
  const startedAt = new Date();
  const progress = {
    start: { id: step.id, at: startedAt, done: false, lookedUp: () => {} },
    calls: [] as CallRow[],
    earlier: new Writes(),
  };
  let end: StepEnd;
  try {
    const plan = {
      step: QUESTION_STEP,
      input: { values: {}, frames: [] },
      built,
      endpoint,
      task: PAIRWISE_TASK,
      retry: { policy: deps.retryPolicy },
    };
    end = await answerWithRepair(deps, store, plan, progress, aspect.levels);
  } catch (error) {
    const status = error instanceof LlmError && error.kind === "cancelled" ? "cancelled" : "failed";
    await progress.earlier.settled();
    const attempt = progress.start.done ? {} : { startedAt };
    await store.finishStep({
      ...keys,
      ...attempt,
      status,
      error: stepErrorMessage(error),
      finishedAt: new Date(),
      scores: [],
      calls: progress.calls,
      cache: [],
      templateHash: built.templateHash,
    });
    return status;
  }
  await progress.earlier.settled();
  const read = readVerdictLabel(end.rawText ?? "", aspect.levels);
  const last = progress.calls[progress.calls.length - 1];
  // The answer is kept even when the run's cancellation then refuses the step's end: the call was made and paid for.
  await storeAnswer(deps, job, question, {
    verdict: read.ok ? inPairTerms(order, read.verdict) : null,
    strength: read.ok ? read.strength : null,
    answer: read.ok ? read.label : `no verdict: ${read.reason}`,
    callId: last?.id ?? null,
  });
  await reconcile(aspect);
  const attempt = progress.start.done ? {} : { startedAt };
  const written = await store.finishStep({
    ...keys,
    ...end,
    ...attempt,
    templateHash: built.templateHash,
    finishedAt: new Date(),
    calls: progress.calls,
  });
  return written ? "answered" : "cancelled";
}

/** Ends a pending step whose answer is already stored, with that answer as its text. */
async function closeAnsweredStep(context: PairContext, question: Question): Promise<QuestionOutcome> {
  const { deps, store, job } = context;
  const { aspect, order, step } = question;
  const answer = await deps.prisma.pairJudgeAnswer.findUnique({
    where: { runId_pairId_aspect_order: { runId: job.runId, pairId: job.pairId, aspect: aspect.id, order } },
    select: { answer: true },
  });
  const now = new Date();
  const written = await store.finishStep({
    id: step.id,
    runId: job.runId,
    videoId: job.pairId,
    itemId: "",
    stepId: step.stepId,
    scopeIndex: 0,
    status: "done",
    rawText: answer?.answer ?? null,
    startedAt: now,
    finishedAt: now,
    scores: [],
    calls: [],
    cache: [],
  });
  return written ? "answered" : "cancelled";
}

/** The question's request, on the run's endpoint (at a sample's temperature), with the videos in the question's order. */
async function questionRequest(context: PairContext, question: Question, videos: { a: ShownVideo; b: ShownVideo }) {
  const { deps, job } = context;
  const runEndpoint = await runWatch(deps, job.runId).endpoint();
  const endpoint =
    context.sampleTemperature === null ? runEndpoint : { ...runEndpoint, temperature: context.sampleTemperature };
  const [first, second] = question.order === "AB" ? [videos.a, videos.b] : [videos.b, videos.a];
  const built = buildPairwiseRequest(
    deps,
    endpoint,
    {
      runId: job.runId,
      stepResultId: question.step.id,
      pairId: job.pairId,
      prompt: context.prompt,
      aspect: question.aspect,
      order: question.order,
      first,
      second,
      sampleSalt: context.sampleSalt,
      inputMode: context.inputMode,
    },
    context.media,
  );
  return { built, endpoint };
}

/** What a repair request says to an answer that ended without a verdict label. */
const LABEL_REPAIR =
  "Your answer did not end with a verdict label. End your answer with exactly one of the labels given, on its own line, e.g. [[A>B]].";

/**
 * The question's answer, asked once more when it holds no verdict label (one repair, as the engine repairs an answer
 * that fails its schema): the repair's request carries the first answer and the correction, its call is marked a
 * repair, and the answers are kept together. Only an answer with a label is cached, under the question's own key.
 */
async function answerWithRepair(
  deps: JudgeDeps,
  store: JudgeStore,
  plan: RecoveryPlan & { endpoint: EndpointConfig },
  progress: { start: StepStart; calls: CallRow[]; earlier: Writes },
  levels: Aspect["levels"],
): Promise<StepEnd> {
  const first = await recover(deps, store, plan, progress);
  const firstText = first.rawText ?? "";
  if (first.status !== "done" || !firstText.trim() || readVerdictLabel(firstText, levels).ok) return first;
  // The first answer's call is written before the repair's, as the engine writes a call that a repair follows.
  for (const call of progress.calls.splice(0)) progress.earlier.add(store.call(call));
  const { built } = plan;
  const request = { ...built.request, followUp: { previousAnswer: firstText, correction: LABEL_REPAIR } };
  const cacheKey = responseCacheKey({ ...built.cacheParts, repairOf: firstText });
  const repaired = await recover(
    deps,
    store,
    { ...plan, built: { ...built, request, cacheKey }, firstWhy: "repair" },
    progress,
  );
  const repairText = repaired.rawText ?? "";
  const labelled = repaired.status === "done" && readVerdictLabel(repairText, levels).ok;
  return {
    ...repaired,
    rawText: `${firstText}\n\n--- repair answer ---\n${repairText}`,
    cache: labelled ? repaired.cache.map((row) => ({ ...row, key: built.cacheKey, replace: true })) : [],
  };
}

async function storeAnswer(
  deps: JudgeDeps,
  job: PairJob,
  question: Pick<Question, "aspect" | "order">,
  answer: { verdict: Verdict | null; strength: Strength | null; answer: string; callId: string | null },
) {
  const key = { runId: job.runId, pairId: job.pairId, aspect: question.aspect.id, order: question.order };
  // A second worker that answered the same order meets the primary key: the first answer stays.
  await deps.prisma.pairJudgeAnswer.upsert({
    where: { runId_pairId_aspect_order: key },
    create: { ...key, ...answer },
    update: {},
  });
}

/** The aspect's two answers, once both are in, become the run's verdict on the pair (an upsert: a retried job writes it again). */
async function reconcileAspect(
  deps: JudgeDeps,
  pair: PairJob & { projectId: string; pairSetId: string },
  aspect: Aspect,
) {
  const { prisma } = deps;
  const answers = await prisma.pairJudgeAnswer.findMany({
    where: { runId: pair.runId, pairId: pair.pairId, aspect: aspect.id },
  });
  const of = (order: PairOrder) => answers.find((a) => a.order === order);
  const [ab, ba] = [of("AB"), of("BA")];
  if (!ab || !ba) return;
  const orderVerdict = (a: typeof ab) => ({
    verdict: a.verdict as Verdict | null,
    strength: a.strength as Strength | null,
  });
  const reconciled = reconcileOrders(orderVerdict(ab), orderVerdict(ba));
  if (reconciled.verdict === null) return;
  const note =
    reconciled.basis === "single_order" ? `single order (${ab.verdict === null ? "BA" : "AB"})` : reconciled.basis;
  const { runId, projectId, pairSetId, pairId } = pair;
  const values = { verdict: reconciled.verdict, strength: reconciled.strength, note };
  await upsertRunVerdict(prisma, { runId, projectId, pairSetId, pairId, aspect: aspect.id }, values);
}

/**
 * The run is done once no question of it is left pending or running (a cancelled or stopped run stays as it is); a
 * sample's parent then combines its members' verdicts when they are all done.
 */
async function finishRunWhenDone(deps: JudgeDeps, runId: string) {
  const finished = await deps.prisma.$executeRaw`
    UPDATE judge_run SET status = 'done', "finishedAt" = now()
    WHERE id = ${runId} AND status IN ('queued', 'running') AND ensemble IS NULL
      AND NOT EXISTS (SELECT 1 FROM step_result WHERE "runId" = ${runId} AND status IN ('pending', 'running'))`;
  if (finished > 0) await combineSamplesWhenDone(deps.prisma, runId);
}

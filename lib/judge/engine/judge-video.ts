import type { StepStatus } from "../../generated/prisma/client";
import type { ChatImage } from "../calls/llm-client";
import { keyFramesAndClusters } from "../media/frame-scopes";
import { withPromptVersions } from "../prompts/template-source";
import { pipelineOfRun } from "../../task-modules/task-catalogue";
import { frameLimitOf } from "./video-media";
import { executeStep, type StepWork } from "./execute-step";
import type { EndpointConfig, JudgeDeps } from "./judge-deps";
import { planSteps, templateIdOf } from "./pipeline";
import type { PipelineDefinition, StepDefinition, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import { cancelPending, runWatch, type RunWatch } from "./run-watch";
import { announce, anyoneWants, type ClosedRun } from "./judge-events";
import { judgeStoreFor, type JobRow, type JudgeStore, type RunSampling, type StepRow } from "./step-store";
import { stepKeys, Writes } from "./writes";

export type { EndpointConfig, JudgeDeps } from "./judge-deps";

const TERMINAL: StepStatus[] = ["done", "failed", "parse_failed", "skipped", "cancelled"];
const key = (stepId: string, scopeIndex: number) => `${stepId}#${scopeIndex}`;

type Job = { runId: string; videoId: string };
/** What the video tells its job (lib/judge/workers/job-taker.ts); see judgeVideo. */
type Taken = { ready?(): void; windDown?(): void; superseded?: AbortSignal };

/** One video of one run, set up: its pipeline, context, step rows, and what its steps share. */
interface VideoRun {
  job: Job;
  loaded: JobRow;
  pipeline: PipelineDefinition;
  context: VideoContext;
  rows: Map<string, StepRow>;
  outputs: StepOutputs;
  watch: RunWatch;
  /** What every step of the video shares (all of StepWork but the step, its row and its endpoint). */
  work: Omit<StepWork, "endpoint" | "step" | "row">;
  endpointOf(step: StepDefinition): EndpointConfig;
  /** Batch mode: steps whose requests wait for a batch; they stay pending and are not started again in this pass. */
  awaiting: Set<string>;
}

/**
 * Runs every step of one video of one run. Steps start as soon as their inputs exist; finished
 * steps are never redone, so a job retried after a crash picks up where the dead worker stopped.
 *
 * The database work is batched (see step-store.ts): the job is read and its steps planned in two
 * statements; cache reads and finished steps of every video this process judges share round trips.
 * A step counts as finished only once its row, scores, calls and cache entries are committed
 * together, and only then do the steps that depend on it start.
 *
 * "waiting": a batch-mode run's video whose steps wait for a batch (lib/judge/batch); the batch runner
 * judges it again once the batch has answered.
 */
export async function judgeVideo(
  workerDeps: JudgeDeps,
  job: Job,
  /** The job's own log, in place of deps.log for this video's lines (a worker's names the job). */
  jobLog?: (line: string) => void,
  /**
   * What the video tells its job (lib/judge/workers/job-taker.ts): `ready` once it is set up (a first step has looked up its
   * answer, or ended), `windDown` once every step it will start has started and only their ends are left.
   */
  taken?: Taken,
): Promise<"done" | "cancelled" | "waiting" | "superseded"> {
  const deps = jobLog ? { ...workerDeps, log: jobLog } : workerDeps;
  const { prisma } = deps;
  const store = judgeStoreFor(prisma);
  const loaded = await store.loadJob(job);
  if (!loaded) throw new Error(`Run ${job.runId} has no video ${job.videoId}`);
  // The run's task's pipeline, from its project's catalogue (a rubric task's at the version the run pinned).
  const pipeline = await pipelineOfRun(prisma, loaded.run);
  if (!pipeline) throw new Error(`Unknown pipeline ${loaded.run.pipeline}`);
  const watch = runWatch(deps, job.runId);
  watch.saw(loaded.run.status);
  if (loaded.run.status === "cancelled") {
    await cancelPending(prisma, job.runId, job.videoId);
    return "cancelled";
  }
  const video = await openVideo(deps, store, { job, loaded, pipeline, watch }, taken);
  const ended = await runSteps(deps, store, video, taken);
  if (ended !== "ended") return ended;
  // Steps waiting for a batch, and the steps after them, are judged in a later pass.
  if (video.awaiting.size > 0) return "waiting";
  await closeVideo(deps, store, video);
  return "done";
}

/** The video's context, its endpoints, and its step rows (every step instance gets its row). */
async function openVideo(
  deps: JudgeDeps,
  store: JudgeStore,
  opened: { job: Job; loaded: JobRow; pipeline: PipelineDefinition; watch: RunWatch },
  taken: Taken | undefined,
): Promise<VideoRun> {
  const { job, loaded, pipeline, watch } = opened;
  const { frames, items, video } = loaded;
  const context: VideoContext = {
    videoId: job.videoId,
    prompt: video.prompt,
    dimensions: video.dimensions,
    model: video.model,
    fps: video.fps,
    frameCount: video.frameCount,
    frameTimesS: video.frameTimesS,
    auxiliaryInfo: video.auxiliaryInfo,
    ...keyFramesAndClusters(frames),
    frames,
    items,
    settings: loaded.run.settings,
    imageLimit: null,
    inputMode: loaded.run.inputMode,
    clip: video.clip,
  };
  // A self-consistency sample asks at its own temperature, and under its own cache salt (lib/ensembles).
  const sampling = loaded.run.sampling;
  const endpoint = withSampling(await watch.endpoint(), sampling);
  // In a video mode the frames a step chooses go as one video part: the endpoint's limit for those, not for images.
  context.imageLimit = frameLimitOf(context.inputMode ?? "images", endpoint.capabilities);
  // Steps may call another endpoint of the project by role (say, a judge that differs from the evaluated model).
  const endpointByRole = new Map<string, EndpointConfig>();
  for (const [role, id] of Object.entries(pipeline.endpointIds?.(loaded.run.settings) ?? {})) {
    if (id && id !== endpoint.id) endpointByRole.set(role, withSampling(await watch.endpoint(id), sampling));
  }
  // A worker that died left "running" rows behind: planning puts them back to pending.
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
  const awaiting = new Set<string>();
  let isReady = false;
  const work = {
    runId: job.runId,
    projectId: loaded.run.projectId,
    batchMode: loaded.run.batchMode,
    sampleSalt: sampling?.salt ?? null,
    task: pipeline.task,
    context,
    outputs,
    templates: withPromptVersions(deps.templates, loaded.run.promptVersions),
    frameUrls: new Map<string, Promise<string>>(),
    chatImages: new Map<string, ChatImage>(),
    // A step write that finds its step closed means the run was cancelled: look again at once.
    closedByCancel: (row: StepRow) => {
      row.status = "cancelled";
      watch.lookAgain();
    },
    awaitBatch: (row: StepRow) => awaiting.add(row.id),
    ready: () => {
      if (isReady) return;
      isReady = true;
      taken?.ready?.();
    },
  };
  const endpointOf = (step: StepDefinition) =>
    (step.endpoint ? endpointByRole.get(step.endpoint) : undefined) ?? endpoint;
  return { job, loaded, pipeline, context, rows, outputs, watch, work, endpointOf, awaiting };
}

/**
 * Starts each pending step once its inputs are done (skips it when one ended otherwise, or when the video cannot
 * have it) until no step is left to start or run; "cancelled" when the run was cancelled meanwhile; "superseded" when
 * the job was handed out again (lib/judge/workers/job-taker.ts), once the steps already sent have ended: the new attempt
 * judges the rest, so no step is sent by both.
 */
async function runSteps(
  deps: JudgeDeps,
  store: JudgeStore,
  video: VideoRun,
  taken: Taken | undefined,
): Promise<"ended" | "cancelled" | "superseded"> {
  const { job, pipeline, context, rows, watch, work, awaiting } = video;
  const skips = new Writes();
  const inFlight = new Map<string, Promise<void>>();
  let finishedAll = false;
  let woundDown = false;
  while (true) {
    if (await watch.cancelled()) {
      await Promise.allSettled(inFlight.values());
      await skips.settled();
      await cancelPending(deps.prisma, job.runId, job.videoId);
      return "cancelled";
    }
    if (inFlight.size === 0 && finishedAll) return "ended";
    if (taken?.superseded?.aborted) {
      await Promise.allSettled(inFlight.values());
      await skips.settled();
      return "superseded";
    }
    let progressed = false;
    let waitingForInputs = false;
    for (const row of rows.values()) {
      if (row.status !== "pending" || inFlight.has(row.id) || awaiting.has(row.id)) continue;
      const step = stepOf(pipeline, row.stepId);
      const inputs = step.dependsOn(row.scopeIndex, context).map((ref) => rows.get(key(ref.stepId, ref.scopeIndex)));
      const reason = skipReason(step, row, inputs, context);
      if (reason !== null) {
        skips.add(skipStep(store, video, row, reason));
        progressed = true;
        continue;
      }
      if (inputs.every((input) => input!.status === "done")) {
        const promise = executeStep(deps, store, { ...work, endpoint: video.endpointOf(step), step, row }).finally(
          () => {
            inFlight.delete(row.id);
            work.ready();
          },
        );
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
}

/** Why a pending step is not run: the video cannot have it (its own reason), or an input ended otherwise than done. */
function skipReason(
  step: StepDefinition,
  row: StepRow,
  inputs: (StepRow | undefined)[],
  context: VideoContext,
): string | null {
  const blocked = inputs.find((input) => !input || (TERMINAL.includes(input.status) && input.status !== "done"));
  const cannotRun = step.skipReason?.(row.scopeIndex, context) ?? null;
  if (cannotRun === null && blocked === undefined) return null;
  return (
    cannotRun ??
    (blocked ? `${blocked.stepId}[${blocked.scopeIndex}] ended ${blocked.status}` : "an input step is missing")
  );
}

/** Ends a step as skipped. Nothing depends on this write but the video's end, which waits for it. */
function skipStep(store: JudgeStore, video: VideoRun, row: StepRow, reason: string): Promise<void> {
  const skipped = store.finishStep({
    ...stepKeys(video.job, row),
    status: "skipped",
    error: `Not run: ${reason}.`,
    finishedAt: new Date(),
    scores: [],
    calls: [],
    cache: [],
  });
  row.status = "skipped";
  return skipped.then((written) => {
    if (!written) video.work.closedByCancel(row);
  });
}

/**
 * The video's summary and metrics; then "video closed" to the subscribers (its judge spans, the ensemble it is a member
 * of), and "run finished" when this close ended the run (the pipeline's after-run work): lib/judge/engine/judge-events.ts.
 */
async function closeVideo(deps: JudgeDeps, store: JudgeStore, video: VideoRun): Promise<void> {
  const { job, loaded, pipeline, context, rows, outputs } = video;
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
  const run: ClosedRun = {
    id: job.runId,
    projectId: loaded.run.projectId,
    parentRunId: loaded.run.parentRunId,
    settings: loaded.run.settings,
  };
  // With the frame times the job read: a subscriber asks neither the video nor its times again.
  await announce(deps, {
    kind: "video closed",
    run,
    videoId: job.videoId,
    pipeline,
    answers: { scores, context, outputs },
    frameTimes: loaded.video.frameTimes,
  });
  if (anyoneWants(deps.subscribers, "run finished", pipeline) && (await runIsDone(deps, job.runId)))
    await announce(deps, { kind: "run finished", run, pipeline });
}

/** Whether the run is done: read after the video's end was committed, so of two last videos' closes the later sees it. */
async function runIsDone(deps: JudgeDeps, runId: string): Promise<boolean> {
  const run = await deps.prisma.judgeRun.findUnique({ where: { id: runId }, select: { status: true } });
  return run?.status === "done";
}

function withSampling(endpoint: EndpointConfig, sampling: RunSampling | null): EndpointConfig {
  return sampling?.temperature === undefined || sampling.temperature === null
    ? endpoint
    : { ...endpoint, temperature: sampling.temperature };
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

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { JudgeEndpoint, Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { someNamed } from "../../format/some-named";
import type { CreateRunInput } from "./run-input.validation";
import type { FrameRequirement, PipelineDefinition } from "../../task-modules/pipeline-types";
import { redactVideoScoresFor } from "../../visibility/judge-visibility";
import { catalogFor } from "../../task-modules/task-catalogue";
import { publicStepError } from "../calls/call-inspector";
import { resolveRunPromptVersions } from "../../prompt-versions/prompt-versions";
import type { EnsembleSettings } from "./ensemble-settings";
import { uniformFrameSetWhere } from "../../videos/uniform-frame-sets";
import { latestSettingsVersion } from "./settings-versions";
import { videosBeingDeleted } from "../../videos/video-deletion-job";
import { DEFAULT_RUN_WHERE } from "../../videos/video-filter-sql";
import type { JudgeQueue } from "../workers/judge-queue";
import { isPrismaError, FOREIGN_KEY_VIOLATION } from "../../db/prisma-errors";
import { estimateRunStart } from "./run-estimate";
import type { RunDryRunAnswer } from "./runs.types";
import { runInputMode } from "../input-modes/plan-request-media";
import { endpointSnapshot, roleEndpoints } from "./run-endpoints";
import { positions, runItemsFor } from "./run-items";
import type { TemplateSource } from "../prompts/template-source";

type RunDeps = {
  prisma: PrismaClient;
  queue: JudgeQueue;
  /**
   * Pipelines a run may name besides its project's catalogue's: the request's catalogue's (a route passes it, so the
   * project's is not read again), a test's own (a toy task's). Another project's rubric pipeline is in neither.
   */
  pipelines?: Readonly<Record<string, PipelineDefinition & { settingsSchema?: z.ZodType }>>;
  /** The shipped templates the cost estimate renders (a test's own); the prompt files by default. */
  templates?: TemplateSource;
  /** What starts an ensemble run (lib/ensembles); without it a run request with `ensemble` is refused. */
  startEnsemble?: EnsembleStarter;
};

/** A started ensemble run: its parent (the run to watch) and its member runs' ids (a type, so it is a plain record). */
export type EnsembleRunStarted = {
  id: string;
  videos: number;
  ensemble: EnsembleSettings;
  members: string[];
  withoutFrames: never[];
  withoutFramesCount: number;
  beingDeletedCount: number;
};

/** Starts one plain run: what an ensemble starter makes each member with. */
export type PlainRunStarter = (
  deps: RunDeps,
  access: ProjectAccess<"runs.manage">,
  input: CreateRunInput,
) => Promise<{ id: string; videos: number; beingDeletedCount: number }>;

/**
 * Starts an ensemble run from its members, each a plain run `createPlainRun` starts. The composition root hands it
 * down (appContext().startEnsemble: lib/ensembles' createEnsembleRun), so the judge starts ensembles without knowing
 * how their scores are combined.
 */
export type EnsembleStarter = (
  deps: RunDeps,
  access: ProjectAccess<"runs.manage">,
  input: CreateRunInput,
  createPlainRun: PlainRunStarter,
) => Promise<EnsembleRunStarted>;

/**
 * A run, or with `ensemble` an ensemble run whose scores are combined from member runs (lib/ensembles). A request
 * with `dryRun` starts nothing: `dryRun` answers it, and here it is refused rather than started.
 */
export async function createRun(deps: RunDeps, access: ProjectAccess<"runs.manage">, input: CreateRunInput) {
  if (input.dryRun) throw new ValidationError("A dry run starts no run: it is answered with the run's estimate.");
  if (input.sweep)
    throw new ValidationError("A sweep starts a run per value: startSweep (lib/judge/runs/run-sweep.ts) takes it.");
  if (input.ensemble) {
    if (!deps.startEnsemble) throw new ValidationError("This process starts no ensemble runs.");
    return deps.startEnsemble(deps, access, input, createPlainRun);
  }
  return createPlainRun(deps, access, input);
}

/** A dry run: the run's cost estimate and what it would judge; nothing is saved or started. */
export async function dryRun(deps: RunDeps, access: ProjectAccess<"runs.manage">, input: CreateRunInput) {
  if (input.ensemble) throw new ValidationError("A dry run estimates a plain run: leave out `ensemble`.");
  const plan = await planRun(deps, access.projectId, input);
  const { estimate, estimateError } = await estimatePlan(deps, access.projectId, input, plan);
  return {
    dryRun: true as const,
    videos: plan.videos.length,
    withoutFramesCount: plan.withoutFrames.length,
    beingDeletedCount: plan.doomed.length,
    ...(plan.items ? { items: plan.runItems.length, excludedItems: plan.items.excluded.length } : {}),
    estimate,
    estimateError,
  } satisfies RunDryRunAnswer;
}

function estimatePlan(
  deps: RunDeps,
  projectId: string,
  input: CreateRunInput,
  plan: Awaited<ReturnType<typeof planRun>>,
) {
  const { pipeline, storedSettings: settings, endpoint, promptVersionIds, videos, runItems: items, inputMode } = plan;
  const batch = (input.batch ?? false) && endpoint.supportsBatchApi;
  const roleEndpoints = plan.otherEndpoints;
  return estimateRunStart(
    deps.prisma,
    { projectId, pipeline, settings, endpoint, roleEndpoints, promptVersionIds, videos, items, inputMode, batch },
    deps.templates,
  );
}

/** What a run of this request would be: its pipeline, endpoints, settings, prompt versions, videos and items. */
async function planRun(deps: RunDeps, projectId: string, input: CreateRunInput) {
  const { prisma } = deps;
  const given =
    deps.pipelines && Object.hasOwn(deps.pipelines, input.pipeline) ? deps.pipelines[input.pipeline] : undefined;
  const pipeline = given ?? (await catalogFor(prisma, projectId)).pipelines[input.pipeline];
  // A project's own data-defined task runs in that project only: elsewhere it is as unknown as a typo.
  if (!pipeline || (pipeline.projectId && pipeline.projectId !== projectId))
    throw new ValidationError(`Unknown pipeline ${input.pipeline}.`);
  const endpoint = await runEndpoint(deps, projectId, input);
  const inputMode = runInputMode(endpoint, input.inputMode);
  // The run's own settings, else the project's defaults for this pipeline; kept with the run.
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { judgeSettings: true } });
  const projectDefaults = (project.judgeSettings as Record<string, unknown>)[pipeline.id] ?? {};
  const chosen = input.settings ?? projectDefaults;
  // A run started from the defaults records which version of them it used (lib/judge/runs/settings-versions.ts).
  const settingsVersion = input.settings ? null : await latestSettingsVersion(prisma, projectId, pipeline.id);
  const settings = pipeline.settingsSchema ? pipeline.settingsSchema.parse(chosen) : chosen;
  const otherEndpoints = await roleEndpoints(prisma, projectId, pipeline, settings, endpoint);

  const promptVersionIds = await resolveRunPromptVersions(prisma, projectId, pipeline, input.promptVersions);

  const items = pipeline.items ? await runItemsFor(prisma, projectId, pipeline.items, input) : null;
  const { videos, withoutFrames, doomed } = await runVideosFor(prisma, projectId, pipeline, settings, input, items);
  const judged = new Set(videos.map((v) => v.id));
  const runItems = items ? positions(items.included.filter((item) => judged.has(item.videoId))) : [];
  // What the run reads from elsewhere is kept in its settings, so its results follow from what it stored.
  const storedSettings = pipeline.settingsAtStart
    ? await pipeline.settingsAtStart(
        prisma,
        settings,
        runItems.map((item) => item.itemId),
      )
    : settings;
  return {
    pipeline,
    endpoint,
    inputMode,
    settingsVersion,
    otherEndpoints,
    promptVersionIds,
    items,
    videos,
    withoutFrames,
    doomed,
    runItems,
    storedSettings,
  };
}

async function createPlainRun(deps: RunDeps, access: ProjectAccess<"runs.manage">, input: CreateRunInput) {
  const [started] = await createPlainRuns(deps, access, [input]);
  return started!;
}

/**
 * Several plain runs (a sweep's, one per value) saved in one transaction: every run is planned first, and one that
 * cannot start (no video with its frames, a refused mode) saves none of them.
 */
export async function createPlainRuns(
  deps: RunDeps,
  access: ProjectAccess<"runs.manage">,
  inputs: readonly CreateRunInput[],
) {
  const prepared = [];
  for (const input of inputs) prepared.push(await preparePlainRun(deps, access, input));
  // A sweep's runs share one id, by which each of their pages links to all of them.
  const sweepId = prepared.length > 1 ? randomUUID() : null;
  const runs = await saveRuns(
    deps.prisma,
    prepared.map((p) => ({ ...p.run, data: { ...p.run.data, sweepId } })),
  );
  const answers = [];
  for (const [i, run] of runs.entries()) {
    const { videos, withoutFrames, doomed, items, runItems } = prepared[i]!.plan;
    await deps.queue.enqueue(videos.map((v) => ({ runId: run.id, videoId: v.id })));
    if (run.batchMode) await deps.queue.startBatchChecks!(run.id);
    answers.push({
      id: run.id,
      videos: videos.length,
      /** Videos in scope the run leaves out because they have no frame set it can use (the first 100, and how many). */
      withoutFrames: withoutFrames.slice(0, 100),
      withoutFramesCount: withoutFrames.length,
      /** Videos in scope that a queued or running deletion is removing: left out. */
      beingDeletedCount: doomed.length,
      ...(items ? { items: runItems.length, excludedItems: items.excluded.length } : {}),
    });
  }
  return answers;
}

/** A plain run's plan and the row and videos saveRuns writes for it. */
async function preparePlainRun(deps: RunDeps, access: ProjectAccess<"runs.manage">, input: CreateRunInput) {
  const { actor, projectId } = access;
  const plan = await planRun(deps, projectId, input);
  const { pipeline, endpoint, settingsVersion, otherEndpoints, promptVersionIds } = plan;
  const { videos, runItems, storedSettings } = plan;
  const { estimate } = await estimatePlan(deps, projectId, input, plan);
  const run = {
    data: {
      projectId,
      pipeline: pipeline.id,
      endpointId: endpoint.id,
      settings: storedSettings as Prisma.InputJsonValue,
      settingsVersionId: settingsVersion?.id ?? null,
      promptVersionIds,
      endpointSnapshot: endpointSnapshot(endpoint, otherEndpoints),
      simulated: [endpoint, ...otherEndpoints.map((o) => o.endpoint)].some(
        (e) => /^stub/i.test(e.model) || e.name.toLowerCase().includes("simulated"),
      ),
      batchMode: input.batch ?? false,
      inputMode: plan.inputMode,
      budgetUsd: input.budgetUsd ?? null,
      ...(estimate ? { estimate: estimate as unknown as Prisma.InputJsonValue } : {}),
      createdById: actor.userId,
      ...(runItems.length ? { items: { createMany: { data: runItems } } } : {}),
    } satisfies Prisma.JudgeRunUncheckedCreateInput,
    videos,
  };
  return { plan, run };
}

/** The run's endpoint, of the project and not archived (and serving the Batch API for a batch run). */
async function runEndpoint(deps: RunDeps, projectId: string, input: CreateRunInput): Promise<JudgeEndpoint> {
  const endpoint = await deps.prisma.judgeEndpoint.findFirst({ where: { id: input.endpointId, projectId } });
  if (!endpoint) throw new NotFoundError("No such endpoint in this project.");
  if (endpoint.archivedAt)
    throw new ValidationError(
      `Endpoint ${endpoint.name} is archived: restore it on the Judge page to start runs with it.`,
    );
  if (input.batch) {
    if (!endpoint.supportsBatchApi)
      throw new ValidationError(
        `Endpoint ${endpoint.name} does not support the Batch API: turn on "supports Batch API" in its settings first.`,
      );
    if (!deps.queue.startBatchChecks) throw new ValidationError("This server cannot run batch runs.");
  }
  return endpoint;
}

type RunItems = Awaited<ReturnType<typeof runItemsFor>>;

/**
 * The videos the run judges, each with the frame sets its pipeline can use (newest first); those in scope without
 * one; and those a deletion is removing. Refused with a reason when a named video cannot be judged or none can.
 */
async function runVideosFor(
  prisma: PrismaClient,
  projectId: string,
  pipeline: PipelineDefinition,
  settings: unknown,
  input: CreateRunInput,
  items: RunItems | null,
) {
  const requirement = pipeline.frames?.(settings) ?? { mode: "key_frames" as const };
  const where: Prisma.VideoWhereInput = { projectId };
  if (input.dimension) where.dimensions = { has: input.dimension };
  const named = input.videoIds ? new Set(input.videoIds) : null;
  const ids = items
    ? [...new Set(items.included.map((item) => item.videoId))].filter((id) => !named || named.has(id))
    : named && [...named];
  const { candidates, doomed } = await candidateVideos(prisma, projectId, where, ids, requirement);
  // Named in videoIds (found holds only those then): refused rather than left out unseen.
  if (input.videoIds && doomed.length > 0) {
    const paths = doomed.map((video) => video.relativePath);
    throw new ValidationError(`These videos are being deleted: ${someNamed(paths, 10)}.`);
  }
  const videos = candidates.filter((v) => v.frameSets.length > 0);
  const withoutFrames = candidates
    .filter((v) => v.frameSets.length === 0)
    .map((v) => ({ id: v.id, relativePath: v.relativePath }));
  const needs =
    requirement.mode === "uniform"
      ? (requirement.label ?? `a uniform frame set of ${requirement.count} frames`)
      : requirement.mode === "key_frames"
        ? "key frames"
        : "frames";
  if (named && !items) {
    const found = new Set(videos.map((v) => v.id));
    const missing = [...named].filter((id) => !found.has(id));
    if (missing.length)
      throw new ValidationError(
        `These videos are not in the project or have no ${needs} yet: ${someNamed(missing, 10)}.`,
      );
  }
  if (videos.length === 0) {
    if (items && items.included.length === 0)
      throw new ValidationError(
        `No ${pipeline.items!.kind} of that set fits this pipeline${items.excluded.length ? ` (${items.excluded[0]!.reason}, and ${items.excluded.length - 1} more)` : ""}.`,
      );
    const paths = withoutFrames.map((v) => v.relativePath);
    // A count, a few shortened names and where to extract: VBench-2.0's names are 180-character prompts.
    const where =
      requirement.mode === "uniform"
        ? ` on the Extract pending page (/projects/${projectId}/pending?uniform=${requirement.count}&videos=all)`
        : "";
    const extract = paths.length
      ? ` Extract them first (${paths.length} ${paths.length === 1 ? "video" : "videos"})${where} for: ${someNamed(paths, 3, 72)}.`
      : "";
    throw new ValidationError(
      `No video with ${needs} matches.${extract}${doomed.length ? ` ${doomed.length} are being deleted.` : ""}`,
    );
  }
  return { videos, withoutFrames, doomed };
}

/**
 * Ids per query of the videos a run names: a statement takes at most 32,767 parameters, and a run (or its manifest)
 * may name 100,000 videos.
 */
const VIDEO_IDS_PER_QUERY = 10_000;

/**
 * The videos in scope (of `ids` when given) with the frame sets the requirement accepts, but those a deletion is
 * removing (`doomed`); in path order.
 */
async function candidateVideos(
  prisma: PrismaClient,
  projectId: string,
  where: Prisma.VideoWhereInput,
  ids: readonly string[] | null,
  requirement: FrameRequirement,
) {
  const found: Awaited<ReturnType<typeof videosWithFrameSets>> = [];
  if (ids === null) found.push(...(await videosWithFrameSets(prisma, where, requirement)));
  for (let start = 0; ids !== null && start < ids.length; start += VIDEO_IDS_PER_QUERY) {
    const chunk = ids.slice(start, start + VIDEO_IDS_PER_QUERY);
    found.push(...(await videosWithFrameSets(prisma, { ...where, id: { in: chunk } }, requirement)));
  }
  if (ids !== null && ids.length > VIDEO_IDS_PER_QUERY)
    found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  const accepts = requirement.mode === "uniform" ? requirement.accepts : undefined;
  // A large deletion removes its videos a batch at a time, as a worker's job: those it has yet to remove stay out.
  const beingDeleted = await videosBeingDeleted(prisma, projectId);
  const doomed = found.filter((video) => beingDeleted.has(video.id));
  const candidates = found
    .filter((video) => !beingDeleted.has(video.id))
    .map((video) => ({
      ...video,
      frameSets: accepts
        ? video.frameSets.filter((set) => {
            const maxSide = (set.parameters as { maxSide?: unknown } | null)?.maxSide;
            const first = set.frames[0];
            return (
              first !== undefined &&
              accepts(video, {
                maxSide: typeof maxSide === "number" ? maxSide : null,
                width: first.width,
                height: first.height,
              })
            );
          })
        : video.frameSets,
    }));
  return { candidates, doomed };
}

/** The videos a query finds, each with the frame sets the requirement accepts (newest first). */
function videosWithFrameSets(prisma: PrismaClient, where: Prisma.VideoWhereInput, requirement: FrameRequirement) {
  const frameSetWhere =
    requirement.mode === "uniform" ? FRAME_SET_WHERE.uniform(requirement.count) : FRAME_SET_WHERE[requirement.mode];
  const accepts = requirement.mode === "uniform" ? requirement.accepts : undefined;
  return prisma.video.findMany({
    where,
    orderBy: { relativePath: "asc" },
    select: {
      id: true,
      relativePath: true,
      width: true,
      height: true,
      // A requirement that accepts only some sets (frames of a planned size) looks at every candidate, newest first,
      // and at each one's first frame. Without one no frame is read: Prisma reads every frame of the sets to keep the
      // first (a run of 800 videos with key frames read 7,200 rows it did not use), and `take: 0` reads none.
      frameSets: {
        where: frameSetWhere,
        orderBy: { createdAt: "desc" },
        ...(accepts ? {} : { take: 1 }),
        select: {
          id: true,
          parameters: true,
          frames: { orderBy: { index: "asc" }, take: accepts ? 1 : 0, select: { width: true, height: true } },
        },
      },
    },
  });
}

/**
 * The runs and their videos, in one transaction: each video's fields as judged are copied in the database, so a later
 * edit of the video changes neither a run's steps nor its records. Nothing is saved when a video, frame set or
 * endpoint was deleted meanwhile.
 */
async function saveRuns(
  prisma: PrismaClient,
  runs: readonly { data: Prisma.JudgeRunUncheckedCreateInput; videos: { id: string; frameSets: { id: string }[] }[] }[],
) {
  const deleted = () =>
    new ConflictError(
      "A video, frame set or endpoint of this run was deleted while it was starting; nothing was saved. Start the run again.",
    );
  return prisma
    .$transaction(
      async (tx) => {
        const saved = [];
        for (const run of runs) saved.push(await saveRunIn(tx, run, deleted));
        return saved;
      },
      // Not the default 5 s: a run of 200k videos writes as many rows.
      { timeout: 60_000 },
    )
    .catch((error: unknown) => {
      // The endpoint (or an item) deleted since: the transaction saved nothing.
      if (isPrismaError(error, FOREIGN_KEY_VIOLATION)) throw deleted();
      throw error;
    });
}

/** One run and its videos, in the caller's transaction. */
async function saveRunIn(
  tx: Prisma.TransactionClient,
  run: { data: Prisma.JudgeRunUncheckedCreateInput; videos: { id: string; frameSets: { id: string }[] }[] },
  deleted: () => Error,
) {
  const { videos } = run;
  const created = await tx.judgeRun.create({ data: run.data });
  // Copied in the database (a run of 800 videos spent 0.1 s sending them back through Prisma). A video or
  // frame set deleted since the selection has no row to join: fewer rows, and nothing is saved.
  const inserted = await tx.$executeRaw`
    INSERT INTO run_video ("runId", "videoId", "frameSetId", "judgedWith", "updatedAt")
    SELECT ${created.id}, v.id, fs.id,
      jsonb_build_object('prompt', v.prompt, 'dimensions', to_jsonb(v.dimensions), 'model', v.model, 'auxiliaryInfo', coalesce(v."auxiliaryInfo", '{}'::jsonb)),
      now()
    FROM unnest(${videos.map((v) => v.id)}::text[], ${videos.map((v) => v.frameSets[0]!.id)}::text[]) AS chosen("videoId", "frameSetId")
    JOIN video v ON v.id = chosen."videoId" AND v."projectId" = ${run.data.projectId}
    JOIN frame_set fs ON fs.id = chosen."frameSetId" AND fs."videoId" = v.id`;
  if (inserted !== videos.length) throw deleted();
  return created;
}

/**
 * The frame sets a requirement accepts: key frames chosen from the video (density peaks, scene changes), or
 * uniform sets extracted with `count` frames (uniformFrameSetWhere). A uniform set marks every frame a key
 * frame, with no clusters: a pipeline that reads key frames and their clusters must not pick it up because it
 * is newer.
 */
export const FRAME_SET_WHERE = {
  key_frames: { keyFrameCount: { gt: 0 }, mode: { not: "uniform" } },
  any: {},
  uniform: (count: number): Prisma.FrameSetWhereInput => uniformFrameSetWhere(count),
} as const;

/** The run in the access's project: a run of another project is "No such run.", as one that does not exist. */
async function runInProject(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    include: { endpoint: { select: { name: true, model: true } } },
  });
  if (!run) throw new NotFoundError("No such run.");
  return run;
}

export async function getRunStatus(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await runInProject(prisma, access, runId);
  // An ensemble run's work is its members' (lib/ensembles): their steps and calls are its progress and cost.
  const members = run.ensemble
    ? await prisma.judgeRun.findMany({ where: { parentRunId: runId }, select: { id: true } })
    : [];
  const workIds = members.length ? members.map((m) => m.id) : [runId];
  const [videoCounts, stepCounts, calls, lastBatch] = await Promise.all([
    prisma.runVideo.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    prisma.stepResult.groupBy({ by: ["status"], where: { runId: { in: workIds } }, _count: { _all: true } }),
    callCountsByRun(prisma, workIds),
    run.batchMode ? prisma.judgeBatch.findFirst({ where: { runId }, orderBy: { number: "desc" } }) : null,
  ]);
  const count = (rows: { status: string; _count: { _all: number } }[]) =>
    Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
  const steps = count(stepCounts);
  const c = sumCallCounts(calls.values());
  return {
    id: run.id,
    projectId: run.projectId,
    pipeline: run.pipeline,
    status: run.status,
    simulated: run.simulated,
    batchMode: run.batchMode,
    /** An ensemble run's settings (lib/ensembles; its steps and calls are its members'), and a member's parent and place. */
    ensemble: run.ensemble ?? null,
    parentRunId: run.parentRunId,
    memberIndex: run.memberIndex,
    /** A batch run's latest batch, as the run page shows it: "batch N: in_progress, x/y". */
    batch: lastBatch
      ? {
          number: lastBatch.number,
          status: lastBatch.status,
          completed: lastBatch.completedCount,
          failed: lastBatch.failedCount,
          total: lastBatch.requestCount,
          error: lastBatch.error,
        }
      : null,
    endpoint: run.endpoint,
    settings: run.settings,
    /**
     * The run's budget (an ensemble's: each member's), why it stopped ("budget": resumable with a higher one), the
     * calls in flight when its budget stopped it (the most that may have spent past it), and its cost estimate at start.
     */
    budgetUsd: run.budgetUsd,
    stopReason: run.stopReason,
    callsInFlightAtStop: run.callsInFlightAtStop,
    estimate: run.estimate ?? null,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    videos: { total: videoCounts.reduce((s, r) => s + r._count._all, 0), ...count(videoCounts) },
    steps: {
      total: stepCounts.reduce((s, r) => s + r._count._all, 0),
      pending: steps.pending ?? 0,
      running: steps.running ?? 0,
      done: steps.done ?? 0,
      failed: steps.failed ?? 0,
      parse_failed: steps.parse_failed ?? 0,
      skipped: steps.skipped ?? 0,
      cancelled: steps.cancelled ?? 0,
    },
    ...runCallTotals(c, run.status === "queued" || run.status === "running"),
  };
}

/** What a run's calls add up to, as stored: counts by kind and status, tokens and cost summed. */
export interface CallCounts {
  total: number;
  cached: number;
  errors: number;
  repairs: number;
  lost: number;
  sent: number;
  withoutUsage: number;
  prompt: number;
  completion: number;
  cost: number;
}

const NO_CALLS: CallCounts = {
  total: 0,
  cached: 0,
  errors: 0,
  repairs: 0,
  lost: 0,
  sent: 0,
  withoutUsage: 0,
  prompt: 0,
  completion: 0,
  cost: 0,
};

/** Each run's call counts, in one statement; a run with no call yet has NO_CALLS. */
export async function callCountsByRun(prisma: PrismaClient, runIds: string[]): Promise<Map<string, CallCounts>> {
  const rows = await prisma.$queryRaw<({ runId: string } & Record<keyof CallCounts, bigint | number | null>)[]>`
    SELECT "runId", count(*) AS total,
           count(*) FILTER (WHERE cached) AS cached,
           count(*) FILTER (WHERE error IS NOT NULL) AS errors,
           count(*) FILTER (WHERE "isRepair") AS repairs,
           count(*) FILTER (WHERE status = 'lost') AS lost,
           count(*) FILTER (WHERE status = 'sent') AS sent,
           count(*) FILTER (WHERE NOT "usageKnown") AS "withoutUsage",
           sum("promptTokens") AS prompt, sum("completionTokens") AS completion, sum("costUsd") AS cost
    FROM llm_call WHERE "runId" = ANY(${runIds}::text[]) GROUP BY "runId"`;
  const counts = new Map(runIds.map((id) => [id, NO_CALLS]));
  for (const { runId, ...row } of rows) {
    const numbers = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value ?? 0)]));
    counts.set(runId, numbers as unknown as CallCounts);
  }
  return counts;
}

/** Several runs' call counts added up (an ensemble's members as one run). */
export function sumCallCounts(counts: Iterable<CallCounts>): CallCounts {
  const sum = { ...NO_CALLS };
  for (const c of counts) for (const key of Object.keys(sum) as (keyof CallCounts)[]) sum[key] += c[key];
  return sum;
}

/**
 * A run's calls, tokens and cost as the run page and `GET /runs/:id` show them. Every request the endpoint
 * received is a call: `lost` ones (sent by a worker that died before storing the answer) and `inFlight` ones
 * count with tokens and cost estimated from the request (lib/judge/calls/lost-calls.ts). Calls answered without
 * `usage` make tokens and cost unknown: `null`, with what the other calls add up to in `atLeast`, never 0.
 */
export function runCallTotals(c: CallCounts, runActive: boolean) {
  const withoutUsage = c.withoutUsage;
  // A run that is over (a cancelled one whose worker died) will never get the answers of calls still "sent".
  const sent = c.sent;
  const lost = c.lost + (runActive ? 0 : sent);
  const inFlight = runActive ? sent : 0;
  const { prompt, completion, cost } = c;
  const known = withoutUsage === 0;
  return {
    calls: {
      total: c.total,
      cached: c.cached,
      errors: c.errors,
      repairs: c.repairs,
      lost,
      inFlight,
      withoutUsage,
    },
    tokens: { prompt: known ? prompt : null, completion: known ? completion : null, atLeast: { prompt, completion } },
    costUsd: known ? cost : null,
    /** What the calls with usage (and the estimates of lost and in-flight calls) add up to: the cost when `costUsd` is known, a lower bound when not. */
    costUsdAtLeast: cost,
  };
}

/** Cancels a run; an ensemble's parent and members cancel together, whichever of them is named. */
export async function cancelRun(prisma: PrismaClient, access: ProjectAccess<"runs.manage">, runId: string) {
  await runInProject(prisma, access, runId);
  const runIds = await ensembleFamily(prisma, runId);
  await prisma.$transaction([
    prisma.judgeRun.updateMany({
      where: { id: { in: runIds }, status: { in: ["queued", "running"] } },
      data: { status: "cancelled", finishedAt: new Date() },
    }),
    prisma.runVideo.updateMany({ where: { runId: { in: runIds }, status: "queued" }, data: { status: "cancelled" } }),
    prisma.stepResult.updateMany({
      where: { runId: { in: runIds }, status: "pending" },
      data: { status: "cancelled", finishedAt: new Date() },
    }),
  ]);
}

/** The run ids of a run's ensemble: its parent and every member (the run alone when it is a plain run). */
async function ensembleFamily(prisma: PrismaClient, runId: string): Promise<string[]> {
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { id: true, parentRunId: true } });
  if (!run) return [runId];
  const rootId = run.parentRunId ?? run.id;
  const members = await prisma.judgeRun.findMany({ where: { parentRunId: rootId }, select: { id: true } });
  return [rootId, ...members.map((m) => m.id)];
}

// The runs list lives with the runs' names it carries.
export { listRuns } from "../runs/list-runs";

/** A video's step outputs and scores in one run (by default the latest finished run that judged it). */
export async function videoScores(prisma: PrismaClient, access: ProjectAccess, videoId: string, runId?: string) {
  // A video of another project is as unknown as one that does not exist.
  const video = await prisma.video.findFirst({
    where: { id: videoId, projectId: access.projectId },
    select: { id: true, projectId: true },
  });
  if (!video) throw new NotFoundError("No such video.");
  const runVideo = await prisma.runVideo.findFirst({
    // By default the latest finished run that judged the video itself, not one that judged its captions.
    where: {
      videoId,
      ...(runId
        ? { runId }
        : {
            run: {
              pipeline: { in: (await catalogFor(prisma, video.projectId)).videoSubjectPipelineIds() },
              ...DEFAULT_RUN_WHERE,
            },
          }),
    },
    orderBy: { run: { createdAt: "desc" } },
    include: {
      run: {
        select: {
          id: true,
          pipeline: true,
          status: true,
          simulated: true,
          settings: true,
          endpointSnapshot: true,
          createdAt: true,
          ensemble: true,
        },
      },
    },
  });
  if (!runVideo) return { videoId, run: null, summary: null, steps: [], blind: false };
  const steps = await prisma.stepResult.findMany({
    where: { runId: runVideo.runId, videoId },
    orderBy: [{ stepId: "asc" }, { scopeIndex: "asc" }],
    include: {
      scores: { select: { id: true, category: true, value: true, expected: true }, orderBy: { category: "asc" } },
    },
  });
  // Blind review queues: the judge's values stay hidden from a reviewer who has not submitted yet.
  return redactVideoScoresFor(prisma, access.actor.userId, videoId, {
    videoId,
    run: runVideo.run,
    frameSetId: runVideo.frameSetId,
    status: runVideo.status,
    summary: runVideo.summary,
    steps: steps.map((s) => ({
      id: s.id,
      stepId: s.stepId,
      scopeIndex: s.scopeIndex,
      status: s.status,
      templateId: s.templateId,
      templateHash: s.templateHash,
      output: s.output,
      error: publicStepError(s.status, s.error),
      attempts: s.attempts,
      scores: s.scores,
    })),
  });
}

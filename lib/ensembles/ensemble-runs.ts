/**
 * Ensemble runs (issue 26): self-consistency samples (Wang et al. 2022) and judge panels (Verga et al. 2024).
 * An ensemble run is a run like any other (its videos, step results, scores and metrics are where every page
 * reads a run's) whose scores are combined from member runs: each member a normal run of the same pipeline,
 * settings and videos, on the run's endpoint at the sample temperature under its own cache salt
 * (self-consistency), or on one of the panel's endpoints. The parent calls no endpoint itself.
 */
import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import type { CreateRunInput } from "../judge/runs/run-input.validation";
import type { JudgeEventSubscriber } from "../judge/engine/judge-events";
import type { PipelineDefinition, ScoreRow, StepOutputs, VideoContext } from "../task-modules/pipeline-types";
import { loadVideoJob } from "../judge/engine/step-store";
import { keyFramesAndClusters } from "../judge/media/frame-scopes";
import type { JudgeQueue } from "../judge/workers/judge-queue";
import { pipelineOfRun } from "../task-modules/task-catalogue";
import { unstableAtOf, type TargetDeclaration } from "../task-modules/task-declaration";
import { DISPERSION_SORT } from "../videos/video-filter";
import { combineValues, type CombinedTarget, type CombineRule } from "./combine-values";
import { ensembleSettingsOf, type EnsembleSettings } from "../judge/runs/ensemble-settings";

type Pipelines = Record<string, PipelineDefinition>;
type CreatePlainRun = (
  deps: { prisma: PrismaClient; queue: JudgeQueue; pipelines?: Readonly<Pipelines> },
  access: ProjectAccess<"runs.manage">,
  input: CreateRunInput,
) => Promise<{ id: string; videos: number; beingDeletedCount: number }>;

/** The response-cache salt of self-consistency sample i: each sample's answers are asked and cached apart. */
export const sampleSalt = (index: number) => `sample-${index}`;

type EnsembleRequest = NonNullable<CreateRunInput["ensemble"]>;
type MemberPlan = { endpointId: string; sampling: { temperature: number; salt: string } | null };

/** The member runs to create: one per sample (the run's endpoint, its own salt), or one per panel endpoint. */
function plannedMembers(input: CreateRunInput): MemberPlan[] {
  const request = input.ensemble!;
  return request.kind === "samples"
    ? Array.from({ length: request.samples }, (_, i) => ({
        endpointId: input.endpointId,
        sampling: { temperature: request.temperature, salt: sampleSalt(i) },
      }))
    : request.endpointIds.map((endpointId) => ({ endpointId, sampling: null }));
}

/** A panel names the run's endpoint among its own, and every one of them is the project's. */
async function requirePanelEndpoints(
  prisma: PrismaClient,
  projectId: string,
  endpointId: string,
  endpointIds: string[],
): Promise<void> {
  if (!endpointIds.includes(endpointId))
    throw new ValidationError("endpointId must be one of the panel's endpoints (ensemble.endpointIds).");
  const found = await prisma.judgeEndpoint.findMany({
    where: { projectId, id: { in: endpointIds } },
    select: { id: true },
  });
  const missing = endpointIds.filter((id) => !found.some((e) => e.id === id));
  if (missing.length) throw new NotFoundError(`No such endpoint in this project: ${missing.join(", ")}.`);
}

/** What the parent run stores of its ensemble: how its members were made and how their values combine. */
function ensembleSettingsFrom(request: EnsembleRequest): EnsembleSettings {
  return request.kind === "samples"
    ? { kind: "samples", combine: "declared", samples: request.samples, temperature: request.temperature }
    : { kind: "panel", combine: request.combine, endpointIds: request.endpointIds };
}

/** The parent run: the first member's pipeline, settings and videos (and items), created after every member. */
async function createParentRun(
  tx: Prisma.TransactionClient,
  actor: Actor,
  projectId: string,
  input: CreateRunInput,
  settings: EnsembleSettings,
  first: Prisma.JudgeRunGetPayload<{ include: { videos: true; items: true } }>,
  runs: { id: string }[],
) {
  const memberRows = await tx.judgeRun.findMany({
    where: { id: { in: runs.map((r) => r.id) } },
    select: { simulated: true, createdAt: true },
  });
  const simulated = memberRows.some((m) => m.simulated);
  const lastCreated = Math.max(...memberRows.map((m) => m.createdAt.getTime()));
  return tx.judgeRun.create({
    data: {
      projectId,
      pipeline: first.pipeline,
      endpointId: input.endpointId,
      settings: first.settings as Prisma.InputJsonValue,
      promptVersionIds: first.promptVersionIds as Prisma.InputJsonValue,
      endpointSnapshot: first.endpointSnapshot as Prisma.InputJsonValue,
      simulated,
      batchMode: first.batchMode,
      createdById: actor.userId,
      ensemble: settings,
      // Each member's: the run stops with the first member its budget stops (lib/judge/runs/run-budget.ts).
      budgetUsd: input.budgetUsd ?? null,
      // After its members': the latest run of the pipeline (every page's default) is the ensemble, not a sample.
      createdAt: new Date(Math.max(lastCreated + 1, Date.now())),
      videos: {
        createMany: {
          data: first.videos.map((v) => ({
            videoId: v.videoId,
            frameSetId: v.frameSetId,
            judgedWith: v.judgedWith ?? undefined,
          })),
        },
      },
      ...(first.items.length
        ? {
            items: {
              createMany: {
                data: first.items.map((i) => ({ itemId: i.itemId, videoId: i.videoId, position: i.position })),
              },
            },
          }
        : {}),
    },
  });
}

/**
 * Creates the member runs and their parent in one transaction, then queues the members' videos. Returns the
 * parent (the run to watch) with its members' ids. `createPlainRun` is lib/judge/runs' own (no import cycle).
 */
export async function createEnsembleRun(
  deps: { prisma: PrismaClient; queue: JudgeQueue; pipelines?: Readonly<Pipelines> },
  access: ProjectAccess<"runs.manage">,
  input: CreateRunInput,
  createPlainRun: CreatePlainRun,
) {
  const { prisma } = deps;
  const { actor, projectId } = access;
  const request = input.ensemble!;
  const members = plannedMembers(input);
  if (request.kind === "panel") await requirePanelEndpoints(prisma, projectId, input.endpointId, request.endpointIds);
  const settings = ensembleSettingsFrom(request);
  // The members' jobs wait until every run exists and knows its parent: a member finishing first must find it.
  const jobs: { runId: string; videoId: string }[] = [];
  const batchRuns: string[] = [];
  const deferred: JudgeQueue = {
    enqueue: async (more) => void jobs.push(...more),
    startBatchChecks: deps.queue.startBatchChecks ? async (runId) => void batchRuns.push(runId) : undefined,
  };
  const memberInput: CreateRunInput = { ...input, ensemble: undefined };
  const created = await prisma.$transaction(
    async (tx) => {
      const client = tx as unknown as PrismaClient;
      const runs: { id: string; videos: number; beingDeletedCount: number }[] = [];
      for (const member of members)
        runs.push(
          await createPlainRun({ ...deps, prisma: client, queue: deferred }, access, {
            ...memberInput,
            endpointId: member.endpointId,
          }),
        );
      const first = await tx.judgeRun.findUniqueOrThrow({
        where: { id: runs[0]!.id },
        include: { videos: true, items: true },
      });
      const parent = await createParentRun(tx, actor, projectId, input, settings, first, runs);
      for (const [index, run] of runs.entries()) {
        const sampling = members[index]!.sampling;
        await tx.judgeRun.update({
          where: { id: run.id },
          data: { parentRunId: parent.id, memberIndex: index, ...(sampling ? { sampling } : {}) },
        });
      }
      return { parent, runs, videos: first.videos.length };
    },
    { timeout: 120_000, maxWait: 20_000 },
  );
  await deps.queue.enqueue(jobs);
  for (const runId of batchRuns) await deps.queue.startBatchChecks!(runId);
  return {
    id: created.parent.id,
    videos: created.videos,
    ensemble: settings,
    members: created.runs.map((r) => r.id),
    withoutFrames: [],
    withoutFramesCount: 0,
    beingDeletedCount: created.runs[0]!.beingDeletedCount,
  };
}

/** A value's reason in a step's output: a per-target `reasons` entry (a rubric's per criterion), else the step's own reason. */
export function reasonOf(output: unknown, category: string): string | null {
  if (!output || typeof output !== "object" || Array.isArray(output)) return null;
  const o = output as Record<string, unknown>;
  if (o.reasons && typeof o.reasons === "object") {
    for (const [key, value] of Object.entries(o.reasons as Record<string, unknown>)) {
      if (
        typeof value === "string" &&
        (key === category || category.endsWith(`_${key}`) || category.endsWith(`.${key}`))
      )
        return value;
    }
  }
  for (const key of ["reason", "reasoning", "explanation", "rationale"]) if (typeof o[key] === "string") return o[key];
  return null;
}

/** A member's step result with its scores, as the combination reads them. */
type MemberStep = Prisma.StepResultGetPayload<{ include: { scores: { select: { category: true; value: true } } } }>;

const UNDECLARED: CombinedTarget = {
  scale: { kind: "numeric", min: -Infinity, max: Infinity, step: null },
  level: "interval",
  higherIsBetter: true,
};

/**
 * An ensemble's member closing a video: the worker that finishes the last member's last video combines them into the
 * parent. A failed combine fails the video's job, whose retry closes the video again and tries the combine again.
 */
export const ensembleCombineSubscriber: JudgeEventSubscriber = {
  name: "ensemble combine",
  wants: (kind) => kind === "video closed",
  async heard(deps, event) {
    if (event.kind === "video closed" && event.run.parentRunId)
      await combineEnsembleWhenDone(deps.prisma, undefined, event.run.parentRunId);
  },
  onFailure: "fails the job",
};

/**
 * Once every member of an ensemble is done, writes the parent's results (idempotent; called by the worker
 * that finishes a member's last video, and any number of times after): its step results (the first member's
 * finished one per step, for the frames and reasons views), each score combined from the members' values,
 * the dispersion of each, the pipeline's summary and metrics of the combined scores, and its end. One
 * transaction that locks the parent row, so two workers finishing the last two members combine once.
 * Returns whether this call combined.
 */
export async function combineEnsembleWhenDone(
  prisma: PrismaClient,
  /** A test's own pipelines (a toy task's), tried before the run's own (pipelineOfRun). */
  pipelines: Readonly<Pipelines> | undefined,
  parentRunId: string,
): Promise<boolean> {
  const look = await prisma.judgeRun.findUnique({
    where: { id: parentRunId },
    select: { status: true, pipeline: true, projectId: true, settings: true, members: { select: { status: true } } },
  });
  if (!look || look.status === "done" || look.status === "cancelled" || look.members.some((m) => m.status !== "done"))
    return false;
  const pipeline = pipelines?.[look.pipeline] ?? (await pipelineOfRun(prisma, look));
  if (!pipeline) throw new Error(`Unknown pipeline ${look.pipeline}`);
  const task = pipeline.task;
  const targets = new Map<string, TargetDeclaration>((task?.targets ?? []).map((t) => [t.id, t]));
  return prisma.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<
        { status: string }[]
      >`SELECT status::text AS status FROM judge_run WHERE id = ${parentRunId} FOR UPDATE`;
      if (locked[0]?.status !== "queued" && locked[0]?.status !== "running") return false;
      const parent = await tx.judgeRun.findUniqueOrThrow({
        where: { id: parentRunId },
        select: {
          settings: true,
          ensemble: true,
          members: {
            orderBy: { memberIndex: "asc" },
            select: { id: true, memberIndex: true, status: true, startedAt: true },
          },
        },
      });
      if (parent.members.some((m) => m.status !== "done")) return false;
      const settings = ensembleSettingsOf(parent.ensemble);
      if (!settings) throw new Error(`Run ${parentRunId} is no ensemble run.`);
      const rule: CombineRule = settings.combine;
      const memberIds = parent.members.map((m) => m.id);
      const steps = await tx.stepResult.findMany({
        where: { runId: { in: memberIds } },
        include: { scores: { select: { category: true, value: true } } },
      });
      const stepsByVideo = new Map<string, typeof steps>();
      for (const step of steps) stepsByVideo.set(step.videoId, [...(stepsByVideo.get(step.videoId) ?? []), step]);
      const order = new Map(memberIds.map((id, index) => [id, index]));
      const videos = await tx.runVideo.findMany({ where: { runId: parentRunId }, select: { videoId: true } });
      await tx.scoreDispersion.deleteMany({ where: { runId: parentRunId } });
      await tx.stepResult.deleteMany({ where: { runId: parentRunId } });
      await tx.runMetric.deleteMany({ where: { runId: parentRunId } });
      for (const { videoId } of videos) {
        const own = (stepsByVideo.get(videoId) ?? []).sort((a, b) => order.get(a.runId)! - order.get(b.runId)!);
        const byScope = new Map<string, typeof own>();
        for (const step of own)
          byScope.set(`${step.stepId}#${step.scopeIndex}`, [
            ...(byScope.get(`${step.stepId}#${step.scopeIndex}`) ?? []),
            step,
          ]);
        const { stepRows, scoreRows, dispersionRows, combinedScores, spread } = combineVideo(
          parentRunId,
          videoId,
          [...byScope.values()],
          { order, targets, rule },
        );
        await tx.stepResult.createMany({ data: stepRows });
        await tx.score.createMany({ data: scoreRows });
        await tx.scoreDispersion.createMany({ data: dispersionRows });
        await summariseCombined(tx as unknown as PrismaClient, pipeline, parentRunId, videoId, {
          settings: parent.settings,
          stepRows,
          combinedScores,
          spread,
        });
      }
      const startedAt = parent.members.map((m) => m.startedAt).filter((d): d is Date => d !== null);
      await tx.judgeRun.update({
        where: { id: parentRunId },
        data: {
          status: "done",
          startedAt: startedAt.length ? new Date(Math.min(...startedAt.map((d) => d.getTime()))) : null,
          finishedAt: new Date(),
        },
      });
      return true;
    },
    { timeout: 300_000, maxWait: 60_000 },
  );
}

/**
 * One video's combined results: per step and scope, the step result shown (the first member's finished one) and each
 * score combined from the members' values with its dispersion; and the video's largest spread over its target's
 * threshold (the list's "dispersion" sort; 1 or more: unstable).
 */
function combineVideo(
  parentRunId: string,
  videoId: string,
  scopes: MemberStep[][],
  how: { order: ReadonlyMap<string, number>; targets: ReadonlyMap<string, TargetDeclaration>; rule: CombineRule },
) {
  const stepRows: Prisma.StepResultCreateManyInput[] = [];
  const scoreRows: Prisma.ScoreCreateManyInput[] = [];
  const dispersionRows: Prisma.ScoreDispersionCreateManyInput[] = [];
  const combinedScores: ScoreRow[] = [];
  let spread: number | null = null;
  for (const memberSteps of scopes) {
    const shown = memberSteps.find((s) => s.status === "done") ?? memberSteps[0]!;
    const id = randomUUID();
    stepRows.push({
      id,
      runId: parentRunId,
      videoId,
      itemId: shown.itemId,
      stepId: shown.stepId,
      scopeIndex: shown.scopeIndex,
      status: shown.status,
      templateId: shown.templateId,
      templateHash: shown.templateHash,
      output: (shown.output ?? undefined) as Prisma.InputJsonValue | undefined,
      rawText: shown.rawText,
      error: shown.error,
      attempts: shown.attempts,
      startedAt: shown.startedAt,
      finishedAt: shown.finishedAt,
    });
    const categories = [
      ...new Set(memberSteps.flatMap((s) => (s.status === "done" ? s.scores.map((sc) => sc.category) : []))),
    ];
    for (const category of categories) {
      const given = memberSteps.flatMap((s) => {
        const score = s.status === "done" ? s.scores.find((sc) => sc.category === category) : undefined;
        return score
          ? [
              {
                memberIndex: how.order.get(s.runId)!,
                runId: s.runId,
                value: score.value,
                reason: reasonOf(s.output, category),
              },
            ]
          : [];
      });
      const target = how.targets.get(category) ?? UNDECLARED;
      const dispersion = combineValues(
        target,
        given.map((g) => g.value),
        how.rule,
      );
      if (!dispersion) continue;
      const relative = (dispersion.entropy ?? dispersion.sd) / unstableAtOf(target);
      if (Number.isFinite(relative)) spread = Math.max(spread ?? 0, relative);
      const keys = {
        runId: parentRunId,
        videoId,
        itemId: shown.itemId,
        stepId: shown.stepId,
        scopeIndex: shown.scopeIndex,
        category,
      };
      scoreRows.push({ ...keys, stepResultId: id, value: dispersion.value });
      dispersionRows.push({ ...keys, ...dispersion, members: given });
      combinedScores.push({
        stepId: shown.stepId,
        scopeIndex: shown.scopeIndex,
        category,
        value: dispersion.value,
      });
    }
  }
  return { stepRows, scoreRows, dispersionRows, combinedScores, spread };
}

/**
 * The pipeline's own summary and metrics of a video's combined scores, with the parent's frames and items, stored as
 * the parent's: the video done with its summary, its metrics (the dispersion among them).
 */
async function summariseCombined(
  tx: PrismaClient,
  pipeline: PipelineDefinition,
  parentRunId: string,
  videoId: string,
  combined: {
    settings: unknown;
    stepRows: Prisma.StepResultCreateManyInput[];
    combinedScores: ScoreRow[];
    spread: number | null;
  },
) {
  const { stepRows, settings } = combined;
  const job = await loadVideoJob(tx, parentRunId, videoId);
  if (!job) return;
  const context: VideoContext = {
    videoId,
    prompt: job.video.prompt,
    dimensions: job.video.dimensions,
    model: job.video.model,
    fps: job.video.fps,
    frameCount: job.video.frameCount,
    auxiliaryInfo: job.video.auxiliaryInfo,
    imageLimit: null,
    ...keyFramesAndClusters(job.frames),
    frames: job.frames,
    items: job.items,
    settings,
  };
  const outputs: StepOutputs = {
    get: (stepId, scopeIndex) =>
      stepRows.find((r) => r.stepId === stepId && r.scopeIndex === scopeIndex && r.status === "done")?.output,
    all: (stepId) =>
      stepRows
        .filter((r) => r.stepId === stepId)
        .sort((a, b) => a.scopeIndex - b.scopeIndex)
        .map((r) => (r.status === "done" ? r.output : undefined)),
  };
  const summary = pipeline.summarize(combined.combinedScores, context, settings, outputs);
  const metrics = [
    ...metricRows("", { ...pipeline.metricValues(summary), [DISPERSION_SORT]: combined.spread }),
    ...(pipeline.itemMetrics?.(summary) ?? []).flatMap((item) => metricRows(item.itemId, item.values)),
  ];
  await tx.runVideo.update({
    where: { runId_videoId: { runId: parentRunId, videoId } },
    data: { status: "done", summary: (summary ?? undefined) as Prisma.InputJsonValue | undefined },
  });
  if (metrics.length)
    await tx.runMetric.createMany({ data: metrics.map((m) => ({ ...m, runId: parentRunId, videoId })) });
}

/** As the engine stores them: only known values get a row. */
function metricRows(itemId: string, values: Record<string, number | null>) {
  return Object.entries(values).flatMap(([metric, value]) =>
    value === null || !Number.isFinite(value) ? [] : [{ itemId, metric, value }],
  );
}

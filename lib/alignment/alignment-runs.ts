/**
 * An alignment as a long job: the row (input, progress, report) and the pg-boss job that does the work. The job
 * reads the row's status between steps and while a judge run is going, so Cancel stops it; the chosen judge is
 * saved as a new rubric version linked to its report.
 */
import type { Actor } from "../auth/actor";
import { accessFor, projectAccess, roleCan, type ProjectAccess } from "../authz/permissions";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { JudgeQueue } from "../judge/workers/judge-queue";
import { saveSettingsVersion, type SettingsVersion } from "../judge/runs/settings-versions";
import { rubricPipelineId, rubricTargetId } from "../rubrics/rubric-declaration";
import type { RubricDefinition } from "../rubrics/rubric-definition";
import { saveRubricVersion } from "../rubrics/rubric-tasks";
import type { AlignmentDeps, AlignmentReport } from "./align-judge";
import { AlignmentCancelled, alignRubricJudge, criterionPositive } from "./align-judge";
import {
  alignableTargets,
  alignBuiltinJudge,
  builtinPositive,
  type AlignableTarget,
  type BuiltinAlignmentReport,
} from "./align-builtin";
import { alignmentLabelsOf, type StartAlignmentInput, type StartBuiltinAlignmentInput } from "./alignment.validation";
import { goldStore, labelSetStore } from "./label-store";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import type { TargetScope } from "../task-modules/task-declaration";

/** Where alignment jobs go: pg-boss in the app, inline in tests. */
export interface AlignmentQueue {
  enqueue(alignmentId: string): Promise<void>;
}

/**
 * A rubric task's alignment needs the access's "rubrics.manage"; a built-in task's saves prompt versions, so its role
 * must also have "prompts.manage".
 */
export async function startAlignment(
  prisma: PrismaClient,
  queue: AlignmentQueue,
  access: ProjectAccess<"rubrics.manage">,
  input: StartAlignmentInput,
  pipelines: AlignmentDeps["pipelines"],
) {
  if ("pipeline" in input) return startBuiltinAlignment(prisma, queue, access, input, pipelines);
  const { actor, projectId } = access;
  const task = await prisma.rubricTask.findFirst({
    where: { id: input.rubricTaskId, projectId },
    select: { key: true, versions: { orderBy: { number: "desc" }, take: 1, select: { definition: true } } },
  });
  if (!task?.versions[0]) throw new NotFoundError("No such rubric task in this project.");
  const definition = task.versions[0].definition as unknown as RubricDefinition;
  if (!definition.criteria.some((c) => c.id === input.criterionId))
    throw new ValidationError(`criterionId: the rubric has no criterion "${input.criterionId}".`);
  if (definition.frames.mode !== "uniform" && definition.frames.mode !== "key_frames")
    throw new ValidationError(
      "Aligning is available for rubrics judged once per video (uniform or key_frames frames) so far.",
    );
  await checkLabelsAndEndpoints(prisma, projectId, input, {
    task: rubricPipelineId(task.key),
    target: rubricTargetId(task.key, input.criterionId),
    scope: definition.subject?.kind === "item" ? "item" : "video",
  });
  const row = await prisma.alignmentRun.create({
    data: {
      projectId,
      rubricTaskId: input.rubricTaskId,
      input: input as unknown as Prisma.InputJsonValue,
      createdById: actor.userId,
    },
    select: { id: true },
  });
  await queue.enqueue(row.id);
  return { id: row.id, status: "queued" as const };
}

/** A built-in task's alignment: the pipeline's alignable target, labels of it, the project's endpoints. */
async function startBuiltinAlignment(
  prisma: PrismaClient,
  queue: AlignmentQueue,
  access: ProjectAccess,
  input: StartBuiltinAlignmentInput,
  pipelines: AlignmentDeps["pipelines"],
) {
  if (!roleCan(access.role, "prompts.manage"))
    throw new ForbiddenError(`Your role (${access.role}) may not do that in this project.`);
  const { actor, projectId } = access;
  const alignable = alignableTargets(pipelines, input.pipeline).find((t) => t.target.id === input.targetId);
  if (!alignable)
    throw new ValidationError(
      `targetId: pipeline ${input.pipeline} has no alignable target "${input.targetId}" (a video-level target a step scores with its own prompt template, or a reviewed metric with settings to tune).`,
    );
  if (input.rewriteStepId && !alignable.steps.some((s) => s.stepId === input.rewriteStepId))
    throw new ValidationError(
      `rewriteStepId: the steps whose template can be rewritten for "${input.targetId}" are ${alignable.steps.map((s) => s.stepId).join(", ")}.`,
    );
  await checkLabelsAndEndpoints(prisma, projectId, input, {
    task: input.pipeline,
    target: input.targetId,
    targetType: labelTargetType(alignable),
    scope: alignable.scope,
  });
  const row = await prisma.alignmentRun.create({
    data: {
      projectId,
      pipeline: input.pipeline,
      input: input as unknown as Prisma.InputJsonValue,
      createdById: actor.userId,
    },
    select: { id: true },
  });
  await queue.enqueue(row.id);
  return { id: row.id, status: "queued" as const };
}

const MIN_LABELLED_VIDEOS = 6;

/** How labels of an alignable target are stored: a score target's as "score", a reviewed metric's under its own id. */
function labelTargetType(alignable: AlignableTarget): string {
  return alignable.kind === "metric" ? alignable.target.id : SCORE_TARGET_TYPE;
}

async function checkLabelsAndEndpoints(
  prisma: PrismaClient,
  projectId: string,
  input: StartAlignmentInput,
  gold: { task: string; target: string; targetType?: string; scope?: TargetScope },
) {
  if (input.labels.kind === "labelSet") {
    const labelSet = await prisma.labelSet.findFirst({
      where: { id: input.labels.id, projectId },
      select: { id: true },
    });
    if (!labelSet) throw new NotFoundError("No such label set in this project.");
  } else {
    const where = { projectId, task: gold.task, targetType: gold.targetType ?? SCORE_TARGET_TYPE, target: gold.target };
    if ((await goldStore(prisma, { ...where, scope: gold.scope }, () => false).labelledVideoIds()).length === 0)
      throw new ValidationError(
        "labels: the project has no gold values of this criterion yet (set them on the Adjudicate page).",
      );
  }
  // Refused here rather than as a failed job: a split needs 4 train and 2 held-out videos (the job checks the classes).
  const where = { projectId, ...gold };
  const store =
    input.labels.kind === "labelSet"
      ? labelSetStore(prisma, { ...where, labelSetId: input.labels.id }, () => false)
      : goldStore(prisma, where, () => false);
  const labelled = (await store.labelledVideoIds()).length;
  if (labelled < MIN_LABELLED_VIDEOS)
    throw new ValidationError(
      `labels: too few labelled videos to align (${labelled}): at least ${MIN_LABELLED_VIDEOS} are needed (4 train, 2 held-out), with both label classes.`,
    );
  for (const endpointId of [input.judgeEndpointId, input.optimizerEndpointId]) {
    if (
      !(await prisma.judgeEndpoint.findFirst({
        where: { id: endpointId, projectId, archivedAt: null },
        select: { id: true },
      }))
    )
      throw new NotFoundError(`No such endpoint in this project (${endpointId}).`);
  }
}

export async function cancelAlignment(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  alignmentId: string,
) {
  const { projectId } = access;
  const row = await prisma.alignmentRun.findFirst({ where: { id: alignmentId, projectId }, select: { status: true } });
  if (!row) throw new NotFoundError("No such alignment in this project.");
  if (row.status !== "queued" && row.status !== "running")
    throw new ConflictError(`The alignment is already ${row.status}.`);
  await prisma.alignmentRun.update({
    where: { id: alignmentId },
    data: { status: "cancelled", finishedAt: new Date(), error: "Cancelled by an owner." },
  });
  return { id: alignmentId, status: "cancelled" as const };
}

export async function listAlignments(prisma: PrismaClient, access: ProjectAccess) {
  return prisma.alignmentRun.findMany({
    where: { projectId: access.projectId },
    orderBy: { createdAt: "desc" },
    take: 50,
    select: {
      id: true,
      rubricTaskId: true,
      pipeline: true,
      status: true,
      progress: true,
      error: true,
      createdAt: true,
      finishedAt: true,
      rubricVersionId: true,
      promptVersionId: true,
    },
  });
}

export async function getAlignment(prisma: PrismaClient, access: ProjectAccess, alignmentId: string) {
  const row = await prisma.alignmentRun.findFirst({ where: { id: alignmentId, projectId: access.projectId } });
  if (!row) throw new NotFoundError("No such alignment in this project.");
  const version = row.rubricVersionId
    ? await prisma.rubricVersion.findUnique({ where: { id: row.rubricVersionId }, select: { number: true } })
    : null;
  const prompt = row.promptVersionId
    ? await prisma.promptVersion.findUnique({
        where: { id: row.promptVersionId },
        select: { id: true, templateId: true },
      })
    : null;
  return {
    ...row,
    input: row.input as unknown as StartAlignmentInput,
    report: row.report as unknown as AlignmentReport | BuiltinAlignmentReport | null,
    savedVersion: version?.number ?? null,
    savedPromptVersion: prompt,
  };
}

/**
 * The job: runs the alignment as the owner who started it, with progress and cancel through the row. As a route is for
 * a request, the job is where the starter's right is checked, when it runs: one who lost it since fails the job.
 */
export async function executeAlignment(
  deps: Omit<AlignmentDeps, "labels" | "signal" | "onProgress"> & { queue: JudgeQueue },
  alignmentId: string,
): Promise<void> {
  const { prisma } = deps;
  const row = await prisma.alignmentRun.findUnique({ where: { id: alignmentId } });
  if (!row || row.status !== "queued") return;
  await prisma.alignmentRun.update({ where: { id: alignmentId }, data: { status: "running" } });
  const input = row.input as unknown as StartAlignmentInput;
  const actor: Actor = { userId: row.createdById, email: "", name: "", isAdmin: false };
  const controller = new AbortController();
  const watch = setInterval(() => {
    void prisma.alignmentRun.findUnique({ where: { id: alignmentId }, select: { status: true } }).then((r) => {
      if (r?.status === "cancelled") controller.abort();
    });
  }, 1000);
  try {
    // The job's entry check, as a route's for a request: the one read of the starter's role; the other rights the
    // alignment needs are decided from that role.
    const runs = await projectAccess(prisma, actor, row.projectId, "runs.manage");
    if ("pipeline" in input) {
      const prompts = accessFor(runs, "prompts.manage");
      await executeBuiltinAlignment({ ...deps, signal: controller.signal }, alignmentId, prompts, runs, input);
      return;
    }
    const access = accessFor(runs, "rubrics.manage");
    const task = await prisma.rubricTask.findUniqueOrThrow({
      where: { id: input.rubricTaskId },
      select: { key: true, versions: { orderBy: { number: "desc" }, take: 1, select: { definition: true } } },
    });
    const definition = task.versions[0]!.definition as unknown as RubricDefinition;
    const source = alignmentLabelsOf(input);
    const where = {
      projectId: row.projectId,
      task: rubricPipelineId(task.key),
      target: rubricTargetId(task.key, input.criterionId),
      scope: definition.subject?.kind === "item" ? ("item" as const) : ("video" as const),
    };
    const positive = criterionPositive(definition, input.criterionId);
    const labels =
      source.kind === "gold"
        ? goldStore(prisma, where, positive)
        : labelSetStore(prisma, { ...where, labelSetId: source.id }, positive);
    const report = await alignRubricJudge(
      {
        ...deps,
        labels,
        signal: controller.signal,
        onProgress: (done, total, message) =>
          void prisma.alignmentRun.updateMany({
            where: { id: alignmentId, status: "running" },
            data: { progress: { done, total, message } },
          }),
      },
      access,
      runs,
      { ...input, budget: { maxCalls: input.maxCalls, maxCostUsd: input.maxCostUsd } },
    );
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    const saved =
      best.kind === "baseline"
        ? null
        : await saveRubricVersion(prisma, access, input.rubricTaskId, { definition: best.definition });
    const versionId = saved
      ? ((
          await prisma.rubricVersion.findFirst({
            where: { rubricTaskId: input.rubricTaskId, number: saved.version },
            select: { id: true },
          })
        )?.id ?? null)
      : null;
    await prisma.alignmentRun.updateMany({
      where: { id: alignmentId, status: "running" },
      data: {
        status: "done",
        report: report as unknown as Prisma.InputJsonValue,
        rubricVersionId: versionId,
        finishedAt: new Date(),
        progress: { done: 1, total: 1, message: "done" },
      },
    });
  } catch (error) {
    if (error instanceof AlignmentCancelled) return;
    const message = error instanceof Error ? error.message : String(error);
    await prisma.alignmentRun.updateMany({
      where: { id: alignmentId, status: "running" },
      data: { status: "failed", error: message, finishedAt: new Date() },
    });
  } finally {
    clearInterval(watch);
  }
}

/** A built-in task's alignment job: the chosen candidate is already a prompt version (saved when it was tried); the row links it. */
async function executeBuiltinAlignment(
  deps: Omit<AlignmentDeps, "labels" | "onProgress"> & { queue: JudgeQueue },
  alignmentId: string,
  access: ProjectAccess<"prompts.manage">,
  runs: ProjectAccess<"runs.manage">,
  input: StartBuiltinAlignmentInput,
): Promise<void> {
  const { prisma } = deps;
  const { projectId } = access;
  const alignable = alignableTargets(deps.pipelines, input.pipeline).find((t) => t.target.id === input.targetId);
  if (!alignable) throw new ValidationError(`Pipeline ${input.pipeline} has no alignable target "${input.targetId}".`);
  const source = alignmentLabelsOf(input);
  const where = {
    projectId,
    task: input.pipeline,
    target: input.targetId,
    targetType: labelTargetType(alignable),
    scope: alignable.scope,
  };
  const positive = builtinPositive(alignable.target);
  const labels =
    source.kind === "gold"
      ? goldStore(prisma, where, positive)
      : labelSetStore(prisma, { ...where, labelSetId: source.id }, positive);
  const report = await alignBuiltinJudge(
    {
      ...deps,
      labels,
      onProgress: (done, total, message) =>
        void prisma.alignmentRun.updateMany({
          where: { id: alignmentId, status: "running" },
          data: { progress: { done, total, message } },
        }),
    },
    access,
    runs,
    { ...input, budget: { maxCalls: input.maxCalls, maxCostUsd: input.maxCostUsd } },
  );
  const best = report.candidates.find((c) => c.id === report.bestId)!;
  await prisma.alignmentRun.updateMany({
    where: { id: alignmentId, status: "running" },
    data: {
      status: "done",
      report: report as unknown as Prisma.InputJsonValue,
      promptVersionId: best.promptVersionId,
      finishedAt: new Date(),
      progress: { done: 1, total: 1, message: "done" },
    },
  });
}

/**
 * What an applied alignment changes in a pipeline's defaults: its chosen run settings (a metric's tuned aggregation,
 * verdict basis and threshold) and its target's tuned positive threshold, where it differs from the declared one.
 */
export function alignedChange(
  report: BuiltinAlignmentReport,
  targetId: string,
  declared: AlignableTarget["target"] | undefined,
  pipeline: AlignmentDeps["pipelines"][string] | undefined,
) {
  const best = report.candidates.find((c) => c.id === report.bestId);
  if (!best) return null;
  const settings =
    pipeline?.settingsSchema && best.settings !== undefined && best.settings !== null ? best.settings : undefined;
  const declaredThreshold = declared && declared.positive.op !== "==" ? declared.positive.threshold : null;
  const threshold =
    best.threshold !== null && best.threshold !== undefined && best.threshold !== declaredThreshold
      ? best.threshold
      : null;
  if (settings === undefined && threshold === null) return null;
  return { settings, thresholds: threshold !== null ? { [targetId]: threshold } : undefined };
}

/**
 * An owner makes a built-in alignment's choice the project's defaults for the pipeline's new runs, as a new version of
 * them (lib/judge/runs/settings-versions.ts) noting the alignment: its tuned run settings and its target's tuned positive
 * threshold. The chosen prompt version is picked per run, as any version is.
 */
export async function applyAlignedSettings(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  alignmentId: string,
  pipelines: AlignmentDeps["pipelines"],
): Promise<SettingsVersion> {
  const { projectId } = access;
  const row = await prisma.alignmentRun.findFirst({
    where: { id: alignmentId, projectId },
    select: { pipeline: true, status: true, report: true, input: true },
  });
  if (!row) throw new NotFoundError("No such alignment in this project.");
  if (!row.pipeline)
    throw new ValidationError("A rubric task's alignment saves a rubric version: it has no run settings to apply.");
  if (row.status !== "done" || !row.report)
    throw new ConflictError(`The alignment is ${row.status}: only a finished one has settings to apply.`);
  const { targetId } = row.input as unknown as StartBuiltinAlignmentInput;
  const declared = alignableTargets(pipelines, row.pipeline).find((t) => t.target.id === targetId)?.target;
  const change = alignedChange(
    row.report as unknown as BuiltinAlignmentReport,
    targetId,
    declared,
    pipelines[row.pipeline],
  );
  if (!change)
    throw new ValidationError("This alignment's best judge has neither run settings nor a tuned threshold to apply.");
  return saveSettingsVersion(prisma, access, pipelines, row.pipeline, {
    ...change,
    alignmentRunId: alignmentId,
    note: `applied from alignment ${alignmentId}`,
  });
}

/** What the "Align a judge" page shows: past alignments for every member, and for owners the choices of a new one. */
import { roleCan, type ProjectAccess } from "../authz/permissions";
import type { PrismaClient } from "../generated/prisma/client";
import { listEndpoints } from "../judge/endpoints/endpoints";
import { projectPipelineDefaults } from "../judge/runs/pipeline-defaults";
import { listLabelSets } from "../label-sets/label-sets";
import { listRubricTasks } from "../rubrics/rubric-tasks";

import { builtInCatalogue } from "../task-modules/task-catalogue";
import { alignableTargets, sameSettings, settingsWords, type BuiltinAlignmentReport } from "./align-builtin";
import { alignedChange, getAlignment, listAlignments } from "./alignment-runs";
import { alignmentLabelsOf, type StartBuiltinAlignmentInput } from "./alignment.validation";
import { latestSettingsVersion } from "../judge/runs/settings-versions";

/** Whose labels the alignment was measured against, in words. */
async function labelsWords(
  prisma: PrismaClient,
  projectId: string,
  input: Parameters<typeof alignmentLabelsOf>[0],
): Promise<string> {
  const source = alignmentLabelsOf(input);
  if (source.kind === "gold") return "the project's gold values (adjudicated)";
  const set = await prisma.labelSet.findFirst({ where: { id: source.id, projectId }, select: { name: true } });
  return `the label set "${set?.name ?? "(deleted)"}"`;
}

/**
 * The split's videos by name, for the report's list, each part sorted by name (a video deleted since keeps its
 * place, without a name, at the end).
 */
async function namedSplitVideos(
  prisma: PrismaClient,
  projectId: string,
  split: { train: readonly string[]; heldOut: readonly string[] } | null,
) {
  const splitIds = split ? [...split.train, ...split.heldOut] : [];
  const names = new Map(
    (
      await prisma.video.findMany({
        where: { projectId, id: { in: splitIds } },
        select: { id: true, relativePath: true },
      })
    ).map((v) => [v.id, v.relativePath]),
  );
  const named = (ids: readonly string[]) =>
    ids
      .map((id) => ({ id, name: names.get(id) ?? null }))
      .sort((a, b) => (a.name ?? "\uffff").localeCompare(b.name ?? "\uffff"));
  return split ? { train: named(split.train), heldOut: named(split.heldOut) } : null;
}

/** The built-in tasks with an alignable target, each target with its scope and the steps the optimizer may rewrite. */
function alignableBuiltins() {
  return Object.keys(builtInCatalogue().pipelines)
    .map((pipeline) => ({
      pipeline,
      name: `${builtInCatalogue().findTask(pipeline)?.label ?? pipeline} (built-in)`,
      targets: alignableTargets(builtInCatalogue().pipelines, pipeline).map((t) => ({
        id: t.target.id,
        name:
          t.kind === "metric"
            ? `${t.target.label} (metric "${t.target.id}")`
            : t.scope === "video"
              ? t.target.label
              : `${t.target.label} (per ${t.scope.replace("_", " ")})`,
        kind: t.kind,
        /** What one label is about: the video, or each key frame, cluster or item of it. */
        scope: t.scope,
        /** The steps whose template the optimizer may rewrite: a metric's choice, a score target's own step. */
        steps: t.steps.map((s) => ({ id: s.stepId, name: s.label })),
      })),
    }))
    .filter((b) => b.targets.length > 0);
}

export async function alignmentPageData(prisma: PrismaClient, access: ProjectAccess, alignmentId: string | null) {
  const { projectId, role } = access;
  const canManage = roleCan(role, "rubrics.manage");
  const tasks = (await listRubricTasks(prisma, access)).filter((t) => !t.archived);
  const taskName = new Map(tasks.map((t) => [t.id, t.name]));
  // A built-in task's alignment names its pipeline; a rubric task's, its task.
  const nameOf = (a: { rubricTaskId: string | null; pipeline: string | null }) =>
    a.pipeline
      ? `${builtInCatalogue().findTask(a.pipeline)?.label ?? a.pipeline} (built-in)`
      : (taskName.get(a.rubricTaskId ?? "") ?? "(archived task)");
  const alignments = (await listAlignments(prisma, access)).map((a) => ({
    ...a,
    taskName: nameOf(a),
    createdAt: a.createdAt.toISOString(),
  }));
  const selected =
    alignmentId && alignments.some((a) => a.id === alignmentId)
      ? await getAlignment(prisma, access, alignmentId)
      : null;
  const labels = selected ? await labelsWords(prisma, projectId, selected.input) : "";
  const splitVideos = await namedSplitVideos(prisma, projectId, selected?.report?.split ?? null);
  const bestSettings =
    selected?.pipeline && selected.report
      ? await bestSettingsOf(
          prisma,
          access,
          selected.pipeline,
          (selected.input as StartBuiltinAlignmentInput).targetId,
          selected.report as BuiltinAlignmentReport,
        )
      : null;
  const choices = canManage
    ? {
        tasks: tasks.map((t) => ({
          id: t.id,
          name: t.name,
          criteria: t.definition.criteria.map((c) => ({ id: c.id, name: c.name })),
        })),
        /**
         * Built-in tasks with a target that can be aligned (a target a step scores with its own template, per video,
         * key frame, cluster or item, or a reviewed metric).
         */
        builtins: alignableBuiltins(),
        labelSets: (await listLabelSets(prisma, access)).map((s) => ({ id: s.id, name: s.name })),
        endpoints: (await listEndpoints(prisma, access)).map((e) => ({
          id: e.id,
          name: e.name,
          model: e.model,
        })),
      }
    : null;
  return {
    canManage,
    alignments,
    choices,
    selected: selected && {
      id: selected.id,
      status: selected.status,
      error: selected.error,
      progress: selected.progress as { done?: number; total?: number; message?: string },
      report: selected.report,
      savedVersion: selected.savedVersion,
      savedPromptVersion: selected.savedPromptVersion,
      rubricTaskId: selected.rubricTaskId,
      pipeline: selected.pipeline,
      taskName: nameOf(selected),
      labels,
      splitVideos,
      bestSettings,
    },
  };
}

/**
 * A built-in alignment's chosen run settings and tuned positive threshold in words, whether they differ from the
 * baseline's, whether they are the project's defaults for new runs now (the latest settings version, for the
 * threshold), and whether this member may make them so (a new settings version, applyAlignedSettings).
 */
async function bestSettingsOf(
  prisma: PrismaClient,
  access: ProjectAccess,
  pipeline: string,
  targetId: string,
  report: BuiltinAlignmentReport,
) {
  const { projectId, role } = access;
  const best = report.candidates.find((c) => c.id === report.bestId);
  const baseline = report.candidates.find((c) => c.kind === "baseline");
  if (!best) return null;
  const change = alignedChange(
    report,
    targetId,
    alignableTargets(builtInCatalogue().pipelines, pipeline).find((t) => t.target.id === targetId)?.target,
    builtInCatalogue().pipelines[pipeline],
  );
  if (!change) return null;
  const defaults = (await projectPipelineDefaults(prisma, access))[pipeline];
  const latest = await latestSettingsVersion(prisma, projectId, pipeline);
  // Parsed, the settings are in the schema's key order (the report's come back from jsonb in its own).
  const parsed = (value: unknown) =>
    builtInCatalogue().pipelines[pipeline]?.settingsSchema?.safeParse(value ?? {}).data ?? value;
  const threshold = change.thresholds?.[targetId] ?? null;
  const words = [
    change.settings !== undefined ? settingsWords(parsed(change.settings)) : "",
    threshold !== null ? `${targetId} positive threshold ${threshold}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return {
    words,
    changed: threshold !== null || (change.settings !== undefined && !sameSettings(best.settings, baseline?.settings)),
    applied:
      (change.settings === undefined || sameSettings(parsed(change.settings), parsed(defaults))) &&
      (threshold === null || latest?.thresholds[targetId] === threshold),
    canApply: roleCan(role, "runs.manage"),
  };
}
export type AlignmentPageData = Awaited<ReturnType<typeof alignmentPageData>>;

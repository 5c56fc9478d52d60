import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { appUrl } from "../config/app-url";
import { exportFileName } from "../agreement/export-file-name";
import { requireWholeView } from "../visibility/withheld";
import { catalogFor } from "../task-modules/task-catalogue";
import type { MetricDeclaration, Scale } from "../task-modules/task-declaration";

/**
 * A run's videos as Label Studio tasks, the judge's per-video metrics as `predictions` (Label Studio's import
 * format: https://labelstud.io/guide/predictions), with the labelling config whose control names the
 * predictions' `from_name`s match. Per-video metrics only: a numeric scale becomes a `<Number>` control, a
 * categorical one `<Choices>`. The video URL is FrameJury's file route, which needs the caller's session (or
 * Label Studio's URL rewriting / cloud storage); the docs say so.
 */

export interface LabelStudioResult {
  from_name: string;
  to_name: "video";
  type: "number" | "choices";
  value: { number: number } | { choices: string[] };
}

export interface LabelStudioTask {
  data: { video: string; prompt: string; framejury_video_id: string; path: string; model: string | null };
  predictions: { model_version: string; score: number | null; result: LabelStudioResult[] }[];
}

function xmlAttr(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Label Studio's labelling config for a task's per-video metrics (one control per metric, named by its id). */
export function labelStudioConfig(metrics: readonly MetricDeclaration[]): string {
  const controls = metrics.map((m) => {
    const hint = `${m.label}: ${m.definition}`;
    if (m.scale.kind === "numeric") {
      const step = m.scale.step ? ` step="${m.scale.step}"` : "";
      return `  <Header value="${xmlAttr(hint)}"/>\n  <Number name="${xmlAttr(m.id)}" toName="video" min="${m.scale.min}" max="${m.scale.max}"${step}/>`;
    }
    const choices = m.scale.values.map((v) => `    <Choice value="${xmlAttr(v.label)}"/>`).join("\n");
    return `  <Header value="${xmlAttr(hint)}"/>\n  <Choices name="${xmlAttr(m.id)}" toName="video" choice="single">\n${choices}\n  </Choices>`;
  });
  return [
    "<View>",
    '  <Video name="video" value="$video"/>',
    '  <Text name="prompt" value="$prompt"/>',
    ...controls,
    "</View>",
    "",
  ].join("\n");
}

function resultOf(metric: MetricDeclaration, value: number): LabelStudioResult | null {
  if (metric.scale.kind === "numeric")
    return { from_name: metric.id, to_name: "video", type: "number", value: { number: value } };
  const label = (metric.scale as Extract<Scale, { kind: "categorical" }>).values.find((v) => v.value === value)?.label;
  return label === undefined
    ? null
    : { from_name: metric.id, to_name: "video", type: "choices", value: { choices: [label] } };
}

/** The tasks JSON and labelling config of a run; every member may read them (`export.read`). */
export async function runLabelStudioExport(prisma: PrismaClient, access: ProjectAccess<"export.read">, runId: string) {
  const { actor, projectId } = access;
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId },
    select: {
      pipeline: true,
      endpointSnapshot: true,
      endpoint: { select: { model: true } },
      project: { select: { name: true } },
    },
  });
  if (!run) throw new NotFoundError("Run not found.");
  const task = (await catalogFor(prisma, projectId)).findTask(run.pipeline) ?? undefined;
  const metrics = task?.metrics ?? [];
  const snapshot = (run.endpointSnapshot ?? {}) as { model?: unknown };
  const modelVersion = `${typeof snapshot.model === "string" ? snapshot.model : run.endpoint.model} (run ${runId})`;
  const runVideos = await prisma.runVideo.findMany({
    where: { runId },
    orderBy: { videoId: "asc" },
    select: { videoId: true, video: { select: { prompt: true, relativePath: true, model: true } } },
  });
  // The predictions carry the judge's values: the whole run's, or none while the caller reviews any of its videos blind.
  await requireWholeView(
    prisma,
    actor.userId,
    runVideos.map((rv) => rv.videoId),
    "This run's Label Studio export",
  );
  const values = await prisma.runMetric.findMany({
    where: { runId, itemId: "", metric: { in: metrics.map((m) => m.id) } },
    select: { videoId: true, metric: true, value: true },
  });
  const byVideo = new Map<string, Map<string, number>>();
  for (const v of values) {
    const own = byVideo.get(v.videoId) ?? new Map<string, number>();
    own.set(v.metric, v.value);
    byVideo.set(v.videoId, own);
  }
  const verdictMetric = task?.verdict?.metricId;
  const tasks: LabelStudioTask[] = runVideos.map((rv) => {
    const own = byVideo.get(rv.videoId);
    const result = metrics.flatMap((m) => {
      const value = own?.get(m.id);
      const r = value === undefined ? null : resultOf(m, value);
      return r ? [r] : [];
    });
    return {
      data: {
        video: `${appUrl().replace(/\/+$/, "")}/api/v1/videos/${rv.videoId}/file`,
        prompt: rv.video.prompt ?? "",
        framejury_video_id: rv.videoId,
        path: rv.video.relativePath,
        model: rv.video.model,
      },
      // `score`: Label Studio sorts and samples by it; the verdict metric's value when the task has one.
      predictions: [
        { model_version: modelVersion, score: verdictMetric ? (own?.get(verdictMetric) ?? null) : null, result },
      ],
    };
  });
  const name = (what: string, extension: string) =>
    exportFileName({ project: run.project.name, what, filter: { runId }, date: new Date(), extension });
  return {
    tasks,
    config: labelStudioConfig(metrics),
    tasksFileName: name("label-studio-tasks", "json"),
    configFileName: name("label-studio-config", "xml"),
  };
}

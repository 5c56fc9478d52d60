/**
 * The leaderboard of one run: its videos' value of one metric (run_metric), grouped by the video's model (the
 * generator) and resampled by the video's prompt. Works for any task whose subject is the video (hallucination,
 * a rubric task over videos): the metric is one the run's task declares, read through the registry. A ranking is
 * computed from every video or not shown: while the caller reviews any of the run's videos in a blind queue it is
 * withheld (WithheldError, 409), whichever metric is asked for, even one no video has a value of. Without `metric=`
 * the board opens on the headline metric among those some video of the run has a value of.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { runNameOfRow } from "../run-records/run-name";
import { catalogFor } from "../task-modules/task-catalogue";
import { scaleBounds, type MetricDeclaration } from "../task-modules/task-declaration";
import { requireWholeView } from "../visibility/withheld";
import { buildLeaderboard, type LeaderboardResult } from "./leaderboard";
import type { RunLeaderboardQuery } from "./run-leaderboard.validation";

export interface RunLeaderboard {
  run: { id: string; projectId: string; pipeline: string; name: string };
  metric: {
    id: string;
    label: string;
    definition: string;
    higherIsBetter: boolean;
    /** The ends of its declared scale. */
    scale: { min: number; max: number };
    /** Values are proportions (a 0–1 scale or yes/no), shown as percentages. */
    percent: boolean;
  };
  /** The metrics of the run's task: what `metric=` may name, those some video of the run has a value of first. */
  metrics: { id: string; label: string }[];
  videos: {
    /** The run's videos with a value of the metric. */
    withValue: number;
    /** Of those, on the board: with a model. */
    ranked: number;
    /** Left out: no model. */
    withoutModel: number;
  };
  leaderboard: LeaderboardResult;
}

/** A video without a prompt is a resampling unit of its own (a key no prompt text can be). */
const ownPromptKey = (videoId: string) => `\u0000video:${videoId}`;

/** The task's headline metric: the first numeric one people review (hallucination's overall), else the first numeric, else the first. */
export function defaultLeaderboardMetric(metrics: readonly MetricDeclaration[]): MetricDeclaration | undefined {
  const numeric = metrics.filter((m) => m.scale.kind === "numeric");
  return numeric.find((m) => m.reviewed) ?? numeric[0] ?? metrics[0];
}

export async function runLeaderboard(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: Pick<RunLeaderboardQuery, "metric" | "samples" | "seed">,
): Promise<RunLeaderboard> {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: {
      id: true,
      projectId: true,
      pipeline: true,
      createdAt: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
  // A run of another project is as unknown as one that does not exist.
  if (!run) throw new NotFoundError("No such run.");
  const catalogue = await catalogFor(prisma, run.projectId);
  const task = catalogue.findTask(run.pipeline);
  if (!task)
    throw new ValidationError(
      `No judge task is declared for this run's pipeline "${run.pipeline}": it has no metrics to rank by.`,
    );
  if (task.subject !== "video")
    throw new ValidationError(
      `A ${task.label} run judges each ${task.subject}, not the videos: its values have no generator to rank.`,
    );
  const named = query.metric === undefined ? undefined : task.metrics.find((m) => m.id === query.metric);
  if (query.metric !== undefined && !named) {
    const choices = task.metrics.map((m) => `${m.id} (${m.label})`).join(", ");
    throw new ValidationError(`The task ${task.label} has no metric "${query.metric}": one of ${choices || "none"}.`);
  }
  // Whole or withheld over every video of the run, before any metric's values are read: the answer never depends on the metric.
  const runVideos = await prisma.runVideo.findMany({ where: { runId }, select: { videoId: true } });
  await requireWholeView(
    prisma,
    access.actor.userId,
    runVideos.map((v) => v.videoId),
    "This run's leaderboard",
  );
  const valued = new Set(
    (
      await prisma.runMetric.findMany({ where: { runId, itemId: "" }, distinct: ["metric"], select: { metric: true } })
    ).map((row) => row.metric),
  );
  const metrics = [...task.metrics.filter((m) => valued.has(m.id)), ...task.metrics.filter((m) => !valued.has(m.id))];
  const metric =
    named ??
    defaultLeaderboardMetric(metrics.filter((m) => valued.has(m.id))) ??
    defaultLeaderboardMetric(task.metrics);
  if (!metric) throw new ValidationError(`The task ${task.label} declares no metrics.`);

  const scale = scaleBounds(metric.scale);
  const values = await prisma.runMetric.findMany({
    where: { runId, metric: metric.id, itemId: "" },
    select: { videoId: true, value: true, video: { select: { model: true, prompt: true } } },
  });
  let withoutModel = 0;
  const rows = values.flatMap((v) => {
    if (!v.video.model) {
      withoutModel++;
      return [];
    }
    return [
      {
        generator: v.video.model,
        promptKey: v.video.prompt || ownPromptKey(v.videoId),
        dimension: metric.id,
        value: v.value,
      },
    ];
  });
  return {
    run: { id: run.id, projectId: run.projectId, pipeline: run.pipeline, name: runNameOfRow(run, catalogue) },
    metric: {
      id: metric.id,
      label: metric.label,
      definition: metric.definition,
      higherIsBetter: metric.higherIsBetter,
      scale,
      percent: scale.min >= 0 && scale.max <= 1,
    },
    metrics: metrics.map((m) => ({ id: m.id, label: m.label })),
    videos: { withValue: values.length, ranked: rows.length, withoutModel },
    leaderboard: buildLeaderboard({
      rows,
      dimensions: [metric.id],
      higherIsBetter: metric.higherIsBetter,
      bootstrap: { samples: query.samples, seed: query.seed },
    }),
  };
}

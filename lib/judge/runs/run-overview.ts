import type { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { naturalSortBy } from "../../format/natural-sort";
import { catalogFor } from "../../task-modules/task-catalogue";
import type { SubjectSummary } from "../../task-modules/task-display";
import { redactRunVideosFor } from "../../visibility/judge-visibility";
import { inputModeOf, type InputMode } from "../input-modes/index";
import { compareUrlOf } from "./run-compare-url";

/** The run page lists at most this many of a run's videos. */
export const RUN_PAGE_VIDEOS = 1000;

/** A run of the project (with its endpoint), or null when the project has no such run. */
export async function findProjectRun(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  return prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: {
      id: true,
      pipeline: true,
      status: true,
      simulated: true,
      batchMode: true,
      createdAt: true,
      inputMode: true,
      settings: true,
      sweepId: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
      ensemble: true,
      pairSet: { select: { id: true, name: true } },
    },
  });
}

/** The page that puts a sweep's runs side by side, in the order they were started. */
export async function sweepCompareUrl(prisma: PrismaClient, projectId: string, sweepId: string): Promise<string> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, sweepId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return compareUrlOf(
    projectId,
    runs.map((r) => r.id),
  );
}

/** How a run judged, as its page's header says it: the input mode, the aggregation and the verdict's threshold. */
export interface RunSetup {
  inputMode: InputMode;
  /** The settings' `aggregation` (its task's default filled in); null for a task that has none. */
  aggregation: string | null;
  /** The verdict's threshold and what it is on ("5 on max_category"); null for a task without one. */
  threshold: string | null;
}

/**
 * A run's setup from its stored settings, read through its pipeline's settings schema so a value the run took
 * by default is named too; settings the schema no longer takes are read as stored.
 */
export function runSetupOf(
  run: { inputMode: string | null; settings: unknown },
  settingsSchema: z.ZodType | undefined,
): RunSetup {
  const parsed = settingsSchema?.safeParse(run.settings ?? {});
  const settings = (parsed?.success ? parsed.data : run.settings) as {
    aggregation?: unknown;
    verdict?: { on?: unknown; threshold?: unknown };
  } | null;
  const threshold = settings?.verdict?.threshold;
  const on = settings?.verdict?.on;
  return {
    inputMode: inputModeOf(run.inputMode),
    aggregation: typeof settings?.aggregation === "string" ? settings.aggregation : null,
    threshold:
      typeof threshold === "number"
        ? `${threshold}${typeof on === "string" ? ` on ${on.replace(/_/g, " ")}` : ""}`
        : null,
  };
}

/**
 * The run page: the run, the metrics its task declares that its videos have (the table's columns) and its videos in natural
 * path order (lib/format/natural-sort), each with its stored summary, except where the caller reviews the video blind (lib/visibility).
 */
export async function runOverview(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const { actor, projectId } = access;
  const run = await findProjectRun(prisma, access, runId);
  if (!run) throw new NotFoundError("No such run.");
  // Natural path order (clip-2 before clip-10), which SQL cannot sort by: the paths first, then the page's rows.
  const paths = await prisma.runVideo.findMany({
    where: { runId },
    select: { videoId: true, video: { select: { relativePath: true } } },
  });
  const shown = naturalSortBy(paths, (row) => row.video.relativePath)
    .slice(0, RUN_PAGE_VIDEOS)
    .map((row) => row.videoId);
  const place = new Map(shown.map((videoId, index) => [videoId, index]));
  const rows = (
    await prisma.runVideo.findMany({
      where: { runId, videoId: { in: shown } },
      select: {
        videoId: true,
        status: true,
        summary: true,
        video: { select: { fileName: true, prompt: true, model: true } },
      },
    })
  ).sort((a, b) => place.get(a.videoId)! - place.get(b.videoId)!);
  const catalogue = await catalogFor(prisma, projectId);
  const task = catalogue.findTask(run.pipeline);
  const metrics = metricsInSummaries(task?.metrics ?? [], rows);
  const videos = await redactRunVideosFor(prisma, actor.userId, rows);
  return {
    run,
    setup: runSetupOf(run, catalogue.pipelines[run.pipeline]?.settingsSchema),
    sweepCompareUrl: run.sweepId ? await sweepCompareUrl(prisma, projectId, run.sweepId) : null,
    metrics,
    videos: videos.map((row) => ({ ...row, summary: row.summary as SubjectSummary | null })),
  };
}

/**
 * The table's columns: the task's metrics that some listed video's summary has (a VBench-2.0 video has only its own
 * dimensions' keys, so twelve columns would be mostly empty); all of them while no video has a summary yet. Read from
 * the stored summaries before any is withheld, so the columns are the same whoever looks.
 */
function metricsInSummaries<M extends { id: string; summaryKey?: string }>(
  metrics: readonly M[],
  rows: readonly { summary: unknown }[],
): M[] {
  const summaries = rows.flatMap((row) =>
    row.summary && typeof row.summary === "object" ? [row.summary as object] : [],
  );
  if (summaries.length === 0) return [...metrics];
  return metrics.filter((metric) =>
    summaries.some((summary) => Object.hasOwn(summary, metric.summaryKey ?? metric.id)),
  );
}

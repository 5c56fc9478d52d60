import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { readRunMetrics } from "../run-records/run-metrics";
import { consensusOf } from "../reviews/consensus";
import { catalogFor } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { blindVideoIdsFor, withheldCompareSample } from "../visibility/judge-visibility";
import { type BrowseScores, metricScores } from "./browse-videos";

/** The judge's per-video outcome in a run: every metric, plus the task's verdict and the overall. */
function judgeOutcome(runId: string, runCreatedAt: Date, status: string, task: TaskDeclaration, scores: BrowseScores) {
  const verdict = task.verdict ? scores[task.verdict.metricId] : null;
  // What the verdict's positive value means, in the task's words (say, "hallucination"), for the page's label.
  const verdictLabel = task.metrics.find((metric) => metric.id === task.verdict?.metricId)?.positive.label ?? null;
  return {
    runId,
    runCreatedAt,
    status,
    scores,
    overall: typeof scores.overall === "number" ? scores.overall : null,
    verdict: typeof verdict === "boolean" ? verdict : null,
    verdictLabel,
  };
}

export interface CompareQuery {
  /** A video whose prompt to compare; or */
  videoId?: string;
  /** the prompt itself (exact). */
  prompt?: string;
  /** Only this generator model's samples ("" = videos without a model). */
  model?: string;
}

export interface CompareSample {
  id: string;
  fileName: string;
  model: string | null;
  sampleIndex: number | null;
  dimensions: string[];
  url: string;
  /** The first key frame of the latest frame set: the tile's poster. */
  posterUrl: string | null;
  judge: {
    runId: string;
    runCreatedAt: Date;
    status: string;
    scores: BrowseScores;
    overall: number | null;
    verdict: boolean | null;
    verdictLabel: string | null;
  } | null;
  /** The reviewers' consensus verdict in that run (majority; null on a tie), with how many gave one. */
  reviewers: { verdict: number | null; count: number };
  /** The caller reviews this video in a blind queue: no judge outcome and no consensus until they submit. */
  blind: boolean;
}

/** The prompt to compare: the named video's (which is then the focus) or the one named itself. */
async function comparedPrompt(prisma: PrismaClient, projectId: string, query: CompareQuery) {
  if (query.videoId) {
    const video = await prisma.video.findFirst({
      where: { id: query.videoId, projectId },
      select: { id: true, prompt: true, model: true },
    });
    if (!video) throw new NotFoundError("No such video.");
    return { prompt: video.prompt, focusId: video.id as string | null, focusModel: video.model };
  }
  if (query.prompt !== undefined) return { prompt: query.prompt as string | null, focusId: null, focusModel: null };
  throw new NotFoundError("Name a video or a prompt to compare.");
}

/**
 * The samples laid out by generator model (rows) and sample index (columns: the indexes present; samples without
 * an index go after them, one column each).
 */
function sampleGrid(samples: CompareSample[]) {
  const sampleIndexes = [...new Set(samples.flatMap((s) => (s.sampleIndex === null ? [] : [s.sampleIndex])))].sort(
    (a, b) => a - b,
  );
  const rows = [...new Set(samples.map((s) => s.model))].map((model) => {
    const mine = samples.filter((s) => s.model === model);
    const unindexed = mine.filter((s) => s.sampleIndex === null);
    return {
      model,
      cells: sampleIndexes.map((index) => mine.filter((s) => s.sampleIndex === index)),
      unindexed,
      count: mine.length,
    };
  });
  return { sampleIndexes, rows };
}

/**
 * Every sample of one prompt in a project, grouped by generator model (rows) and sample index
 * (columns), each with the latest run's overall and verdict and the reviewers' consensus verdict
 * (neither for a sample the caller reviews blind).
 * Non-members get NotFound, as for every project read.
 */
export async function compareSamples(prisma: PrismaClient, access: ProjectAccess, query: CompareQuery) {
  const { actor, projectId } = access;
  const { prompt, focusId, focusModel } = await comparedPrompt(prisma, projectId, query);
  // Without a prompt there is nothing to compare the video with.
  const allOfPrompt = await prisma.video.findMany({
    where: prompt === null ? { projectId, id: focusId ?? "" } : { projectId, prompt },
    orderBy: [{ model: "asc" }, { sampleIndex: "asc" }, { relativePath: "asc" }, { id: "asc" }],
    select: { id: true, fileName: true, model: true, sampleIndex: true, dimensions: true },
  });
  if (allOfPrompt.length === 0) throw new NotFoundError("No video has that prompt in this project.");
  const models = [...new Set(allOfPrompt.map((v) => v.model))];
  const restrictTo = query.model === undefined ? undefined : query.model === "" ? null : query.model;
  const videos = restrictTo === undefined ? allOfPrompt : allOfPrompt.filter((v) => v.model === restrictTo);
  const ids = videos.map((v) => v.id);
  const catalogue = await catalogFor(prisma, projectId);

  const [frameSets, runVideos, verdicts, blind] = await Promise.all([
    prisma.frameSet.findMany({
      where: { videoId: { in: ids } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: {
        videoId: true,
        frames: { where: { isKeyFrame: true }, orderBy: { index: "asc" }, take: 1, select: { id: true } },
      },
    }),
    prisma.runVideo.findMany({
      // Runs that judged the videos' captions have no overall or verdict.
      where: { videoId: { in: ids }, run: { pipeline: { in: catalogue.videoSubjectPipelineIds() } } },
      orderBy: [{ run: { createdAt: "desc" } }, { runId: "desc" }],
      select: { videoId: true, status: true, run: { select: { id: true, createdAt: true, pipeline: true } } },
    }),
    // Per-video judgments (of any task): each sample reads those of its latest run's task.
    prisma.humanJudgment.findMany({
      where: { videoId: { in: ids }, itemId: "", stepId: "", withdrawn: false },
      select: { videoId: true, task: true, target: true, value: true },
    }),
    blindVideoIdsFor(prisma, actor.userId, ids),
  ]);
  const poster = new Map<string, string | null>();
  for (const set of frameSets)
    if (!poster.has(set.videoId))
      poster.set(set.videoId, set.frames[0] ? `/api/v1/frames/${set.frames[0].id}/image` : null);
  const latest = new Map<string, (typeof runVideos)[number]>();
  for (const row of runVideos) if (!latest.has(row.videoId)) latest.set(row.videoId, row);
  const metricsByVideo = new Map<string, BrowseScores>();
  await Promise.all(
    [...latest.values()].map(async (row) => {
      const stored = (await readRunMetrics(prisma, row.run.id, [row.videoId])).get(row.videoId) ?? null;
      metricsByVideo.set(row.videoId, metricScores(catalogue.taskOf(row.run.pipeline), stored));
    }),
  );

  const samples: CompareSample[] = videos.map((video) => {
    const run = latest.get(video.id);
    const verdictId = run ? catalogue.taskOf(run.run.pipeline).verdict?.metricId : undefined;
    const values =
      run && verdictId
        ? verdicts
            .filter((j) => j.videoId === video.id && j.task === run.run.pipeline && j.target === verdictId)
            .map((j) => j.value)
        : [];
    const sample: CompareSample = {
      ...video,
      url: `/api/v1/videos/${video.id}/file`,
      posterUrl: poster.get(video.id) ?? null,
      judge: run
        ? judgeOutcome(
            run.run.id,
            run.run.createdAt,
            run.status,
            catalogue.taskOf(run.run.pipeline),
            metricsByVideo.get(video.id) ?? {},
          )
        : null,
      reviewers: {
        verdict: verdictId ? consensusOf(verdictId, values, null, catalogue.tasks) : null,
        count: values.length,
      },
      blind: false,
    };
    return blind.has(video.id) ? { ...withheldCompareSample(sample), blind: true } : sample;
  });

  const { sampleIndexes, rows } = sampleGrid(samples);
  return {
    projectId,
    prompt,
    focusVideoId: focusId,
    focusModel,
    /** Every model that has a sample of this prompt, for the toggle. */
    models,
    restrictedTo: restrictTo,
    totalSamples: allOfPrompt.length,
    sampleIndexes,
    rows,
    samples,
  };
}

/** How many samples the video's prompt has in its project (the video page's "Compare samples (N)"). */
export async function promptSampleCount(prisma: PrismaClient, access: ProjectAccess, videoId: string): Promise<number> {
  const video = await prisma.video.findFirst({
    where: { id: videoId, projectId: access.projectId },
    select: { projectId: true, prompt: true },
  });
  if (!video) throw new NotFoundError("No such video.");
  if (video.prompt === null) return 1;
  return prisma.video.count({ where: { projectId: video.projectId, prompt: video.prompt } });
}

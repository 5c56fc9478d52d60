/**
 * Over caption runs: the leaderboard per model × caption type (lib/tasks/captions/caption-leaderboard.ts) of a style
 * run and/or a content run, the project's caption runs, and the captions page's overview of both runs side by side.
 */
import type { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { requireExportRoleFor } from "../../export/run-downloads";
import { captionLeaderboard, type CaptionResult } from "./caption-leaderboard";
import {
  CAPTION_PIPELINES,
  type CaptionListQuery,
  type CaptionPipeline,
  type captionLeaderboardQuerySchema,
} from "./caption-query";
import { captionRunOf, runCaptionsMatching, type CaptionRunResult } from "./caption-run-results";
import { captionStyleSettingsSchema } from "./caption-style";
import type { WordCounting } from "./count-words";

/**
 * The caption leaderboard of a style run and/or a content run of the project: per model × caption type
 * (and per model overall), mean style score, key-point coverage and length-violation rate with bootstrap
 * 95% intervals and n.
 */
export async function projectCaptionLeaderboard(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof captionLeaderboardQuerySchema>,
) {
  requireExportRoleFor(access, query.format);
  const runs = [];
  for (const runId of new Set(query.runId)) runs.push(await captionRunOf(prisma, access, runId));
  const pipelines = runs.map((r) => r.pipeline);
  if (new Set(pipelines).size !== pipelines.length)
    throw new ValidationError("Name at most one style run and one content run.");

  const byCaption = new Map<string, CaptionResult>();
  for (const run of runs) {
    for (const caption of await runCaptionsMatching(prisma, run, {})) {
      const entry = byCaption.get(caption.captionId) ?? {
        model: caption.model ?? "",
        captionType: caption.captionType,
        styleScore: null,
        keyPointsHit: null,
        keyPointsTotal: null,
        lengthViolation: null,
      };
      if (caption.style) {
        entry.styleScore = caption.style.countedScore;
        entry.lengthViolation = caption.style.flags?.lengthViolation ?? null;
      }
      if (caption.content && caption.content.hit !== null) {
        entry.keyPointsHit = caption.content.hit;
        entry.keyPointsTotal = caption.content.total;
      }
      byCaption.set(caption.captionId, entry);
    }
  }
  return {
    runs: runs.map((r) => ({ id: r.id, pipeline: r.pipeline, status: r.status, simulated: r.simulated })),
    rows: captionLeaderboard([...byCaption.values()]),
  };
}

export interface CaptionRunSummary {
  id: string;
  pipeline: CaptionPipeline;
  status: string;
  simulated: boolean;
  createdAt: Date;
  endpointName: string;
  /** Style runs: how the length rules counted words (the run's `wordCounting` setting); null for content runs. */
  wordCounting: WordCounting | null;
}

/** The project's caption runs, newest first (the captions page picks one style and one content run from them). */
export async function projectCaptionRuns(prisma: PrismaClient, access: ProjectAccess): Promise<CaptionRunSummary[]> {
  const { projectId } = access;
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: { in: [...CAPTION_PIPELINES] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: {
      id: true,
      pipeline: true,
      status: true,
      simulated: true,
      createdAt: true,
      settings: true,
      endpoint: { select: { name: true } },
    },
  });
  return runs.map(({ endpoint, settings, ...run }) => ({
    ...run,
    pipeline: run.pipeline as CaptionPipeline,
    endpointName: endpoint.name,
    wordCounting:
      run.pipeline === "caption_style" ? captionStyleSettingsSchema.parse(settings ?? {}).wordCounting : null,
  }));
}

/**
 * The captions page: a style run and a content run of the project (default: the latest of each), their
 * leaderboard, and a page of the captions either run judged, with both runs' results side by side.
 */
export async function projectCaptionOverview(prisma: PrismaClient, access: ProjectAccess, query: CaptionListQuery) {
  const { projectId } = access;
  const runs = await projectCaptionRuns(prisma, access);
  const pick = (pipeline: CaptionPipeline, id: string | undefined) => {
    if (id === undefined) return runs.find((r) => r.pipeline === pipeline) ?? null;
    const run = runs.find((r) => r.id === id);
    if (!run) throw new NotFoundError("No such caption run in this project.");
    if (run.pipeline !== pipeline)
      throw new ValidationError(`Run ${id} is a ${run.pipeline} run, not a ${pipeline} run.`);
    return run;
  };
  const style = pick("caption_style", query.styleRunId);
  const content = pick("caption_content", query.contentRunId);
  const chosen = [style, content].filter((r): r is CaptionRunSummary => r !== null);
  if (chosen.length === 0)
    return { runs, style, content, leaderboard: null, total: 0, captions: [] as CaptionRunResult[] };
  const leaderboard = await projectCaptionLeaderboard(prisma, access, {
    runId: chosen.map((r) => r.id),
    format: "json",
  });

  if (query.flag && !style) throw new ValidationError(`The ${query.flag} filter needs a style run.`);
  // Flags are the style run's per-caption yes/no metrics, read through their (run, metric, value) index.
  const flagged = query.flag
    ? (
        await prisma.runMetric.findMany({
          where: { runId: style!.id, metric: query.flag, value: 1 },
          select: { itemId: true },
        })
      ).map((m) => m.itemId)
    : null;
  const where = {
    projectId,
    kind: "caption",
    runItems: { some: { runId: { in: chosen.map((r) => r.id) } } },
    ...(query.model ? { model: query.model } : {}),
    ...(query.type ? { group: query.type } : {}),
    ...(query.videoId ? { videoId: query.videoId } : {}),
    ...(flagged ? { id: { in: flagged } } : {}),
  };
  const [total, page] = await Promise.all([
    prisma.item.count({ where }),
    prisma.item.findMany({
      where,
      orderBy: [{ video: { relativePath: "asc" } }, { group: "asc" }, { model: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: { id: true },
    }),
  ]);
  const ids = page.map((p) => p.id);
  const merged = new Map<string, CaptionRunResult>();
  for (const run of chosen) {
    if (!ids.length) break;
    for (const result of await runCaptionsMatching(prisma, run, { itemIds: ids }))
      merged.set(result.captionId, { ...merged.get(result.captionId), ...result });
  }
  return { runs, style, content, leaderboard, total, captions: ids.flatMap((id) => merged.get(id) ?? []) };
}

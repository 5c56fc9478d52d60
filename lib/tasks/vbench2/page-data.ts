/**
 * What the VBench-2.0 results page lists besides a run's results: the project's vbench2 runs (newest first, by
 * their one name) and its VBench results label sets (newest first); the page's query, whitelisted; each judged
 * dimension's videos a page at a time, all or only those excluded or disagreeing; and the frames their questions
 * were asked with, to show as thumbnails.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { runNameOfRow } from "../../run-records/run-name";
import type { DeclarationCatalogue } from "../../task-modules/declaration-catalogue";
import type { VisibleVideoResult } from "./visible-results";

export const vbench2PageQuerySchema = z.object({
  runId: z.string().min(1).max(64).optional(),
  /** Absent: the newest VBench results label set; `none`: no label set. */
  labelSetId: z.string().min(1).max(64).optional(),
  /** The dimension whose video list is open (its filter and page below). */
  dimension: z.string().min(1).max(64).optional(),
  show: z.enum(["all", "excluded", "disagreeing"]).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

export type VideoShow = "all" | "excluded" | "disagreeing";

/** Videos listed at a time under each dimension. */
export const VIDEOS_PER_PAGE = 10;

/** The choice of no label set (a label set's id is a cuid, never this). */
export const NO_LABEL_SET = "none";

/**
 * The label set the page shows VBench's own values from: the one the query names, none for `none`, and
 * otherwise the newest, so a project with VBench's results (the demo's) shows them beside the judge's at once.
 */
export function chosenLabelSetId(
  query: z.output<typeof vbench2PageQuerySchema>,
  labelSets: readonly { id: string }[],
): string | null {
  if (query.labelSetId === undefined) return labelSets[0]?.id ?? null;
  return query.labelSetId === NO_LABEL_SET ? null : query.labelSetId;
}

export async function vbench2PageChoices(prisma: PrismaClient, projectId: string, catalogue: DeclarationCatalogue) {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: "vbench2", parentRunId: null },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: {
      id: true,
      pipeline: true,
      createdAt: true,
      status: true,
      simulated: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
  const labelSets = await prisma.labelSet.findMany({
    where: { projectId, format: "vbench" },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true },
  });
  return {
    runs: runs.map((run) => ({
      id: run.id,
      status: run.status,
      simulated: run.simulated,
      label: runNameOfRow(run, catalogue),
    })),
    labelSets,
  };
}

/** The judge excluded the video (VBench's -1). */
export const isExcluded = (video: VisibleVideoResult) => !video.blind && video.excludedReason !== null;

/**
 * The judge and people answered a question differently, or the judge's value is not VBench's own (the same test the
 * agreement columns count: values within 1e-9, VBench's -1 left out).
 */
export function isDisagreeing(video: VisibleVideoResult): boolean {
  if (video.blind) return false;
  if (video.questions.some((q) => q.human !== null && q.yes !== null && q.human !== q.yes)) return true;
  return (
    video.value !== null &&
    video.vbenchValue !== null &&
    video.vbenchValue !== -1 &&
    Math.abs(video.value - video.vbenchValue) >= 1e-9
  );
}

export interface VideoSlice {
  videos: VisibleVideoResult[];
  /** 1-based; past the last page is the last page. */
  page: number;
  /** The place of the page's first video among those the filter keeps (0-based). */
  first: number;
  pages: number;
  /** The videos the filter keeps. */
  matching: number;
  counts: Record<VideoShow, number>;
}

/** One page of a dimension's videos that `show` keeps, in the results' order (by path). */
export function videoSlice(
  videos: readonly VisibleVideoResult[],
  show: VideoShow,
  page: number,
  perPage = VIDEOS_PER_PAGE,
): VideoSlice {
  const excluded = videos.filter(isExcluded);
  const disagreeing = videos.filter(isDisagreeing);
  const kept = show === "excluded" ? excluded : show === "disagreeing" ? disagreeing : [...videos];
  const pages = Math.max(1, Math.ceil(kept.length / perPage));
  const shown = Math.min(Math.max(1, page), pages);
  return {
    videos: kept.slice((shown - 1) * perPage, shown * perPage),
    page: shown,
    first: (shown - 1) * perPage,
    pages,
    matching: kept.length,
    counts: { all: videos.length, excluded: excluded.length, disagreeing: disagreeing.length },
  };
}

export interface StripFrame {
  id: string;
  /** The frame's time as the judge's prompt gave it: its index over the video's fps, else its stored timestamp. */
  seconds: number;
}

/** Each listed video's frames in the run (the frame set the run judged it with), by video id, in index order. */
export async function runFrameStrips(
  prisma: PrismaClient,
  runId: string,
  videoIds: readonly string[],
): Promise<Map<string, StripFrame[]>> {
  const rows = await prisma.runVideo.findMany({
    where: { runId, videoId: { in: [...new Set(videoIds)] } },
    select: { videoId: true, frameSetId: true, video: { select: { fps: true } } },
  });
  const frames = await prisma.frame.findMany({
    where: { frameSetId: { in: rows.map((row) => row.frameSetId) } },
    orderBy: { index: "asc" },
    select: { id: true, frameSetId: true, index: true, timestampS: true },
  });
  const bySet = new Map<string, typeof frames>();
  for (const frame of frames) {
    const list = bySet.get(frame.frameSetId);
    if (list) list.push(frame);
    else bySet.set(frame.frameSetId, [frame]);
  }
  const strips = new Map<string, StripFrame[]>();
  for (const row of rows) {
    const fps = row.video.fps;
    strips.set(
      row.videoId,
      (bySet.get(row.frameSetId) ?? []).map((frame) => ({
        id: frame.id,
        seconds: fps && fps > 0 ? frame.index / fps : frame.timestampS,
      })),
    );
  }
  return strips;
}

/** The frames of a strip at the given times (a question's `frames`), in that order; a time no frame has is left out. */
export function framesAt(strip: readonly StripFrame[], times: readonly number[]): StripFrame[] {
  return times.flatMap((t) => {
    const frame = strip.find((f) => Math.abs(f.seconds - t) < 1e-9);
    return frame ? [frame] : [];
  });
}

/**
 * The one way an alignment reads human labels: a label set's (labelSetStore) or the project's gold values
 * (goldStore). The alignment takes a store as a dependency and reads the
 * held-out videos' labels only in its final step; a test wraps the store in a read spy to hold it to that.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";

export interface AlignmentLabelStore {
  /** The videos that have a label, sorted. Reads no label value. */
  labelledVideoIds(): Promise<string[]>;
  /**
   * Each video's label class (the binarised label), for the stratified split only: the split is drawn once,
   * before any candidate, so the held-out classes reach nothing but the split.
   */
  strata(videoIds: readonly string[]): Promise<Map<string, boolean>>;
  /** The labels' values of these videos. */
  labels(videoIds: readonly string[]): Promise<Map<string, number>>;
}

/**
 * A label set's labels of one video-level target of a task: a score target (targetType "score", the default) or a
 * reviewed metric (targetType = target = the metric's id, e.g. "verdict"). A set with annotator columns holds one
 * label per annotator (reviewer `labelset:<id>:<column>`): a video's label is then the median of its annotators'
 * (the mean of the middle two for an even count, so a 1–1 split of a yes/no label is 0.5, neither class's value).
 */
export function labelSetStore(
  prisma: PrismaClient,
  where: { projectId: string; labelSetId: string; task: string; target: string; targetType?: string },
  positive: (value: number) => boolean,
): AlignmentLabelStore {
  const base = {
    projectId: where.projectId,
    labelSetId: where.labelSetId,
    task: where.task,
    targetType: where.targetType ?? SCORE_TARGET_TYPE,
    target: where.target,
    itemId: "",
    scopeIndex: 0,
  };
  const read = async (videoIds: readonly string[]) => {
    const rows = await prisma.humanJudgment.findMany({ where: { ...base, videoId: { in: [...videoIds] } }, select: { videoId: true, value: true } });
    const byVideo = new Map<string, number[]>();
    for (const row of rows) byVideo.set(row.videoId, [...(byVideo.get(row.videoId) ?? []), row.value]);
    return new Map([...byVideo].map(([videoId, values]) => [videoId, median(values)]));
  };
  return {
    async labelledVideoIds() {
      const rows = await prisma.humanJudgment.findMany({ where: base, select: { videoId: true }, distinct: ["videoId"] });
      return rows.map((r) => r.videoId).sort();
    },
    async strata(videoIds) {
      return new Map([...(await read(videoIds))].map(([id, value]) => [id, positive(value)]));
    },
    labels: read,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The project's gold values (adjudicated, lib/adjudication) of one score target of a task. A video has at most one
 * gold value per target; where a target was adjudicated on more than one frame set, the latest gold counts.
 */
export function goldStore(prisma: PrismaClient, where: { projectId: string; task: string; target: string; targetType?: string }, positive: (value: number) => boolean): AlignmentLabelStore {
  const base = { projectId: where.projectId, task: where.task, targetType: where.targetType ?? SCORE_TARGET_TYPE, target: where.target, itemId: "", scopeIndex: 0 };
  const read = async (videoIds: readonly string[]) => {
    const rows = await prisma.goldJudgment.findMany({ where: { ...base, videoId: { in: [...videoIds] } }, orderBy: { updatedAt: "asc" }, select: { videoId: true, value: true } });
    return new Map(rows.map((r) => [r.videoId, r.value]));
  };
  return {
    async labelledVideoIds() {
      const rows = await prisma.goldJudgment.findMany({ where: base, select: { videoId: true }, distinct: ["videoId"] });
      return rows.map((r) => r.videoId).sort();
    },
    async strata(videoIds) {
      return new Map([...(await read(videoIds))].map(([id, value]) => [id, positive(value)]));
    },
    labels: read,
  };
}

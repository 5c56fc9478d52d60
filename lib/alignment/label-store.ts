/**
 * The one way an alignment reads human labels: a label set's (labelSetStore) or the project's gold values
 * (goldStore). The alignment takes a store as a dependency and reads the
 * held-out videos' labels only in its final step; a test wraps the store in a read spy to hold it to that.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import type { TargetScope } from "../task-modules/task-declaration";

/**
 * What one label is about, as a map key: the video for a video-level target, else `<video>|<item>|<scope index>`
 * (a key frame or cluster by its index, an item by its id with index 0). The split is always by video, so a
 * video's key frames, clusters and items stay on one side.
 */
export function unitKey(scope: TargetScope, videoId: string, itemId: string, scopeIndex: number): string {
  return scope === "video" ? videoId : `${videoId}|${itemId}|${itemId ? 0 : scopeIndex}`;
}

export function unitVideo(key: string): string {
  return key.split("|")[0]!;
}

export function unitParts(key: string): { videoId: string; itemId: string; scopeIndex: number } {
  const [videoId, itemId = "", index = "0"] = key.split("|");
  return { videoId: videoId!, itemId, scopeIndex: Number(index) };
}

/** The rows of a scope's labels: a video-level target's at item '' and index 0; a key frame's or cluster's at any index; an item's at any item. */
function scopeWhere(scope: TargetScope) {
  if (scope === "video") return { itemId: "", scopeIndex: 0 };
  if (scope === "item") return { itemId: { not: "" } };
  return { itemId: "" };
}

/** Each video's class: its label's, or, for labels of its key frames, clusters or items, positive when any is. */
function strataOf(labels: ReadonlyMap<string, number>, positive: (value: number) => boolean): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [key, value] of labels) out.set(unitVideo(key), (out.get(unitVideo(key)) ?? false) || positive(value));
  return out;
}

export interface AlignmentLabelStore {
  /** The videos that have a label, sorted. Reads no label value. */
  labelledVideoIds(): Promise<string[]>;
  /**
   * Each video's label class (the binarised label), for the stratified split only: the split is drawn once,
   * before any candidate, so the held-out classes reach nothing but the split.
   */
  strata(videoIds: readonly string[]): Promise<Map<string, boolean>>;
  /** The labels' values of these videos, by unit (unitKey: the video itself, or its key frames, clusters or items). */
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
  where: {
    projectId: string;
    labelSetId: string;
    task: string;
    target: string;
    targetType?: string;
    scope?: TargetScope;
  },
  positive: (value: number) => boolean,
): AlignmentLabelStore {
  const scope = where.scope ?? "video";
  const base = {
    projectId: where.projectId,
    labelSetId: where.labelSetId,
    task: where.task,
    targetType: where.targetType ?? SCORE_TARGET_TYPE,
    target: where.target,
    ...scopeWhere(scope),
  };
  const read = async (videoIds: readonly string[]) => {
    const rows = await prisma.humanJudgment.findMany({
      where: { ...base, videoId: { in: [...videoIds] } },
      select: { videoId: true, itemId: true, scopeIndex: true, value: true },
    });
    const byUnit = new Map<string, number[]>();
    for (const row of rows) {
      const key = unitKey(scope, row.videoId, row.itemId, row.scopeIndex);
      byUnit.set(key, [...(byUnit.get(key) ?? []), row.value]);
    }
    return new Map([...byUnit].map(([key, values]) => [key, median(values)]));
  };
  return {
    async labelledVideoIds() {
      const rows = await prisma.humanJudgment.findMany({
        where: base,
        select: { videoId: true },
        distinct: ["videoId"],
      });
      return rows.map((r) => r.videoId).sort();
    },
    async strata(videoIds) {
      return strataOf(await read(videoIds), positive);
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
export function goldStore(
  prisma: PrismaClient,
  where: { projectId: string; task: string; target: string; targetType?: string; scope?: TargetScope },
  positive: (value: number) => boolean,
): AlignmentLabelStore {
  const scope = where.scope ?? "video";
  const base = {
    projectId: where.projectId,
    task: where.task,
    targetType: where.targetType ?? SCORE_TARGET_TYPE,
    target: where.target,
    ...scopeWhere(scope),
  };
  const read = async (videoIds: readonly string[]) => {
    const rows = await prisma.goldJudgment.findMany({
      where: { ...base, videoId: { in: [...videoIds] } },
      orderBy: { updatedAt: "asc" },
      select: { videoId: true, itemId: true, scopeIndex: true, value: true },
    });
    return new Map(rows.map((r) => [unitKey(scope, r.videoId, r.itemId, r.scopeIndex), r.value]));
  };
  return {
    async labelledVideoIds() {
      const rows = await prisma.goldJudgment.findMany({
        where: base,
        select: { videoId: true },
        distinct: ["videoId"],
      });
      return rows.map((r) => r.videoId).sort();
    },
    async strata(videoIds) {
      return strataOf(await read(videoIds), positive);
    },
    labels: read,
  };
}

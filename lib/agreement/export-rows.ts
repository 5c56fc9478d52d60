/**
 * The judged-items export's rows, before any format: one row per judge score, per reviewed per-video metric and
 * per judged presence target of the filtered videos (reviewed or not), with what the judge saw and every reviewer's
 * value, note and reason. Produced as keyset-paginated batches of videos, so memory stays flat however big the project.
 */
import { judgmentKey, metricTarget, presenceTarget, scoreTarget } from "../reviews/judgment-key";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { framesSeenBy, keyFramesAndClusters, stepScope } from "../judge/media/frame-scopes";
import { reviewerInfo, scopeRuns } from "./load";
import { type ReportFilter, runCondition } from "./report-filter";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { judgePresence, PRESENCE_TARGET_TYPE, type TaskDeclaration } from "../task-modules/task-declaration";
import type { ReviewerInfo } from "./types";

/**
 * Videos per batch: ~60 rows each with a full hallucination run, so a batch reads ~3,000 scores. Small
 * enough that a batch's query results die young in V8's heap instead of piling up in its old space, which
 * keeps the export's peak memory within its target (docs/benchmarks.md, bench:dashboard).
 */
export const EXPORT_BATCH_VIDEOS = 50;
export interface ExportReview {
  reviewerId: string;
  reviewer: string;
  value: number;
  note: string | null;
  reason: string | null;
  /** Taken with the explicit "accept the judge's value" action rather than given independently. */
  acceptedJudge: boolean;
  /** Stored by a presence-first queue because the reviewer marked the category absent, not typed (human_judgment.origin). */
  implied: boolean;
}

export interface ExportRow {
  videoId: string;
  path: string;
  prompt: string | null;
  model: string | null;
  dimensions: string[];
  runId: string;
  endpoint: string;
  /** "score", or the id of one of the task's reviewed metrics (hallucination: "verdict", "overall"). */
  target: string;
  /** The pipeline step of a score; null for per-video metrics. */
  step: string | null;
  /** Key frame ordinal (static), cluster ordinal (dynamic), 0 (inconsistency). */
  scopeIndex: number | null;
  /** The key frame's index in the frame set (static and dynamic scores). */
  keyFrameIndex: number | null;
  category: string;
  promptVersion: string | null;
  judgeValue: number | null;
  /** Timestamps (s) of the frames the judge saw: the key frame, the cluster's frames, or every key frame. */
  frameTimestamps: number[];
  reviews: ExportReview[];
  /** The adjudicated gold value of the target, its note and the owner who set it (lib/adjudication); null when none. */
  gold: { value: number; note: string; adjudicator: string } | null;
  /** The judged item of a score of an item-subject run (a rubric over items, captions, QA); absent on video rows. */
  item?: ExportItem;
}

/** An item a score judged: its id, its id in the imported file, and its text fields (a rubric item's declared fields). */
export interface ExportItem {
  id: string;
  externalId: string;
  fields: Record<string, string>;
}

interface FrameSetMode {
  id: string;
  mode: string;
}

interface FrameRow {
  frameSetId: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
}

/** A frame set's key frames and clusters; `uniform`: every frame of a uniform set (what an item's call attaches). */
type FrameSetView = { keyFrames: FrameRow[]; clusters: FrameRow[][]; uniform?: FrameRow[] };

function seen(
  step: string | null,
  scopeIndex: number | null,
  view: FrameSetView | undefined,
  task: Pick<TaskDeclaration, "stepScopes"> | undefined,
): { keyFrameIndex: number | null; timestamps: number[] } {
  if (!view || step === null || scopeIndex === null) return { keyFrameIndex: null, timestamps: [] };
  // An item is judged in one call with its video's frames (the whole uniform set, or every key frame): its
  // scopeIndex is its position among its video's items, not a key frame's.
  if (stepScope(step, task) === "item")
    return { keyFrameIndex: null, timestamps: (view.uniform ?? view.keyFrames).map((f) => f.timestampS) };
  const { keyFrame, frames } = framesSeenBy(view, step, scopeIndex, task);
  return { keyFrameIndex: keyFrame?.index ?? null, timestamps: frames.map((f) => f.timestampS) };
}

/** Reviewers with judgments in the project (and run): the CSV's per-reviewer columns, known before the first row. */
export async function exportReviewers(prisma: PrismaClient, scope: ReportFilter): Promise<ReviewerInfo[]> {
  const rows = await prisma.$queryRaw<{ reviewerId: string }[]>`
    SELECT DISTINCT h."reviewerId" FROM "human_judgment" h WHERE h."projectId" = ${scope.ctx.projectId} AND NOT h."withdrawn"
      ${scope.runId ? Prisma.sql`AND h."task" = (SELECT r."pipeline" FROM "judge_run" r WHERE r."id" = ${scope.runId})` : Prisma.empty}`;
  return reviewerInfo(
    prisma,
    rows.map((r) => r.reviewerId),
  );
}

function itemFields(payload: unknown): Record<string, string> {
  const fields = (payload as { fields?: unknown } | null)?.fields;
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).map(([id, value]) => [
      id,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

export function isItemSubject(catalogue: DeclarationCatalogue, pipeline: string | undefined): boolean {
  const subject = catalogue.findTask(pipeline)?.subject;
  return subject !== undefined && subject !== "video";
}

/** By declaration: a rubric task's new version is a new declaration under the same id, with its own targets. */
const TARGET_RANKS = new WeakMap<TaskDeclaration, Map<string, number>>();
/** A task's declared targets by their order in the declaration (rows of a scope follow it), computed once per task. */
function targetRanks(task: TaskDeclaration | undefined): Map<string, number> {
  if (!task) return new Map();
  let ranks = TARGET_RANKS.get(task);
  if (!ranks) {
    ranks = new Map(task.targets.map((t, at) => [t.id, at]));
    TARGET_RANKS.set(task, ranks);
  }
  return ranks;
}

/** A task's reviewed metric ids, its verdict metric first. */
function reviewedMetricsOf(task: TaskDeclaration | undefined): string[] {
  if (!task) return [];
  const reviewed = task.metrics.filter((m) => m.reviewed).map((m) => m.id);
  const verdict = task.verdict?.metricId;
  return [...reviewed.filter((m) => m === verdict), ...reviewed.filter((m) => m !== verdict)];
}

type RunVideoRow = {
  runId: string;
  videoId: string;
  frameSetId: string;
  pipeline: string;
  metrics: Record<string, number> | null;
};
type ScoreRow = {
  id: string;
  runId: string;
  videoId: string;
  itemId: string;
  stepId: string;
  scopeIndex: number;
  category: string;
  value: number;
  templateHash: string | null;
};
type JudgmentRow = {
  targetKey: string;
  reviewerId: string;
  value: number;
  note: string | null;
  reason: string | null;
  acceptedJudge: boolean;
  implied: boolean;
};
type GoldRow = { targetKey: string; value: number; note: string; adjudicator: string };

/** One batch's reads: its videos, their runs' videos (with the stored per-video metrics), scores, judgments and golds. */
async function readBatch(prisma: PrismaClient, scope: ReportFilter, ids: string[]) {
  const projectId = scope.ctx.projectId;
  const [videos, runVideos, scores, judgments, golds] = await Promise.all([
    prisma.video.findMany({
      where: { id: { in: ids } },
      select: { id: true, relativePath: true, prompt: true, model: true, dimensions: true },
    }),
    prisma.$queryRaw<RunVideoRow[]>`
      SELECT rv."runId", rv."videoId", rv."frameSetId", r."pipeline", rm."metrics" FROM "run_video" rv JOIN "judge_run" r ON r."id" = rv."runId"
      LEFT JOIN LATERAL (
        SELECT jsonb_object_agg(m."metric", m."value") AS "metrics" FROM "run_metric" m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = ''
      ) rm ON TRUE
      WHERE r."projectId" = ${projectId} AND rv."videoId" = ANY(${ids}) ${runCondition(scope, Prisma.sql`rv."runId"`)}`,
    prisma.$queryRaw<ScoreRow[]>`
      SELECT s."id", s."runId", s."videoId", s."itemId", s."stepId", s."scopeIndex", s."category", s."value", sr."templateHash"
      FROM "score" s JOIN "step_result" sr ON sr."id" = s."stepResultId"
      WHERE s."videoId" = ANY(${ids}) ${runCondition(scope, Prisma.sql`s."runId"`)} ${scope.category ? Prisma.sql`AND s."category" = ${scope.category}` : Prisma.empty}`,
    prisma.$queryRaw<JudgmentRow[]>`
      SELECT h."targetKey", h."reviewerId", h."value", h."note", h."reason", h."acceptedJudge", h."origin" = 'implied_by_absence' AS "implied" FROM "human_judgment" h
      WHERE h."projectId" = ${projectId} AND h."videoId" = ANY(${ids}) AND NOT h."withdrawn"`,
    prisma.$queryRaw<GoldRow[]>`
      SELECT g."targetKey", g."value", g."note", coalesce(u."email", g."adjudicatorId") AS "adjudicator"
      FROM "gold_judgment" g LEFT JOIN "user" u ON u."id" = g."adjudicatorId"
      WHERE g."projectId" = ${projectId} AND g."videoId" = ANY(${ids})`,
  ]);
  return { videos, runVideos, scores, judgments, golds };
}

/** The batch's frame sets as the judge saw them: key frames and clusters, and every frame of an item run's uniform set. */
async function frameSetViews(
  prisma: PrismaClient,
  catalogue: DeclarationCatalogue,
  runVideos: readonly RunVideoRow[],
): Promise<Map<string, FrameSetView>> {
  const frameSetIds = [...new Set(runVideos.map((rv) => rv.frameSetId))];
  // Item runs' sets: every frame of a uniform set is what an item's call saw (the other runs read key frames and clusters only).
  const itemSetIds = [
    ...new Set(runVideos.filter((rv) => isItemSubject(catalogue, rv.pipeline)).map((rv) => rv.frameSetId)),
  ];
  const uniformSetIds = itemSetIds.length
    ? (
        await prisma.$queryRaw<
          FrameSetMode[]
        >`SELECT fs."id", fs."mode" FROM "frame_set" fs WHERE fs."id" = ANY(${itemSetIds})`
      )
        .filter((fs) => fs.mode === "uniform")
        .map((fs) => fs.id)
    : [];
  const frames = frameSetIds.length
    ? await prisma.$queryRaw<FrameRow[]>`
        SELECT f."frameSetId", f."index", f."timestampS", f."isKeyFrame", f."cluster" FROM "frame" f
        WHERE f."frameSetId" = ANY(${frameSetIds}) AND (f."isKeyFrame" OR f."cluster" IS NOT NULL OR f."frameSetId" = ANY(${uniformSetIds})) ORDER BY f."frameSetId", f."index"`
    : [];
  const framesBySet = new Map<string, FrameRow[]>();
  for (const f of frames) {
    const list = framesBySet.get(f.frameSetId);
    if (list) list.push(f);
    else framesBySet.set(f.frameSetId, [f]);
  }
  const uniformSets = new Set(uniformSetIds);
  return new Map<string, FrameSetView>(
    [...framesBySet].map(([id, list]) => {
      const view: FrameSetView = keyFramesAndClusters(list.filter((f) => f.isKeyFrame || f.cluster !== null));
      return [id, uniformSets.has(id) ? { ...view, uniform: list } : view];
    }),
  );
}

/** The items the batch's scores judged, by id. */
async function itemsOf(prisma: PrismaClient, scores: readonly ScoreRow[]): Promise<Map<string, ExportItem>> {
  const itemIds = [...new Set(scores.filter((s) => s.itemId !== "").map((s) => s.itemId))];
  return new Map(
    (itemIds.length
      ? await prisma.item.findMany({
          where: { id: { in: itemIds } },
          select: { id: true, externalId: true, payload: true },
        })
      : []
    ).map((item) => [
      item.id,
      { id: item.id, externalId: item.externalId, fields: itemFields(item.payload) } satisfies ExportItem,
    ]),
  );
}

/** Every reviewer's judgments by target key, in reviewer order. */
function reviewsByTarget(judgments: readonly JudgmentRow[], labels: Map<string, string>): Map<string, ExportReview[]> {
  const reviewsByKey = new Map<string, ExportReview[]>();
  for (const j of judgments) {
    const review = {
      reviewerId: j.reviewerId,
      reviewer: labels.get(j.reviewerId) ?? j.reviewerId,
      value: j.value,
      note: j.note,
      reason: j.reason,
      acceptedJudge: j.acceptedJudge,
      implied: j.implied,
    };
    const list = reviewsByKey.get(j.targetKey);
    if (list) list.push(review);
    else reviewsByKey.set(j.targetKey, [review]);
  }
  for (const list of reviewsByKey.values())
    list.sort((a, b) => a.reviewer.localeCompare(b.reviewer) || a.reviewerId.localeCompare(b.reviewerId));
  return reviewsByKey;
}

/** What one batch's rows are built from. */
interface BatchIndex {
  catalogue: DeclarationCatalogue;
  category: string | null | undefined;
  videoById: Map<
    string,
    { id: string; relativePath: string; prompt: string | null; model: string | null; dimensions: string[] }
  >;
  runs: Map<string, { endpointName: string; order: number }>;
  views: Map<string, FrameSetView>;
  scoresByRunVideo: Map<string, ScoreRow[]>;
  reviewsByKey: Map<string, ExportReview[]>;
  goldByKey: Map<string, ExportRow["gold"]>;
  itemById: Map<string, ExportItem>;
}

/** One (run, video)'s rows: its scores, then its reviewed metrics, then its judged presence targets. */
function runVideoRows(rv: RunVideoRow, batch: BatchIndex): ExportRow[] {
  const video = batch.videoById.get(rv.videoId)!;
  const run = batch.runs.get(rv.runId);
  const base = {
    videoId: video.id,
    path: video.relativePath,
    prompt: video.prompt,
    model: video.model,
    dimensions: video.dimensions,
    runId: rv.runId,
    endpoint: run?.endpointName ?? "",
  };
  const task = batch.catalogue.findTask(rv.pipeline) ?? undefined;
  const rank = targetRanks(task);
  // Plain comparisons, no closures or collation per comparison: this runs for every row of the export.
  const own = (batch.scoresByRunVideo.get(`${rv.runId}:${rv.videoId}`) ?? []).sort(
    (a, b) =>
      (a.stepId < b.stepId ? -1 : a.stepId > b.stepId ? 1 : 0) ||
      a.scopeIndex - b.scopeIndex ||
      (rank.get(a.category) ?? 1000) - (rank.get(b.category) ?? 1000),
  );
  const view = batch.views.get(rv.frameSetId);
  const keyFrameTimes = view ? view.keyFrames.map((f) => f.timestampS) : [];
  const of: RunVideoScores = { rv, batch, base, task, own, view, keyFrameTimes };
  return [...scoreRows(of), ...metricRows(of), ...presenceRows(of)];
}

/** A (run, video) as its rows are made: its video's columns, its task, its scores in row order and its frames. */
interface RunVideoScores {
  rv: RunVideoRow;
  batch: BatchIndex;
  base: Pick<ExportRow, "videoId" | "path" | "prompt" | "model" | "dimensions" | "runId" | "endpoint">;
  task: TaskDeclaration | undefined;
  own: ScoreRow[];
  view: FrameSetView | undefined;
  /** The times of the key frames of its frame set: what a per-video row looked at. */
  keyFrameTimes: number[];
}

/** A row per score, with the frames its scope looked at and the reviews and gold value of its target. */
function scoreRows({ rv, batch, base, task, own, view }: RunVideoScores): ExportRow[] {
  const { reviewsByKey, goldByKey } = batch;
  const rows: ExportRow[] = [];
  for (const s of own) {
    const { keyFrameIndex, timestamps } = seen(s.stepId, s.scopeIndex, view, task);
    const key = judgmentKey(
      scoreTarget(
        rv.pipeline,
        {
          videoId: s.videoId,
          itemId: s.itemId,
          stepId: s.stepId,
          scopeIndex: s.scopeIndex,
          category: s.category,
          runId: rv.runId,
        },
        rv.frameSetId,
        task ?? null,
      ),
    );
    rows.push({
      ...base,
      target: "score",
      step: s.stepId,
      scopeIndex: s.scopeIndex,
      keyFrameIndex,
      category: s.category,
      promptVersion: s.templateHash,
      judgeValue: s.value,
      frameTimestamps: timestamps,
      // Judgments belong to targets: the same reviews show against every run that scored this one.
      reviews: reviewsByKey.get(key) ?? [],
      gold: goldByKey.get(key) ?? null,
      ...(s.itemId !== "" && batch.itemById.has(s.itemId) ? { item: batch.itemById.get(s.itemId)! } : {}),
    });
  }
  return rows;
}

/** The task's reviewed metrics, the verdict first: the run's stored metrics of the same ids (no row: unknown, no export row). */
function metricRows({ rv, batch, base, task, own, keyFrameTimes }: RunVideoScores): ExportRow[] {
  const { reviewsByKey, goldByKey } = batch;
  const rows: ExportRow[] = [];
  const videoVersion =
    [...new Set(own.map((s) => s.templateHash).filter((h): h is string => h !== null))].sort().join("+") || null;
  for (const target of reviewedMetricsOf(task)) {
    const value = rv.metrics?.[target] ?? null;
    if (value === null) continue;
    const key = judgmentKey(metricTarget(rv.pipeline, rv.videoId, "", target));
    rows.push({
      ...base,
      target,
      step: null,
      scopeIndex: null,
      keyFrameIndex: null,
      category: target,
      promptVersion: videoVersion,
      judgeValue: value,
      frameTimestamps: keyFrameTimes,
      reviews: reviewsByKey.get(key) ?? [],
      gold: goldByKey.get(key) ?? null,
    });
  }
  return rows;
}

/**
 * Presence targets someone judged (a presence-first queue, a label set): the judge's value is its presence at the
 * task's declared t, from its highest score of the category (the agreement report sweeps t).
 */
function presenceRows({ rv, batch, base, task, own, keyFrameTimes }: RunVideoScores): ExportRow[] {
  const { reviewsByKey, goldByKey } = batch;
  const rows: ExportRow[] = [];
  for (const category of task?.presence?.of ?? []) {
    if (batch.category && batch.category !== category) continue;
    const presenceKey = judgmentKey(presenceTarget(rv.pipeline, rv.videoId, category));
    const reviews = reviewsByKey.get(presenceKey);
    if (!reviews) continue;
    const ofCategory = own.filter((s) => s.category === category && s.itemId === "");
    rows.push({
      ...base,
      target: PRESENCE_TARGET_TYPE,
      step: null,
      scopeIndex: null,
      keyFrameIndex: null,
      category,
      promptVersion:
        [...new Set(ofCategory.map((s) => s.templateHash).filter((h): h is string => h !== null))].sort().join("+") ||
        null,
      judgeValue: judgePresence(
        ofCategory.map((s) => s.value),
        task!.presence!.defaultThreshold,
      ),
      frameTimestamps: keyFrameTimes,
      reviews,
      gold: goldByKey.get(presenceKey) ?? null,
    });
  }
  return rows;
}

/** Batches of rows, `batchVideos` videos at a time in video-id order (keyset pagination: no OFFSET). */
export async function* exportBatches(
  prisma: PrismaClient,
  scope: ReportFilter,
  reviewers: ReviewerInfo[],
  batchVideos = EXPORT_BATCH_VIDEOS,
): AsyncGenerator<ExportRow[]> {
  const runs = new Map(
    (await scopeRuns(prisma, scope.ctx.projectId, scope.runId)).map((r, order) => [r.id, { ...r, order }]),
  );
  const labels = new Map(reviewers.map((r) => [r.id, r.label]));
  let cursor = "";
  for (;;) {
    const page = await prisma.$queryRaw<{ id: string }[]>`
      SELECT m."id" FROM (${scope.matchingVideos}) m WHERE m."id" > ${cursor} ORDER BY m."id" LIMIT ${batchVideos}`;
    if (page.length === 0) return;
    cursor = page[page.length - 1]!.id;
    const { videos, runVideos, scores, judgments, golds } = await readBatch(
      prisma,
      scope,
      page.map((p) => p.id),
    );
    const views = await frameSetViews(prisma, scope.ctx.catalogue, runVideos);
    const scoresByRunVideo = new Map<string, ScoreRow[]>();
    for (const s of scores) {
      const key = `${s.runId}:${s.videoId}`;
      const list = scoresByRunVideo.get(key);
      if (list) list.push(s);
      else scoresByRunVideo.set(key, [s]);
    }
    const batch: BatchIndex = {
      catalogue: scope.ctx.catalogue,
      category: scope.category,
      videoById: new Map(videos.map((v) => [v.id, v])),
      runs,
      views,
      scoresByRunVideo,
      reviewsByKey: reviewsByTarget(judgments, labels),
      goldByKey: new Map(golds.map((g) => [g.targetKey, { value: g.value, note: g.note, adjudicator: g.adjudicator }])),
      itemById: await itemsOf(prisma, scores),
    };
    runVideos.sort((a, b) =>
      a.videoId < b.videoId
        ? -1
        : a.videoId > b.videoId
          ? 1
          : (runs.get(a.runId)?.order ?? 0) - (runs.get(b.runId)?.order ?? 0),
    );
    // One (run, video)'s rows at a time: the consumer turns them into text before the next are built, so
    // no batch-sized array of row objects lives long enough to reach V8's old space (docs/guide/agreement.md, "Exports").
    for (const rv of runVideos) yield runVideoRows(rv, batch);
    if (page.length < batchVideos) return;
  }
}

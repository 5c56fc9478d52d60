import { judgmentKey, metricTarget, presenceTarget, scoreTarget } from "../reviews/judgment-key";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { csvRow, type CsvValue } from "../export/csv";
import { framesSeenBy, keyFramesAndClusters, stepScope } from "../judge/frame-scopes";
import { reviewerInfo, scopeRuns } from "./load";
import { type AgreementScope, type ExportQuery, resolveAgreementScope, runCondition } from "./scope";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import {
  judgePresence,
  PRESENCE_TARGET_TYPE,
  presenceTargetOf,
  type Scale,
  type TaskDeclaration,
  targetIdOfCategory,
} from "../tasks/task-declaration";
import type { ReviewerInfo } from "./types";
import { log } from "../observability/logger";
import { useExportHeapFlags } from "../ops/web-process-flags";
import { exportFileName } from "./export-file-name";

/**
 * The judged-items export: one row per judge score and per reviewed per-video metric (hallucination: verdict, overall) of the filtered videos
 * (reviewed or not), with what the judge saw and every reviewer's value, note and reason. Produced
 * as a stream of keyset-paginated batches of videos, so memory stays flat however big the project.
 */
/**
 * Videos per batch: ~60 rows each with a full hallucination run, so a batch reads ~3,000 scores. Small
 * enough that a batch's query results die young in V8's heap instead of piling up in its old space
 * (with 250 videos, 15,000 rows, the export's peak RSS grew by ~280 MiB on a 1M-row project).
 */
export const EXPORT_BATCH_VIDEOS = 50;
/** Text per stream chunk (characters, about bytes): the consumer's pull reads rows until a chunk is this big. */
export const EXPORT_CHUNK_CHARS = 64 * 1024;

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
interface ExportItem {
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
export async function exportReviewers(prisma: PrismaClient, scope: AgreementScope): Promise<ReviewerInfo[]> {
  const rows = await prisma.$queryRaw<{ reviewerId: string }[]>`
    SELECT DISTINCT h."reviewerId" FROM "human_judgment" h WHERE h."projectId" = ${scope.ctx.projectId} AND NOT h."withdrawn"
      ${scope.runId ? Prisma.sql`AND h."task" = (SELECT r."pipeline" FROM "judge_run" r WHERE r."id" = ${scope.runId})` : Prisma.empty}`;
  return reviewerInfo(
    prisma,
    rows.map((r) => r.reviewerId),
  );
}

/** Batches of rows, `batchVideos` videos at a time in video-id order (keyset pagination: no OFFSET). */
export async function* exportBatches(
  prisma: PrismaClient,
  scope: AgreementScope,
  reviewers: ReviewerInfo[],
  batchVideos = EXPORT_BATCH_VIDEOS,
): AsyncGenerator<ExportRow[]> {
  const runs = new Map(
    (await scopeRuns(prisma, scope.ctx.projectId, scope.runId)).map((r, order) => [r.id, { ...r, order }]),
  );
  const labels = new Map(reviewers.map((r) => [r.id, r.label]));
  const projectId = scope.ctx.projectId;
  let cursor = "";
  for (;;) {
    const page = await prisma.$queryRaw<{ id: string }[]>`
      SELECT m."id" FROM (${scope.matchingVideos}) m WHERE m."id" > ${cursor} ORDER BY m."id" LIMIT ${batchVideos}`;
    if (page.length === 0) return;
    cursor = page[page.length - 1]!.id;
    const ids = page.map((p) => p.id);

    const [videos, runVideos, scores, judgments, golds] = await Promise.all([
      prisma.video.findMany({
        where: { id: { in: ids } },
        select: { id: true, relativePath: true, prompt: true, model: true, dimensions: true },
      }),
      prisma.$queryRaw<
        {
          runId: string;
          videoId: string;
          frameSetId: string;
          pipeline: string;
          metrics: Record<string, number> | null;
        }[]
      >`
        SELECT rv."runId", rv."videoId", rv."frameSetId", r."pipeline", rm."metrics" FROM "run_video" rv JOIN "judge_run" r ON r."id" = rv."runId"
        LEFT JOIN LATERAL (
          SELECT jsonb_object_agg(m."metric", m."value") AS "metrics" FROM "run_metric" m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = ''
        ) rm ON TRUE
        WHERE r."projectId" = ${projectId} AND rv."videoId" = ANY(${ids}) ${runCondition(scope, Prisma.sql`rv."runId"`)}`,
      prisma.$queryRaw<
        {
          id: string;
          runId: string;
          videoId: string;
          itemId: string;
          stepId: string;
          scopeIndex: number;
          category: string;
          value: number;
          templateHash: string | null;
        }[]
      >`
        SELECT s."id", s."runId", s."videoId", s."itemId", s."stepId", s."scopeIndex", s."category", s."value", sr."templateHash"
        FROM "score" s JOIN "step_result" sr ON sr."id" = s."stepResultId"
        WHERE s."videoId" = ANY(${ids}) ${runCondition(scope, Prisma.sql`s."runId"`)} ${scope.category ? Prisma.sql`AND s."category" = ${scope.category}` : Prisma.empty}`,
      prisma.$queryRaw<
        {
          targetKey: string;
          reviewerId: string;
          value: number;
          note: string | null;
          reason: string | null;
          acceptedJudge: boolean;
          implied: boolean;
        }[]
      >`
        SELECT h."targetKey", h."reviewerId", h."value", h."note", h."reason", h."acceptedJudge", h."origin" = 'implied_by_absence' AS "implied" FROM "human_judgment" h
        WHERE h."projectId" = ${projectId} AND h."videoId" = ANY(${ids}) AND NOT h."withdrawn"`,
      prisma.$queryRaw<{ targetKey: string; value: number; note: string; adjudicator: string }[]>`
        SELECT g."targetKey", g."value", g."note", coalesce(u."email", g."adjudicatorId") AS "adjudicator"
        FROM "gold_judgment" g LEFT JOIN "user" u ON u."id" = g."adjudicatorId"
        WHERE g."projectId" = ${projectId} AND g."videoId" = ANY(${ids})`,
    ]);
    const goldByKey = new Map(
      golds.map((g) => [g.targetKey, { value: g.value, note: g.note, adjudicator: g.adjudicator }]),
    );
    const frameSetIds = [...new Set(runVideos.map((rv) => rv.frameSetId))];
    // Item runs' sets: every frame of a uniform set is what an item's call saw (the other runs read key frames and clusters only).
    const itemSetIds = [
      ...new Set(runVideos.filter((rv) => isItemSubject(scope.ctx.catalogue, rv.pipeline)).map((rv) => rv.frameSetId)),
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
    const itemIds = [...new Set(scores.filter((s) => s.itemId !== "").map((s) => s.itemId))];
    const itemById = new Map(
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
    const framesBySet = new Map<string, FrameRow[]>();
    for (const f of frames) {
      const list = framesBySet.get(f.frameSetId);
      if (list) list.push(f);
      else framesBySet.set(f.frameSetId, [f]);
    }
    const uniformSets = new Set(uniformSetIds);
    const views = new Map<string, FrameSetView>(
      [...framesBySet].map(([id, list]) => {
        const view: FrameSetView = keyFramesAndClusters(list.filter((f) => f.isKeyFrame || f.cluster !== null));
        return [id, uniformSets.has(id) ? { ...view, uniform: list } : view];
      }),
    );
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
    const scoresByRunVideo = new Map<string, typeof scores>();
    for (const s of scores) {
      const key = `${s.runId}:${s.videoId}`;
      const list = scoresByRunVideo.get(key);
      if (list) list.push(s);
      else scoresByRunVideo.set(key, [s]);
    }
    const videoById = new Map(videos.map((v) => [v.id, v]));
    runVideos.sort((a, b) =>
      a.videoId < b.videoId
        ? -1
        : a.videoId > b.videoId
          ? 1
          : (runs.get(a.runId)?.order ?? 0) - (runs.get(b.runId)?.order ?? 0),
    );

    for (const rv of runVideos) {
      // One (run, video)'s rows at a time: the consumer turns them into text before the next are built, so
      // no batch-sized array of row objects lives long enough to reach V8's old space (docs/guide/agreement.md, "Exports").
      const rows: ExportRow[] = [];
      const video = videoById.get(rv.videoId)!;
      const run = runs.get(rv.runId);
      const view = views.get(rv.frameSetId);
      const base = {
        videoId: video.id,
        path: video.relativePath,
        prompt: video.prompt,
        model: video.model,
        dimensions: video.dimensions,
        runId: rv.runId,
        endpoint: run?.endpointName ?? "",
      };
      const task = scope.ctx.catalogue.findTask(rv.pipeline) ?? undefined;
      const rank = targetRanks(task);
      // Plain comparisons, no closures or collation per comparison: this runs for every row of the export.
      const own = (scoresByRunVideo.get(`${rv.runId}:${rv.videoId}`) ?? []).sort(
        (a, b) =>
          (a.stepId < b.stepId ? -1 : a.stepId > b.stepId ? 1 : 0) ||
          a.scopeIndex - b.scopeIndex ||
          (rank.get(a.category) ?? 1000) - (rank.get(b.category) ?? 1000),
      );
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
          ...(s.itemId !== "" && itemById.has(s.itemId) ? { item: itemById.get(s.itemId)! } : {}),
        });
      }
      const videoVersion =
        [...new Set(own.map((s) => s.templateHash).filter((h): h is string => h !== null))].sort().join("+") || null;
      const outcome = (target: string, value: number | null) => {
        if (value === null) return;
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
          frameTimestamps: view ? view.keyFrames.map((f) => f.timestampS) : [],
          reviews: reviewsByKey.get(key) ?? [],
          gold: goldByKey.get(key) ?? null,
        });
      };
      // The task's reviewed metrics, the verdict first: the run's stored metrics of the same ids (no row: unknown, no export row).
      for (const metric of reviewedMetricsOf(task)) outcome(metric, rv.metrics?.[metric] ?? null);
      // Presence targets someone judged (a presence-first queue, a label set): the judge's value is its presence
      // at the task's declared t, from its highest score of the category (the agreement report sweeps t).
      for (const category of task?.presence?.of ?? []) {
        if (scope.category && scope.category !== category) continue;
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
            [...new Set(ofCategory.map((s) => s.templateHash).filter((h): h is string => h !== null))]
              .sort()
              .join("+") || null,
          judgeValue: judgePresence(
            ofCategory.map((s) => s.value),
            task!.presence!.defaultThreshold,
          ),
          frameTimestamps: view ? view.keyFrames.map((f) => f.timestampS) : [],
          reviews,
          gold: goldByKey.get(presenceKey) ?? null,
        });
      }
      yield rows;
    }
    if (page.length < batchVideos) return;
  }
}

/** An item's text fields: a rubric item's declared fields (payload.fields), written out as text; {} for other payloads. */
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

/**
 * What the CSV needs to know of the export's runs before its header: whether one judges items (the CSV then
 * has EXPORT_ITEM_COLUMNS; video-only exports keep their header), and each run's task (for its scales' labels).
 */
async function csvRunsOf(prisma: PrismaClient, scope: AgreementScope): Promise<CsvRuns> {
  const runs = await scopeRuns(prisma, scope.ctx.projectId, scope.runId ?? null);
  return {
    itemColumns: runs.some((r) => isItemSubject(scope.ctx.catalogue, r.pipeline)),
    taskOfRun: new Map(runs.map((r) => [r.id, scope.ctx.catalogue.findTask(r.pipeline) ?? undefined])),
  };
}

interface CsvRuns {
  itemColumns: boolean;
  taskOfRun: ReadonlyMap<string, TaskDeclaration | undefined>;
}

/** The declared scale of a row's values: its score's target, its reviewed metric or its presence target; undefined when unknown. */
function rowScale(task: TaskDeclaration | undefined, row: Pick<ExportRow, "target" | "category">): Scale | undefined {
  if (!task) return undefined;
  if (row.target === "score") return task.targets.find((t) => t.id === targetIdOfCategory(task, row.category))?.scale;
  if (row.target === PRESENCE_TARGET_TYPE) return presenceTargetOf(task, row.category)?.scale;
  return task.metrics.find((m) => m.id === row.target)?.scale;
}

/**
 * A value as the CSV writes it: on a categorical scale its label, as every page shows it (yes/no for a
 * yes/no verdict, present/absent for presence); otherwise the number. JSONL keeps the numbers.
 */
function csvValue(scale: Scale | undefined, value: number | null | undefined): CsvValue {
  if (value === null || value === undefined) return null;
  if (scale?.kind !== "categorical") return value;
  return scale.values.find((v) => v.value === value)?.label ?? value;
}

function isItemSubject(catalogue: DeclarationCatalogue, pipeline: string | undefined): boolean {
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

export const EXPORT_BASE_COLUMNS = [
  "video_id",
  "path",
  "prompt",
  "model",
  "dimensions",
  "run_id",
  "endpoint",
  "target",
  "step",
  "scope_index",
  "key_frame_index",
  "category",
  "prompt_version",
  "judge_value",
  "frame_timestamps",
  "gold_value",
  "gold_note",
  "gold_adjudicator",
] as const;

/** The columns after EXPORT_BASE_COLUMNS when the export covers an item run: the item's id, its id in the file, its fields as JSON. */
const EXPORT_ITEM_COLUMNS = ["item_id", "item_external_id", "item_fields"] as const;

export function exportCsvHeader(reviewers: readonly ReviewerInfo[], itemColumns = false): string {
  return csvRow([
    ...EXPORT_BASE_COLUMNS,
    ...(itemColumns ? EXPORT_ITEM_COLUMNS : []),
    ...reviewers.flatMap((r) => [
      `${r.label} value`,
      `${r.label} note`,
      `${r.label} reason`,
      `${r.label} accepted_judge`,
      `${r.label} implied`,
    ]),
  ]);
}

/** One CSV line of a row; `task` is its run's (its values on a categorical scale are written as their labels). */
export function exportCsvRow(
  row: ExportRow,
  reviewers: readonly ReviewerInfo[],
  itemColumns = false,
  task?: TaskDeclaration,
): string {
  const scale = rowScale(task, row);
  const cells: CsvValue[] = [
    row.videoId,
    row.path,
    row.prompt,
    row.model,
    row.dimensions.join("|"),
    row.runId,
    row.endpoint,
    row.target,
    row.step,
    row.scopeIndex,
    row.keyFrameIndex,
    row.category,
    row.promptVersion,
    csvValue(scale, row.judgeValue),
    row.frameTimestamps.join(" "),
    csvValue(scale, row.gold?.value),
    row.gold?.note ?? null,
    row.gold?.adjudicator ?? null,
  ];
  if (itemColumns)
    cells.push(row.item?.id ?? null, row.item?.externalId ?? null, row.item ? JSON.stringify(row.item.fields) : null);
  for (const r of reviewers) {
    const review = row.reviews.find((x) => x.reviewerId === r.id);
    cells.push(
      csvValue(scale, review?.value),
      review?.note ?? null,
      review?.reason ?? null,
      review ? review.acceptedJudge : null,
      review ? review.implied : null,
    );
  }
  return csvRow(cells);
}

export function exportJsonLine(row: ExportRow): string {
  // The issue's export field name: `accepted_judge` on each review.
  const reviews = row.reviews.map(({ acceptedJudge, ...review }) => ({ ...review, accepted_judge: acceptedJudge }));
  return `${JSON.stringify({ ...row, reviews })}\n`;
}

/** JSONL's last line when an export fails part-way: a client that reads lines can tell it is incomplete. */
export const EXPORT_FAILED_LINE = `${JSON.stringify({ error: { code: "export_failed", message: "The export failed part-way; the lines before this one are incomplete." } })}\n`;

/**
 * A byte stream of the export that reads the next batch only when the consumer pulls (backpressure).
 * If reading fails part-way, a CSV stream errors, so the HTTP response is aborted (no clean end of the
 * chunked body) instead of ending as if complete. A JSONL stream ends with EXPORT_FAILED_LINE and then
 * closes: aborting after it would race the socket's flush and could drop that very line.
 */
export function exportStream(
  prisma: PrismaClient,
  scope: AgreementScope,
  reviewers: ReviewerInfo[],
  format: "csv" | "jsonl",
  batchVideos = EXPORT_BATCH_VIDEOS,
  chunkChars = EXPORT_CHUNK_CHARS,
): ReadableStream<Uint8Array> {
  useExportHeapFlags();
  const encoder = new TextEncoder();
  const batches = exportBatches(prisma, scope, reviewers, batchVideos);
  let headerSent = format !== "csv";
  let csvRuns: CsvRuns = { itemColumns: false, taskOfRun: new Map() };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!headerSent) {
          headerSent = true;
          csvRuns = await csvRunsOf(prisma, scope);
          controller.enqueue(encoder.encode(exportCsvHeader(reviewers, csvRuns.itemColumns)));
          return;
        }
        // Each pull enqueues one chunk of about EXPORT_CHUNK_BYTES: the rows of one video after another are
        // written out as they come (none kept once written), and the next rows are read only when the
        // consumer pulls again. A pull that enqueues nothing is not called again (the stream would stall),
        // so it reads on until it has text or reaches the end.
        let text = "";
        for (;;) {
          const next = await batches.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          for (const row of next.value)
            text +=
              format === "csv"
                ? exportCsvRow(row, reviewers, csvRuns.itemColumns, csvRuns.taskOfRun.get(row.runId))
                : exportJsonLine(row);
          if (text.length >= chunkChars) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      } catch (error) {
        log().error({ err: error }, "export failed part-way");
        if (format === "jsonl") {
          controller.enqueue(encoder.encode(EXPORT_FAILED_LINE));
          controller.close();
        } else {
          controller.error(error);
        }
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/** The export of a project for a filter; every member may read it (`export.read`). */
export async function projectExport(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: ExportQuery,
  catalogue?: TaskCatalogue,
  batchVideos = EXPORT_BATCH_VIDEOS,
) {
  await requireProjectAccess(prisma, actor, projectId, "export.read");
  const { format, ...filter } = query;
  const scope = await resolveAgreementScope(prisma, projectId, filter, actor.userId, catalogue);
  const reviewers = await exportReviewers(prisma, scope);
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  return {
    stream: exportStream(prisma, scope, reviewers, format, batchVideos),
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    // The name the agreement page's link gives it (the header wins over the link's `download` name).
    filename: exportFileName({
      project: project.name,
      what: "items",
      filter: filter as Record<string, string | number | undefined>,
      date: new Date(),
      extension: format,
    }),
  };
}

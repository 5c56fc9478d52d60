/**
 * The judged-items export as CSV or JSONL (export-rows.ts builds its rows): the CSV's header and rows with value
 * labels, the JSONL lines, and the stream that turns batches of rows into text chunks as the consumer pulls.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { csvRow, type CsvValue } from "../format/csv";
import { scopeRuns } from "./load";
import { type ReportFilter, type ExportQuery, resolveReportFilter } from "./report-filter";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import {
  PRESENCE_TARGET_TYPE,
  presenceTargetOf,
  type Scale,
  type TaskDeclaration,
  targetIdOfCategory,
} from "../task-modules/task-declaration";
import type { ReviewerInfo } from "./types";
import { log } from "../observability/logger";
import { useExportHeapFlags } from "../config/web-process-flags";
import { exportFileName } from "./export-file-name";
import { EXPORT_BATCH_VIDEOS, exportBatches, exportReviewers, isItemSubject, type ExportRow } from "./export-rows";

// The rows' shape, imported by many of the export's readers and tests from here.
export type { ExportRow } from "./export-rows";

/** Text per stream chunk (characters, about bytes): the consumer's pull reads rows until a chunk is this big. */
export const EXPORT_CHUNK_CHARS = 64 * 1024;

/**
 * What the CSV needs to know of the export's runs before its header: whether one judges items (the CSV then
 * has EXPORT_ITEM_COLUMNS; video-only exports keep their header), and each run's task (for its scales' labels).
 */
async function csvRunsOf(prisma: PrismaClient, scope: ReportFilter): Promise<CsvRuns> {
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
  // The export field name: `accepted_judge` on each review.
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
  scope: ReportFilter,
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
  access: ProjectAccess<"export.read">,
  query: ExportQuery,
  catalogue?: TaskCatalogue,
  batchVideos = EXPORT_BATCH_VIDEOS,
) {
  const { actor, projectId } = access;
  const { format, ...filter } = query;
  const scope = await resolveReportFilter(prisma, projectId, filter, actor.userId, catalogue);
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

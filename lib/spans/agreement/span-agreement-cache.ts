/**
 * Span agreement reports kept in the process, so a request after a few writes reads and matches a few videos, not a
 * million spans. A report is kept per scope (project, task, run, label, bootstrap options) with the project's span
 * revision (bumped by the database in the same transaction as every write to its spans, migration `span_revision`),
 * and each video holds the revision of its last span write (`span_video_revision`, the same trigger): the videos
 * written since a kept report are those above its revision. Every other input (labels, raters and their names, who
 * looked at which video, frame counts, generators) is read afresh on each request and compared with the kept one, so
 * a kept report is never served stale (load-span-agreement.ts). Nothing in it depends on who asks: access and blind
 * review are checked on each request before it is served. Each new kept report is also stored for the next process
 * (span-agreement-snapshot.ts).
 */
import type { PrismaClient } from "../../generated/prisma/client";
import { directRows } from "../../db/direct-sql";
import type { SpanAgreementOptions } from "./types";

/** The project's span revision ("0" before its first span write). Read it before the spans it stands for. */
export async function spanRevision(prisma: PrismaClient, projectId: string): Promise<string> {
  const rows = await directRows(prisma)<{ revision: string }>`
    SELECT "revision"::text AS "revision" FROM "span_revision" WHERE "projectId" = ${projectId}`;
  return rows[0]?.revision ?? "0";
}

/** The videos of the project whose spans were written after `revision` (span_video_revision), in no order. */
export async function videosWrittenSince(prisma: PrismaClient, projectId: string, revision: string): Promise<string[]> {
  const rows = await directRows(prisma)<{ videoId: string }>`
    SELECT "videoId" FROM "span_video_revision" WHERE "projectId" = ${projectId} AND "revision" > ${revision}::bigint`;
  return rows.map((r) => r.videoId);
}

/** The key of a scope's kept report: keys come from the request, so they live in a Map. */
export function keptReportKey(
  scope: { projectId: string; task: string; runId: string | null },
  label: string | null,
  options: SpanAgreementOptions,
): string {
  return JSON.stringify([
    scope.projectId,
    scope.task,
    scope.runId,
    label,
    options.iterations ?? null,
    options.seed ?? null,
    options.confidence ?? null,
  ]);
}

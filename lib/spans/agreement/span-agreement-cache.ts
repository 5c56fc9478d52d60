/**
 * Span agreement reports kept in the process, so a repeated request over unchanged spans answers without reading a
 * million spans and matching them again. A report is kept per scope (project, task, run, label, bootstrap options)
 * with the project's span revision (bumped by the database in the same transaction as every write to its spans,
 * migration `span_revision`) and a digest of every other input (labels, raters and their names, who looked at which
 * video, frame counts, generators), read afresh on each request: a kept report is served only while both are
 * unchanged, so it is never stale. Nothing in it depends on who asks: access and blind review are checked on each
 * request before it is served.
 */
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { directRows } from "../../db/direct-sql";
import type { SpanAgreementInput, SpanAgreementOptions } from "./types";

/** The project's span revision ("0" before its first span write). Read it before the spans it stands for. */
export async function spanRevision(prisma: PrismaClient, projectId: string): Promise<string> {
  const rows = await directRows(prisma)<{ revision: string }>`
    SELECT "revision"::text AS "revision" FROM "span_revision" WHERE "projectId" = ${projectId}`;
  return rows[0]?.revision ?? "0";
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

const byKey = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * SHA-256 of everything a report reads besides the spans, in an order of its own (sets and maps sorted), so the same
 * inputs read in another order give the same digest.
 */
export function inputDigest(
  input: Omit<SpanAgreementInput, "spans">,
  generators: ReadonlyMap<string, string | null>,
): string {
  const hash = createHash("sha256");
  const write = (value: unknown) => hash.update(`${JSON.stringify(value)}\n`);
  write(input.labels);
  write(input.raters);
  for (const [rater, videos] of [...input.coverage].sort(byKey)) write([rater, [...videos].sort()]);
  write("frames");
  for (const entry of [...input.frameCounts].sort(byKey)) write(entry);
  write("generators");
  for (const entry of [...generators].sort(byKey)) write(entry);
  return hash.digest("hex");
}

/** The last `limit` values set, by key; a value read moves to the back. */
export class KeptReports<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit: number) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}

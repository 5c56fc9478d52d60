/**
 * Span agreement reports stored in PostgreSQL (`span_agreement_snapshot`), beside the ones a process keeps in memory
 * (span-agreement-cache.ts): a process without a scope's report (after a restart, or another web process) reads the
 * stored one and matches only the videos written since its revision, instead of reading and matching a million
 * spans. A stored report is what the process keeps, v8-serialized (its Maps, Sets and typed arrays as they are) and
 * gzip-compressed (for 50,000 videos about 58 MB, 10 MB compressed). Nothing in it depends on who asked: access and
 * blind review are checked on each request before a report is served, and every input besides the spans is read
 * afresh and compared, as with a report kept in memory.
 *
 * A write is off the request: the caller is answered first, and a failed write costs only a later process's time (it
 * computes the report afresh), so it is logged, never thrown. An unreadable or other-format snapshot is skipped the
 * same way.
 */
import v8 from "node:v8";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { PrismaClient } from "../../generated/prisma/client";
import { log } from "../../observability/logger";

/**
 * What a stored report was written as: its shape's version (bump it when the kept report's shape changes) and the V8
 * version whose serializer wrote it. A snapshot of another format is never deserialized.
 */
export const SNAPSHOT_FORMAT = `span-agreement-1 v8-${process.versions.v8}`;

/** A project's stored reports at most (one per scope: task, run, label, options); the least recently written go. */
export const SNAPSHOTS_PER_PROJECT = 8;

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Where a scope's report is stored: its project and its key (keptReportKey). */
export interface SnapshotKey {
  projectId: string;
  scope: string;
}

/** A scope's stored report, or null when none is, or it is of another format, or it cannot be read. */
export async function readSnapshot<T>(prisma: PrismaClient, key: SnapshotKey): Promise<T | null> {
  const row = await prisma.spanAgreementSnapshot.findUnique({
    where: { projectId_scope: key },
    select: { format: true, payload: true },
  });
  if (!row || row.format !== SNAPSHOT_FORMAT) return null;
  try {
    return v8.deserialize(await gunzip(row.payload)) as T;
  } catch (error) {
    log().warn({ err: error, ...key }, "span agreement snapshot unreadable: the report is computed afresh");
    return null;
  }
}

/**
 * Stores a scope's report at `revision`, unless one of a later revision (and this format) is stored already: two
 * processes storing the same scope at once leave the later one. Then drops the project's least recently written
 * snapshots past SNAPSHOTS_PER_PROJECT.
 */
export async function writeSnapshot(
  prisma: PrismaClient,
  key: SnapshotKey,
  revision: string,
  value: unknown,
): Promise<void> {
  // Compressed on libuv's threads, not the event loop's.
  const payload = await gzip(v8.serialize(value), { level: 1 });
  await prisma.$executeRaw`
    INSERT INTO "span_agreement_snapshot" ("projectId", "scope", "revision", "format", "payload", "updatedAt")
    VALUES (${key.projectId}, ${key.scope}, ${revision}::bigint, ${SNAPSHOT_FORMAT}, ${payload}, now())
    ON CONFLICT ("projectId", "scope") DO UPDATE
      SET "revision" = EXCLUDED."revision", "format" = EXCLUDED."format", "payload" = EXCLUDED."payload",
          "written" = EXCLUDED."written", "updatedAt" = EXCLUDED."updatedAt"
      WHERE "span_agreement_snapshot"."revision" <= EXCLUDED."revision"
         OR "span_agreement_snapshot"."format" <> EXCLUDED."format"`;
  await prisma.$executeRaw`
    DELETE FROM "span_agreement_snapshot" WHERE "projectId" = ${key.projectId} AND "scope" NOT IN (
      SELECT "scope" FROM "span_agreement_snapshot" WHERE "projectId" = ${key.projectId}
      ORDER BY "written" DESC LIMIT ${SNAPSHOTS_PER_PROJECT})`;
}

/**
 * Writes each scope's latest report in the background, one write at a time: a report set while an earlier one of its
 * scope waits replaces it, so a burst of requests writes the last report once.
 */
export class SnapshotWriter {
  private readonly waiting = new Map<
    string,
    { prisma: PrismaClient; key: SnapshotKey; revision: string; value: unknown }
  >();
  private running: Promise<void> | null = null;

  /** Stores `value` soon; the promise settles once it is written, or the write failed (logged). Never rejects. */
  save(prisma: PrismaClient, key: SnapshotKey, revision: string, value: unknown): Promise<void> {
    this.waiting.set(JSON.stringify([key.projectId, key.scope]), { prisma, key, revision, value });
    this.running ??= this.drain();
    return this.running;
  }

  private async drain(): Promise<void> {
    for (let next = this.take(); next; next = this.take()) {
      try {
        await writeSnapshot(next.prisma, next.key, next.revision, next.value);
      } catch (error) {
        log().warn(
          { err: error, ...next.key },
          "span agreement snapshot not stored: a later process computes it afresh",
        );
      }
    }
    // In the same turn as the last take found nothing: a report saved after this starts a new drain.
    this.running = null;
  }

  private take() {
    const [first] = this.waiting;
    if (!first) return undefined;
    this.waiting.delete(first[0]);
    return first[1];
  }
}

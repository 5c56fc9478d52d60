/**
 * Span agreement reports stored in PostgreSQL (`span_agreement_snapshot`), beside the ones a process keeps in memory
 * (span-agreement-cache.ts): a process without a scope's report (after a restart, or another web process) reads the
 * stored one and matches only the videos written since its revision, instead of reading and matching a million
 * spans. A stored report is what the process keeps, v8-serialized (its typed arrays as they are) with each string
 * held once (`interned`: a report names each video in some ten Sets and Maps, and V8 writes a string at every
 * occurrence, then builds each one again), gzip-compressed. Nothing in it depends on who asked: access and
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
import { directRows } from "../../db/direct-sql";
import { log } from "../../observability/logger";

/**
 * What a stored report was written as: its shape's version (bump it when the kept report's shape changes) and the V8
 * version whose serializer wrote it. A snapshot of another format is never deserialized.
 */
export const SNAPSHOT_FORMAT = `span-agreement-2 v8-${process.versions.v8}`;

/** A project's stored reports at most (one per scope: task, run, label, options); the least recently written go. */
export const SNAPSHOTS_PER_PROJECT = 8;

const gzip = promisify(zlib.gzip);

/** Marks an encoded Set, Map or array of strings; no key of a report's objects starts with a NUL. */
const TAG = "\u0000interned";

type Interned =
  | { [TAG]: "set"; at: Int32Array }
  | { [TAG]: "strings"; at: Int32Array }
  | { [TAG]: "map"; keys: Int32Array; values: unknown[] };

const allStrings = (values: Iterable<unknown>) => {
  for (const v of values) if (typeof v !== "string") return false;
  return true;
};

/**
 * `root` with every Set of strings, Map keyed by strings and array of strings (at any depth of plain objects, arrays,
 * Maps and Sets, which hold no cycle) as indices into `strings`, which holds each string once. An object met twice is
 * encoded once, so it is one object again once restored (the report compares some Sets by identity first).
 */
function interned(root: unknown, strings: Map<string, number>): unknown {
  const seen = new Map<object, unknown>();
  const at = (items: Iterable<string>, size: number) => {
    const out = new Int32Array(size);
    let i = 0;
    for (const item of items) {
      let n = strings.get(item);
      if (n === undefined) strings.set(item, (n = strings.size));
      out[i++] = n;
    }
    return out;
  };
  const encodedObject = (value: object): unknown => {
    if (value instanceof Set) {
      if (allStrings(value)) return { [TAG]: "set", at: at(value, value.size) } satisfies Interned;
      return new Set(Array.from(value, encoded));
    }
    if (value instanceof Map) {
      if (allStrings(value.keys()))
        return {
          [TAG]: "map",
          keys: at(value.keys(), value.size),
          values: Array.from(value.values(), encoded),
        } satisfies Interned;
      return new Map(Array.from(value, ([k, v]) => [encoded(k), encoded(v)]));
    }
    if (Array.isArray(value)) {
      if (value.length > 0 && allStrings(value))
        return { [TAG]: "strings", at: at(value, value.length) } satisfies Interned;
      return value.map(encoded);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encoded(v)]));
  };
  const encoded = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
    if (!seen.has(value)) seen.set(value, encodedObject(value));
    return seen.get(value);
  };
  return encoded(root);
}

/** What `interned` encoded, its strings back in place, each object encoded once restored once. */
function restored(root: unknown, strings: readonly string[]): unknown {
  const seen = new Map<object, unknown>();
  const restoredObject = (value: object): unknown => {
    if (value instanceof Set) return new Set(Array.from(value, restore));
    if (value instanceof Map) return new Map(Array.from(value, ([k, v]) => [restore(k), restore(v)]));
    if (Array.isArray(value)) return value.map(restore);
    if (!Object.hasOwn(value, TAG)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restore(v)]));
    const encoded = value as Interned;
    if (encoded[TAG] === "set") {
      const set = new Set<string>();
      for (const i of encoded.at) set.add(strings[i]!);
      return set;
    }
    if (encoded[TAG] === "strings") return Array.from(encoded.at, (i) => strings[i]!);
    const map = new Map<string, unknown>();
    encoded.keys.forEach((k, i) => map.set(strings[k]!, restore(encoded.values[i])));
    return map;
  };
  const restore = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
    if (!seen.has(value)) seen.set(value, restoredObject(value));
    return seen.get(value);
  };
  return restore(root);
}

/** A value as stored: interned, v8-serialized, gzip-compressed on libuv's threads (not the event loop's). */
export async function packed(value: unknown): Promise<Buffer> {
  const strings = new Map<string, number>();
  const body = interned(value, strings);
  return gzip(v8.serialize({ strings: [...strings.keys()], body }), { level: 1, chunkSize: ZLIB_CHUNK });
}

/** What `packed` stored. */
export async function unpacked(payload: Uint8Array): Promise<unknown> {
  const { strings, body } = v8.deserialize(await gunzip(payload, { chunkSize: ZLIB_CHUNK })) as {
    strings: string[];
    body: unknown;
  };
  return restored(body, strings);
}
const gunzip = promisify(zlib.gunzip);
/** zlib's output chunk: a report is some 50 MB, and 16 KB chunks (the default) cost a callback and a copy each. */
const ZLIB_CHUNK = 4 * 1024 * 1024;

/** Where a scope's report is stored: its project and its key (keptReportKey). */
export interface SnapshotKey {
  projectId: string;
  scope: string;
}

/** A scope's stored report, or null when none is, or it is of another format, or it cannot be read. */
export async function readSnapshot<T>(prisma: PrismaClient, key: SnapshotKey): Promise<T | null> {
  // As base64 text: a bytea comes as hex, twice the bytes, and decodes slower.
  const [row] = await directRows(prisma)<{ format: string; payload: string }>`
    SELECT "format", encode("payload", 'base64') AS "payload" FROM "span_agreement_snapshot"
    WHERE "projectId" = ${key.projectId} AND "scope" = ${key.scope}`;
  if (!row || row.format !== SNAPSHOT_FORMAT) return null;
  try {
    return (await unpacked(Buffer.from(row.payload, "base64"))) as T;
  } catch (error) {
    log().warn({ err: error, ...key }, "span agreement snapshot unreadable: the report is computed afresh");
    return null;
  }
}

/** The revision of each scope's stored report of this format (others are computed afresh when read), by scope. */
export async function storedRevisions(prisma: PrismaClient, projectId: string): Promise<Map<string, string>> {
  const rows = await directRows(prisma)<{ scope: string; revision: string }>`
    SELECT "scope", "revision"::text AS "revision" FROM "span_agreement_snapshot"
    WHERE "projectId" = ${projectId} AND "format" = ${SNAPSHOT_FORMAT}`;
  return new Map(rows.map((r) => [r.scope, r.revision]));
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
  const payload = await packed(value);
  await prisma.$executeRaw`
    INSERT INTO "span_agreement_snapshot" ("projectId", "scope", "revision", "format", "payload", "updatedAt")
    VALUES (${key.projectId}, ${key.scope}, ${revision}::bigint, ${SNAPSHOT_FORMAT},
            decode(${payload.toString("base64")}, 'base64'), now())
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

import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ObjectStorage } from "./object-storage";
import { removeStoredObjects, type RemovedObjects } from "./remove-objects";

/**
 * Storage objects of deleted rows, kept in `storage_garbage` until they are gone. A deletion writes its keys in the
 * same transaction that deletes the rows (recordStorageGarbage), then removes the objects after the commit
 * (removeStorageGarbage), which takes each removed key out of the table. A process killed in between leaves the keys
 * in the table, and the next sweep (sweepStorageGarbage: every worker on start and then every few minutes, and a
 * project deletion as it resumes) removes them: no object is left that no row names.
 */

const INSERT_CHUNK = 5_000;

/** Records `keys` as garbage, in the transaction that deletes the rows naming them. */
export async function recordStorageGarbage(tx: Prisma.TransactionClient, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    await tx.storageGarbage.createMany({
      data: keys.slice(i, i + INSERT_CHUNK).map((key) => ({ key })),
      skipDuplicates: true,
    });
  }
}

const VIDEO_KEY = /^projects\/([^/]+)\/videos\/([0-9a-f]{64})/;

/**
 * The keys a video row names again: a video's key is its content's hash in its project, so the same file imported
 * again after a deletion (before the sweep) is stored at the key the deletion left as garbage. Frame keys carry
 * their frame set's id and are never reused.
 */
async function keysNamedAgain(prisma: PrismaClient, keys: readonly string[]): Promise<Set<string>> {
  const projectIds: string[] = [];
  const hashes: string[] = [];
  for (const key of keys) {
    const match = VIDEO_KEY.exec(key);
    if (match) {
      projectIds.push(match[1]!);
      hashes.push(match[2]!);
    }
  }
  if (projectIds.length === 0) return new Set();
  const rows = await prisma.$queryRaw<{ storageKey: string }[]>`
    SELECT v."storageKey" FROM video v JOIN unnest(${projectIds}::text[], ${hashes}::text[]) AS k(p, h) ON v."projectId" = k.p AND v.sha256 = k.h`;
  return new Set(rows.map((row) => row.storageKey));
}

async function forget(prisma: PrismaClient, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += INSERT_CHUNK)
    await prisma.storageGarbage.deleteMany({ where: { key: { in: keys.slice(i, i + INSERT_CHUNK) } } });
}

/**
 * Removes the objects of `keys` (recorded as garbage) and takes each removed one out of the table; a key a row names
 * again is taken out without removing its object.
 */
export async function removeStorageGarbage(
  prisma: PrismaClient,
  storage: ObjectStorage,
  keys: readonly string[],
): Promise<RemovedObjects> {
  const named = await keysNamedAgain(prisma, keys);
  await forget(prisma, [...named]);
  const gone: string[] = [];
  const result = await removeStoredObjects(
    storage,
    keys.filter((key) => !named.has(key)),
    { onRemoved: (key) => gone.push(key) },
  );
  await forget(prisma, gone);
  return result;
}

/**
 * Removes garbage recorded more than `olderThanMs` ago (a deletion that is still removing its own keys is left to
 * it), a page of keys at a time. Returns what it removed.
 */
export async function sweepStorageGarbage(
  prisma: PrismaClient,
  storage: ObjectStorage,
  options: { olderThanMs?: number; pageSize?: number } = {},
): Promise<{ removed: number; failed: number }> {
  const before = new Date(Date.now() - (options.olderThanMs ?? 5 * 60_000));
  const pageSize = options.pageSize ?? 1_000;
  let removed = 0;
  let failed = 0;
  let after = "";
  for (;;) {
    const page = await prisma.storageGarbage.findMany({
      where: { createdAt: { lte: before }, key: { gt: after } },
      orderBy: { key: "asc" },
      take: pageSize,
      select: { key: true },
    });
    if (page.length === 0) break;
    const result = await removeStorageGarbage(
      prisma,
      storage,
      page.map((row) => row.key),
    );
    removed += result.removed;
    failed += result.failedCount;
    after = page[page.length - 1]!.key;
  }
  return { removed, failed };
}

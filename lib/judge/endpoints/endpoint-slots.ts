import type { PrismaClient } from "../../generated/prisma/client";

/**
 * An endpoint's limits as rows in PostgreSQL, so they hold across every worker process and machine.
 *
 * Why leased slots rather than a counter or advisory locks: a limit of N is N numbered slots, and a
 * slot row is free when it does not exist or its `expiresAt` has passed. Taking one is a single
 * `INSERT … ON CONFLICT DO UPDATE … WHERE expiresAt <= now()`: PostgreSQL's primary key makes two
 * takers of the same slot wait for each other, and the loser re-checks the row and gets nothing, so
 * no more than N are ever held, with no explicit transaction or lock. Expiry is what frees a dead
 * worker's slots (a counter would leak them; advisory locks would free them only when the dead
 * worker's connection is noticed, and hold a connection per call). The same rows serve both limits:
 * - "concurrency": `maxConcurrency` slots, held while a call is in flight and renewed by the live
 *   holder (renewSlots), deleted when the call ends;
 * - "rate": `requestsPerMinute` slots, each taken when a call starts and left to expire one window
 *   later. A slot is used at most once per window, so no window ever sees more starts than slots: an
 *   exact sliding window, where a token bucket would let up to twice the limit through in a minute.
 * - "waiting": not a slot but a sign, one row per process that wants concurrency slots it could not
 *   get (takeSlots), expiring WAITING_MS after its last try: a holder whose turn ends gives its slot
 *   back only while someone else waits, so a lone worker keeps its slots without a round trip per turn.
 * Times are the database's (`now()`), so machines with skewed clocks agree.
 */

export type SlotKind = "concurrency" | "rate";

/** One try at a slot: the slot taken, or when one may be free (null: unknown, poll again later). */
export type SlotTry = { slot: number } | { slot: null; retryInMs: number | null };

/**
 * Takes a free slot of `kind` below `limit` for `holder` until `holdMs` from now. While any slot at or
 * above `limit` is still held (the limit was lowered), none is given, so the lower limit holds once
 * those are gone. Which free slot is random, so simultaneous takers rarely collide; one that loses a
 * collision is told to try again soon (retryInMs null). `respectPause`: none while the endpoint is paused.
 */
export async function takeSlot(
  prisma: PrismaClient,
  request: {
    endpointId: string;
    kind: SlotKind;
    limit: number;
    holder: string;
    holdMs: number;
    respectPause?: boolean;
  },
): Promise<SlotTry & { pausedForMs: number | null }> {
  const { endpointId, kind, holder } = request;
  const limit = Math.max(1, Math.floor(request.limit));
  // Eight random slots are looked up by key first; only when all are taken (a nearly full limit) are
  // the live slots scanned for a free one. LIMIT over UNION ALL never runs the scan when a probe hits,
  // which keeps a start cheap with thousands of rate slots.
  const [row] = await prisma.$queryRaw<
    { slot: number | null; hadCandidate: boolean; pausedForMs: number | null; nextExpiryInMs: number | null }[]
  >`
    WITH pause AS (
      SELECT "pausedUntil" FROM "endpoint_pause" WHERE "endpointId" = ${endpointId} AND "pausedUntil" > now()
    ), candidate AS MATERIALIZED (
      SELECT c."slot" FROM (
        (SELECT p.s AS "slot" FROM (SELECT floor(random() * ${limit}::int)::int AS s FROM generate_series(1, 8)) AS p
         WHERE NOT EXISTS (
           SELECT 1 FROM "endpoint_slot_lease" l
           WHERE l."endpointId" = ${endpointId} AND l."kind" = ${kind} AND l."slot" = p.s AND l."expiresAt" > now())
         LIMIT 1)
        UNION ALL
        (SELECT s AS "slot" FROM generate_series(0, ${limit}::int - 1) AS s
         WHERE s NOT IN (
           SELECT "slot" FROM "endpoint_slot_lease"
           WHERE "endpointId" = ${endpointId} AND "kind" = ${kind} AND "expiresAt" > now())
         ORDER BY random()
         LIMIT 1)
      ) AS c
      WHERE NOT (${request.respectPause ?? false}::boolean AND EXISTS (SELECT 1 FROM pause))
        AND NOT EXISTS (
          SELECT 1 FROM "endpoint_slot_lease"
          WHERE "endpointId" = ${endpointId} AND "kind" = ${kind} AND "slot" >= ${limit}::int AND "expiresAt" > now())
      LIMIT 1
    ), taken AS (
      INSERT INTO "endpoint_slot_lease" ("endpointId", "kind", "slot", "holder", "expiresAt")
      SELECT ${endpointId}, ${kind}, "slot", ${holder}, now() + make_interval(secs => ${request.holdMs / 1000}::float8) FROM candidate
      ON CONFLICT ("endpointId", "kind", "slot") DO UPDATE SET "holder" = EXCLUDED."holder", "expiresAt" = EXCLUDED."expiresAt"
      WHERE "endpoint_slot_lease"."expiresAt" <= now()
      RETURNING "slot"
    )
    SELECT (SELECT "slot" FROM taken) AS "slot",
           EXISTS (SELECT 1 FROM candidate) AS "hadCandidate",
           (SELECT ceil(extract(epoch FROM "pausedUntil" - now()) * 1000)::int FROM pause) AS "pausedForMs",
           CASE WHEN NOT EXISTS (SELECT 1 FROM taken) THEN (
             SELECT ceil(extract(epoch FROM min("expiresAt") - now()) * 1000)::int FROM "endpoint_slot_lease"
             WHERE "endpointId" = ${endpointId} AND "kind" = ${kind} AND "expiresAt" > now()
           ) END AS "nextExpiryInMs"`;
  const pausedForMs = request.respectPause ? (row?.pausedForMs ?? null) : null;
  if (row?.slot !== null && row?.slot !== undefined) return { slot: row.slot, pausedForMs };
  if (pausedForMs !== null) return { slot: null, retryInMs: pausedForMs, pausedForMs };
  // A rate slot frees itself at its expiry; a concurrency slot is renewed, so its expiry says little.
  const retryInMs = row?.hadCandidate || kind !== "rate" ? null : (row?.nextExpiryInMs ?? null);
  return { slot: null, retryInMs, pausedForMs };
}

/**
 * Takes up to `wanted` free concurrency slots below `limit` in one statement, each held until `holdMs`
 * from now by `holderPrefix:<slot>`. Free slots are drawn at random, so simultaneous takers rarely meet;
 * a slot another taker got first (its insert commits first, and the loser re-checks the row) is just
 * not among the returned ones, so no more than `limit` are ever held. As in takeSlot, none is given
 * while a slot at or above `limit` is still held (the limit was lowered). When it gets fewer than
 * `wanted`, the same statement records that this process waits for the endpoint (a "waiting" row
 * under `waiter`, see othersWaiting), so holders know to give slots back when their turn ends.
 */
export async function takeSlots(
  prisma: PrismaClient,
  request: { endpointId: string; limit: number; wanted: number; holderPrefix: string; holdMs: number; waiter: Waiter },
): Promise<{ slot: number; holder: string }[]> {
  const { endpointId, holderPrefix, waiter } = request;
  const limit = Math.max(1, Math.floor(request.limit));
  const wanted = Math.max(1, Math.floor(request.wanted));
  const rows = await prisma.$queryRaw<{ slot: number; holder: string }[]>`
    WITH live AS MATERIALIZED (
      SELECT "slot" FROM "endpoint_slot_lease"
      WHERE "endpointId" = ${endpointId} AND "kind" = 'concurrency' AND "expiresAt" > now()
    ), candidate AS MATERIALIZED (
      SELECT s AS "slot" FROM generate_series(0, ${limit}::int - 1) AS s
      WHERE s NOT IN (SELECT "slot" FROM live) AND NOT EXISTS (SELECT 1 FROM live WHERE "slot" >= ${limit}::int)
      ORDER BY random()
      LIMIT ${wanted}::int
    ), taken AS (
      INSERT INTO "endpoint_slot_lease" ("endpointId", "kind", "slot", "holder", "expiresAt")
      SELECT ${endpointId}, 'concurrency', "slot", ${holderPrefix}::text || ':' || "slot", now() + make_interval(secs => ${request.holdMs / 1000}::float8) FROM candidate
      -- In slot order: two batches that meet wait for each other's rows in the same order, never in a circle (a deadlock).
      ORDER BY "slot"
      ON CONFLICT ("endpointId", "kind", "slot") DO UPDATE SET "holder" = EXCLUDED."holder", "expiresAt" = EXCLUDED."expiresAt"
      WHERE "endpoint_slot_lease"."expiresAt" <= now()
      RETURNING "slot", "holder"
    ), waiting AS (
      INSERT INTO "endpoint_slot_lease" ("endpointId", "kind", "slot", "holder", "expiresAt")
      SELECT ${endpointId}, 'waiting', ${waiter.slot}::int, ${waiter.process}, now() + make_interval(secs => ${WAITING_MS / 1000}::float8)
      WHERE (SELECT count(*) FROM taken) < ${wanted}::int
      ON CONFLICT ("endpointId", "kind", "slot") DO UPDATE SET "holder" = EXCLUDED."holder", "expiresAt" = EXCLUDED."expiresAt"
    ), forgotten AS (
      -- Waiting rows of processes long gone (each run of a worker waits under a new number).
      -- Rows another taker is deleting are left to it (SKIP LOCKED), so takers never wait on each other here.
      DELETE FROM "endpoint_slot_lease"
      WHERE ("endpointId", "kind", "slot") IN (
        SELECT "endpointId", "kind", "slot" FROM "endpoint_slot_lease"
        WHERE "endpointId" = ${endpointId} AND "kind" = 'waiting' AND "slot" <> ${waiter.slot}::int AND "expiresAt" < now() - interval '1 minute'
        FOR UPDATE SKIP LOCKED)
    )
    SELECT "slot", "holder" FROM taken`;
  return rows;
}

/**
 * A process that waits for an endpoint's concurrency slots: one "waiting" row per process and endpoint,
 * numbered by `slot` (a random number the process draws once) and named by `process`.
 */
export interface Waiter {
  slot: number;
  process: string;
}

/**
 * How long a "waiting" row says its process waits: longer than a waiting process's longest poll
 * interval (250 ms plus jitter), so it stays visible while the process keeps trying, and gone soon
 * after it stops.
 */
export const WAITING_MS = 1000;

/** Whether a process other than `process` is waiting for one of the endpoint's concurrency slots. */
export async function othersWaiting(prisma: PrismaClient, endpointId: string, process: string): Promise<boolean> {
  const [row] = await prisma.$queryRaw<{ waiting: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "endpoint_slot_lease"
      WHERE "endpointId" = ${endpointId} AND "kind" = 'waiting' AND "holder" <> ${process} AND "expiresAt" > now()
    ) AS "waiting"`;
  return row?.waiting ?? false;
}

/** Frees a concurrency slot at the end of a call, unless it has meanwhile expired and gone to someone else. */
export async function releaseSlot(
  prisma: PrismaClient,
  lease: { endpointId: string; kind: SlotKind; slot: number; holder: string },
): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM "endpoint_slot_lease"
    WHERE "endpointId" = ${lease.endpointId} AND "kind" = ${lease.kind} AND "slot" = ${lease.slot} AND "holder" = ${lease.holder}`;
}

/**
 * Extends the slots these holders still hold to `holdMs` from now. Returns the holders whose slot is
 * gone: it expired before this renewal and someone else took it (or it was released meanwhile).
 */
export async function renewSlots(prisma: PrismaClient, holders: string[], holdMs: number): Promise<Set<string>> {
  if (holders.length === 0) return new Set();
  const renewed = await prisma.$queryRaw<{ holder: string }[]>`
    UPDATE "endpoint_slot_lease" SET "expiresAt" = now() + make_interval(secs => ${holdMs / 1000}::float8)
    WHERE "holder" = ANY(${holders}::text[])
    RETURNING "holder"`;
  const kept = new Set(renewed.map((r) => r.holder));
  return new Set(holders.filter((h) => !kept.has(h)));
}

/**
 * Pauses every worker's calls to the endpoint for `ms` (an answer's `retry-after`). A pause is only
 * ever lengthened: a shorter `retry-after` arriving later does not cut a longer one short.
 */
export async function pauseEndpoint(prisma: PrismaClient, endpointId: string, ms: number): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO "endpoint_pause" ("endpointId", "pausedUntil")
    VALUES (${endpointId}, now() + make_interval(secs => ${ms / 1000}::float8))
    ON CONFLICT ("endpointId") DO UPDATE SET "pausedUntil" = GREATEST("endpoint_pause"."pausedUntil", EXCLUDED."pausedUntil")`;
}

/**
 * Admits the start of one call: refused while the endpoint is paused, and, with a requests-per-window
 * limit, only with a rate slot, which it takes for one window. One statement, so a pause recorded by
 * another worker is seen by the very next start.
 */
export async function admitCallStart(
  prisma: PrismaClient,
  request: { endpointId: string; requestsPerWindow: number | null; windowMs: number; holder: string },
): Promise<{ admitted: true } | { admitted: false; retryInMs: number | null }> {
  if (!request.requestsPerWindow) {
    const [pause] = await prisma.$queryRaw<{ retryInMs: number }[]>`
      SELECT ceil(extract(epoch FROM "pausedUntil" - now()) * 1000)::int AS "retryInMs"
      FROM "endpoint_pause" WHERE "endpointId" = ${request.endpointId} AND "pausedUntil" > now()`;
    return pause ? { admitted: false, retryInMs: pause.retryInMs } : { admitted: true };
  }
  const taken = await takeSlot(prisma, {
    endpointId: request.endpointId,
    kind: "rate",
    limit: request.requestsPerWindow,
    holder: request.holder,
    holdMs: request.windowMs,
    respectPause: true,
  });
  return taken.slot !== null ? { admitted: true } : { admitted: false, retryInMs: taken.retryInMs };
}

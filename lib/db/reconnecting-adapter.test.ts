import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { databaseWithCuttableClient } from "../../testkit/testing/test-database";
import { waitFor } from "../../testkit/testing/worker-process";
import { isConnectionLoss } from "./reconnecting-adapter";

// A database of its own: the test cuts every other connection to it, as a restart would.
let database: Awaited<ReturnType<typeof databaseWithCuttableClient>>;
let prisma: PrismaClient;
const cutConnections = (where?: string) => database.cutConnections(where);

beforeAll(async () => {
  database = await databaseWithCuttableClient({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "reconnect");
  prisma = database.prisma;
});
afterAll(async () => {
  await database?.close();
});

const user = (n: string) => ({ id: n, email: `${n}@reconnect.test`, name: n, emailVerified: true });

describe("the reconnecting Prisma adapter", () => {
  it("tells a lost connection from a wrong query", () => {
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } })).toBe(true);
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "postgres", code: "57P01" } })).toBe(true);
    expect(
      isConnectionLoss(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "UniqueConstraintViolation" } })).toBe(false);
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "postgres", code: "42601" } })).toBe(false);
    expect(isConnectionLoss(new Error("relation does not exist"))).toBe(false);
  });

  it("sends a query again when its pooled connection was cut", async () => {
    await prisma.user.create({ data: user("pooled") });
    expect(await cutConnections()).toBeGreaterThan(0);
    expect(await prisma.user.count({ where: { email: "pooled@reconnect.test" } })).toBe(1);
  });

  it("replays a transaction whose connection was cut half-way, and commits it once", async () => {
    await prisma.$transaction(async (tx) => {
      await tx.user.create({ data: user("tx-a") });
      expect(
        await tx.user.count({ where: { email: { endsWith: "@reconnect.test" }, name: { startsWith: "tx-" } } }),
      ).toBe(1);
      expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
      await tx.user.create({ data: user("tx-b") });
    });
    const names = (await prisma.user.findMany({ where: { name: { startsWith: "tx-" } }, select: { name: true } }))
      .map((u) => u.name)
      .sort();
    expect(names).toEqual(["tx-a", "tx-b"]);
  });

  it("replays once for statements that lose the connection together, leaving no transaction behind", async () => {
    await prisma.$transaction(async (tx) => {
      await tx.user.create({ data: user("together-a") });
      expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
      // Both go out on the cut connection and fail together.
      await Promise.all([tx.user.create({ data: user("together-b") }), tx.user.create({ data: user("together-c") })]);
    });
    const names = (await prisma.user.findMany({ where: { name: { startsWith: "together-" } }, select: { name: true } }))
      .map((u) => u.name)
      .sort();
    expect(names).toEqual(["together-a", "together-b", "together-c"]);
    const left = await database.adminQuery(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
    );
    expect(left.rows).toEqual([{ n: 0 }]);
  });

  it("rolls back the transaction a replay opened when the transaction times out during the replay, leaving none behind", async () => {
    const attempt = prisma.$transaction(
      async (tx) => {
        await tx.user.create({ data: user("timeout-a") });
        // Instant now; 2 s when replayed, once the marker row exists: the replay outlasts the transaction's timeout.
        await tx.$queryRaw`SELECT pg_sleep(CASE WHEN EXISTS (SELECT 1 FROM "user" WHERE id = 'slow-replay') THEN 2 ELSE 0 END)::text AS slept`;
        await database.adminQuery(
          `INSERT INTO "user" (id, email, name, "emailVerified", "createdAt", "updatedAt") VALUES ('slow-replay', 'slow-replay@reconnect.test', 'slow-replay', true, now(), now())`,
        );
        expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
        await tx.user.create({ data: user("timeout-b") });
      },
      { timeout: 1000 },
    );
    await expect(attempt).rejects.toThrow();
    const left = async () =>
      (
        await database.adminQuery(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        )
      ).rows[0].n as number;
    await waitFor(async () => (await left()) === 0, 10_000, "no transaction left open");
    expect(await prisma.user.count({ where: { name: { startsWith: "timeout-" } } })).toBe(0);
  });

  it("gives up, committing nothing, when a replayed read would see something else", async () => {
    const attempt = prisma.$transaction(async (tx) => {
      await tx.user.create({ data: user("diverge-a") });
      await tx.user.count({ where: { name: { startsWith: "other-" } } });
      expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
      // Another session changes what the transaction read before it is replayed.
      await database.adminQuery(
        `INSERT INTO "user" (id, email, name, "emailVerified", "createdAt", "updatedAt") VALUES ('other-1', 'other@reconnect.test', 'other-1', true, now(), now())`,
      );
      await tx.user.create({ data: user("diverge-b") });
    });
    await expect(attempt).rejects.toThrow();
    expect(await prisma.user.count({ where: { name: { startsWith: "diverge-" } } })).toBe(0);
  });
});

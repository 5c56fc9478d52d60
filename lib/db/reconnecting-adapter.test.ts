import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { createTestDatabase } from "../testing/test-database";
import { createPrismaClient } from "./prisma";
import { isConnectionLoss } from "./reconnecting-adapter";

// A database of its own: the test cuts every other connection to it, as a restart would.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "reconnect");
  prisma = createPrismaClient(database.url, { maxWaitMs: 10_000 });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await prisma?.$disconnect();
  await admin?.end();
  await database?.drop();
});

/** Terminates every other session on the test database (what a server restart does to them). */
async function cutConnections(where = "true"): Promise<number> {
  const result = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`);
  return result.rowCount ?? 0;
}

const user = (n: string) => ({ id: n, email: `${n}@reconnect.test`, name: n, emailVerified: true });

describe("the reconnecting Prisma adapter", () => {
  it("tells a lost connection from a wrong query", () => {
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } })).toBe(true);
    expect(isConnectionLoss({ name: "DriverAdapterError", cause: { kind: "postgres", code: "57P01" } })).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
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
      expect(await tx.user.count({ where: { email: { endsWith: "@reconnect.test" }, name: { startsWith: "tx-" } } })).toBe(1);
      expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
      await tx.user.create({ data: user("tx-b") });
    });
    const names = (await prisma.user.findMany({ where: { name: { startsWith: "tx-" } }, select: { name: true } })).map((u) => u.name).sort();
    expect(names).toEqual(["tx-a", "tx-b"]);
  });

  it("gives up, committing nothing, when a replayed read would see something else", async () => {
    const attempt = prisma.$transaction(async (tx) => {
      await tx.user.create({ data: user("diverge-a") });
      await tx.user.count({ where: { name: { startsWith: "other-" } } });
      expect(await cutConnections("state = 'idle in transaction'")).toBe(1);
      // Another session changes what the transaction read before it is replayed.
      await admin.query(`INSERT INTO "user" (id, email, name, "emailVerified", "createdAt", "updatedAt") VALUES ('other-1', 'other@reconnect.test', 'other-1', true, now(), now())`);
      await tx.user.create({ data: user("diverge-b") });
    });
    await expect(attempt).rejects.toThrow();
    expect(await prisma.user.count({ where: { name: { startsWith: "diverge-" } } })).toBe(0);
  });
});

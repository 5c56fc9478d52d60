import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { databaseWithCuttableClient } from "../testing/test-database";
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

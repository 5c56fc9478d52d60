import { afterEach, describe, expect, inject, it } from "vitest";
import { createPrismaClient, prisma } from "../db/prisma";
import { createTestDatabase } from "../../testkit/testing/test-database";
import { seedAdminFromEnv } from "./seed-admin";

afterEach(() => {
  delete process.env.ADMIN_EMAIL;
  delete process.env.ADMIN_PASSWORD;
});

describe("seedAdminFromEnv", () => {
  it("creates the site admin on an empty database", async () => {
    const database = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "seed");
    const fresh = createPrismaClient(database.url);
    try {
      process.env.ADMIN_EMAIL = "Seeded@Example.test";
      process.env.ADMIN_PASSWORD = "seeded-password";
      await seedAdminFromEnv(database.url, () => {});
      const admin = await fresh.user.findUniqueOrThrow({ where: { email: "seeded@example.test" } });
      expect(admin.isAdmin).toBe(true);
    } finally {
      await fresh.$disconnect();
      await database.drop();
    }
  });

  it("does nothing once users exist, so a restart never resets the admin", async () => {
    await prisma.user.create({
      data: { id: `existing-${Date.now()}`, name: "x", email: `existing-${Date.now()}@example.test` },
    });
    process.env.ADMIN_EMAIL = "late-seed@example.test";
    process.env.ADMIN_PASSWORD = "seeded-password";
    await seedAdminFromEnv(process.env.DATABASE_URL!, () => {});
    expect(await prisma.user.findUnique({ where: { email: "late-seed@example.test" } })).toBeNull();
  });
});

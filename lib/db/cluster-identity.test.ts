import { afterEach, describe, expect, it } from "vitest";
import { loggedClusterIdentity, readSystemIdentifier, SYSTEM_IDENTIFIER_VARIABLE } from "./cluster-identity";
import { createPrismaClient } from "./prisma";

const url = process.env.DATABASE_URL!;
const clients: { $disconnect(): Promise<void> }[] = [];
afterEach(async () => {
  delete process.env[SYSTEM_IDENTIFIER_VARIABLE];
  await Promise.all(clients.splice(0).map((client) => client.$disconnect()));
});

describe("the cluster a process expects", () => {
  it("reads the server's system identifier", async () => {
    expect(await readSystemIdentifier(url)).toMatch(/^\d+$/);
  });

  it("refuses the server from the first connection when npm start passed another cluster's identifier", async () => {
    process.env[SYSTEM_IDENTIFIER_VARIABLE] = "1";
    const prisma = createPrismaClient(url, { maxWaitMs: 0 });
    clients.push(prisma);
    await expect(prisma.user.count()).rejects.toThrow(
      /another cluster \(system identifier \d+, this process's database is 1\)/,
    );
  });

  it("uses the server when the identifier passed is its own", async () => {
    process.env[SYSTEM_IDENTIFIER_VARIABLE] = (await readSystemIdentifier(url))!;
    const prisma = createPrismaClient(url, { maxWaitMs: 0 });
    clients.push(prisma);
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0);
  });

  it("ignores a malformed identifier, taking the first connection's", () => {
    expect(loggedClusterIdentity({ [SYSTEM_IDENTIFIER_VARIABLE]: "not-a-number" }).expected).toBeNull();
    expect(loggedClusterIdentity({ [SYSTEM_IDENTIFIER_VARIABLE]: "7712871883362249904" }).expected).toBe(
      "7712871883362249904",
    );
    expect(loggedClusterIdentity({}).expected).toBeNull();
  });
});

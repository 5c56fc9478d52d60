import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { databaseUrl, ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres";
import { applyMigrations } from "./migrate";
import { createPrismaClient } from "./prisma";
import { MIGRATIONS_DIR } from "./resolve-database";
import { JUDGE_QUEUE, startBoss } from "../judge/workers/queue";
import { freePort } from "../../testkit/testing/own-database";

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("reconnecting to a lost database", () => {
  it("looks for it once per pause, doubling the pause, however many queries wait (a fake clock)", async () => {
    // A port where a connection is taken and dropped at once: a server that is not answering. It notes when (on
    // the fake clock) each connection came.
    let clock = 0;
    const attempts: number[] = [];
    const server = net.createServer((socket) => {
      attempts.push(clock);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as net.AddressInfo).port;
    const outages: { state: string; attempts?: number }[] = [];
    const prisma = createPrismaClient(`postgresql://nobody:secret@127.0.0.1:${port}/framejury`, {
      maxWaitMs: 10_000,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        await new Promise((resolve) => setImmediate(resolve));
      },
      onOutage: (event) => outages.push({ state: event.state, attempts: event.attempts }),
    });
    cleanups.push(() => prisma.$disconnect());

    const queries = Array.from({ length: 20 }, (_, i) => prisma.user.count({ where: { name: `n${i}` } }));
    const outcomes = await Promise.allSettled(queries);

    expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
    // At most each query's own first try (the server may note some of them once the clock has moved to the first
    // look, at 0.1 s) and that look; then one look per pause, doubling up to 2 s, until the 10 s had passed.
    expect(attempts.filter((at) => at <= 100).length).toBeLessThanOrEqual(21);
    expect(attempts.filter((at) => at > 100)).toEqual([300, 700, 1500, 3100, 5100, 7100, 9100]);
    expect(outages).toEqual([{ state: "lost", attempts: undefined }]);
  });
});

describe("a query waiting for a lost database", () => {
  it("fails at its own deadline, while the looks go on at their pace for a later query (a fake clock)", async () => {
    let clock = 0;
    const attempts: number[] = [];
    const server = net.createServer((socket) => {
      attempts.push(clock);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as net.AddressInfo).port;
    const failedAt = new Map<string, number>();
    const settle = (name: string, query: Promise<unknown>) => query.catch(() => failedAt.set(name, clock));
    let later: Promise<unknown> | null = null;
    const prisma = createPrismaClient(`postgresql://nobody:secret@127.0.0.1:${port}/framejury`, {
      maxWaitMs: 10_000,
      now: () => clock,
      sleep: async (ms) => {
        // What the last wake-up settled (a failed query's rejection through Prisma) is seen before the clock moves on.
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        clock += ms;
        // A second query comes 1.5 s into the outage: it waits until 11.5 s.
        if (clock >= 1500 && !later) later = settle("later", prisma.user.count());
      },
    });
    cleanups.push(() => prisma.$disconnect());

    await settle("first", prisma.user.count());
    await vi.waitFor(() => expect(failedAt.has("later")).toBe(true));

    expect(failedAt).toEqual(
      new Map([
        ["first", 10_000],
        ["later", 11_500],
      ]),
    );
    // The looks before 10 s, then one at 11.1 s for the later query alone.
    expect(attempts.filter((at) => at > 1500)).toEqual([3100, 5100, 7100, 9100, 11_100]);
  });
});

/** A cluster of its own in a temporary folder, with a migrated `framejury` database; `credentialsFrom`: the cluster whose user and password it takes. */
async function startCluster(label: string, options: { port?: number; credentialsFrom?: string } = {}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `framejury-${label}-`));
  fs.chmodSync(folder, 0o755);
  const dir = path.join(folder, "postgres");
  if (options.credentialsFrom)
    fs.copyFileSync(`${options.credentialsFrom}-credentials.json`, `${dir}-credentials.json`);
  const start = () => startEmbeddedPostgres({ dir, port: options.port });
  let server: EmbeddedServer = await start();
  await ensureDatabase(server.baseUrl, "framejury");
  const url = databaseUrl(server.baseUrl, "framejury");
  await applyMigrations(url, MIGRATIONS_DIR);
  cleanups.push(async () => {
    await server.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return {
    dir,
    url,
    port: server.port,
    stop: () => server.stop(),
    restart: async () => {
      server = await startEmbeddedPostgres({ dir, port: server.port });
    },
  };
}

describe("a server of another cluster on the freed port", () => {
  it(
    "is refused, writes nothing there, and the client carries on once its own server is back",
    { timeout: 180_000 },
    async () => {
      // A port of its own, not the embedded server's default, which other test files' servers may take meanwhile.
      const own = await startCluster("cluster-own", { port: await freePort() });
      const prisma: PrismaClient = createPrismaClient(own.url, {
        maxWaitMs: 3000,
        initialDelayMs: 50,
        maxDelayMs: 200,
      });
      cleanups.push(() => prisma.$disconnect());
      const person = (id: string) => ({ id, email: `${id}@cluster.test`, name: id, emailVerified: true });
      await prisma.user.create({ data: person("before") });
      const boss = await startBoss(own.url, { supervise: false });
      cleanups.push(() => boss.stop({ graceful: false }));
      await boss.send(JUDGE_QUEUE, { n: 1 });

      await own.stop();
      // Another PostgreSQL takes the port: same user and password, a `framejury` database with the same tables.
      const other = await startCluster("cluster-other", { port: own.port, credentialsFrom: own.dir });
      expect(other.url).toBe(own.url);
      // It runs the job queue's tables too.
      const otherBoss = await startBoss(other.url, { supervise: false });
      await otherBoss.stop({ graceful: false });

      await expect(prisma.user.count()).rejects.toThrow(/another cluster/);
      await expect(prisma.user.create({ data: person("during") })).rejects.toThrow(/another cluster/);
      await expect(boss.send(JUDGE_QUEUE, { n: 2 })).rejects.toThrow(/another cluster/);
      const otherClient = new pg.Client({ connectionString: other.url });
      await otherClient.connect();
      expect((await otherClient.query(`SELECT count(*)::int AS n FROM "user"`)).rows[0]).toEqual({ n: 0 });
      expect((await otherClient.query(`SELECT count(*)::int AS n FROM pgboss.job`)).rows[0]).toEqual({ n: 0 });
      await otherClient.end();

      await other.stop();
      await own.restart();
      expect(await prisma.user.findMany({ select: { id: true } })).toEqual([{ id: "before" }]);
      await boss.send(JUDGE_QUEUE, { n: 3 });
      expect((await boss.findJobs(JUDGE_QUEUE)).map((job) => job.data)).toEqual(
        expect.arrayContaining([{ n: 1 }, { n: 3 }]),
      );
    },
  );
});

/**
 * Issue 39 §3, done when: a test kills the worker during a project deletion, and the deletion finishes after a
 * restart with nothing orphaned in storage. A real worker process (`npm run worker`'s entry) on a database of its
 * own, killed with SIGKILL mid-deletion; pg-boss retries the job once its heartbeat stops, and a new worker resumes it.
 */
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../auth/users";
import { createPrismaClient } from "../db/prisma";
import type { PrismaClient } from "../generated/prisma/client";
import { startBoss } from "../judge/workers/queue";
import { getStorage } from "../storage/storage";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { startOwnDatabase } from "../../testkit/testing/own-database";
import { startWorkerProcess, waitFor, type WorkerProcess } from "../../testkit/testing/worker-process";
import { deleteProject } from "./project-deletion";
import { appDeletionQueue } from "../deletions/deletion-queues";
import { projectAccess } from "../authz/permissions";

let database: Awaited<ReturnType<typeof startOwnDatabase>>;
let prisma: PrismaClient;
let boss: PgBoss;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  database = await startOwnDatabase("project-deletion-kill");
  prisma = createPrismaClient(database.url);
  boss = await startBoss(database.url, { supervise: false });
}, 120_000);
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await boss?.stop({ graceful: false }).catch(() => {});
  await prisma?.$disconnect();
  await database?.remove();
});

describe("a worker killed in the middle of a project deletion", () => {
  it("is resumed by another worker, and the deletion leaves nothing in storage", { timeout: 300_000 }, async () => {
    const user = await createUser(prisma, {
      email: "owner@deletion-kill.test",
      password: "correct horse battery",
      isAdmin: false,
    });
    const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const videoCount = 150;
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 1, name: "Doomed" });
    const storage = getStorage();
    const videos = await prisma.video.findMany({
      where: { projectId },
      select: { storageKey: true, frameSets: { select: { frames: { select: { storageKey: true } } } } },
    });
    for (const video of videos) await storage.put(video.storageKey, Buffer.from("video bytes"));
    const keys = videos.flatMap((v) => [
      v.storageKey,
      ...v.frameSets.flatMap((fs) => fs.frames.map((f) => f.storageKey)),
    ]);

    const env = { ...process.env, DATABASE_URL: database.url, PROJECT_DELETION_BATCH_SIZE: "3", LOG_LEVEL: "info" };
    const first = startWorkerProcess(env);
    workers.push(first);
    const output = () => workers.map((w, i) => `Worker ${i + 1}:\n${w.output().slice(-3000)}`).join("\n");
    const { deletion } = await deleteProject(
      { prisma, queue: appDeletionQueue("project", boss) },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      { dryRun: false, confirmName: "Doomed" },
    );
    const progress = () => prisma.projectDeletion.findUniqueOrThrow({ where: { id: deletion!.id } });

    await waitFor(
      async () => (await progress()).videosDeleted >= 15,
      120_000,
      "the first worker to delete some videos",
      output,
    );
    await first.stop();
    const atKill = await progress();
    expect(atKill.status).toBe("running");
    expect(atKill.videosDeleted).toBeLessThan(videoCount);

    workers.push(startWorkerProcess(env));
    const done = await waitFor(
      async () => ((await progress()).status === "done" ? progress() : null),
      180_000,
      "the deletion to finish after the restart",
      output,
    );
    expect(done).toMatchObject({ videosDeleted: videoCount, videosTotal: videoCount });
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(0);
    expect(await prisma.video.count({ where: { projectId } })).toBe(0);
    const left: string[] = [];
    for (const key of keys) if (await storage.stat(key)) left.push(key);
    expect(left).toEqual([]);
    expect(await prisma.storageGarbage.count()).toBe(0);
    // The second worker took the job over (its log says so), the first never finished it.
    expect(workers[1]!.lines().some((line) => line.msg === "deletion ended" && line.status === "done")).toBe(true);
  });
});

/**
 * Issue 39 §3: a project's deletion is a worker's job with progress, cancellation and resume. On the real database
 * and the file storage, with the worker's function run inline (lib/projects/project-deletion-kill.test.ts kills a
 * real worker process mid-deletion).
 */
import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess, requireProjectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ConflictError, NotFoundError } from "../errors";
import type { ObjectStorage } from "../storage/object-storage";
import { getStorage } from "../storage/storage";
import { sweepStorageGarbage } from "../storage/storage-garbage";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import {
  cancelProjectDeletion,
  deleteProject,
  executeProjectDeletion,
  getProjectDeletion,
  listProjectDeletions,
  type ProjectDeletionQueue,
} from "./project-deletion";
import { listProjects } from "./projects";

/** The queue as the web process sees it: it only records what it was sent (a worker is run by hand below). */
function recordingQueue(): ProjectDeletionQueue & { sent: string[] } {
  const sent: string[] = [];
  return { sent, enqueue: async (id) => void sent.push(id) };
}

async function storedKeys(projectId: string): Promise<string[]> {
  const videos = await prisma.video.findMany({
    where: { projectId },
    select: { storageKey: true, frameSets: { select: { frames: { select: { storageKey: true } } } } },
  });
  return videos.flatMap((v) => [v.storageKey, ...v.frameSets.flatMap((fs) => fs.frames.map((f) => f.storageKey))]);
}

async function present(keys: readonly string[]): Promise<string[]> {
  const storage = getStorage();
  const found: string[] = [];
  for (const key of keys) if (await storage.stat(key)) found.push(key);
  return found;
}

async function projectWithMembers(name: string, videoCount: number) {
  const owner = await makeUser();
  const reviewer = await makeUser();
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 2, name });
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  // The fixture stores frames only; the videos' own files are stored here, so every key names an object.
  for (const video of await prisma.video.findMany({ where: { projectId }, select: { storageKey: true } }))
    await getStorage().put(video.storageKey, Buffer.from("video bytes"));
  return { owner, reviewer, projectId, videoIds };
}

describe("deleting a project as a worker's job", () => {
  it("hides the project at once, deletes it batch by batch with progress, and leaves nothing in storage", async () => {
    const { owner, reviewer, projectId } = await projectWithMembers("Big project", 7);
    const keys = await storedKeys(projectId);
    expect(await present(keys)).toHaveLength(keys.length);
    const queue = recordingQueue();
    await expect(projectAccess(prisma, reviewer, projectId, "project.delete")).rejects.toThrow(/may not/);
    const started = await deleteProject(
      { prisma, queue },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      {
        dryRun: false,
        confirmName: "Big project",
      },
    );
    expect(started.deletion).toMatchObject({ status: "queued", videosTotal: 7, videosDeleted: 0 });
    expect(queue.sent).toEqual([started.deletion!.id]);
    // Gone for its members (and from their lists) before a worker has touched a row.
    for (const actor of [owner, reviewer]) {
      await expect(requireProjectAccess(prisma, actor, projectId, "project.view")).rejects.toThrow(NotFoundError);
      expect((await listProjects(prisma, actor)).map((p) => p.id)).not.toContain(projectId);
    }
    await expect(
      requireProjectAccess(prisma, await makeUser({ isAdmin: true }), projectId, "project.view"),
    ).rejects.toThrow(NotFoundError);
    expect(await prisma.video.count({ where: { projectId } })).toBe(7);

    const seen: number[] = [];
    const done = await executeProjectDeletion(
      { prisma, storage: getStorage(), batchSize: 3, afterBatch: (state) => void seen.push(state.videosDeleted) },
      started.deletion!.id,
    );
    expect(seen).toEqual([3, 6, 7]);
    expect(done).toMatchObject({ status: "done", videosDeleted: 7, storageRemoved: keys.length, error: null });
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(0);
    expect(await present(keys)).toEqual([]);
    expect(await prisma.storageGarbage.count({ where: { key: { startsWith: `projects/${projectId}/` } } })).toBe(0);
    // The deletion outlives the project: its requester reads how it ended; nobody else sees it.
    expect((await listProjectDeletions(prisma, owner)).map((d) => [d.projectName, d.status])).toEqual([
      ["Big project", "done"],
    ]);
    await expect(getProjectDeletion(prisma, reviewer, started.deletion!.id)).rejects.toThrow(NotFoundError);
    await expect(cancelProjectDeletion(prisma, owner, started.deletion!.id)).rejects.toThrow(ConflictError);
    // A second job of the same deletion (a resend) finds it ended and does nothing.
    expect(await executeProjectDeletion({ prisma, storage: getStorage() }, started.deletion!.id)).toMatchObject({
      status: "done",
    });
  });

  it("gives the project back when cancelled: at once while queued, after the current batch while running", async () => {
    const { owner, reviewer, projectId } = await projectWithMembers("Keep me", 5);
    const queue = recordingQueue();
    const first = await deleteProject(
      { prisma, queue },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      { dryRun: false, confirmName: "Keep me" },
    );
    expect(await cancelProjectDeletion(prisma, owner, first.deletion!.id)).toMatchObject({
      status: "cancelled",
      videosDeleted: 0,
    });
    expect(await requireProjectAccess(prisma, reviewer, projectId, "project.view")).toBe("reviewer");
    // The job the queue still holds finds nothing to do.
    expect(await executeProjectDeletion({ prisma, storage: getStorage() }, first.deletion!.id)).toMatchObject({
      status: "cancelled",
    });
    expect(await prisma.video.count({ where: { projectId } })).toBe(5);

    const second = await deleteProject(
      { prisma, queue },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      { dryRun: false, confirmName: "Keep me" },
    );
    const keysBefore = await storedKeys(projectId);
    const ended = await executeProjectDeletion(
      {
        prisma,
        storage: getStorage(),
        batchSize: 2,
        afterBatch: async (state) => {
          if (state.videosDeleted === 2)
            expect(await cancelProjectDeletion(prisma, owner, state.id)).toMatchObject({
              status: "running",
              cancelRequested: true,
            });
        },
      },
      second.deletion!.id,
    );
    expect(ended).toMatchObject({ status: "cancelled", videosDeleted: 2 });
    // Back with its members and its three other videos, whole: their files and frames are still stored.
    expect(await requireProjectAccess(prisma, owner, projectId, "project.delete")).toBe("owner");
    expect(await requireProjectAccess(prisma, reviewer, projectId, "project.view")).toBe("reviewer");
    const keysAfter = await storedKeys(projectId);
    expect(await prisma.video.count({ where: { projectId } })).toBe(3);
    expect(await present(keysAfter)).toEqual(keysAfter);
    expect(await present(keysBefore.filter((k) => !keysAfter.includes(k)))).toEqual([]);
  });

  it("gives back at once a running deletion whose worker stopped, and a worker that wakes up later stops there", async () => {
    const { owner, reviewer, projectId } = await projectWithMembers("Stalled", 4);
    const started = await deleteProject(
      { prisma, queue: recordingQueue() },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      {
        dryRun: false,
        confirmName: "Stalled",
      },
    );
    const ended = await executeProjectDeletion(
      {
        prisma,
        storage: getStorage(),
        batchSize: 1,
        afterBatch: async (state) => {
          if (state.videosDeleted !== 1) return;
          // The worker freezes here for ten minutes (as if its machine were suspended); its owner cancels meanwhile.
          await prisma.$executeRaw`UPDATE project_deletion SET "updatedAt" = now() - interval '10 minutes' WHERE id = ${state.id}`;
          expect(await cancelProjectDeletion(prisma, owner, state.id)).toMatchObject({
            status: "cancelled",
            videosDeleted: 1,
          });
        },
      },
      started.deletion!.id,
    );
    expect(ended).toMatchObject({ status: "cancelled", videosDeleted: 1 });
    expect(await prisma.video.count({ where: { projectId } })).toBe(3);
    expect(await requireProjectAccess(prisma, reviewer, projectId, "project.view")).toBe("reviewer");
  });

  it("resumes a deletion killed between a batch's commit and its storage removal, leaving no orphan", async () => {
    const { owner, projectId } = await projectWithMembers("Killed", 4);
    const keys = await storedKeys(projectId);
    const started = await deleteProject(
      { prisma, queue: recordingQueue() },
      await projectAccess(prisma, owner, projectId, "project.delete"),
      {
        dryRun: false,
        confirmName: "Killed",
      },
    );
    // The first attempt's process dies as it starts removing the batch's objects (after the rows' commit).
    const dying: ObjectStorage = Object.create(getStorage(), {
      delete: {
        value: async () => {
          throw new Error("killed");
        },
      },
    });
    await expect(
      executeProjectDeletion(
        { prisma, storage: dying, batchSize: 2, afterBatch: () => Promise.reject(new Error("killed")) },
        started.deletion!.id,
      ),
    ).rejects.toThrow("killed");
    const midway = await getProjectDeletion(prisma, owner, started.deletion!.id);
    expect(midway).toMatchObject({ status: "running", videosDeleted: 2, error: "killed" });
    // The batch's rows are gone and its objects are not: each is recorded as garbage, none is an orphan.
    const left = await storedKeys(projectId);
    const recorded = await prisma.storageGarbage.findMany({
      where: { key: { startsWith: `projects/${projectId}/` } },
      select: { key: true },
    });
    expect(recorded.length).toBeGreaterThan(0);
    expect(await present(recorded.map((g) => g.key))).toHaveLength(recorded.length);
    expect(new Set([...left, ...recorded.map((g) => g.key)])).toEqual(new Set(keys));

    // The retry removes them first, then finishes.
    const done = await executeProjectDeletion({ prisma, storage: getStorage(), batchSize: 2 }, started.deletion!.id);
    expect(done).toMatchObject({ status: "done", videosDeleted: 4, error: null });
    expect(await present(keys)).toEqual([]);
    expect(await prisma.storageGarbage.count({ where: { key: { startsWith: `projects/${projectId}/` } } })).toBe(0);
  });

  it("sweeps garbage a killed video deletion left, but not a key a video imported again names", async () => {
    const owner: Actor = await makeUser();
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Sweep" });
    const video = await prisma.video.findFirstOrThrow({ where: { projectId }, select: { storageKey: true } });
    const storage = getStorage();
    const gone = `projects/${projectId}/frames/left-behind/00000.jpg`;
    await storage.put(gone, Buffer.from("x"));
    await storage.put(video.storageKey, Buffer.from("the same file, imported again"));
    const old = new Date(Date.now() - 3600_000);
    await prisma.storageGarbage.createMany({
      data: [
        { key: gone, createdAt: old },
        { key: video.storageKey, createdAt: old },
      ],
    });
    const swept = await sweepStorageGarbage(prisma, storage);
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await storage.stat(gone)).toBeNull();
    expect(await storage.stat(video.storageKey)).not.toBeNull();
    expect(await prisma.storageGarbage.count({ where: { key: { in: [gone, video.storageKey] } } })).toBe(0);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { loadVideoJob } from "@/lib/judge/engine/step-store";

import { createRun } from "@/lib/judge/runs/runs";
import { createProject } from "@/lib/projects/projects";
import { getStorage } from "@/lib/storage/storage";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { insertJudgment } from "@/testkit/testing/judgments";
import { executeProjectDeletion } from "@/lib/projects/project-deletion";
import { DELETE as deleteProjectRoute } from "../projects/[projectId]/route";
import { POST as cancelDeletionRoute } from "../me/project-deletions/[deletionId]/cancel/route";
import { GET as getDeletionRoute } from "../me/project-deletions/[deletionId]/route";
import { GET as listDeletionsRoute } from "../me/project-deletions/route";
import { POST as deleteVideosRoute } from "../projects/[projectId]/videos/delete/route";
import { POST as metadataRoute } from "../projects/[projectId]/videos/metadata/route";
import { GET as editsRoute } from "./[videoId]/edits/route";
import { DELETE as deleteVideoRoute, PATCH as patchVideoRoute } from "./[videoId]/route";
import { createReadyVideo } from "@/testkit/testing/ready-video";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let keys: { owner: string; reviewer: string; viewer: string };
let reviewer: Actor;

const ctx = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });
function request(key: string, method: string, body?: unknown) {
  return new Request("http://localhost:3000/x", {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
async function call(response: Promise<Response>) {
  const r = await response;
  return { status: r.status, body: (await r.json()) as any };
}

async function projectWithMembers(name: string) {
  const projectId = (await createProject(prisma, owner, { name })).id;
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: reviewer.userId, role: "reviewer" },
      { projectId, userId: viewerId, role: "viewer" },
    ],
  });
  return projectId;
}

function addVideo(
  projectId: string,
  relativePath: string,
  fields: { prompt?: string | null; model?: string | null; dimensions?: string[] } = {},
) {
  return createReadyVideo(prisma, { projectId, relativePath, ...fields, createdById: owner.userId });
}

let viewerId: string;

beforeAll(async () => {
  let viewer: Actor;
  [owner, reviewer, viewer] = [await makeUser(), await makeUser(), await makeUser()];
  viewerId = viewer.userId;
  keys = {
    owner: (await createApiKey(prisma, owner.userId, "t")).key,
    reviewer: (await createApiKey(prisma, reviewer.userId, "t")).key,
    viewer: (await createApiKey(prisma, viewer.userId, "t")).key,
  };
});

describe("metadata imported after the videos", () => {
  it("applies to the videos it names: a dry run lists the changes, an overwrite needs confirming, and each change is in the history", async () => {
    const projectId = await projectWithMembers("Late metadata");
    const eleven = await addVideo(projectId, "clips/11.mp4");
    const twelve = await addVideo(projectId, "clips/12.mp4", { prompt: "A cat sleeps", model: "Sora" });
    const rows = [
      {
        path: "11.mp4",
        prompt: "A dog runs on a beach",
        model: "Kling",
        dimension: "Mechanics; Material",
        extra: { guidance: "7.5" },
      },
      { path: "12.mp4", prompt: "A cat sleeps on a sofa" },
      { path: "99.mp4", prompt: "Nobody has this" },
    ];

    const dry = await call(metadataRoute(request(keys.owner, "POST", { rows }), ctx({ projectId })));
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      matchedVideos: 2,
      overwrites: 1,
      unmatchedRows: ["99.mp4"],
      unmatchedRowCount: 1,
    });
    const byPath = Object.fromEntries(dry.body.changes.map((c: any) => [c.relativePath, c.fields]));
    expect(byPath["clips/11.mp4"]).toEqual([
      { field: "prompt", before: null, after: "A dog runs on a beach", overwrite: false },
      { field: "model", before: null, after: "Kling", overwrite: false },
      { field: "dimensions", before: [], after: ["Mechanics", "Material"], overwrite: false },
      { field: "extra.guidance", before: null, after: "7.5", overwrite: false },
    ]);
    expect(byPath["clips/12.mp4"]).toEqual([
      { field: "prompt", before: "A cat sleeps", after: "A cat sleeps on a sofa", overwrite: true },
    ]);
    // The dry run changed nothing.
    expect((await prisma.video.findUniqueOrThrow({ where: { id: eleven.id } })).prompt).toBeNull();

    // Applying without confirming the overwrite is refused, and nothing at all is written.
    const unconfirmed = await call(
      metadataRoute(request(keys.owner, "POST", { rows, dryRun: false }), ctx({ projectId })),
    );
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.error).toMatchObject({
      code: "overwrite_unconfirmed",
      details: { overwrites: 1, changedVideos: 2 },
    });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: eleven.id } })).prompt).toBeNull();

    // Reviewers and viewers may not apply metadata.
    for (const key of [keys.reviewer, keys.viewer])
      expect((await metadataRoute(request(key, "POST", { rows }), ctx({ projectId }))).status).toBe(403);

    const applied = await call(
      metadataRoute(request(keys.owner, "POST", { rows, dryRun: false, confirmOverwrites: true }), ctx({ projectId })),
    );
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, overwrites: 1 });
    expect(await prisma.video.findUniqueOrThrow({ where: { id: eleven.id } })).toMatchObject({
      prompt: "A dog runs on a beach",
      model: "Kling",
      dimensions: ["Mechanics", "Material"],
      extra: { guidance: "7.5" },
      matchedPrompt: true,
    });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: twelve.id } })).prompt).toBe("A cat sleeps on a sofa");
    const history = await call(editsRoute(request(keys.viewer, "GET"), ctx({ videoId: twelve.id })));
    expect(history.body.edits).toEqual([
      expect.objectContaining({
        source: "metadata",
        editor: { id: owner.userId, email: expect.any(String) },
        before: { prompt: "A cat sleeps" },
        after: { prompt: "A cat sleeps on a sofa" },
      }),
    ]);

    // The same file again changes nothing.
    const again = await call(metadataRoute(request(keys.owner, "POST", { rows }), ctx({ projectId })));
    expect(again.body).toMatchObject({ matchedVideos: 2, changes: [], overwrites: 0 });
  });

  it("restores prompts from a prompt list imported after the videos", async () => {
    const projectId = await projectWithMembers("Late prompt list");
    const long = `A robot arm stacks ${"red ".repeat(60)}cubes`;
    // A flat folder: the name holds the truncated prompt, and no dimension.
    const video = await addVideo(projectId, `${long.slice(0, 180)}-0.mp4`, { prompt: long.slice(0, 180) });
    await prisma.promptList.create({
      data: {
        projectId,
        name: "prompts.json",
        format: "json-array",
        entries: {
          create: [{ position: 0, projectId, prompt: long, promptKey: long, dimensions: ["Mechanics", "Material"] }],
        },
        entryCount: 1,
        createdById: owner.userId,
      },
    });
    const dry = await call(metadataRoute(request(keys.owner, "POST", { promptLists: true }), ctx({ projectId })));
    expect(dry.body.changes).toEqual([
      {
        videoId: video.id,
        relativePath: video.relativePath,
        fields: [
          { field: "prompt", before: long.slice(0, 180), after: long, overwrite: true },
          { field: "dimensions", before: [], after: ["Mechanics", "Material"], overwrite: false },
        ],
      },
    ]);
    await call(
      metadataRoute(
        request(keys.owner, "POST", { promptLists: true, dryRun: false, confirmOverwrites: true }),
        ctx({ projectId }),
      ),
    );
    expect((await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).prompt).toBe(long);
    expect((await prisma.videoEdit.findFirstOrThrow({ where: { videoId: video.id } })).source).toBe("prompt_list");
  });
});

describe("editing a video", () => {
  it("changes its fields for owners only, keeps the history, and a run keeps the prompt it was created with", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Edit",
    });
    await prisma.projectMember.createMany({
      data: [
        { projectId, userId: reviewer.userId, role: "reviewer" },
        { projectId, userId: viewerId, role: "viewer" },
      ],
    });
    const videoId = videoIds[0]!;
    const before = await prisma.video.findUniqueOrThrow({ where: { id: videoId } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const run = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );

    for (const key of [keys.reviewer, keys.viewer]) {
      const refused = await patchVideoRoute(request(key, "PATCH", { prompt: "Not allowed" }), ctx({ videoId }));
      expect(refused.status).toBe(403);
    }
    const stale = await call(
      patchVideoRoute(
        request(keys.owner, "PATCH", { prompt: "x", expectedUpdatedAt: new Date(0).toISOString() }),
        ctx({ videoId }),
      ),
    );
    expect(stale.status).toBe(409);

    const edited = await call(
      patchVideoRoute(
        request(keys.owner, "PATCH", {
          prompt: "A ball rolls up a ramp",
          model: "Veo",
          dimensions: ["Mechanics", "Motion"],
          extra: { seedNote: "fixed" },
          expectedUpdatedAt: before.updatedAt.toISOString(),
        }),
        ctx({ videoId }),
      ),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      prompt: "A ball rolls up a ramp",
      model: "Veo",
      dimensions: ["Mechanics", "Motion"],
      extra: { seedNote: "fixed" },
    });
    const cleared = await call(patchVideoRoute(request(keys.owner, "PATCH", { model: "" }), ctx({ videoId })));
    expect(cleared.body.model).toBeNull();

    const history = await call(editsRoute(request(keys.reviewer, "GET"), ctx({ videoId })));
    expect(history.body.edits.map((e: any) => [e.source, e.before, e.after])).toEqual([
      ["edit", { model: "Veo" }, { model: null }],
      [
        "edit",
        { prompt: before.prompt, model: null, dimensions: ["Mechanics"], "extra.seedNote": null },
        {
          prompt: "A ball rolls up a ramp",
          model: "Veo",
          dimensions: ["Mechanics", "Motion"],
          "extra.seedNote": "fixed",
        },
      ],
    ]);

    // The run created before the edit judges (and records) the prompt it was created with.
    const job = await loadVideoJob(prisma, run.id, videoId);
    expect(job!.video).toMatchObject({
      prompt: before.prompt,
      dimensions: ["Mechanics"],
      model: null,
      auxiliaryInfo: {},
    });
    // A run created after the edit judges the new prompt.
    const later = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    expect((await loadVideoJob(prisma, later.id, videoId))!.video.prompt).toBe("A ball rolls up a ramp");
  }, 120_000);
});

describe("deleting videos and projects", () => {
  async function judgedProject(name: string) {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 2, name });
    await prisma.projectMember.createMany({
      data: [
        { projectId, userId: reviewer.userId, role: "reviewer" },
        { projectId, userId: viewerId, role: "viewer" },
      ],
    });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    // Run A judged all three videos, run B only the first two.
    const runA = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const runB = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "hallucination",
        endpointId: endpoint.id,
        videoIds: videoIds.slice(0, 2),
      },
    );
    await prisma.judgeRun.updateMany({ where: { projectId }, data: { status: "done" } });
    for (const runId of [runA.id, runB.id]) {
      for (const videoId of videoIds) {
        if (runId === runB.id && videoId === videoIds[2]) continue;
        const step = await prisma.stepResult.create({
          data: { runId, videoId, stepId: "s", scopeIndex: 0, templateId: "t", status: "done" },
        });
        await prisma.score.create({
          data: { runId, videoId, stepResultId: step.id, stepId: "s", scopeIndex: 0, category: "s1", value: 3 },
        });
        await prisma.llmCall.create({ data: { runId, videoId, stepResultId: step.id, model: "m", request: {} } });
      }
    }
    for (const videoId of videoIds)
      await insertJudgment(prisma, {
        projectId,
        videoId,
        reviewerId: reviewer.userId,
        runId: runA.id,
        targetType: "verdict",
        target: "verdict",
        value: 1,
      });
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "q", runId: runB.id, scope: "verdict", createdById: owner.userId, itemCount: 2 },
    });
    await prisma.reviewQueueItem.createMany({
      data: videoIds.slice(0, 2).map((videoId, position) => ({ queueId: queue.id, videoId, position })),
    });
    return { projectId, videoIds, runA: runA.id, runB: runB.id, queueId: queue.id };
  }

  async function frameKeysOf(videoIds: string[]) {
    const frames = await prisma.frame.findMany({
      where: { frameSet: { videoId: { in: videoIds } } },
      select: { storageKey: true },
    });
    return frames.map((f) => f.storageKey);
  }

  it("counts what goes, refuses reviewers, viewers and running runs, then deletes the rows and the storage objects", async () => {
    const { projectId, videoIds, runA, runB, queueId } = await judgedProject("Delete videos");
    const storage = getStorage();
    const chosen = videoIds.slice(0, 2);
    const chosenKeys = await frameKeysOf(chosen);
    expect(chosenKeys).toHaveLength(2 * 6);
    for (const key of chosenKeys) expect(await storage.stat(key)).not.toBeNull();
    const keptKeys = await frameKeysOf([videoIds[2]!]);

    const counts = await call(
      deleteVideosRoute(request(keys.owner, "POST", { videoIds: chosen, dryRun: true }), ctx({ projectId })),
    );
    expect(counts.status).toBe(200);
    expect(counts.body).toMatchObject({
      dryRun: true,
      storage: null,
      counts: {
        videos: 2,
        frameSets: 2,
        frames: 12,
        humanJudgments: 2,
        runs: 2,
        runsDeleted: 1,
        runVideos: 4,
        steps: 4,
        llmCalls: 4,
        queueItems: 2,
        queuesDeleted: 1,
        storageObjects: 14,
      },
    });
    expect(await prisma.video.count({ where: { projectId } })).toBe(3);

    for (const key of [keys.reviewer, keys.viewer]) {
      expect((await deleteVideosRoute(request(key, "POST", { videoIds: chosen }), ctx({ projectId }))).status).toBe(
        403,
      );
      expect((await deleteVideoRoute(request(key, "DELETE"), ctx({ videoId: chosen[0]! }))).status).toBe(403);
    }
    // A run still judging a chosen video: refused, nothing deleted.
    await prisma.judgeRun.update({ where: { id: runB }, data: { status: "running" } });
    const busy = await call(deleteVideosRoute(request(keys.owner, "POST", { videoIds: chosen }), ctx({ projectId })));
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: "run_in_progress", details: { runIds: [runB] } });
    await prisma.judgeRun.update({ where: { id: runB }, data: { status: "done" } });
    // An id of another project (or none): nothing is deleted.
    expect(
      (await deleteVideosRoute(request(keys.owner, "POST", { videoIds: [...chosen, "nope"] }), ctx({ projectId })))
        .status,
    ).toBe(404);
    expect(await prisma.video.count({ where: { projectId } })).toBe(3);

    const deleted = await call(
      deleteVideosRoute(request(keys.owner, "POST", { videoIds: chosen }), ctx({ projectId })),
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      dryRun: false,
      counts: { videos: 2, humanJudgments: 2, runsDeleted: 1 },
      storage: { removed: 14, failed: [], failedCount: 0 },
    });
    expect(await prisma.video.findMany({ where: { projectId }, select: { id: true } })).toEqual([{ id: videoIds[2] }]);
    expect(await prisma.humanJudgment.count({ where: { videoId: { in: chosen } } })).toBe(0);
    expect(await prisma.stepResult.count({ where: { videoId: { in: chosen } } })).toBe(0);
    expect(await prisma.llmCall.count({ where: { videoId: { in: chosen } } })).toBe(0);
    expect(await prisma.judgeRun.findMany({ where: { projectId }, select: { id: true } })).toEqual([{ id: runA }]);
    expect(await prisma.reviewQueue.findUnique({ where: { id: queueId } })).toBeNull();
    for (const key of chosenKeys) expect(await storage.stat(key)).toBeNull();
    // The video that stays keeps its frames, judgments and run.
    for (const key of keptKeys) expect(await storage.stat(key)).not.toBeNull();
    expect(await prisma.humanJudgment.count({ where: { videoId: videoIds[2] } })).toBe(1);
    expect(await prisma.runVideo.count({ where: { runId: runA } })).toBe(1);

    // One video by its own route.
    const one = await call(deleteVideoRoute(request(keys.owner, "DELETE"), ctx({ videoId: videoIds[2]! })));
    expect(one.body).toMatchObject({
      counts: { videos: 1, frames: 6, humanJudgments: 1, runsDeleted: 1 },
      storage: { removed: 7 },
    });
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  }, 120_000);

  it("deletes a project with everything in it after its name is typed again, for owners only", async () => {
    const { projectId, videoIds } = await judgedProject("Delete me");
    const keys2 = await frameKeysOf(videoIds);
    for (const key of [keys.reviewer, keys.viewer])
      expect((await deleteProjectRoute(request(key, "DELETE", { dryRun: true }), ctx({ projectId }))).status).toBe(403);
    const counts = await call(deleteProjectRoute(request(keys.owner, "DELETE", { dryRun: true }), ctx({ projectId })));
    expect(counts.body).toMatchObject({
      dryRun: true,
      name: "Delete me",
      counts: { videos: 3, frames: 18, runs: 2, humanJudgments: 3, queues: 1, members: 3, storageObjects: 21 },
    });
    expect(
      (await deleteProjectRoute(request(keys.owner, "DELETE", { confirmName: "Delete you" }), ctx({ projectId })))
        .status,
    ).toBe(400);
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(1);
    const deleted = await call(
      deleteProjectRoute(request(keys.owner, "DELETE", { confirmName: "Delete me" }), ctx({ projectId })),
    );
    // Queued for a worker (202): the project is gone for its members at once, its rows are still there.
    expect(deleted.status).toBe(202);
    expect(deleted.body.deletion).toMatchObject({
      status: "queued",
      projectName: "Delete me",
      videosTotal: 3,
      videosDeleted: 0,
    });
    expect((await deleteProjectRoute(request(keys.owner, "DELETE", { dryRun: true }), ctx({ projectId }))).status).toBe(
      404,
    );
    expect(await prisma.video.count({ where: { projectId } })).toBe(3);
    // Its requester follows it at /api/v1/me/project-deletions; another member does not see it.
    const deletionId = deleted.body.deletion.id as string;
    expect(
      (await call(listDeletionsRoute(request(keys.owner, "GET"), ctx({})))).body.deletions.map(
        (d: { id: string }) => d.id,
      ),
    ).toContain(deletionId);
    expect((await call(listDeletionsRoute(request(keys.reviewer, "GET"), ctx({})))).body.deletions).toEqual([]);
    expect((await getDeletionRoute(request(keys.reviewer, "GET"), ctx({ deletionId }))).status).toBe(404);
    expect((await call(getDeletionRoute(request(keys.owner, "GET"), ctx({ deletionId })))).body).toMatchObject({
      status: "queued",
      videosTotal: 3,
    });
    // What the worker runs (lib/deletions/deletion-queues.ts), here inline.
    const done = await executeProjectDeletion({ prisma, storage: getStorage() }, deleted.body.deletion.id);
    expect(done).toMatchObject({ status: "done", videosDeleted: 3, storageRemoved: 21 });
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(0);
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
    expect(await prisma.video.count({ where: { projectId } })).toBe(0);
    for (const key of keys2) expect(await getStorage().stat(key)).toBeNull();
    // Ended: nothing to cancel (409).
    expect((await cancelDeletionRoute(request(keys.owner, "POST", {}), ctx({ deletionId }))).status).toBe(409);
  }, 120_000);
});

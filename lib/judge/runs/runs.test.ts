import { describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { ForbiddenError, ValidationError } from "../../errors";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";

import { createRun } from "./runs";
import { setPipelineDefaults } from "./pipeline-defaults";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const noQueue = { enqueue: async () => {} };

describe("runs", () => {
  it("take the project's default pipeline settings unless the run names its own", async () => {
    const owner = await makeUser();
    const reviewer = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });

    await expect(projectAccess(prisma, reviewer, projectId, "runs.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      setPipelineDefaults(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        builtInCatalogue().pipelines,
        "hallucination",
        {
          aggregation: "median",
        },
      ),
    ).rejects.toThrow();
    await setPipelineDefaults(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      builtInCatalogue().pipelines,
      "hallucination",
      {
        aggregation: "max-max",
        verdict: { on: "overall", threshold: 60 },
      },
    );

    const withDefaults = await createRun(
      { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: withDefaults.id } })).settings).toEqual({
      aggregation: "max-max",
      verdict: { on: "overall", threshold: 60 },
    });
    expect(withDefaults.videos).toBe(2);

    const own = await createRun(
      { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "hallucination",
        endpointId: endpoint.id,
        videoIds: [videoIds[0]!],
        settings: { aggregation: "mean-mean" },
      },
    );
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: own.id } })).settings).toMatchObject({
      aggregation: "mean-mean",
    });
    expect(own.videos).toBe(1);
  });

  it("take a list of 40,000 video ids, more than the database's parameters per statement: a run, or the unknown ids refused", async () => {
    const owner = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const deps = { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines };
    const manyTimes = Array.from({ length: 40_000 }, (_, i) => videoIds[i % 2]!);
    const run = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
      videoIds: manyTimes,
    });
    expect(run.videos).toBe(2);
    const unknown = Array.from({ length: 40_000 }, (_, i) => (i === 0 ? videoIds[0]! : `missing-${i}`));
    const refused = createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
      videoIds: unknown,
    });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(/not in the project.*missing-1, /);
  });

  it("refuse videos without key frames or outside the project, and non-owners", async () => {
    const owner = await makeUser();
    const reviewer = await makeUser();
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    await expect(
      createRun(
        { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          endpointId: endpoint.id,
          videoIds: ["elsewhere"],
        },
      ),
    ).rejects.toThrow(/not in the project or have no key frames/);
    await expect(
      createRun(
        { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          endpointId: endpoint.id,
          dimension: "Thermotics",
        },
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(projectAccess(prisma, reviewer, projectId, "runs.manage")).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("leave out the videos a queued or running deletion is removing, refuse them by id, and take them again once it is cancelled", async () => {
    const owner = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1 });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const deps = { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines };
    const deletion = await prisma.videoDeletion.create({
      data: {
        projectId,
        requestedById: owner.userId,
        status: "running",
        videoIds: [videoIds[0]!, videoIds[1]!],
        counts: {},
        videosTotal: 2,
      },
    });
    // Another project's deletion naming an id of this one changes nothing here.
    const other = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await prisma.videoDeletion.create({
      data: {
        projectId: other.projectId,
        requestedById: owner.userId,
        status: "running",
        videoIds: [videoIds[2]!],
        counts: {},
        videosTotal: 1,
      },
    });
    const run = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    });
    expect(run).toMatchObject({ videos: 1, beingDeletedCount: 2 });
    expect((await prisma.runVideo.findMany({ where: { runId: run.id } })).map((v) => v.videoId)).toEqual([videoIds[2]]);
    await expect(
      createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId: endpoint.id,
        videoIds: [videoIds[1]!, videoIds[2]!],
      }),
    ).rejects.toThrow(/being deleted/);
    await prisma.videoDeletion.update({ where: { id: deletion.id }, data: { status: "queued" } });
    await expect(
      createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId: endpoint.id,
        videoIds: [videoIds[0]!],
      }),
    ).rejects.toThrow(/being deleted/);

    await prisma.videoDeletion.update({ where: { id: deletion.id }, data: { status: "cancelled" } });
    expect(
      await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId: endpoint.id,
      }),
    ).toMatchObject({ videos: 3, beingDeletedCount: 0 });
  });

  it("answer a conflict, saving nothing, when a video is deleted between the run's choice of videos and its write", async () => {
    const owner = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    // The database as the run sees it, with another request deleting a video just before the run's write.
    const racing = new Proxy(prisma, {
      get(target, property, receiver) {
        if (property !== "$transaction") return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof prisma.$transaction>) => {
          await prisma.video.delete({ where: { id: videoIds[0]! } });
          return (target.$transaction as (...a: typeof args) => Promise<unknown>)(...args);
        };
      },
    });
    await expect(
      createRun(
        { prisma: racing, queue: noQueue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          endpointId: endpoint.id,
        },
      ),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/deleted while it was starting/),
    });
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { NotFoundError } from "../../errors";
import { createProject } from "../../projects/projects";
import { nextItem } from "../../queues/next-item";
import { queueWithRunPipeline } from "../../queues/queue-run";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createRunVideo } from "../../../testkit/testing/run-video-fixture";
import { findProjectRun, runOverview } from "./run-overview";
import { projectPipelineDefaults } from "./pipeline-defaults";
import { deleteEndpoint } from "../endpoints/endpoint-lifecycle";
import { updateEndpoint } from "../endpoints/endpoints";
import { runManifest } from "./run-manifest";
import { cancelRun, getRunStatus, videoScores } from "./runs";
import { videoRuns } from "./video-runs";

let owner: Actor;
let stranger: Actor;
let projectId: string;
let otherProjectId: string;
let runId: string;
let queueId: string;
let videoIds: string[];
let endpointId: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Run pages",
  }));
  otherProjectId = (await createProject(prisma, owner, { name: "Other" })).id;
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  runId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: (endpointId = endpoint.id),
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  for (const [i, videoId] of videoIds.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    await createRunVideo(prisma, {
      runId,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { overall: 70 + i, complete: true },
    });
  }
  queueId = (
    await prisma.reviewQueue.create({
      data: { projectId, name: "q", runId, scope: "verdict", createdById: owner.userId },
    })
  ).id;
  await prisma.project.update({
    where: { id: projectId },
    data: { judgeSettings: { hallucination: { aggregation: "max-max" } } },
  });
});

describe("the run page's and the queue pages' reads", () => {
  it("find a run of the project, never another project's, for members only", async () => {
    expect(
      await findProjectRun(prisma, await projectAccess(prisma, owner, projectId, "project.view"), runId),
    ).toMatchObject({
      id: runId,
      pipeline: "hallucination",
      endpoint: { name: "e", model: "m" },
    });
    expect(
      await findProjectRun(prisma, await projectAccess(prisma, owner, otherProjectId, "project.view"), runId),
    ).toBeNull();
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("find no run, video or endpoint of another project through an access to that project", async () => {
    const elsewhere = await projectAccess(prisma, owner, otherProjectId, "runs.manage");
    await expect(getRunStatus(prisma, elsewhere, runId)).rejects.toThrow("No such run.");
    await expect(cancelRun(prisma, elsewhere, runId)).rejects.toThrow("No such run.");
    await expect(runManifest(prisma, elsewhere, runId)).rejects.toThrow("No such run.");
    await expect(videoScores(prisma, elsewhere, videoIds[0]!)).rejects.toThrow("No such video.");
    await expect(videoRuns(prisma, elsewhere, videoIds[0]!)).rejects.toThrow("No such video.");
    const endpoints = await projectAccess(prisma, owner, otherProjectId, "endpoints.manage");
    await expect(deleteEndpoint(prisma, endpoints, endpointId)).rejects.toThrow("No such endpoint.");
    await expect(updateEndpoint(prisma, endpoints, endpointId, { name: "moved" })).rejects.toThrow("No such endpoint.");
    expect(
      await getRunStatus(prisma, await projectAccess(prisma, owner, projectId, "project.view"), runId),
    ).toMatchObject({ id: runId });
  });

  it("list the run's videos in path order with their summaries and the task's metrics", async () => {
    const overview = await runOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), runId);
    expect(overview.videos.map((v) => [v.videoId, v.summary?.overall, v.blind])).toEqual([
      [videoIds[0], 70, false],
      [videoIds[1], 71, false],
    ]);
    expect(overview.metrics.length).toBeGreaterThan(0);
    await expect(
      runOverview(prisma, await projectAccess(prisma, owner, otherProjectId, "project.view"), runId),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("list the run's videos in natural path order: 2 before 10 (issue 38 §5.6)", async () => {
    await prisma.video.update({
      where: { id: videoIds[0] },
      data: { relativePath: "Sora/clip-10.mp4", fileName: "clip-10.mp4" },
    });
    await prisma.video.update({
      where: { id: videoIds[1] },
      data: { relativePath: "Sora/clip-2.mp4", fileName: "clip-2.mp4" },
    });
    const overview = await runOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), runId);
    expect(overview.videos.map((v) => v.video.fileName)).toEqual(["clip-2.mp4", "clip-10.mp4"]);
    expect(overview.videos.map((v) => v.summary?.overall)).toEqual([71, 70]);
  });

  it("give a queue's run pipeline, for members only", async () => {
    expect(
      await queueWithRunPipeline(prisma, await projectAccess(prisma, owner, projectId, "project.view"), queueId),
    ).toEqual({
      id: queueId,
      runId,
      pipeline: "hallucination",
    });
    // Through an access to another project, the queue is not found.
    expect(
      await queueWithRunPipeline(prisma, await projectAccess(prisma, owner, otherProjectId, "project.view"), queueId),
    ).toBeNull();
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("give the project's saved pipeline defaults, for members only", async () => {
    expect(
      await projectPipelineDefaults(prisma, await projectAccess(prisma, owner, projectId, "project.view")),
    ).toEqual({
      hallucination: { aggregation: "max-max" },
    });
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("the run page's columns", () => {
  it("are the metrics the run's videos have (a VBench-2.0 video only its own dimensions'), the same for a blind reviewer, with each video's generator", async () => {
    const { projectId: vbProject, videoIds: vb } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 1,
      name: "VBench-2.0 run page",
    });
    await prisma.video.update({ where: { id: vb[0] }, data: { model: "GenA" } });
    await prisma.video.update({ where: { id: vb[1] }, data: { model: "GenB" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: {
        projectId: vbProject,
        name: "e",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "m",
        createdById: owner.userId,
      },
    });
    const run = (
      await prisma.judgeRun.create({
        data: {
          projectId: vbProject,
          pipeline: "vbench2",
          endpointId: endpoint.id,
          createdById: owner.userId,
          status: "running",
        },
      })
    ).id;
    const summaries = [
      { material: 1, dimensions: {}, complete: true },
      { thermotics: null, dimensions: {}, complete: true },
      null,
    ];
    for (const [i, videoId] of vb.entries()) {
      const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
      await createRunVideo(prisma, {
        runId: run,
        videoId,
        frameSetId: frameSet.id,
        status: summaries[i] ? "done" : "queued",
        summary: summaries[i] ?? undefined,
      });
    }
    const overview = await runOverview(prisma, await projectAccess(prisma, owner, vbProject, "project.view"), run);
    expect(overview.metrics.map((m) => m.id)).toEqual(["material", "thermotics"]);
    expect(overview.videos.map((v) => v.video.model)).toEqual(["GenA", "GenB", null]);

    // A reviewer who reviews the Material video blind sees the same columns.
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId: vbProject, userId: reviewer.userId, role: "reviewer" } });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId: vbProject,
        name: "blind",
        runId: run,
        scope: "verdict",
        blind: true,
        reviewersPerItem: 1,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: vb[0]!, position: 0 } });
    expect(
      (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
    ).not.toBeNull();
    const blind = await runOverview(prisma, await projectAccess(prisma, reviewer, vbProject, "project.view"), run);
    expect(blind.videos[0]).toMatchObject({ blind: true, summary: null });
    expect(blind.metrics.map((m) => m.id)).toEqual(["material", "thermotics"]);

    // Before any video has a summary, every metric the task declares.
    const fresh = (
      await prisma.judgeRun.create({
        data: {
          projectId: vbProject,
          pipeline: "vbench2",
          endpointId: endpoint.id,
          createdById: owner.userId,
          status: "queued",
        },
      })
    ).id;
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId: vb[0] } });
    await createRunVideo(prisma, { runId: fresh, videoId: vb[0]!, frameSetId: frameSet.id, status: "queued" });
    expect(
      (await runOverview(prisma, await projectAccess(prisma, owner, vbProject, "project.view"), fresh)).metrics,
    ).toHaveLength(12);
  });
});

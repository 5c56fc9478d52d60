import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { queueWithRunPipeline } from "../queues/queue-run";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { createRunVideo } from "../testing/run-video-fixture";
import { findProjectRun, runOverview } from "./run-overview";
import { projectPipelineDefaults } from "./runs";

let owner: Actor;
let stranger: Actor;
let projectId: string;
let otherProjectId: string;
let runId: string;
let queueId: string;
let videoIds: string[];

beforeAll(async () => {
  [owner, stranger] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, name: "Run pages" }));
  otherProjectId = (await createProject(prisma, owner, { name: "Other" })).id;
  const endpoint = await prisma.judgeEndpoint.create({ data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId } });
  runId = (await prisma.judgeRun.create({ data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" } })).id;
  for (const [i, videoId] of videoIds.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    await createRunVideo(prisma, { runId, videoId, frameSetId: frameSet.id, status: "done", summary: { overall: 70 + i, complete: true } });
  }
  queueId = (await prisma.reviewQueue.create({ data: { projectId, name: "q", runId, scope: "verdict", createdById: owner.userId } })).id;
  await prisma.project.update({ where: { id: projectId }, data: { judgeSettings: { hallucination: { aggregation: "max-max" } } } });
});

describe("the run page's and the queue pages' reads", () => {
  it("find a run of the project, never another project's, for members only", async () => {
    expect(await findProjectRun(prisma, owner, projectId, runId)).toMatchObject({ id: runId, pipeline: "hallucination", endpoint: { name: "e", model: "m" } });
    expect(await findProjectRun(prisma, owner, otherProjectId, runId)).toBeNull();
    await expect(findProjectRun(prisma, stranger, projectId, runId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("list the run's videos in path order with their summaries and the task's metrics", async () => {
    const overview = await runOverview(prisma, owner, projectId, runId);
    expect(overview.videos.map((v) => [v.videoId, v.summary?.overall, v.blind])).toEqual([
      [videoIds[0], 70, false],
      [videoIds[1], 71, false],
    ]);
    expect(overview.metrics.length).toBeGreaterThan(0);
    await expect(runOverview(prisma, owner, otherProjectId, runId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(runOverview(prisma, stranger, projectId, runId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("list the run's videos in natural path order: 2 before 10 (issue 38 §5.6)", async () => {
    await prisma.video.update({ where: { id: videoIds[0] }, data: { relativePath: "Sora/clip-10.mp4", fileName: "clip-10.mp4" } });
    await prisma.video.update({ where: { id: videoIds[1] }, data: { relativePath: "Sora/clip-2.mp4", fileName: "clip-2.mp4" } });
    const overview = await runOverview(prisma, owner, projectId, runId);
    expect(overview.videos.map((v) => v.video.fileName)).toEqual(["clip-2.mp4", "clip-10.mp4"]);
    expect(overview.videos.map((v) => v.summary?.overall)).toEqual([71, 70]);
  });

  it("give a queue's run pipeline, for members only", async () => {
    expect(await queueWithRunPipeline(prisma, owner, projectId, queueId)).toEqual({ id: queueId, runId, pipeline: "hallucination" });
    expect(await queueWithRunPipeline(prisma, owner, otherProjectId, queueId)).toBeNull();
    await expect(queueWithRunPipeline(prisma, stranger, projectId, queueId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("give the project's saved pipeline defaults, for members only", async () => {
    expect(await projectPipelineDefaults(prisma, owner, projectId)).toEqual({ hallucination: { aggregation: "max-max" } });
    await expect(projectPipelineDefaults(prisma, stranger, projectId)).rejects.toBeInstanceOf(NotFoundError);
  });
});

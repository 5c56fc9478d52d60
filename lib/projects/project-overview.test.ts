import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { projectOverviewCounts } from "./project-overview";

describe("projectOverviewCounts", () => {
  it("counts videos by status, runs, judgments, reviewers and open queues, for members only", async () => {
    const [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1, name: "Overview" });
    await prisma.video.update({ where: { id: videoIds[2]! }, data: { status: "pending_extraction" } });
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const endpoint = await prisma.judgeEndpoint.create({ data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId } });
    const run = await prisma.judgeRun.create({ data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" } });
    await prisma.reviewQueue.create({ data: { projectId, name: "open", runId: run.id, scope: "verdict", createdById: owner.userId } });
    await prisma.reviewQueue.create({ data: { projectId, name: "archived", runId: run.id, scope: "verdict", createdById: owner.userId, archivedAt: new Date() } });

    const counts = await projectOverviewCounts(prisma, viewer, projectId);
    expect(counts).toEqual({ videos: { total: 3, byStatus: { ready: 2, pending_extraction: 1 } }, runs: 1, judgments: 0, myJudgments: 0, reviewers: 0, openQueues: 1 });
    await expect(projectOverviewCounts(prisma, stranger, projectId)).rejects.toBeInstanceOf(NotFoundError);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { inspectRunVideo } from "./call-inspector";
import { projectAccess } from "../../authz/permissions";

/* The call inspector named no video or run, and listed a step's scores s1, s10, s2. */
let owner: Actor;
let projectId: string;
let videoId: string;
let runId: string;

beforeAll(async () => {
  owner = await makeUser();
  let videoIds: string[];
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 }));
  videoId = videoIds[0]!;
  await prisma.video.update({ where: { id: videoId }, data: { relativePath: "sora/dog-running.mp4" } });
  const endpoint = await createStubEndpoint(prisma, owner, projectId, "http://127.0.0.1:9/v1");
  const run = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
      endpointSnapshot: { name: "vLLM", model: "qwen2.5-vl" },
      createdAt: new Date(Date.UTC(2026, 10, 28, 7, 12)),
    },
  });
  runId = run.id;
  const step = await prisma.stepResult.create({
    data: { runId, videoId, stepId: "static_hallucination", scopeIndex: 0, templateId: "t", status: "done" },
  });
  for (const [category, value] of [
    ["s10", 1],
    ["s2", 2],
    ["s1", 3],
  ] as const)
    await prisma.score.create({
      data: { runId, videoId, stepResultId: step.id, stepId: "static_hallucination", scopeIndex: 0, category, value },
    });
});

describe("the call inspector", () => {
  it("names the video by its path and the run by its name, and lists category codes in natural order", async () => {
    const seen = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      runId,
      videoId,
    );
    expect(seen.video).toEqual({ id: videoId, path: "sora/dog-running.mp4" });
    expect(seen.run.name).toBe("Hallucination · qwen2.5-vl @ vLLM · 28 Nov 2026 07:12");
    expect(seen.steps[0]!.scores.map((s) => s.category)).toEqual(["s1", "s2", "s10"]);
  });
});

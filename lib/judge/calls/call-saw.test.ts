import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { createEndpoint } from "../endpoints/endpoints";
import { createRun } from "../runs/runs";
import { storedSaw } from "./call-record";
import { inspectRunVideo } from "./call-inspector";
import { bodyRecordingProxy } from "../../../testkit/testing/body-proxy";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
// A proxy in front of the stub that keeps every request body as it arrived on its socket.
let proxy: Awaited<ReturnType<typeof bodyRecordingProxy>>;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  proxy = await bodyRecordingProxy(stub.baseURL);
});
afterAll(async () => {
  await stub.close();
  await proxy.close();
});
beforeEach(() => {
  stub.reset();
  proxy.bodies.length = 0;
});
const sizesSent = () => proxy.bodies.map((b) => b.length);

const deps = testJudgeDeps();
const queue = inlineJudgeQueue(deps);

async function setup(fps: number | null) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  await prisma.video.update({ where: { id: videoIds[0]! }, data: { fps } });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: proxy.baseURL,
    model: "stub-vision",
    apiKey: "sk-stub-secret",
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 120,
    structuredOutput: true,
    pricePer1kInput: 0.01,
    pricePer1kOutput: 0.03,
  });
  const frames = await prisma.frame.findMany({
    where: { frameSet: { videoId: videoIds[0]! } },
    orderBy: { index: "asc" },
    select: { id: true, index: true, timestampS: true },
  });
  return { projectId, videoId: videoIds[0]!, endpointId: endpoint.id, frames };
}

const run = async (projectId: string, endpointId: string) =>
  createRun(
    { prisma, queue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
    },
  );

const callsOf = (runId: string, stepId: string, scopeIndex: number) =>
  prisma.llmCall.findMany({ where: { runId, stepResult: { stepId, scopeIndex } }, orderBy: { createdAt: "asc" } });

describe("what each judge call saw", () => {
  it("records a key-frame step's frame and a cluster step's frames with their indices and times, and the bytes of each body as sent", async () => {
    const { projectId, endpointId, frames } = await setup(8);
    const first = await run(projectId, endpointId);

    // Key frame 1 is frame 4 of the set (frames 3, 4, 5 are its cluster), at 1 s: frame 8 of an 8 fps video.
    const [keyFrameCall] = await callsOf(first.id, "static_hallucination", 1);
    expect(storedSaw(keyFrameCall!.saw)).toEqual({
      mode: "images",
      frames: [{ index: 4, videoFrame: 8, frameId: frames[4]!.id, timestampS: 1 }],
    });
    const [clusterCall] = await callsOf(first.id, "dynamic_hallucination", 0);
    expect(storedSaw(clusterCall!.saw)).toEqual({
      mode: "images",
      frames: [0, 1, 2].map((i) => ({ index: i, videoFrame: 2 * i, frameId: frames[i]!.id, timestampS: i * 0.25 })),
    });
    // The video's summary sees every key frame, in time order.
    const [summaryCall] = await callsOf(first.id, "video_summary", 0);
    expect(storedSaw(summaryCall!.saw)?.frames.map((f) => [f.index, f.frameId])).toEqual([
      [1, frames[1]!.id],
      [4, frames[4]!.id],
    ]);

    // Every call went out once; each one's bytesSent is the size of a body that arrived, and all of them together
    // are exactly the bodies that arrived.
    const calls = await prisma.llmCall.findMany({ where: { runId: first.id } });
    expect(calls).toHaveLength(10);
    expect(calls.map((c) => c.bytesSent).sort((a, b) => a - b)).toEqual(sizesSent().sort((a, b) => a - b));
    expect(sizesSent().every((size) => size > 0)).toBe(true);
    // A cluster's three frames make a larger body than a key frame's one.
    expect(clusterCall!.bytesSent).toBeGreaterThan(keyFrameCall!.bytesSent);
  });

  it("names the video frame by the video's stored frame times when they are known (a variable frame rate)", async () => {
    const { projectId, videoId, endpointId, frames } = await setup(8);
    // Frames every 0.25 s up to 0.5 s, then every 0.05 s: at 1 s the frame times say frame 12, the 8 fps average 8.
    const timesS = [0, 0.25, ...Array.from({ length: 40 }, (_, i) => 0.5 + i * 0.05)];
    await prisma.videoFrameTimes.create({ data: { videoId, timesS, endS: 2.5, variable: true } });
    const first = await run(projectId, endpointId);
    const [keyFrameCall] = await callsOf(first.id, "static_hallucination", 1);
    expect(storedSaw(keyFrameCall!.saw)).toEqual({
      mode: "images",
      frames: [{ index: 4, videoFrame: 12, frameId: frames[4]!.id, timestampS: 1 }],
    });
  });

  it("gives no video frame index when the video's frame rate is unknown", async () => {
    const { projectId, endpointId, frames } = await setup(null);
    const first = await run(projectId, endpointId);
    const [keyFrameCall] = await callsOf(first.id, "static_kg", 0);
    expect(storedSaw(keyFrameCall!.saw)).toEqual({
      mode: "images",
      frames: [{ index: 1, videoFrame: null, frameId: frames[1]!.id, timestampS: 0.25 }],
    });
  });

  it("records on a cached call what the cached call saw, and no bytes sent", async () => {
    const { projectId, endpointId } = await setup(8);
    const first = await run(projectId, endpointId);
    proxy.bodies.length = 0;
    const again = await run(projectId, endpointId);
    expect(sizesSent()).toEqual([]);
    for (const [stepId, scope] of [
      ["static_hallucination", 1],
      ["dynamic_hallucination", 0],
    ] as const) {
      const [original] = await callsOf(first.id, stepId, scope);
      const [cached] = await callsOf(again.id, stepId, scope);
      expect(cached!.cached).toBe(true);
      expect(cached!.saw).toEqual(original!.saw);
      expect(cached!.bytesSent).toBe(0);
      expect(original!.bytesSent).toBeGreaterThan(0);
    }
  });

  it("shows the inspector each call's record, replay to owners only, and nothing of a scoring call to a blind reviewer", async () => {
    const { projectId, videoId, endpointId, frames } = await setup(8);
    const first = await run(projectId, endpointId);
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });

    const seen = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      first.id,
      videoId,
    );
    expect(seen.canReplay).toBe(true);
    const cluster = seen.steps.find((s) => s.stepId === "dynamic_hallucination" && s.scopeIndex === 0)!;
    expect(cluster.calls[0]!.saw?.frames.map((f) => f.frameId)).toEqual([frames[0]!.id, frames[1]!.id, frames[2]!.id]);
    expect(cluster.calls[0]!.videoFrames).toBe(0);
    expect(cluster.calls[0]!.bytesSent).toBeGreaterThan(0);
    expect(
      (
        await inspectRunVideo(
          prisma,
          await projectAccess(prisma, reviewer, projectId, "project.view"),
          first.id,
          videoId,
        )
      ).canReplay,
    ).toBe(false);

    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Q",
        runId: first.id,
        scope: "verdict",
        blind: true,
        reviewersPerItem: 1,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });
    const blind = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "project.view"),
      first.id,
      videoId,
    );
    expect(blind.blind).toBe(true);
    expect(blind.steps.find((s) => s.stepId === "dynamic_hallucination")!.calls).toEqual([]);
    expect(blind.steps.find((s) => s.stepId === "static_kg")!.calls[0]!.saw?.frames).toHaveLength(1);
  });
});

import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as replayRoute } from "@/app/api/v1/runs/[runId]/calls/[callId]/replay/route";
import type { Actor } from "../../auth/actor";
import { createApiKey } from "../../auth/api-keys";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { apiRequest, routeContext } from "../../../testkit/testing/api-request";
import { bodyRecordingProxy } from "../../../testkit/testing/body-proxy";
import { makeUser } from "../../../testkit/testing/fixtures";
import { uniqueMp4 } from "../../../testkit/testing/media-fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { getStorage } from "../../storage/storage";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { replayCall, type ReplayDeps } from "./call-replay";
import { createEndpoint, endpointConfigForRun } from "../endpoints/endpoints";
import { clientForEndpoint } from "./llm-client";
import { createRun } from "../runs/runs";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
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

const judgeDeps = testJudgeDeps();
const replayDeps: ReplayDeps = {
  prisma,
  storage: getStorage(),
  endpointConfig: (runId) => endpointConfigForRun(prisma, runId),
  llmFor: (endpoint) => clientForEndpoint(endpoint),
  tasks: builtInCatalogue().tasks,
};

async function finishedRun(inputMode: "images" | "video-frames" | "video-file" = "images") {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  await prisma.video.update({ where: { id: videoIds[0]! }, data: { fps: 8, frameCount: 16 } });
  if (inputMode === "video-file") await storeClip(videoIds[0]!);
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
  // Queued nowhere: the run's input mode is set before its video is judged here.
  const run = await createRun(
    { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    { pipeline: "hallucination", endpointId: endpoint.id },
  );
  await prisma.judgeRun.update({ where: { id: run.id }, data: { inputMode } });
  await inlineJudgeQueue(judgeDeps).enqueue([{ runId: run.id, videoId: videoIds[0]! }]);
  const sent = proxy.bodies.map(hashOf);
  proxy.bodies.length = 0;
  return { projectId, videoId: videoIds[0]!, runId: run.id, sent };
}

/** The video's file: a real clip in storage, as its row says (the fixture's videos have none). */
async function storeClip(videoId: string) {
  const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId } });
  const bytes = fs.readFileSync(uniqueMp4("replay"));
  const stored = await getStorage().put(video.storageKey, bytes);
  await prisma.video.update({
    where: { id: videoId },
    data: { sha256: stored.sha256, sizeBytes: BigInt(bytes.length), durationS: 2, contentType: "video/mp4" },
  });
  return stored.sha256;
}

/** A body by its hash: a failing comparison names hashes, not bodies of base64 frames. */
const hashOf = (body: Buffer | string) => createHash("sha256").update(body).digest("hex");

const callOf = (runId: string, stepId: string, scopeIndex: number) =>
  prisma.llmCall.findFirstOrThrow({ where: { runId, stepResult: { stepId, scopeIndex } } });

describe("replaying a judge call from its record", () => {
  it("rebuilds, as a dry run, the exact body every call of a run sent (key-frame, cluster and whole-video steps)", async () => {
    const { projectId, runId, sent } = await finishedRun();
    const calls = await prisma.llmCall.findMany({ where: { runId } });
    expect(calls).toHaveLength(10);
    const rebuilt: string[] = [];
    for (const call of calls) {
      const replay = await replayCall(
        replayDeps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { runId, callId: call.id },
        { dryRun: true },
      );
      if (!replay.dryRun) throw new Error("a dry run sent");
      const body = JSON.stringify(replay.body);
      expect(replay.bytes).toBe(Buffer.byteLength(body));
      expect(replay.bytes).toBe(call.bytesSent);
      rebuilt.push(hashOf(body));
    }
    expect(rebuilt.sort()).toEqual([...sent].sort());
    // A dry run sends nothing.
    expect(proxy.bodies).toHaveLength(0);

    const keyFrame = await callOf(runId, "static_hallucination", 1);
    const cluster = await callOf(runId, "dynamic_hallucination", 0);
    for (const call of [keyFrame, cluster]) {
      const replay = await replayCall(
        replayDeps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { runId, callId: call.id },
        { dryRun: true },
      );
      expect(sent).toContain(hashOf(JSON.stringify(replay.dryRun && replay.body)));
    }
  });

  it("rebuilds a video-frames run's bodies too: a cluster's frames as one video part with their timing", async () => {
    const { projectId, runId, sent } = await finishedRun("video-frames");
    const cluster = await callOf(runId, "dynamic_hallucination", 0);
    expect((cluster.saw as { mode: string }).mode).toBe("video-frames");
    const replay = await replayCall(
      replayDeps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { runId, callId: cluster.id },
      { dryRun: true },
    );
    if (!replay.dryRun) throw new Error("a dry run sent");
    const body = replay.body as { messages: { content: { type: string }[] }[]; media_io_kwargs?: unknown };
    expect(body.messages[0]!.content.map((part) => part.type)).toEqual(["text", "video_url"]);
    // Frames 0, 1 and 2 of the set, 0.25 s apart: frames 0, 2 and 4 of the 8 fps video of 16 frames.
    expect(body.media_io_kwargs).toEqual({
      video: { num_frames: 3, fps: 8, frames_indices: [0, 2, 4], total_num_frames: 16, duration: 2 },
    });
    const rebuilt: string[] = [];
    for (const call of await prisma.llmCall.findMany({ where: { runId } })) {
      const again = await replayCall(
        replayDeps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { runId, callId: call.id },
        { dryRun: true },
      );
      rebuilt.push(hashOf(JSON.stringify(again.dryRun && again.body)));
    }
    expect(rebuilt.sort()).toEqual([...sent].sort());
  });

  it("rebuilds a video-file run's bodies: a whole-video step's clip as an MP4 data URL with the sampling asked", async () => {
    const { projectId, videoId, runId, sent } = await finishedRun("video-file");
    const row = await prisma.video.findUniqueOrThrow({ where: { id: videoId } });
    const summary = await callOf(runId, "video_summary", 0);
    expect(summary.saw).toEqual({
      mode: "video-file",
      frames: [],
      clip: { sha256: row.sha256, durationS: 2, sampling: { numFrames: 2 }, fps: 8, frameCount: 16 },
    });
    const replay = await replayCall(
      replayDeps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { runId, callId: summary.id },
      { dryRun: true },
    );
    const body = (replay.dryRun && replay.body) as {
      messages: { content: { type: string; video_url?: { url: string } }[] }[];
      media_io_kwargs?: unknown;
    };
    const video = body.messages[0]!.content.find((part) => part.type === "video_url")!;
    expect(video.video_url!.url.startsWith("data:video/mp4;base64,")).toBe(true);
    expect(body.media_io_kwargs).toEqual({ video: { num_frames: 2 } });
    const rebuilt: string[] = [];
    for (const call of await prisma.llmCall.findMany({ where: { runId } })) {
      const again = await replayCall(
        replayDeps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { runId, callId: call.id },
        { dryRun: true },
      );
      rebuilt.push(hashOf(JSON.stringify(again.dryRun && again.body)));
    }
    expect(rebuilt.sort()).toEqual([...sent].sort());

    // The video's file changed since: the clip the call sent is gone.
    await storeClip(videoId);
    await expect(
      replayCall(
        replayDeps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { runId, callId: summary.id },
        { dryRun: true },
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("sends the same body to the run's endpoint and returns its answer, storing nothing in the run", async () => {
    const { projectId, runId, sent } = await finishedRun();
    const cluster = await callOf(runId, "dynamic_hallucination", 0);
    const before = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, include: { _count: true } });
    const totals = () =>
      prisma.llmCall.aggregate({ where: { runId }, _count: true, _sum: { costUsd: true, promptTokens: true } });
    const totalsBefore = await totals();

    const replay = await replayCall(
      replayDeps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { runId, callId: cluster.id },
      { dryRun: false },
    );
    if (replay.dryRun) throw new Error("not sent");
    expect(replay.answer).toMatchObject({ ok: true });
    expect(replay.answer.ok && replay.answer.text).toBeTruthy();
    expect(proxy.bodies).toHaveLength(1);
    expect(replay.bytesSent).toBe(proxy.bodies[0]!.length);
    expect(sent).toContain(hashOf(proxy.bodies[0]!));

    expect(await totals()).toEqual(totalsBefore);
    const after = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, include: { _count: true } });
    expect(after).toEqual(before);
  });

  it("is the owner's action through the API: a dry run by default, a reviewer refused, bad input a 400", async () => {
    const { projectId, runId } = await finishedRun();
    const call = await callOf(runId, "static_kg", 0);
    const ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
    const post = (key: string, body?: unknown, ids = { runId, callId: call.id }) =>
      replayRoute(
        apiRequest(`/api/v1/runs/${ids.runId}/calls/${ids.callId}/replay`, key, {
          method: "POST",
          ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        }),
        routeContext(ids),
      );

    const dry = await post(ownerKey);
    expect(dry.status).toBe(200);
    const answer = (await dry.json()) as { dryRun: boolean; mode: string; bytes: number; body: { model: string } };
    expect(answer).toMatchObject({
      dryRun: true,
      mode: "images",
      bytes: call.bytesSent,
      body: { model: "stub-vision" },
    });
    expect(proxy.bodies).toHaveLength(0);

    expect((await post(reviewerKey)).status).toBe(403);
    expect((await post(ownerKey, { dryRun: "yes" })).status).toBe(400);
    expect((await post(ownerKey, { dryRun: true, extra: 1 })).status).toBe(400);
    expect((await post(ownerKey, "{not json")).status).toBe(400);
    expect((await post(ownerKey, {}, { runId, callId: "no-such-call" })).status).toBe(404);
    expect((await post(ownerKey, {}, { runId, callId: "x".repeat(65) })).status).toBe(400);
    // A call of another run is not found under this one.
    const other = await finishedRun();
    const otherCall = await callOf(other.runId, "static_kg", 0);
    expect((await post(ownerKey, {}, { runId, callId: otherCall.id })).status).toBe(404);
  });

  it("refuses, with a 409, a call recorded before its record kept what replaying needs, and one whose frames are gone", async () => {
    const { runId } = await finishedRun();
    const old = await callOf(runId, "static_kg", 0);
    await prisma.$executeRaw`UPDATE llm_call SET saw = NULL WHERE id = ${old.id}`;
    const ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
    const post = (callId: string) =>
      replayRoute(
        apiRequest(`/api/v1/runs/${runId}/calls/${callId}/replay`, ownerKey, { method: "POST" }),
        routeContext({ runId, callId }),
      );
    const refused = await post(old.id);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain("cannot be replayed");

    const cluster = await callOf(runId, "dynamic_hallucination", 0);
    const frameId = (cluster.saw as { frames: { frameId: string }[] }).frames[1]!.frameId;
    await prisma.frame.delete({ where: { id: frameId } });
    const gone = await post(cluster.id);
    expect(gone.status).toBe(409);
    expect(JSON.stringify(await gone.json())).toContain(frameId);
  });

  it("refuses an owner holding the video blind a scoring step's call (its answer is the judge's), not a knowledge graph's", async () => {
    const { projectId, videoId, runId } = await finishedRun();
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Q",
        runId,
        scope: "verdict",
        blind: true,
        reviewersPerItem: 1,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: owner.userId },
    });
    const ids = (callId: string) => ({ runId, callId });

    const scoring = await callOf(runId, "static_hallucination", 0);
    await expect(
      replayCall(replayDeps, await projectAccess(prisma, owner, projectId, "runs.manage"), ids(scoring.id), {
        dryRun: true,
      }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      replayCall(replayDeps, await projectAccess(prisma, owner, projectId, "runs.manage"), ids(scoring.id), {
        dryRun: false,
      }),
    ).rejects.toMatchObject({
      status: 403,
    });
    expect(proxy.bodies).toHaveLength(0);
    const graph = await callOf(runId, "static_kg", 0);
    expect(
      await replayCall(replayDeps, await projectAccess(prisma, owner, projectId, "runs.manage"), ids(graph.id), {
        dryRun: true,
      }),
    ).toMatchObject({ dryRun: true });
  });
});

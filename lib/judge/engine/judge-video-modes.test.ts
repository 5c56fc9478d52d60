/**
 * A run in each video input mode against the stub LLM over HTTP: the hallucination task's dynamic steps send each
 * cluster as one video part, its static steps one image per key frame; in `video-file` the steps over the whole
 * video send the clip. The run keeps its mode, and the same call in two modes is two cache entries.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";
import { createRun, getRunStatus } from "../runs/runs";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { storedSaw } from "../calls/call-record";
import type { InputMode } from "../input-modes";
import { PROBE_CLIP } from "../endpoints/probe-assets/probe-clip";
import { clientForEndpoint, LlmError } from "../calls/llm-client";
import { clipDataVideo } from "../media/video-parts";
import { verifyClipToken } from "../media/clip-urls";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const deps = testJudgeDeps({ retryPolicy: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 }, sleep: async () => {} });
const inlineQueue = inlineJudgeQueue(deps);

async function setup(endpointMode: InputMode = "images") {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: 0.01,
    pricePer1kOutput: 0.03,
  });
  await prisma.judgeEndpoint.update({ where: { id: endpoint.id }, data: { inputMode: endpointMode } });
  return { projectId, videoId: videoIds[0]!, endpointId: endpoint.id };
}

const run = async (projectId: string, endpointId: string, inputMode?: InputMode) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
      ...(inputMode ? { inputMode } : {}),
    },
  );

const finding = (accepted: "yes" | "no", refusal: string | null = null) => ({
  accepted,
  refusal,
  maxFrames: accepted === "yes" ? 16 : null,
  maxBodyBytes: null,
  sawFrames: null,
});
const probed = (overrides: {
  modes?: Partial<Record<InputMode, ReturnType<typeof finding>>>;
  maxBodyBytes?: number;
}) => ({
  images: "yes",
  maxImages: 16,
  jsonMode: "json_schema",
  topLogprobs: null,
  usage: true,
  contextLength: null,
  latencyMs: 5,
  notes: [],
  inputModes: {
    images: finding("yes"),
    "video-frames": finding("yes"),
    "video-file": finding("yes"),
    ...overrides.modes,
  },
  maxBodyBytes: overrides.maxBodyBytes ?? null,
});

const byRule = (rule: string) => stub.requests.filter((r) => r.rule === rule);

describe("the hallucination task in each input mode", () => {
  it("video-frames: each cluster goes as one JPEG-list video, each key frame as one image; the run keeps its mode", async () => {
    const { projectId, endpointId } = await setup("video-frames");
    const started = await run(projectId, endpointId);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, started.id), started.id);
    expect(status.steps).toMatchObject({ total: 10, done: 10, failed: 0 });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: started.id } })).inputMode).toBe("video-frames");

    // The static steps' one key frame stays an image; the dynamic steps' clusters of three are one video each.
    expect(byRule("static-knowledge-graph").map((r) => [r.imageCount, r.videos.length])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    const dynamic = byRule("dynamic-hallucination");
    expect(dynamic.map((r) => r.videos)).toEqual([
      [{ form: "jpeg-frames", frames: 3, durationS: null, totalFrames: 3 }],
      [{ form: "jpeg-frames", frames: 3, durationS: null, totalFrames: 3 }],
    ]);
    // The task's prompt, sent as written, speaks of images: a video part's request says they are the video's frames.
    for (const request of dynamic) expect(request.text).toContain("The 3 frames are sent as one video, in order");
    for (const request of byRule("static-knowledge-graph")) expect(request.text).not.toContain("sent as one video");

    // The call rows say what was shown: a dynamic call its cluster's frames as a video, in time order.
    const call = await prisma.llmCall.findFirstOrThrow({
      where: { runId: started.id, stepResult: { stepId: "dynamic_hallucination", scopeIndex: 0 } },
    });
    const saw = storedSaw(call.saw)!;
    expect(saw.mode).toBe("video-frames");
    expect(saw.frames).toHaveLength(3);
    const times = saw.frames.map((f) => f.timestampS);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("the same calls in images mode are new cache entries; a one-image call, the same request, is answered from the cache", async () => {
    const { projectId, endpointId } = await setup();
    await run(projectId, endpointId, "video-frames");
    const videoCalls = stub.requests.length;
    expect(videoCalls).toBe(10);
    stub.reset();
    const again = await run(projectId, endpointId, "images");
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, again.id), again.id)).steps).toMatchObject({
      total: 10,
      done: 10,
    });
    // The 4 one-frame steps (static KG, static hallucination) sent the same image request: cached. The 6 others
    // (2 dynamic KG, 2 dynamic hallucination, summary, inconsistency) showed frames as images, not as a video: called.
    expect(stub.requests).toHaveLength(6);
    expect(stub.requests.every((r) => r.videos.length === 0)).toBe(true);
    expect(byRule("dynamic-hallucination").map((r) => r.imageCount)).toEqual([3, 3]);
    // And a second run in video-frames mode is all cached.
    stub.reset();
    await run(projectId, endpointId, "video-frames");
    expect(stub.requests).toHaveLength(0);
  });

  it("video-file: the steps over the whole video send the clip asking as many frames as they would show; clusters send frames", async () => {
    const { projectId, videoId, endpointId } = await setup();
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId } });
    await deps.storage.put(video.storageKey, Buffer.from(PROBE_CLIP.mp4Base64, "base64"));
    const started = await run(projectId, endpointId, "video-file");
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, started.id), started.id)).steps).toMatchObject({
      total: 10,
      done: 10,
      failed: 0,
    });
    // The summary and inconsistency steps (the key frames: 2) asked the server for 2 frames of the clip.
    const clips = stub.requests.filter((r) => r.videos.some((v) => v.form === "clip"));
    expect(clips).toHaveLength(2);
    // (the stub's image count includes the frames it sampled from a clip, so the parts are checked by their videos)
    expect(clips.map((r) => r.videos.map((v) => [v.form, v.frames]))).toEqual([[["clip", 2]], [["clip", 2]]]);
    expect(byRule("dynamic-hallucination").map((r) => r.videos[0]?.form)).toEqual(["jpeg-frames", "jpeg-frames"]);
    const summary = await prisma.llmCall.findFirstOrThrow({
      where: { runId: started.id, stepResult: { stepId: "video_summary" } },
    });
    expect(storedSaw(summary.saw)).toMatchObject({
      mode: "video-file",
      frames: [],
      clip: { sha256: video.sha256, sampling: { numFrames: 2 } },
    });
  });

  it("refuses to start a run in a mode the endpoint's probe saw refused, with the endpoint's words, and queues nothing", async () => {
    const { projectId, endpointId } = await setup();
    const refused = finding("no", "video_url parts are not supported");
    await prisma.judgeEndpoint.update({
      where: { id: endpointId },
      data: { capabilities: probed({ modes: { "video-frames": refused, "video-file": refused } }) },
    });
    await expect(run(projectId, endpointId, "video-frames")).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/refused video-frames.*video_url parts are not supported/),
    });
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
    expect(stub.requests).toHaveLength(0);
  });

  it("video-file: a clip larger than the endpoint's largest body goes by signed URL, and a retried call signs a new one", async () => {
    const { projectId, videoId, endpointId } = await setup();
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId } });
    await deps.storage.put(video.storageKey, Buffer.from(PROBE_CLIP.mp4Base64, "base64"));
    await prisma.judgeEndpoint.update({
      where: { id: endpointId },
      data: { capabilities: probed({ maxBodyBytes: 1000 }) },
    });
    // The app's clip route is not running here: the first URL call fails as a server error would, and every URL
    // call that goes on reaches the stub with the clip itself.
    const urls: string[] = [];
    const withUrls = testJudgeDeps({
      retryPolicy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      sleep: async () => {},
      llmFor: (endpoint) => {
        const client = clientForEndpoint(endpoint);
        return {
          complete: async (request, options) => {
            if (!request.video?.url.startsWith("http")) return client.complete(request, options);
            urls.push(request.video.url);
            if (urls.length === 1) throw new LlmError("server", "Upstream failed.", 502);
            const clip = clipDataVideo({ base64: PROBE_CLIP.mp4Base64, contentType: "video/mp4" }, { numFrames: 2 });
            return client.complete({ ...request, video: clip }, options);
          },
        };
      },
    });
    const started = await createRun(
      { prisma, queue: inlineJudgeQueue(withUrls), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId, inputMode: "video-file" },
    );
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, started.id), started.id)).steps).toMatchObject({
      total: 10,
      done: 10,
      failed: 0,
    });
    // Two whole-video steps, one of them retried: three URLs, each its own, each naming this video and run.
    expect(urls).toHaveLength(3);
    expect(new Set(urls).size).toBe(3);
    for (const url of urls)
      expect(verifyClipToken(url.slice(url.lastIndexOf("/") + 1))).toMatchObject({ v: videoId, r: started.id });
  });
});

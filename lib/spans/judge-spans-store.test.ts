/**
 * A judge run's spans kept with the run: the engine keeps each video's when the video ends (the hallucination
 * pipeline against the stub LLM), and re-deriving a finished run replaces its judge spans with the ones its stored
 * answers give, through the owner's route.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as rederiveRoute } from "@/app/api/v1/runs/[runId]/judge-spans/route";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import type { Actor } from "../auth/actor";
import { createApiKey } from "../auth/api-keys";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import type { PipelineDefinition } from "../task-modules/pipeline-types";
import { createRun } from "../judge/runs/runs";
import { getStorage } from "../storage/storage";
import { HALLUCINATION_TASK } from "../tasks/hallucination/task";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { mediaFixtures } from "../../testkit/testing/media-fixtures";
import { insertEndpoint, insertFinishedRun, insertProject } from "../../testkit/testing/raw-rows";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { frameTimesFromTimestamps } from "../frames/frame-times";
import { judgeSpanFailuresOfRun } from "./judge-span-failures";
import {
  judgeSpanRows,
  keepVideoJudgeSpans,
  rederiveRunJudgeSpans,
  rederiveRunJudgeSpansAs,
} from "./judge-spans-store";
import { insertSpans } from "./span-store";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

// 25 fps, 50 frames: frame i at i × 0.04 s. The fixture's sampled frames are 0.25 s apart (key frames at 0.25 s and
// 1 s: video frames 6 and 25; cluster 1 is 0–0.5 s, frames 0–12; cluster 2 is 0.75–1.25 s, frames 18–31).
const times = frameTimesFromTimestamps(Array.from({ length: 50 }, (_, i) => i * 0.04))!;
const storeTimes = (videoId: string) =>
  prisma.videoFrameTimes.create({ data: { videoId, timesS: [...times.timesS], endS: times.endS, variable: false } });

const judgeSpansOf = async (runId: string) =>
  (
    await prisma.span.findMany({
      where: { runId },
      orderBy: [{ videoId: "asc" }, { label: "asc" }, { startFrame: "asc" }],
    })
  ).map((s) => ({
    videoId: s.videoId,
    task: s.task,
    label: s.label,
    frames: [s.startFrame, s.endFrame],
    seconds: [s.startS, s.endS],
    author: [s.authorKind, s.authorId],
  }));

describe("judge spans kept when a video ends", () => {
  it("keeps the hallucination run's spans of each video whose frame times are known, and logs the one without", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 });
    // The stub's simulated judge: a `[sim-verdict=1]` video's key frames score 8–9 in s3, everything else under 2.
    for (const id of videoIds)
      await prisma.video.update({ where: { id }, data: { prompt: "A ball rolls [sim-verdict=1]" } });
    await storeTimes(videoIds[0]!);
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 120,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const lines: string[] = [];
    const deps = testJudgeDeps({ log: (line) => lines.push(line) });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const author = ["judge", `run:${run.id}`];
    expect(await judgeSpansOf(run.id)).toEqual([
      { videoId: videoIds[0], task: "hallucination", label: "s3", frames: [6, 6], seconds: [0.24, 0.28], author },
      { videoId: videoIds[0], task: "hallucination", label: "s3", frames: [25, 25], seconds: [1, 1.04], author },
    ]);
    // The second video's file cannot be read (the fixture stores none): its scores stand, its spans are logged missing.
    expect((await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id, videoId: videoIds[1] } })).status).toBe(
      "done",
    );
    expect(lines.filter((l) => l.includes(`judge spans of video ${videoIds[1]}`))).toHaveLength(1);
    // The run keeps the miss, with why, for its page.
    expect(await judgeSpanFailuresOfRun(prisma, run.id)).toEqual({
      count: 1,
      videos: [
        { videoId: videoIds[1], relativePath: expect.any(String), reason: expect.stringMatching(/cannot be read/) },
      ],
    });
  });
});

describe("re-deriving a finished run's judge spans", () => {
  let projectId: string;
  let videoIds: string[];
  let runId: string;
  beforeAll(async () => {
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 }));
    await storeTimes(videoIds[0]!);
    ({ runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [
        { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 7 },
        { stepId: "static_hallucination", scopeIndex: 1, category: "s1", value: 6 },
        { stepId: "static_hallucination", scopeIndex: 1, category: "s2", value: 4 },
        { stepId: "dynamic_hallucination", scopeIndex: 0, category: "d2", value: 9 },
        { stepId: "dynamic_hallucination", scopeIndex: 1, category: "d2", value: 5 },
        { stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: 10 },
      ],
      outcome: () => ({ verdict: true, overall: 20 }),
    }));
  });

  it("replaces the run's judge spans wholly with the ones its stored answers give, the same each time", async () => {
    // A span the run kept earlier that its answers no longer give.
    await prisma.$transaction((tx) =>
      insertSpans(
        tx,
        [
          {
            projectId,
            videoId: videoIds[0]!,
            task: "hallucination",
            label: "s9",
            itemId: "",
            startFrame: 40,
            endFrame: 41,
            startS: 1.6,
            endS: 1.68,
            boxes: [],
            note: "",
            authorKind: "judge",
            authorId: `run:${runId}`,
            runId,
          },
        ],
        `run:${runId}`,
      ),
    );
    const first = await rederiveRunJudgeSpans({ prisma, storage: getStorage() }, runId);
    expect(first).toMatchObject({ runId, videos: 1, spans: 4, refused: [] });
    expect(first.skipped).toEqual([{ videoId: videoIds[1], reason: expect.any(String) }]);
    // The run's page counts the skipped video, with why.
    expect(await judgeSpanFailuresOfRun(prisma, runId)).toMatchObject({ count: 1, videos: [{ videoId: videoIds[1] }] });
    const spans = await judgeSpansOf(runId);
    expect(spans.map((s) => [s.label, ...s.frames])).toEqual([
      // The two clusters (frames 0–12 and 18–31) are apart: two spans; the prompt inconsistency has none.
      ["d2", 0, 12],
      ["d2", 18, 31],
      ["s1", 6, 6],
      ["s1", 25, 25],
    ]);
    expect((await rederiveRunJudgeSpans({ prisma, storage: getStorage() }, runId)).spans).toBe(4);
    expect(await judgeSpansOf(runId)).toEqual(spans);
    const history = await prisma.spanHistory.findMany({ where: { span: { runId } } });
    expect(history.map((h) => [h.changedBy, h.version])).toEqual(Array(4).fill([`run:${runId}`, 1]));
  });

  it("is the owner's action through the API; a reviewer is refused, and a task that does not say where is a 400", async () => {
    const ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
    const post = (id: string, key: string) =>
      rederiveRoute(apiRequest(`/api/v1/runs/${id}/judge-spans`, key, { method: "POST" }), routeContext({ runId: id }));

    const refused = await post(runId, reviewerKey);
    expect(refused.status).toBe(403);
    const done = await post(runId, ownerKey);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ runId, videos: 1, spans: 4 });
    expect((await post("no-such-run", ownerKey)).status).toBe(404);

    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "vlm",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "m",
      createdById: owner.userId,
    });
    const vbench = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "vbench2",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: {},
    });
    const notSaid = await post(vbench, ownerKey);
    expect(notSaid.status).toBe(400);
    expect(((await notSaid.json()) as { error: { message: string } }).error.message).toMatch(/does not say where/);
  });
});

describe("re-deriving as a member of the project", () => {
  it("is for members who may manage runs: a reviewer is refused, a stranger finds no run", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
    await storeTimes(videoIds[0]!);
    const { runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 1, category: "s4", value: 9 }],
      outcome: () => ({ verdict: true, overall: 50 }),
    });
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const stranger = await makeUser();
    const deps = { prisma, storage: getStorage() };
    await expect(projectAccess(prisma, reviewer, projectId, "runs.manage")).rejects.toMatchObject({ status: 403 });
    await expect(projectAccess(prisma, stranger, projectId, "runs.manage")).rejects.toMatchObject({ status: 404 });
    const access = await projectAccess(prisma, owner, projectId, "runs.manage");
    await expect(rederiveRunJudgeSpansAs(deps, access, "no-such-run")).rejects.toMatchObject({ status: 404 });
    // A run of another project is not found through an access to this one.
    const other = await insertProject(prisma, "Another project", owner.userId);
    const otherAccess = await projectAccess(prisma, owner, other, "runs.manage");
    await expect(rederiveRunJudgeSpansAs(deps, otherAccess, runId)).rejects.toMatchObject({ status: 404 });
    expect(await prisma.span.count({ where: { runId } })).toBe(0);
    expect(await rederiveRunJudgeSpansAs(deps, access, runId)).toMatchObject({ videos: 1, spans: 1 });
    expect(await prisma.span.findMany({ where: { runId }, select: { label: true, startFrame: true } })).toEqual([
      { label: "s4", startFrame: 25 },
    ]);
  });
});

describe("judgeSpanRows", () => {
  it("keeps drafts that are spans of the task and refuses the others with the reason", () => {
    const { rows, refused } = judgeSpanRows(
      { task: HALLUCINATION_TASK },
      { id: "r1", projectId: "p1" },
      "v1",
      [
        { label: "s1", startFrame: 3, endFrame: 4, note: "s1 7 on key frame 1" },
        { label: "nope", startFrame: 3, endFrame: 4 },
        { label: "s1", startFrame: 48, endFrame: 50 },
        { label: "s1", startFrame: 1.5, endFrame: 2 },
      ],
      times,
    );
    expect(rows).toEqual([
      {
        projectId: "p1",
        videoId: "v1",
        task: "hallucination",
        label: "s1",
        itemId: "",
        startFrame: 3,
        endFrame: 4,
        startS: 0.12,
        endS: 0.2,
        boxes: [],
        note: "s1 7 on key frame 1",
        authorKind: "judge",
        authorId: "run:r1",
        runId: "r1",
      },
    ]);
    expect(refused.map((r) => r.reason)).toEqual([
      expect.stringContaining('"nope" is not a label of hallucination'),
      expect.stringContaining("outside the video"),
      expect.stringContaining("not frame indices"),
    ]);
  });
});

describe("two runs closing one video at once", () => {
  /** A pipeline that says one s1 span on frames 3–4 of every video. */
  const saysWhere = {
    task: HALLUCINATION_TASK,
    judgeSpans: () => [{ label: "s1", startFrame: 3, endFrame: 4 }],
  } as unknown as PipelineDefinition;
  const answers = { scores: [], context: { keyFrames: [], clusters: [], frames: [], items: [] }, settings: {} };
  const noOutputs = { ...answers, outputs: { get: () => undefined } };

  async function twoRunsOnOneVideo() {
    const projectId = await insertProject(prisma, "One video, two runs", owner.userId);
    const video = await createReadyVideo(prisma, { projectId, relativePath: "race.mp4", createdById: owner.userId });
    await getStorage().put(video.storageKey, fs.readFileSync(mediaFixtures().goodMp4));
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "vlm",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "m",
      createdById: owner.userId,
    });
    const run = () =>
      insertFinishedRun(prisma, {
        projectId,
        pipeline: "hallucination",
        endpointId,
        createdById: owner.userId,
        endpointSnapshot: {},
      });
    return { projectId, videoId: video.id, runIds: [await run(), await run()] };
  }

  it("both keep their spans: the video's frame times are stored once, whichever run comes first", async () => {
    const { projectId, videoId, runIds } = await twoRunsOnOneVideo();
    const deps = { prisma, storage: getStorage() };
    const kept = await Promise.all(
      runIds.map((id) => keepVideoJudgeSpans(deps, { id, projectId }, videoId, saysWhere, noOutputs)),
    );
    expect(kept).toEqual([
      { kept: 1, refused: [], unavailable: null },
      { kept: 1, refused: [], unavailable: null },
    ]);
    for (const runId of runIds) expect(await prisma.span.count({ where: { runId, videoId } })).toBe(1);
    expect(await prisma.videoFrameTimes.count({ where: { videoId } })).toBe(1);
  });
});

describe("a video that keeps no judge spans", () => {
  it("is counted on the run with its reason, and deriving the run's spans again clears what it mends", async () => {
    const projectId = await insertProject(prisma, "Spans that fail", owner.userId);
    const readable = await createReadyVideo(prisma, {
      projectId,
      relativePath: "a/readable.mp4",
      createdById: owner.userId,
    });
    await getStorage().put(readable.storageKey, fs.readFileSync(mediaFixtures().goodMp4));
    // No file behind it: its frames cannot be read.
    const missing = await createReadyVideo(prisma, {
      projectId,
      relativePath: "b/missing.mp4",
      createdById: owner.userId,
    });
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "vlm",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "m",
      createdById: owner.userId,
    });
    const runId = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: {},
    });
    const breaks = {
      task: HALLUCINATION_TASK,
      judgeSpans: () => {
        throw new Error("the spans' answers are malformed");
      },
    } as unknown as PipelineDefinition;
    const deps = { prisma, storage: getStorage() };
    const answers = {
      scores: [],
      context: { keyFrames: [], clusters: [], frames: [], items: [] },
      settings: {},
      outputs: { get: () => undefined },
    };
    const run = { id: runId, projectId };
    expect(await keepVideoJudgeSpans(deps, run, readable.id, breaks, answers)).toMatchObject({
      kept: 0,
      unavailable: expect.stringContaining("the spans' answers are malformed"),
    });
    await keepVideoJudgeSpans(deps, run, missing.id, breaks, answers);
    expect(await judgeSpanFailuresOfRun(prisma, runId)).toEqual({
      count: 2,
      videos: [
        { videoId: readable.id, relativePath: "a/readable.mp4", reason: expect.stringContaining("malformed") },
        { videoId: missing.id, relativePath: "b/missing.mp4", reason: expect.stringMatching(/cannot be read/) },
      ],
    });
    // Kept after all (a pipeline that says where): the readable video's failure goes, the missing one's stays.
    const saysWhere = { task: HALLUCINATION_TASK, judgeSpans: () => [{ label: "s1", startFrame: 3, endFrame: 4 }] };
    await keepVideoJudgeSpans(deps, run, readable.id, saysWhere as unknown as PipelineDefinition, answers);
    expect(await judgeSpanFailuresOfRun(prisma, runId)).toMatchObject({ count: 1, videos: [{ videoId: missing.id }] });
  });
});

describe("deriving a run's judge spans many times at once", () => {
  it("eight derives at once leave the spans one derive leaves, and never duplicate a span", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 });
    for (const id of videoIds) await storeTimes(id);
    const { runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [
        { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 7 },
        { stepId: "dynamic_hallucination", scopeIndex: 1, category: "d2", value: 9 },
      ],
      outcome: () => ({ verdict: true, overall: 20 }),
    });
    const deps = { prisma, storage: getStorage() };
    const once = await rederiveRunJudgeSpans(deps, runId);
    const spans = await judgeSpansOf(runId);
    expect(spans).toHaveLength(once.spans);
    expect(once.spans).toBe(4);
    const derives = await Promise.all(Array.from({ length: 8 }, () => rederiveRunJudgeSpans(deps, runId)));
    expect(derives.map((d) => d.spans)).toEqual(Array(8).fill(4));
    expect(await judgeSpansOf(runId)).toEqual(spans);
  });
});

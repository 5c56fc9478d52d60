/**
 * The engine's events: a video's close announces "video closed" and, when it ended its run, "run finished", to the
 * subscribers its deps name; with none it touches nothing beyond the video's summary and metrics, and a subscriber's
 * failure is logged (or fails the job, when it says so) without undoing the video's end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { frameTimesFromTimestamps } from "../../frames/frame-times";
import { judgeSpanSubscriber } from "../../spans/judge-spans-store";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { createEndpoint } from "../endpoints/endpoints";
import { createRun } from "../runs/runs";
import type { JudgeEvent, JudgeEventSubscriber } from "./judge-events";
import { judgeVideo, type JudgeDeps } from "./judge-video";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

// 25 fps, 50 frames: the stub's `[sim-verdict=1]` video gets judge spans at its key frames (frames 6 and 25).
const times = frameTimesFromTimestamps(Array.from({ length: 50 }, (_, i) => i * 0.04))!;

/** A project of framed videos whose judge would find spans, each with its frame times stored, and a stub endpoint. */
async function setup(videoCount: number) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 2 });
  for (const id of videoIds) {
    await prisma.video.update({ where: { id }, data: { prompt: "A ball rolls [sim-verdict=1]" } });
    await prisma.videoFrameTimes.create({
      data: { videoId: id, timesS: [...times.timesS], endS: times.endS, variable: false },
    });
  }
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
  return { projectId, videoIds, endpointId: endpoint.id };
}

const hallucinationRun = async (deps: JudgeDeps, projectId: string, endpointId: string) =>
  createRun(
    { prisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
    },
  );

/** A subscriber that writes down what it heard (and wants every event). */
function listener(heard: string[], name = "listener"): JudgeEventSubscriber {
  return {
    name,
    wants: () => true,
    heard: async (_deps, event: JudgeEvent) =>
      void heard.push(
        event.kind === "video closed" ? `${name}: video closed ${event.videoId}` : `${name}: run finished`,
      ),
    onFailure: "logged",
  };
}

function failing(onFailure: JudgeEventSubscriber["onFailure"]): JudgeEventSubscriber {
  return {
    name: "breaks",
    wants: (kind) => kind === "video closed",
    heard: async () => Promise.reject(new Error("the subscriber broke")),
    onFailure,
  };
}

describe("the engine's events", () => {
  it("with no subscriber, closes a video with its summary and metrics and touches no spans", async () => {
    const { projectId, videoIds, endpointId } = await setup(1);
    const run = await hallucinationRun(testJudgeDeps({ subscribers: [] }), projectId, endpointId);
    const video = await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id, videoId: videoIds[0] } });
    expect(video.status).toBe("done");
    expect(video.summary).not.toBeNull();
    expect(await prisma.runMetric.count({ where: { runId: run.id } })).toBeGreaterThan(0);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
    expect(await prisma.span.count({ where: { runId: run.id } })).toBe(0);
    expect(await prisma.judgeSpanFailure.count({ where: { runId: run.id } })).toBe(0);
    // The same run with the worker's subscribers keeps the judge spans: the close above left them out on purpose.
    const withSpans = await hallucinationRun(testJudgeDeps(), projectId, endpointId);
    expect(await prisma.span.count({ where: { runId: withSpans.id } })).toBe(2);
  });

  it("announces each video's close, and the run's end once, after its last video", async () => {
    const { projectId, videoIds, endpointId } = await setup(2);
    const heard: string[] = [];
    const deps = testJudgeDeps({ subscribers: [listener(heard)] });
    // One video after the other, as one worker taking one job at a time would.
    const oneByOne = {
      enqueue: async (jobs: { runId: string; videoId: string }[]) => {
        for (const job of jobs) await judgeVideo(deps, job);
      },
    };
    const run = await createRun(
      { prisma, queue: oneByOne, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId },
    );
    const [first, second] = heard.slice(0, 2).map((line) => line.replace("listener: video closed ", ""));
    expect([first, second].sort()).toEqual([...videoIds].sort());
    expect(heard).toEqual([
      `listener: video closed ${first}`,
      `listener: video closed ${second}`,
      "listener: run finished",
    ]);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
  });

  it("logs a subscriber's failure, keeps the video done, and the next subscribers still hear (judge spans keep why)", async () => {
    const { projectId, videoIds, endpointId } = await setup(1);
    // No frame times stored and no file in storage: the judge spans cannot be made.
    await prisma.videoFrameTimes.deleteMany({ where: { videoId: videoIds[0] } });
    const lines: string[] = [];
    const heard: string[] = [];
    const deps = testJudgeDeps({
      log: (line) => lines.push(line),
      subscribers: [failing("logged"), judgeSpanSubscriber, listener(heard)],
    });
    const run = await hallucinationRun(deps, projectId, endpointId);
    const video = await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id, videoId: videoIds[0] } });
    expect(video.status).toBe("done");
    expect(lines.filter((line) => line.startsWith(`breaks of video ${videoIds[0]} in run ${run.id}: `))).toEqual([
      expect.stringContaining("the subscriber broke"),
    ]);
    expect(await prisma.judgeSpanFailure.count({ where: { runId: run.id, videoId: videoIds[0] } })).toBe(1);
    expect(heard).toEqual([`listener: video closed ${videoIds[0]}`, "listener: run finished"]);
  });

  it("a subscriber whose failure fails the job: the video's end stands, the others hear, and the job fails for its retry", async () => {
    const { projectId, videoIds, endpointId } = await setup(1);
    const jobs: { runId: string; videoId: string }[] = [];
    const run = await createRun(
      {
        prisma,
        queue: { enqueue: async (queued) => void jobs.push(...queued) },
        pipelines: builtInCatalogue().pipelines,
      },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId },
    );
    const lines: string[] = [];
    const heard: string[] = [];
    const deps = testJudgeDeps({
      log: (line) => lines.push(line),
      subscribers: [failing("fails the job"), listener(heard)],
    });
    await expect(judgeVideo(deps, jobs[0]!)).rejects.toThrow("the subscriber broke");
    expect((await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id, videoId: videoIds[0] } })).status).toBe(
      "done",
    );
    expect(heard).toEqual([`listener: video closed ${videoIds[0]}`]);
    expect(lines.filter((line) => line.startsWith("breaks of video"))).toHaveLength(1);
    // The retry closes the video again: its subscribers hear it again, and nothing is judged twice.
    const retried = testJudgeDeps({ subscribers: [listener(heard)] });
    await expect(judgeVideo(retried, jobs[0]!)).resolves.toBe("done");
    expect(heard.filter((line) => line.includes("video closed"))).toHaveLength(2);
  });
});

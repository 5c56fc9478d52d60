/**
 * What a video's close costs in statements (counted, not timed): a judge-spans run keeps each video's spans from the
 * frame times its job read when it was loaded, so the close asks neither the video nor its frame times once more, and
 * replaces the video's spans in one statement under the run's lock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { frameTimesFromTimestamps } from "../../frames/frame-times";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { makeUser } from "../../../testkit/testing/fixtures";
import { testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";
import { createRun } from "../runs/runs";
import { judgeVideo } from "./judge-video";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

// 25 fps, 50 frames (as lib/spans/judge-spans-store.test.ts): the fixture's key frames are video frames 6 and 25.
const times = frameTimesFromTimestamps(Array.from({ length: 50 }, (_, i) => i * 0.04))!;

describe("a judge-spans video's close", () => {
  it("keeps its spans from the frame times its job loaded, reading neither the video nor its frame times again, and replaces them in one statement under the run's lock", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
    const videoId = videoIds[0]!;
    await prisma.video.update({ where: { id: videoId }, data: { prompt: "A ball rolls [sim-verdict=1]" } });
    await prisma.videoFrameTimes.create({
      data: { videoId, timesS: [...times.timesS], endS: times.endS, variable: false },
    });
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
    const jobs: { runId: string; videoId: string }[] = [];
    const run = await createRun(
      {
        prisma,
        queue: { enqueue: async (queued) => void jobs.push(...queued) },
        pipelines: builtInCatalogue().pipelines,
      },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const counted = new PrismaClient({
      adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }),
      log: [{ emit: "event", level: "query" }],
    });
    const statements: string[] = [];
    counted.$on("query", (event) => statements.push(event.query));
    try {
      expect(await judgeVideo(testJudgeDeps({ prisma: counted }), jobs[0]!)).toBe("done");
    } finally {
      await counted.$disconnect();
    }
    const spans = await prisma.span.findMany({ where: { runId: run.id }, orderBy: { startFrame: "asc" } });
    expect(spans.map((s) => [s.label, s.startFrame, s.endFrame])).toEqual([
      ["s3", 6, 6],
      ["s3", 25, 25],
    ]);
    const history = await prisma.spanHistory.findMany({ where: { spanId: { in: spans.map((s) => s.id) } } });
    const historyOf = new Map(history.map((h) => [h.spanId, h]));
    expect(
      spans.map((s) => [historyOf.get(s.id)?.version, historyOf.get(s.id)?.changedBy, historyOf.get(s.id)?.after]),
    ).toEqual(
      spans.map((s) => [
        1,
        `run:${run.id}`,
        { label: "s3", startFrame: s.startFrame, endFrame: s.endFrame, boxes: [], note: s.note },
      ]),
    );
    // Under the run's lock, one statement replaces the video's judge spans (and its kept failure) before the commit.
    const locked = statements.findIndex((q) => q.includes("pg_advisory_xact_lock"));
    expect(locked).toBeGreaterThan(-1);
    expect(statements.slice(locked + 1, statements.indexOf("COMMIT", locked))).toHaveLength(1);
    expect(statements.filter((q) => q.includes('"public"."video_frame_times"'))).toEqual([]);
    expect(statements.filter((q) => q.includes('FROM "public"."video" '))).toEqual([]);
  });
});

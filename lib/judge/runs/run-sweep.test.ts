/**
 * A sweep on PostgreSQL: one run request starts a run per input mode (or per frame count, for a task whose frame set
 * is a uniform one of `settings.frames` frames), every other setting the same, and links to their comparison. A value
 * that cannot start saves none of the runs; a sweep a task or request cannot take is a 400 that saves nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { insertFrameSet } from "@/testkit/testing/raw-rows";
import { createStubEndpoint } from "@/testkit/testing/stub-endpoint";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import type { JudgeQueue } from "../workers/judge-queue";
import { createRun } from "./runs";
import { runOverview } from "./run-overview";
import { runRequestSchema, startRunRequest } from "./run-manifest";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { projectAccess } from "../../authz/permissions";

let owner: Actor;
let projectId: string;
let videoIds: string[];
let endpointId: string;
const enqueued: { runId: string; videoId: string }[] = [];
const queue: JudgeQueue = { enqueue: async (jobs) => void enqueued.push(...jobs) };

const finding = (accepted: string, refusal: string | null = null) => ({
  accepted,
  refusal,
  maxFrames: null,
  maxBodyBytes: null,
  sawFrames: null,
});
/** An endpoint whose probe saw video-file refused. */
const refusingVideoFile = {
  images: "yes",
  maxImages: 8,
  jsonMode: "json_schema",
  topLogprobs: null,
  usage: true,
  contextLength: null,
  latencyMs: 5,
  notes: [],
  inputModes: {
    images: finding("yes"),
    "video-frames": finding("yes"),
    "video-file": finding("no", "video_url is not supported"),
  },
  maxBodyBytes: null,
};

/** Hallucination with its frames read from `settings.frames` as a uniform set: a task a frame-count sweep fits. */
const catalogue = builtInCatalogue();
const hallucination = catalogue.pipelines.hallucination!;
const framesFromSettings: RegisteredPipeline = {
  ...hallucination,
  settingsSchema: z.looseObject({ frames: z.int().min(1).max(64).default(8) }),
  frames: (settings) => ({ mode: "uniform", count: (settings as { frames: number }).frames }),
};

async function start(body: Record<string, unknown>, pipelines = catalogue.pipelines) {
  const parsed = runRequestSchema(catalogue).parse(body);
  return startRunRequest(
    { prisma, queue, pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    catalogue,
    parsed,
  );
}

const runsOfProject = () =>
  prisma.judgeRun.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { id: true, inputMode: true, settings: true, _count: { select: { videos: true } } },
  });

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 2,
    uniformFrames: 8,
  }));
  // A uniform set of 16 frames too (planning reads the sets, not their frames; the queue here judges nothing).
  for (const videoId of videoIds)
    await insertFrameSet(prisma, {
      id: randomUUID(),
      videoId,
      identity: randomUUID(),
      parameters: { mode: "uniform", count: 16, maxSide: 768, jpegQuality: 0.85 },
      mode: "uniform",
      frameCount: 16,
      keyFrameCount: 16,
      createdById: owner.userId,
    });
  endpointId = (await createStubEndpoint(prisma, owner, projectId, "http://127.0.0.1:9/v1")).id;
}, 60_000);

afterAll(async () => {
  await prisma.project.delete({ where: { id: projectId } }).catch(() => {});
});

describe("a sweep of input modes", () => {
  it("starts one run per mode over the same videos and settings, queues each, and links to their comparison", async () => {
    enqueued.length = 0;
    const answer = (await start({
      pipeline: "hallucination",
      endpointId,
      sweep: { inputModes: ["images", "video-frames"] },
    })) as { sweep: { field: string; values: string[] }; runs: { id: string; videos: number }[]; compareUrl: string };
    expect(answer.sweep).toEqual({ field: "inputMode", values: ["images", "video-frames"] });
    expect(answer.runs).toHaveLength(2);
    const runs = await prisma.judgeRun.findMany({
      where: { id: { in: answer.runs.map((r) => r.id) } },
      select: { id: true, inputMode: true, settings: true, pipeline: true, _count: { select: { videos: true } } },
    });
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect(answer.runs.map((r) => byId.get(r.id)!.inputMode)).toEqual(["images", "video-frames"]);
    expect(new Set(runs.map((r) => JSON.stringify(r.settings))).size).toBe(1);
    expect(runs.map((r) => r._count.videos)).toEqual([2, 2]);
    expect(enqueued).toHaveLength(4);
    expect(answer.compareUrl).toBe(
      `/projects/${projectId}/runs/compare?runs=${answer.runs[0]!.id},${answer.runs[1]!.id}`,
    );
    // Each run's page links to the sweep side by side, not only the answer shown once after the start.
    for (const run of answer.runs)
      expect(
        (await runOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), run.id))
          .sweepCompareUrl,
      ).toBe(answer.compareUrl);
  });

  it("leaves a run started alone out of any sweep", async () => {
    const single = await createRun({ prisma, queue }, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId,
    });
    expect(
      (await runOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), single.id))
        .sweepCompareUrl,
    ).toBeNull();
  });

  it("saves none of the runs when one mode cannot start (the endpoint's probe saw it refused)", async () => {
    await prisma.judgeEndpoint.update({
      where: { id: endpointId },
      data: { capabilities: refusingVideoFile },
    });
    const before = (await runsOfProject()).length;
    await expect(
      start({ pipeline: "hallucination", endpointId, sweep: { inputModes: ["images", "video-file"] } }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("refused video-file") });
    expect((await runsOfProject()).length).toBe(before);
    await prisma.judgeEndpoint.update({ where: { id: endpointId }, data: { capabilities: {} } });
  });
});

describe("a sweep of frame counts", () => {
  const pipelines = { ...catalogue.pipelines, hallucination: framesFromSettings };

  it("starts one run per frame count, each judging its videos' uniform set of that many frames", async () => {
    const answer = (await start(
      { pipeline: "hallucination", endpointId, settings: { frames: 8 }, sweep: { frameCounts: [8, 16] } },
      pipelines,
    )) as { runs: { id: string }[] };
    const rows = await prisma.runVideo.findMany({
      where: { runId: { in: answer.runs.map((r) => r.id) } },
      select: { runId: true, frameSetId: true },
    });
    const counts = new Map(
      (
        await prisma.frameSet.findMany({
          where: { id: { in: rows.map((r) => r.frameSetId) } },
          select: { id: true, frameCount: true },
        })
      ).map((f) => [f.id, f.frameCount]),
    );
    for (const [i, count] of [8, 16].entries())
      expect(rows.filter((r) => r.runId === answer.runs[i]!.id).map((r) => counts.get(r.frameSetId))).toEqual([
        count,
        count,
      ]);
  });

  it("saves none of the runs when one count has no frame set (32 frames were never extracted)", async () => {
    const before = (await runsOfProject()).length;
    await expect(
      start({ pipeline: "hallucination", endpointId, sweep: { frameCounts: [8, 32] } }, pipelines),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("32 frames") });
    expect((await runsOfProject()).length).toBe(before);
  });

  it("is a 400 for a task that does not take its frame count from its settings", async () => {
    await expect(
      start({ pipeline: "hallucination", endpointId, sweep: { frameCounts: [8, 16] } }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("does not take its frame count") });
  });
});

describe("bad sweeps", () => {
  it("refuses one value, a repeated value, an unknown mode, both kinds, and a sweep with an ensemble, mode or dry run", async () => {
    const schema = runRequestSchema(catalogue);
    const base = { pipeline: "hallucination", endpointId: "e" };
    for (const sweep of [
      { inputModes: ["images"] },
      { inputModes: ["images", "images"] },
      { inputModes: ["images", "movie"] },
      { frameCounts: [8] },
      { frameCounts: [8, 0] },
      { inputModes: ["images", "video-frames"], frameCounts: [8, 16] },
    ])
      expect(schema.safeParse({ ...base, sweep }).success, JSON.stringify(sweep)).toBe(false);
    const before = (await runsOfProject()).length;
    const sweep = { inputModes: ["images", "video-frames"] };
    await expect(start({ pipeline: "hallucination", endpointId, sweep, inputMode: "images" })).rejects.toMatchObject({
      status: 400,
    });
    await expect(start({ pipeline: "hallucination", endpointId, sweep, dryRun: true })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      start({
        pipeline: "hallucination",
        endpointId,
        sweep,
        ensemble: { kind: "samples", samples: 3, temperature: 0.7 },
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      createRun({ prisma, queue }, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId,
        sweep,
      } as never),
    ).rejects.toMatchObject({ status: 400 });
    expect((await runsOfProject()).length).toBe(before);
  });
});

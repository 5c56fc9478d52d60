/**
 * Runs side by side on PostgreSQL: two hallucination runs of the same four videos (one per generator), one in images
 * mode and one in video-frames mode, with hand-set overall values, one reviewer's overall values, and two calls of
 * the first run. The comparison names the mode as what differs, gives each run's κ with the reviewer as computed by
 * hand, Kendall's τ between their rankings as computed by hand, and the first run's cost and time; runs of two tasks
 * are a 400, and the whole comparison is withheld while the caller reviews one of the videos blind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "@/lib/db/prisma";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { insertJudgment } from "@/testkit/testing/judgments";
import { createRunVideo } from "@/testkit/testing/run-video-fixture";
import { createStubEndpoint } from "@/testkit/testing/stub-endpoint";
import { nextItem } from "@/lib/queues/next-item";
import { WithheldError } from "@/lib/visibility/withheld";
import { GET } from "@/app/api/v1/projects/[projectId]/runs/compare/route";
import { labelSetReviewerId } from "@/lib/label-sets/label-set-reviewer";
import { compareRuns, runDifferences } from "./run-comparison";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let viewer: Actor;
let projectId: string;
let videoIds: string[];
let imagesRun: string;
let framesRun: string;
let otherTaskRun: string;

const GENERATORS = ["GenA", "GenB", "GenC", "GenD"];
/** Overall per generator: images ranks A B C D; video-frames ranks A C B D (one pair swapped: τ = (5 − 1) / 6). */
const IMAGES_OVERALL = [90, 80, 70, 65];
const FRAMES_OVERALL = [90, 70, 80, 50];
/** The reviewer: B and D hallucinate (overall below 60). */
const HUMAN_OVERALL = [90, 50, 70, 40];

async function seedRun(endpointId: string, inputMode: string, overall: number[], pipeline = "hallucination") {
  const run = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline,
      endpointId,
      inputMode,
      status: "done",
      createdById: owner.userId,
      startedAt: new Date("2026-11-27T10:00:00Z"),
      finishedAt: new Date("2026-11-27T10:02:30Z"),
    },
  });
  for (const [i, videoId] of videoIds.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId }, select: { id: true } });
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      metrics: { overall: overall[i]! },
    });
  }
  return run.id;
}

beforeAll(async () => {
  [owner, viewer] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 2 }));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({ where: { id }, data: { model: GENERATORS[i] } });
  const endpoint = await createStubEndpoint(prisma, owner, projectId, "http://127.0.0.1:9/v1");
  imagesRun = await seedRun(endpoint.id, "images", IMAGES_OVERALL);
  framesRun = await seedRun(endpoint.id, "video-frames", FRAMES_OVERALL);
  otherTaskRun = await seedRun(endpoint.id, "images", IMAGES_OVERALL, "vbench2");
  for (const [i, videoId] of videoIds.entries())
    await insertJudgment(prisma, {
      projectId,
      videoId,
      task: "hallucination",
      targetType: "overall",
      reviewerId: viewer.userId,
      value: HUMAN_OVERALL[i]!,
    });
  const step = await prisma.stepResult.create({
    data: { runId: imagesRun, videoId: videoIds[0]!, stepId: "static", scopeIndex: 0, templateId: "t", status: "done" },
  });
  const call = { runId: imagesRun, stepResultId: step.id, videoId: videoIds[0]!, model: "stub", request: {} };
  await prisma.llmCall.createMany({
    data: [
      { ...call, costUsd: 0.01, promptTokens: 1000, completionTokens: 50, latencyMs: 400, bytesSent: 2000 },
      { ...call, costUsd: 0.02, promptTokens: 3000, completionTokens: 70, latencyMs: 800, bytesSent: 6000 },
      { ...call, cached: true, latencyMs: 0, bytesSent: 0 },
    ],
  });
}, 60_000);

afterAll(async () => {
  await prisma.project.delete({ where: { id: projectId } }).catch(() => {});
});

describe("two runs that differ only in input mode", () => {
  it("name the mode as what differs, give each run's κ and α with the reviewer, τ between their rankings, cost and time", async () => {
    const result = await compareRuns(prisma, await projectAccess(prisma, viewer, projectId, "export.read"), {
      runs: [imagesRun, framesRun],
    });
    expect(result.task.id).toBe("hallucination");
    expect(result.differences).toEqual([
      { field: "inputMode", label: "Input mode", values: ["images", "video-frames"] },
    ]);
    const [images, frames] = result.runs;
    expect(images!.ranking).toEqual(["GenA", "GenB", "GenC", "GenD"]);
    expect(frames!.ranking).toEqual(["GenA", "GenC", "GenB", "GenD"]);
    expect(result.rankingMetric?.id).toBe("overall");
    expect(result.tau).toEqual([{ a: imagesRun, b: framesRun, generators: 4, tau: expect.closeTo(4 / 6, 12) }]);
    // Images: the judge calls no video a hallucination, the reviewer two of four: accuracy ½, chance ½, κ 0.
    expect(images!.agreement).toMatchObject({ n: 4, accuracy: 0.5, kappa: 0 });
    // Video-frames: D caught (overall 50), B missed: accuracy ¾, chance (1·2 + 3·2)/16 = ½, κ ½.
    expect(frames!.agreement).toMatchObject({ n: 4, accuracy: 0.75, kappa: expect.closeTo(0.5, 12) });
    expect(frames!.agreement.native.find((b) => b.targetType === "overall")).toMatchObject({
      n: 4,
      alpha: expect.any(Number),
    });
    expect(images!.spans).toEqual([]);
    expect(images!.cost).toMatchObject({
      calls: 3,
      cached: 1,
      costUsd: expect.closeTo(0.03, 12),
      promptTokens: 4000,
      completionTokens: 120,
      bytesSent: 8000,
      meanLatencyMs: 600,
      durationS: 150,
    });
    expect(frames!.cost).toMatchObject({ calls: 0, costUsd: 0, meanLatencyMs: null, durationS: 150 });
  });

  it("count an imported label set as people's values, with its own targets and κ, beside the reviewers'", async () => {
    const labelSet = await prisma.labelSet.create({
      data: {
        projectId,
        name: "Authors' labels",
        format: "t2vhalubench",
        fileName: "labels.xlsx",
        sha256: "0".repeat(64),
        importedById: owner.userId,
        annotators: [],
      },
    });
    // The label set says what the reviewer says: B and D hallucinate.
    for (const [i, videoId] of videoIds.entries()) {
      const row = await insertJudgment(prisma, {
        projectId,
        videoId,
        task: "hallucination",
        targetType: "overall",
        reviewerId: labelSetReviewerId(labelSet.id),
        value: HUMAN_OVERALL[i]!,
      });
      await prisma.humanJudgment.update({ where: { id: row.id }, data: { labelSetId: labelSet.id } });
    }
    try {
      const result = await compareRuns(prisma, await projectAccess(prisma, viewer, projectId, "export.read"), {
        runs: [imagesRun, framesRun],
      });
      const [images, frames] = result.runs;
      // The reviewers' consensus is as before: the label set is kept apart from it.
      expect(images!.agreement).toMatchObject({ n: 4, accuracy: 0.5, kappa: 0 });
      expect(images!.agreement.labelSets).toEqual([
        { reviewerId: labelSetReviewerId(labelSet.id), label: "Authors' labels", n: 4, accuracy: 0.5, kappa: 0 },
      ]);
      expect(frames!.agreement.labelSets).toEqual([
        expect.objectContaining({ label: "Authors' labels", n: 4, accuracy: 0.75, kappa: expect.closeTo(0.5, 12) }),
      ]);
    } finally {
      await prisma.labelSet.delete({ where: { id: labelSet.id } });
    }
  });

  it("lists every setting that differs, and none the runs share", () => {
    const base = {
      inputMode: "images",
      frameCounts: [8],
      model: "m",
      endpointName: "e",
      promptVersionIds: { a: "1", b: "2" },
      settings: { x: 1, y: { z: 2 } },
      batchMode: false,
      videos: 4,
    };
    expect(
      runDifferences([base, { ...base, promptVersionIds: { b: "2", a: "1" }, settings: { y: { z: 2 }, x: 1 } }]),
    ).toEqual([]);
    expect(runDifferences([base, { ...base, frameCounts: [16] }, { ...base, frameCounts: [32, 64] }])).toEqual([
      { field: "frames", label: "Frames per video", values: ["8", "16", "32–64"] },
    ]);
  });
});

describe("bad requests", () => {
  async function get(actor: Actor, runs: string) {
    const { key } = await createApiKey(prisma, actor.userId, "t");
    return GET(
      new Request(`http://x/?runs=${encodeURIComponent(runs)}`, { headers: { authorization: `Bearer ${key}` } }),
      { params: Promise.resolve({ projectId }) },
    );
  }

  it("refuses runs of different tasks with a 400 naming both", async () => {
    const response = await get(viewer, `${imagesRun},${otherTaskRun}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /only runs of one task.*Hallucination.*VBench/s,
    );
  });

  it("refuses one run, a malformed id, and answers a run of no such id with a 404", async () => {
    expect((await get(viewer, imagesRun)).status).toBe(400);
    expect((await get(viewer, `${imagesRun},bad id!`)).status).toBe(400);
    expect((await get(viewer, `${imagesRun},nosuchrun`)).status).toBe(404);
  });
});

describe("while the owner reviews one of the videos blind", () => {
  it("withholds the whole comparison, in the API as a 409; a viewer who reviews nothing gets it", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Blind overall",
        runId: framesRun,
        scope: "scores",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: videoIds[1]!, position: 0 } });
    await nextItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id);
    const withheld = await compareRuns(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      runs: [imagesRun, framesRun],
    }).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('"Blind overall" blind: 1 item left');
    const { key } = await createApiKey(prisma, owner.userId, "t");
    const response = await GET(
      new Request(`http://x/?runs=${imagesRun},${framesRun}`, { headers: { authorization: `Bearer ${key}` } }),
      { params: Promise.resolve({ projectId }) },
    );
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("withheld");
    const whole = await compareRuns(prisma, await projectAccess(prisma, viewer, projectId, "export.read"), {
      runs: [imagesRun, framesRun],
    });
    expect(whole.runs).toHaveLength(2);
  });
});

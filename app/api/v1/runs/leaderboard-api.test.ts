/**
 * GET /api/v1/runs/:runId/leaderboard on PostgreSQL: a finished hallucination run's run_metric rows, seeded as the
 * engine stores them, ranked by the videos' models with the prompt as the resampling unit.
 *
 *   Gen_A: P1 80 70 | P2 60 | P3 90            → overall 75 (4 videos); verdict 1 1 1 0 → 0.75
 *   Gen B: P1 50 | P2 40 60 | P3 70, and 10 (P3) → overall 230 / 5 = 46; verdict 0 0 1 0 0 → 0.2
 *   one video without a model (overall 99), left out.
 * The last Gen B video is in a blind queue a reviewer is working on: for them the whole leaderboard is withheld
 * (409 `withheld`), never one of the other videos (Gen B 220 / 4 = 55 where everyone else sees 46).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { nextItem } from "@/lib/queues/next-item";
import { rubricMetricId } from "@/lib/rubrics/rubric-declaration";
import { createRubricTask } from "@/lib/rubrics/rubric-tasks";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { createRunVideo } from "@/testkit/testing/run-video-fixture";
import { GET as getLeaderboard } from "./[runId]/leaderboard/route";
import { runLeaderboard } from "@/lib/leaderboard/run-leaderboard";
import { projectAccess } from "@/lib/authz/permissions";

const VIDEOS = [
  { model: "Gen_A", prompt: "P1", overall: 80, verdict: true },
  { model: "Gen_A", prompt: "P1", overall: 70, verdict: true },
  { model: "Gen_A", prompt: "P2", overall: 60, verdict: true },
  { model: "Gen_A", prompt: "P3", overall: 90, verdict: false },
  { model: "Gen B", prompt: "P1", overall: 50, verdict: false },
  { model: "Gen B", prompt: "P2", overall: 40, verdict: false },
  { model: "Gen B", prompt: "P2", overall: 60, verdict: true },
  { model: "Gen B", prompt: "P3", overall: 70, verdict: false },
  { model: null, prompt: "P1", overall: 99, verdict: true },
  { model: "Gen B", prompt: "P3", overall: 10, verdict: false },
];

const keys: Record<"owner" | "reviewer" | "blindReviewer" | "viewer" | "stranger", string> = {
  owner: "",
  reviewer: "",
  blindReviewer: "",
  viewer: "",
  stranger: "",
};
let projectId: string;
let runId: string;
let captionRunId: string;
let rubricRunId: string;
let rubricMetric: string;

async function call(path: string, as: keyof typeof keys = "owner") {
  const id = new URL(`http://x${path}`).pathname.split("/")[4]!;
  const response = await getLeaderboard(apiRequest(path, keys[as]), routeContext({ runId: id }));
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: (response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : null) as any,
  };
}

beforeAll(async () => {
  const users = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser(), makeUser()]);
  const [owner, reviewer, blindReviewer, viewer, stranger] = users as [Actor, Actor, Actor, Actor, Actor];
  for (const [name, user] of Object.entries({ owner, reviewer, blindReviewer, viewer, stranger }))
    keys[name as keyof typeof keys] = (await createApiKey(prisma, user.userId, "t")).key;
  const made = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS.length,
    keyFrames: 1,
    name: "Leaderboard",
  });
  projectId = made.projectId;
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: reviewer.email,
    role: "reviewer",
  });
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: blindReviewer.email,
    role: "reviewer",
  });
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: viewer.email,
    role: "viewer",
  });
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  runId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  captionRunId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "caption_style",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  const rubric = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: {
      name: "Defects",
      frames: { mode: "key_frames" },
      criteria: [
        {
          id: "defects",
          name: "Defects",
          type: "numeric",
          min: 1,
          max: 5,
          step: 1,
          higherIsBetter: false,
          definition: "How defective, 1 none to 5 severe.",
        },
      ],
      prompt: "{{prompt}} {{frames}}\n{{criteria}}",
    },
  });
  rubricMetric = rubricMetricId(rubric.key, "defects");
  rubricRunId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: rubric.pipeline,
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  for (const [i, videoId] of made.videoIds.entries()) {
    const v = VIDEOS[i]!;
    await prisma.video.update({ where: { id: videoId }, data: { model: v.model, prompt: v.prompt } });
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    await createRunVideo(prisma, {
      runId,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      metrics: { overall: v.overall, verdict: v.verdict },
    });
    // The rubric run: Gen_A's defects 1, Gen B's 4 (lower is better).
    await createRunVideo(prisma, {
      runId: rubricRunId,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      metrics: { [rubricMetric]: v.model === "Gen_A" ? 1 : 4 },
    });
  }
  // A blind queue over the last video, which one reviewer has claimed and not submitted.
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name: "Blind",
      runId,
      scope: "verdict",
      blind: true,
      reviewersPerItem: 1,
      itemCount: 1,
      createdById: owner.userId,
    },
  });
  await prisma.reviewQueueItem.create({
    data: { queueId: queue.id, videoId: made.videoIds[VIDEOS.length - 1]!, position: 0 },
  });
  await nextItem(prisma, await queueAccess(prisma, blindReviewer, queue.id, "scores.review"), queue.id);
}, 120_000);

describe("GET /api/v1/runs/:runId/leaderboard", () => {
  it("ranks the run's models by the task's headline metric, with intervals, n and the paired difference", async () => {
    const { status, body } = await call(`/api/v1/runs/${runId}/leaderboard`);
    expect(status).toBe(200);
    expect(body.run).toMatchObject({ id: runId, projectId, pipeline: "hallucination" });
    expect(body.metric).toMatchObject({ id: "overall", label: "Overall", higherIsBetter: true, percent: false });
    expect(body.metrics.map((m: any) => m.id)).toEqual(expect.arrayContaining(["overall", "verdict", "S", "D", "I"]));
    expect(body.videos).toEqual({ withValue: 10, ranked: 9, withoutModel: 1 });
    const lb = body.leaderboard;
    expect(lb.ranking).toEqual(["Gen_A", "Gen B"]);
    expect(lb.dimensions).toEqual(["overall"]);
    const [a, b] = lb.generators;
    expect(a.dimensions.overall).toMatchObject({ n: 4, prompts: 3 });
    expect(a.dimensions.overall.score).toBeCloseTo(75, 9);
    expect(b.dimensions.overall).toMatchObject({ n: 5, prompts: 3 });
    expect(b.dimensions.overall.score).toBeCloseTo(46, 9);
    expect(a.total.value).toBeCloseTo(75, 9);
    for (const g of lb.generators) {
      expect(g.dimensions.overall.lower).toBeLessThanOrEqual(g.dimensions.overall.score);
      expect(g.dimensions.overall.upper).toBeGreaterThanOrEqual(g.dimensions.overall.score);
    }
    expect(lb.pairs).toHaveLength(1);
    expect(lb.pairs[0]).toMatchObject({ a: "Gen_A", b: "Gen B", n: 3 });
    expect(lb.pairs[0].difference).toBeCloseTo(29, 9);
    expect(lb.bootstrap).toEqual({ samples: 1000, seed: 1, confidence: 0.95 });
    // The same seed gives the same answer.
    expect((await call(`/api/v1/runs/${runId}/leaderboard`)).body.leaderboard).toEqual(lb);
  });

  it("ranks by a chosen metric in its own direction, a yes/no metric as a share", async () => {
    const { status, body } = await call(`/api/v1/runs/${runId}/leaderboard?metric=verdict&samples=200&seed=9`);
    expect(status).toBe(200);
    expect(body.metric).toMatchObject({ id: "verdict", higherIsBetter: false, percent: true });
    expect(body.leaderboard.ranking).toEqual(["Gen B", "Gen_A"]);
    expect(body.leaderboard.generators[0].dimensions.verdict.score).toBeCloseTo(0.2, 12);
    expect(body.leaderboard.generators[1].dimensions.verdict.score).toBeCloseTo(0.75, 12);
    expect(body.leaderboard.bootstrap).toMatchObject({ samples: 200, seed: 9 });
  });

  it("ranks a rubric run over videos by its criterion", async () => {
    const { status, body } = await call(`/api/v1/runs/${rubricRunId}/leaderboard`);
    expect(status).toBe(200);
    expect(body.metric).toMatchObject({ id: rubricMetric, label: "Defects", higherIsBetter: false });
    expect(body.leaderboard.ranking).toEqual(["Gen_A", "Gen B"]);
    expect(body.leaderboard.generators.map((g: any) => g.dimensions[rubricMetric].score)).toEqual([1, 4]);
  });

  it("answers reviewers and viewers the same numbers, and withholds the whole board from a reviewer reviewing a video of it blind", async () => {
    const viewer = await call(`/api/v1/runs/${runId}/leaderboard`, "viewer");
    expect(viewer.status).toBe(200);
    expect(viewer.body.leaderboard.generators[1].dimensions.overall.score).toBeCloseTo(46, 9);
    const reviewer = await call(`/api/v1/runs/${runId}/leaderboard`, "reviewer");
    expect(reviewer.body.leaderboard).toEqual(viewer.body.leaderboard);
    for (const format of ["json", "csv", "latex"]) {
      const blind = await call(`/api/v1/runs/${runId}/leaderboard?format=${format}`, "blindReviewer");
      expect(blind.status, format).toBe(409);
      expect(blind.body.error).toMatchObject({
        code: "withheld",
        message: expect.stringContaining('hidden while you review "Blind" blind: 1 item left'),
      });
      expect(blind.body.error.details.withheld).toMatchObject({
        queues: [{ name: "Blind", itemsLeft: 1 }],
        blindVideos: 1,
      });
    }
  });

  it("downloads the CSV and the LaTeX", async () => {
    const csv = await call(`/api/v1/runs/${runId}/leaderboard?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="leaderboard-${runId}-overall.csv"`);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe("rank,model,overall,overall_lower,overall_upper,overall_n,total,total_lower,total_upper");
    expect(lines[1]!.startsWith("1,Gen_A,75,")).toBe(true);
    expect(lines[2]!.startsWith("2,Gen B,46,")).toBe(true);

    const tex = await call(`/api/v1/runs/${runId}/leaderboard?format=latex&metric=verdict&intervals=1`);
    expect(tex.status).toBe(200);
    expect(tex.headers.get("content-type")).toBe("application/x-latex; charset=utf-8");
    expect(tex.headers.get("content-disposition")).toBe(`attachment; filename="leaderboard-${runId}-verdict.tex"`);
    expect(tex.text).toContain("Model & Hallucination \\\\");
    expect(tex.text).toMatch(/Gen B & \\textbf\{20\.0\} \{\\scriptsize\[[0-9.]+, [0-9.]+\]\} \\\\/);
    expect(tex.text).toMatch(/Gen\\_A & 75\.0 \{\\scriptsize/);
  });

  it("refuses a metric the task does not declare, a bad query, and a run that judges items", async () => {
    const unknown = await call(`/api/v1/runs/${runId}/leaderboard?metric=style`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/no metric "style".*overall \(Overall\)/);
    expect((await call(`/api/v1/runs/${runId}/leaderboard?format=xml`)).status).toBe(400);
    expect((await call(`/api/v1/runs/${runId}/leaderboard?samples=5`)).status).toBe(400);
    expect((await call(`/api/v1/runs/${runId}/leaderboard?model=Gen_A`)).status).toBe(400);
    const items = await call(`/api/v1/runs/${captionRunId}/leaderboard`);
    expect(items.status).toBe(400);
    expect(items.body.error.message).toMatch(/not the videos/);
  });

  it("is a 404 for a non-member and for an unknown run", async () => {
    const stranger = await call(`/api/v1/runs/${runId}/leaderboard`, "stranger");
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.message).toBe("No such run.");
    expect((await call(`/api/v1/runs/nosuchrun/leaderboard`)).status).toBe(404);
  });

  it("finds no run of another project through an access to that project (lib/leaderboard scopes the run)", async () => {
    const owner = await makeUser();
    const other = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Not the run's" });
    const elsewhere = await projectAccess(prisma, owner, other.projectId, "project.view");
    await expect(runLeaderboard(prisma, elsewhere, runId, { samples: 100, seed: 1 })).rejects.toThrow("No such run.");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ForbiddenError, NotFoundError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { ReviewConflictError, reviewScore, reviewVideoOutcome, videoReviews } from "./reviews";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let reviewer: Actor;
let other: Actor;
let viewer: Actor;
let stranger: Actor;
let scoreId: string;
let runId: string;
let videoId: string;
let projectIdOfScore: string;

beforeAll(async () => {
  [owner, reviewer, other, viewer, stranger] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
  videoId = videoIds[0]!;
  projectIdOfScore = projectId;
  for (const [actor, role] of [
    [reviewer, "reviewer"],
    [other, "reviewer"],
    [viewer, "viewer"],
  ] as const) {
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role } });
  }
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
  const step = await prisma.stepResult.create({
    data: { runId: run.id, videoId, stepId: "static_hallucination", scopeIndex: 0, status: "done", templateId: "t" },
  });
  const score = await prisma.score.create({
    data: {
      runId: run.id,
      videoId,
      stepResultId: step.id,
      stepId: "static_hallucination",
      scopeIndex: 0,
      category: "s1",
      value: 7,
    },
  });
  scoreId = score.id;
  runId = run.id;
  await createRunVideo(prisma, {
    runId: run.id,
    videoId,
    frameSetId: "fs",
    status: "done",
    summary: { overall: 55, hallucination: true },
    metrics: { overall: 55, verdict: true },
  });
});

describe("human judgments of judge scores", () => {
  it("keep the judge's value, one current value per reviewer, and an append-only history", async () => {
    const first = await reviewScore(
      prisma,
      await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
      scoreId,
      { value: 3, note: "hands look fine" },
    );
    expect(first.version).toBe(1);
    const second = await reviewScore(
      prisma,
      await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
      scoreId,
      { value: 4, reason: "blur", expectedVersion: 1 },
    );
    expect(second).toMatchObject({ value: 4, version: 2, note: null, reason: "blur" });
    await reviewScore(prisma, await projectAccess(prisma, other, projectIdOfScore, "scores.review"), scoreId, {
      value: 8,
    });

    expect((await prisma.score.findUniqueOrThrow({ where: { id: scoreId } })).value).toBe(7);
    const { judgments } = await videoReviews(
      prisma,
      await projectAccess(prisma, viewer, projectIdOfScore, "project.view"),
      videoId,
    );
    const mine = judgments.find((j) => j.reviewer.id === reviewer.userId)!;
    expect(mine.judge).toMatchObject({ value: 7, category: "s1" });
    expect(mine.history.map((h) => [h.version, h.before, h.after])).toEqual([
      [1, null, { value: 3, note: "hands look fine", reason: null, acceptedJudge: false }],
      [
        2,
        { value: 3, note: "hands look fine", reason: null, acceptedJudge: false },
        { value: 4, note: null, reason: "blur", acceptedJudge: false },
      ],
    ]);
    expect(judgments.find((j) => j.reviewer.id === other.userId)!.value).toBe(8);

    const historyRow = await prisma.humanJudgmentHistory.findFirstOrThrow({ where: { judgmentId: mine.id } });
    await prisma.humanJudgmentHistory.updateMany({ where: { id: historyRow.id }, data: { after: { value: 0 } } });
    expect((await prisma.humanJudgmentHistory.findUniqueOrThrow({ where: { id: historyRow.id } })).after).toEqual(
      historyRow.after,
    );
  });

  it("refuses a save from a stale tab with a conflict, and lets exactly one of two racing saves win", async () => {
    const current = await reviewScore(
      prisma,
      await projectAccess(prisma, other, projectIdOfScore, "scores.review"),
      scoreId,
      {
        value: 5,
        expectedVersion: 1,
      },
    );
    expect(current.version).toBe(2);
    const stale = await reviewScore(
      prisma,
      await projectAccess(prisma, other, projectIdOfScore, "scores.review"),
      scoreId,
      {
        value: 6,
        expectedVersion: 1,
      },
    ).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ReviewConflictError);
    expect((stale as ReviewConflictError).status).toBe(409);
    expect((stale as Error).message).toMatch(/changed elsewhere.*version 2.*value 5/);

    const results = await Promise.allSettled([
      reviewScore(prisma, await projectAccess(prisma, other, projectIdOfScore, "scores.review"), scoreId, {
        value: 1,
        expectedVersion: 2,
      }),
      reviewScore(prisma, await projectAccess(prisma, other, projectIdOfScore, "scores.review"), scoreId, {
        value: 9,
        expectedVersion: 2,
      }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof ReviewConflictError)).toHaveLength(1);
    const judgment = await prisma.humanJudgment.findFirstOrThrow({
      where: { scoreId, reviewerId: other.userId },
      include: { history: true },
    });
    expect(judgment.version).toBe(3);
    expect(judgment.history).toHaveLength(3);
  });

  it("needs expectedVersion to update an existing judgment, and says so in the 409", async () => {
    const before = await prisma.humanJudgment.findFirstOrThrow({ where: { scoreId, reviewerId: other.userId } });
    const missing = await reviewScore(
      prisma,
      await projectAccess(prisma, other, projectIdOfScore, "scores.review"),
      scoreId,
      {
        value: 2,
      },
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ReviewConflictError);
    expect((missing as ReviewConflictError).status).toBe(409);
    expect((missing as Error).message).toBe(
      `You already judged this (version ${before.version}, value ${before.value}); send expectedVersion ${before.version} to update it.`,
    );
    expect((missing as ReviewConflictError).details).toMatchObject({
      current: { version: before.version, value: before.value },
    });
    const after = await prisma.humanJudgment.findUniqueOrThrow({ where: { id: before.id } });
    expect([after.version, after.value]).toEqual([before.version, before.value]);
    // A first judgment needs no version.
    const fresh = await makeUser();
    await prisma.projectMember.create({
      data: { projectId: projectIdOfScore, userId: fresh.userId, role: "reviewer" },
    });
    expect(
      (
        await reviewScore(prisma, await projectAccess(prisma, fresh, projectIdOfScore, "scores.review"), scoreId, {
          value: 2,
        })
      ).version,
    ).toBe(1);
  });

  it("refuses viewers, hides the score from non-members, and rejects out-of-range values", async () => {
    await expect(projectAccess(prisma, viewer, projectIdOfScore, "scores.review")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(projectAccess(prisma, stranger, projectIdOfScore, "scores.review")).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(projectAccess(prisma, stranger, projectIdOfScore, "project.view")).rejects.toBeInstanceOf(
      NotFoundError,
    );
    // Through an access to the stranger's own project, this project's score and video are not found.
    const { projectId: strangersProject } = await projectWithFramedVideos(prisma, stranger, {
      videoCount: 1,
      keyFrames: 1,
    });
    const elsewhere = await projectAccess(prisma, stranger, strangersProject, "scores.review");
    await expect(reviewScore(prisma, elsewhere, scoreId, { value: 2 })).rejects.toThrow(
      new NotFoundError("No such score."),
    );
    await expect(videoReviews(prisma, elsewhere, videoId)).rejects.toThrow(new NotFoundError("No such video."));
    await expect(
      reviewScore(prisma, await projectAccess(prisma, owner, projectIdOfScore, "scores.review"), scoreId, {
        value: 11,
      }),
    ).rejects.toThrow(/between 0 and 10/);
    expect(
      await prisma.humanJudgment.count({
        where: { scoreId, reviewerId: { in: [viewer.userId, stranger.userId, owner.userId] } },
      }),
    ).toBe(0);
  });
});

describe("human judgments of a video's verdict and overall", () => {
  it("are kept per reviewer beside the judge's summary, which stays unchanged", async () => {
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
      runId,
      videoId,
      "verdict",
      { value: 0, note: "no hallucination here" },
    );
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
      runId,
      videoId,
      "overall",
      { value: 80 },
    );
    await expect(
      reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
        runId,
        videoId,
        "verdict",
        { value: 0.5, expectedVersion: 1 },
      ),
    ).rejects.toThrow(/1 \(hallucination\) or 0/);
    await expect(
      reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, reviewer, projectIdOfScore, "scores.review"),
        runId,
        videoId,
        "overall",
        { value: 120, expectedVersion: 1 },
      ),
    ).rejects.toThrow(/between 0 and 100/);
    await expect(projectAccess(prisma, viewer, projectIdOfScore, "scores.review")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(projectAccess(prisma, stranger, projectIdOfScore, "scores.review")).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const { judgments } = await videoReviews(
      prisma,
      await projectAccess(prisma, owner, projectIdOfScore, "project.view"),
      videoId,
    );
    expect(judgments.filter((j) => j.targetType !== "score").map((j) => [j.targetType, j.value])).toEqual([
      ["overall", 80],
      ["verdict", 0],
    ]);
    expect((await prisma.runVideo.findFirstOrThrow({ where: { runId, videoId } })).summary).toEqual({
      overall: 55,
      hallucination: true,
    });
  });

  it("record the judge's value beside the reviewer's, and whether they disagree", async () => {
    const rows = await prisma.humanJudgment.findMany({
      where: { videoId, reviewerId: reviewer.userId },
      orderBy: { targetType: "asc" },
    });
    expect(rows.map((r) => [r.targetType, r.value, r.judgeValue, r.disagrees])).toEqual([
      ["overall", 80, 55, true],
      ["score", 4, 7, true],
      ["verdict", 0, 1, true],
    ]);
    const agreed = await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, other, projectIdOfScore, "scores.review"),
      runId,
      videoId,
      "overall",
      { value: 60 },
    );
    expect([agreed.judgeValue, agreed.disagrees]).toEqual([55, false]);
  });
});

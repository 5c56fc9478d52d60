import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as reviewsRoute } from "../videos/[videoId]/reviews/route";
import { PUT as reviewRoute } from "./[scoreId]/review/route";

let scoreId: string;
let videoId: string;
let keys: { reviewer: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [owner, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 1,
    keyFrames: 1,
    name: "Review API",
  });
  videoId = videoIds[0]!;
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: reviewer.userId, role: "reviewer" },
      { projectId, userId: viewer.userId, role: "viewer" },
    ],
  });
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
  const step = await prisma.stepResult.create({
    data: { runId: run.id, videoId, stepId: "static_hallucination", scopeIndex: 0, status: "done", templateId: "t" },
  });
  scoreId = (
    await prisma.score.create({
      data: {
        runId: run.id,
        videoId,
        stepResultId: step.id,
        stepId: "static_hallucination",
        scopeIndex: 0,
        category: "s2",
        value: 6,
      },
    })
  ).id;
  keys = {
    reviewer: (await createApiKey(prisma, reviewer.userId, "t")).key,
    viewer: (await createApiKey(prisma, viewer.userId, "t")).key,
    stranger: (await createApiKey(prisma, stranger.userId, "t")).key,
  };
});

const put = (key: string, body: unknown) =>
  reviewRoute(
    apiRequest(`/api/v1/scores/${scoreId}/review`, key, { method: "PUT", body: JSON.stringify(body) }),
    routeContext({ scoreId }),
  );

describe("PUT /api/v1/scores/:id/review", () => {
  it("refuses viewers (403) and non-members (404), and malformed bodies (400)", async () => {
    expect((await put(keys.viewer, { value: 3 })).status).toBe(403);
    expect((await put(keys.stranger, { value: 3 })).status).toBe(404);
    expect((await put(keys.reviewer, { value: "three" })).status).toBe(400);
    expect(await prisma.humanJudgment.count({ where: { scoreId } })).toBe(0);
  });

  it("answers a stale tab with 409 and the current version and value, overwriting nothing", async () => {
    const first = await put(keys.reviewer, { value: 3, note: "first tab" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ value: 3, version: 1 });
    expect((await put(keys.reviewer, { value: 4, expectedVersion: 1 })).status).toBe(200);

    const stale = await put(keys.reviewer, { value: 9, expectedVersion: 1 });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as {
      error: { code: string; message: string; details: { current: { version: number; value: number } } };
    };
    expect(body.error.code).toBe("conflict");
    expect(body.error.details.current).toMatchObject({ version: 2, value: 4 });

    const reviews = (await (
      await reviewsRoute(apiRequest(`/api/v1/videos/${videoId}/reviews`, keys.viewer), routeContext({ videoId }))
    ).json()) as {
      judgments: {
        value: number;
        judge: { value: number };
        history: { version: number; before: { value: number } | null; after: { value: number } }[];
      }[];
    };
    expect(reviews.judgments).toHaveLength(1);
    expect(reviews.judgments[0]!.value).toBe(4);
    expect(reviews.judgments[0]!.judge.value).toBe(6);
    expect(reviews.judgments[0]!.history.map((h) => [h.version, h.before?.value ?? null, h.after.value])).toEqual([
      [1, null, 3],
      [2, 3, 4],
    ]);
  });
});

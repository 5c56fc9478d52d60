import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as reviewsRoute } from "../videos/[videoId]/reviews/route";
import { PUT as reviewRoute } from "../scores/[scoreId]/review/route";
import { DELETE as withdrawRoute } from "./[judgmentId]/route";

let scoreId: string;
let videoId: string;
let keys: { reviewer: string; other: string };

beforeAll(async () => {
  const [owner, reviewer, other] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 1,
    keyFrames: 1,
    name: "Withdraw API",
  });
  videoId = videoIds[0]!;
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: reviewer.userId, role: "reviewer" },
      { projectId, userId: other.userId, role: "reviewer" },
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
    other: (await createApiKey(prisma, other.userId, "t")).key,
  };
});

const put = (key: string, body: unknown) =>
  reviewRoute(
    apiRequest(`/api/v1/scores/${scoreId}/review`, key, { method: "PUT", body: JSON.stringify(body) }),
    routeContext({ scoreId }),
  );
const withdraw = (key: string, judgmentId: string, body: unknown) =>
  withdrawRoute(
    apiRequest(`/api/v1/judgments/${judgmentId}`, key, { method: "DELETE", body: JSON.stringify(body) }),
    routeContext({ judgmentId }),
  );
const reviews = async () =>
  (await (
    await reviewsRoute(apiRequest(`/api/v1/videos/${videoId}/reviews`, keys.other), routeContext({ videoId }))
  ).json()) as { judgments: { id: string }[] };

describe("DELETE /api/v1/judgments/:id", () => {
  it("withdraws the caller's own judgment with the version they saw; accepted values say so in the PUT answer", async () => {
    const saved = await put(keys.reviewer, { value: 6, acceptedJudge: true });
    expect(saved.status).toBe(200);
    const judgment = (await saved.json()) as { id: string; version: number; acceptedJudge: boolean };
    expect(judgment).toMatchObject({ version: 1, acceptedJudge: true });

    expect((await withdraw(keys.reviewer, judgment.id, {})).status).toBe(400);
    expect((await withdraw(keys.other, judgment.id, { expectedVersion: 1 })).status).toBe(404);
    expect((await withdraw(keys.reviewer, judgment.id, { expectedVersion: 3 })).status).toBe(409);
    expect((await reviews()).judgments.map((j) => j.id)).toEqual([judgment.id]);

    const done = await withdraw(keys.reviewer, judgment.id, { expectedVersion: 1 });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ id: judgment.id, withdrawn: true, version: 2 });
    expect((await reviews()).judgments).toEqual([]);
    expect(await prisma.humanJudgmentHistory.count({ where: { judgmentId: judgment.id } })).toBe(2);

    const again = await put(keys.reviewer, { value: 4 });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: judgment.id, version: 3, acceptedJudge: false });
  });
});

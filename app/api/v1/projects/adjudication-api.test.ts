import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { createQueue } from "@/lib/queues/create-queue";
import { reviewScore } from "@/lib/reviews/reviews";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as adjudicationRoute } from "./[projectId]/adjudication/route";
import { PUT as goldRoute } from "./[projectId]/gold/route";
import { PATCH as queueRoute } from "../queues/[queueId]/route";

let projectId: string;
let queueId: string;
let keys: { owner: string; reviewer: string };

beforeAll(async () => {
  const [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const made = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Adjudication API" });
  projectId = made.projectId;
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  const run = await seedFinishedRun(prisma, owner, projectId, made.videoIds, {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 8 }],
    outcome: () => ({ verdict: true, overall: 30 }),
  });
  // A spread of 7 on s1 (gap 2).
  const scoreId = run.scoreIds.get("0:static_hallucination:0:s1")!;
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), scoreId, { value: 2 });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), scoreId, { value: 9 });
  queueId = (
    await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "q",
      filter: {},
      scope: "verdict",
    })
  ).id;
  keys = {
    owner: (await createApiKey(prisma, owner.userId, "t")).key,
    reviewer: (await createApiKey(prisma, ann.userId, "t")).key,
  };
});

const list = (key: string, query = "") =>
  adjudicationRoute(apiRequest(`/api/v1/projects/${projectId}/adjudication${query}`, key), routeContext({ projectId }));
const put = (key: string, body: unknown) =>
  goldRoute(
    apiRequest(`/api/v1/projects/${projectId}/gold`, key, { method: "PUT", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );

describe("adjudication API", () => {
  it("lists the disputed target for owners, sets gold, and answers a stale version with 409 and the current gold", async () => {
    expect((await list(keys.reviewer)).status).toBe(403);
    expect((await list(keys.owner, "?state=maybe")).status).toBe(400);
    const listed = await list(keys.owner);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as {
      total: number;
      items: { targetKey: string; disagreement: string; reviews: { value: number }[] }[];
    };
    expect(body.total).toBe(1);
    expect(body.items[0]!.disagreement).toBe("spread");
    const targetKey = body.items[0]!.targetKey;

    expect((await put(keys.reviewer, { targetKey, value: 5 })).status).toBe(403);
    const first = await put(keys.owner, { targetKey, value: 5, note: "blur only" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ value: 5, note: "blur only", version: 1 });
    const stale = await put(keys.owner, { targetKey, value: 6, expectedVersion: 0 });
    expect(stale.status).toBe(409);
    expect(
      ((await stale.json()) as { error: { details: { current: { version: number; value: number } } } }).error.details
        .current,
    ).toMatchObject({ version: 1, value: 5 });
    expect((await put(keys.owner, { targetKey, value: 6, expectedVersion: 1 })).status).toBe(200);
    expect((await put(keys.owner, { targetKey, value: 12, expectedVersion: 2 })).status).toBe(400);
  });

  it("PATCH /api/v1/queues/:id archives and assigns for owners only", async () => {
    const patch = (key: string, body: unknown) =>
      queueRoute(
        apiRequest(`/api/v1/queues/${queueId}`, key, { method: "PATCH", body: JSON.stringify(body) }),
        routeContext({ queueId }),
      );
    expect((await patch(keys.reviewer, { archived: true })).status).toBe(403);
    expect((await patch(keys.owner, {})).status).toBe(400);
    const archived = await patch(keys.owner, { archived: true });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ archived: true, assignees: [] });
  });
});

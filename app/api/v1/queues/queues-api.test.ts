import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { POST as createRoute, GET as listRoute } from "../projects/[projectId]/queues/route";
import { GET as previewRoute } from "../projects/[projectId]/queues/preview/route";
import { GET as queueRoute } from "./[queueId]/route";
import { POST as nextRoute } from "./[queueId]/next/route";
import { GET as itemRoute } from "./[queueId]/items/[itemId]/route";
import { POST as submitRoute } from "./[queueId]/items/[itemId]/submit/route";
import { createRunVideo } from "@/testkit/testing/run-video-fixture";

let projectId: string;
let keys: { owner: string; reviewer: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [owner, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  const { projectId: id, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Queue API",
  });
  projectId = id;
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
  for (const videoId of videoIds) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { overall: 42.5, hallucination: true },
      metrics: { overall: 42.5, verdict: true },
    });
  }
  keys = {
    owner: (await createApiKey(prisma, owner.userId, "t")).key,
    reviewer: (await createApiKey(prisma, reviewer.userId, "t")).key,
    viewer: (await createApiKey(prisma, viewer.userId, "t")).key,
    stranger: (await createApiKey(prisma, stranger.userId, "t")).key,
  };
});

describe("/api/v1 review queues", () => {
  it("creates a blind queue, hands out an item without the judge's values, and takes a submission", async () => {
    const body = JSON.stringify({ name: "Blind verdicts", filter: { prompt: "ramp" }, scope: "verdict", blind: true });
    expect(
      (
        await createRoute(
          apiRequest(`/api/v1/projects/${projectId}/queues`, keys.viewer, { method: "POST", body }),
          routeContext({ projectId }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await createRoute(
          apiRequest(`/api/v1/projects/${projectId}/queues`, keys.stranger, { method: "POST", body }),
          routeContext({ projectId }),
        )
      ).status,
    ).toBe(404);
    const bad = await createRoute(
      apiRequest(`/api/v1/projects/${projectId}/queues`, keys.owner, {
        method: "POST",
        body: JSON.stringify({ name: "x", scope: "everything" }),
      }),
      routeContext({ projectId }),
    );
    expect(bad.status).toBe(400);
    const preview = await previewRoute(
      apiRequest(`/api/v1/projects/${projectId}/queues/preview?prompt=ramp&verdict=yes`, keys.owner),
      routeContext({ projectId }),
    );
    expect(await preview.json()).toMatchObject({ count: 2 });
    // The targets per video of the chosen categories (this run has no scores: none to grade).
    const counted = await previewRoute(
      apiRequest(`/api/v1/projects/${projectId}/queues/preview?prompt=ramp&categories=s1,d1`, keys.owner),
      routeContext({ projectId }),
    );
    expect(await counted.json()).toMatchObject({
      count: 2,
      targets: { full: { min: 0, max: 0 }, presenceFirst: { questions: 2 } },
    });
    expect(
      (
        await previewRoute(
          apiRequest(`/api/v1/projects/${projectId}/queues/preview?categories=nope`, keys.owner),
          routeContext({ projectId }),
        )
      ).status,
    ).toBe(400);

    const created = await createRoute(
      apiRequest(`/api/v1/projects/${projectId}/queues`, keys.owner, { method: "POST", body }),
      routeContext({ projectId }),
    );
    expect(created.status).toBe(201);
    const { id: queueId, itemCount } = (await created.json()) as { id: string; itemCount: number };
    expect(itemCount).toBe(2);
    const list = (await (
      await listRoute(apiRequest(`/api/v1/projects/${projectId}/queues`, keys.viewer), routeContext({ projectId }))
    ).json()) as { queues: { id: string }[] };
    expect(list.queues.map((q) => q.id)).toContain(queueId);
    // The answer is what the route's declared schema says, field for field (a field it does not declare is stripped).
    expect(declaredAnswer(listRoute, 200, list)).toEqual(list);

    expect(
      (
        await nextRoute(
          apiRequest(`/api/v1/queues/${queueId}/next`, keys.viewer, { method: "POST" }),
          routeContext({ queueId }),
        )
      ).status,
    ).toBe(403);
    const { itemId } = (await (
      await nextRoute(
        apiRequest(`/api/v1/queues/${queueId}/next`, keys.reviewer, { method: "POST" }),
        routeContext({ queueId }),
      )
    ).json()) as { itemId: string };
    expect(itemId).toEqual(expect.any(String));

    const item = await itemRoute(
      apiRequest(`/api/v1/queues/${queueId}/items/${itemId}`, keys.reviewer),
      routeContext({ queueId, itemId }),
    );
    const text = await item.text();
    expect(item.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ blind: true, item: { id: itemId } });
    expect(text).not.toContain("42.5");
    expect(text).not.toContain('"judge');

    const submit = (key: string, judgments: unknown) =>
      submitRoute(
        apiRequest(`/api/v1/queues/${queueId}/items/${itemId}/submit`, key, {
          method: "POST",
          body: JSON.stringify({ judgments }),
        }),
        routeContext({ queueId, itemId }),
      );
    expect((await submit(keys.viewer, [{ target: "verdict", value: 1 }])).status).toBe(403);
    const missing = await submit(keys.reviewer, []);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /missing: Hallucination verdict/,
    );
    const ok = await submit(keys.reviewer, [{ target: "verdict", value: 0, note: "looks physical" }]);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "done", counted: true });

    const after = (await (
      await itemRoute(
        apiRequest(`/api/v1/queues/${queueId}/items/${itemId}`, keys.reviewer),
        routeContext({ queueId, itemId }),
      )
    ).json()) as {
      blind: boolean;
      judgeSummary: { overall: number };
    };
    expect(after).toMatchObject({ blind: false, judgeSummary: { overall: 42.5 } });
    const queue = (await (
      await queueRoute(apiRequest(`/api/v1/queues/${queueId}`, keys.viewer), routeContext({ queueId }))
    ).json()) as {
      progress: { complete: number; reviewers: { done: number }[] };
    };
    expect(queue.progress).toMatchObject({ complete: 1, reviewers: [{ done: 1 }] });
    expect(declaredAnswer(queueRoute, 200, queue)).toEqual(queue);
    expect(
      (await queueRoute(apiRequest(`/api/v1/queues/${queueId}`, keys.stranger), routeContext({ queueId }))).status,
    ).toBe(404);
  });

  it("submit?next=1 claims the reviewer's next item and returns it, still blind; null when nothing is left", async () => {
    const created = await createRoute(
      apiRequest(`/api/v1/projects/${projectId}/queues`, keys.owner, {
        method: "POST",
        body: JSON.stringify({ name: "Submit and next", filter: { prompt: "ramp" }, scope: "verdict", blind: true }),
      }),
      routeContext({ projectId }),
    );
    const { id: queueId } = (await created.json()) as { id: string };
    const { itemId: first } = (await (
      await nextRoute(
        apiRequest(`/api/v1/queues/${queueId}/next`, keys.owner, { method: "POST" }),
        routeContext({ queueId }),
      )
    ).json()) as { itemId: string };
    const submitAndNext = (itemId: string, query = "?next=1") =>
      submitRoute(
        apiRequest(`/api/v1/queues/${queueId}/items/${itemId}/submit${query}`, keys.owner, {
          method: "POST",
          body: JSON.stringify({ judgments: [{ target: "verdict", value: 1 }] }),
        }),
        routeContext({ queueId, itemId }),
      );
    expect((await submitAndNext(first, "?next=yes")).status).toBe(400);

    const response = await submitAndNext(first);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const body = JSON.parse(text) as {
      status: string;
      next: {
        item: { id: string };
        blind: boolean;
        assignment: { status: string };
        nav: { index: number; previousItemId: string };
      };
    };
    expect(body).toMatchObject({
      status: "done",
      next: { blind: true, assignment: { status: "claimed" }, nav: { index: 1, previousItemId: first } },
    });
    expect(body.next.item.id).not.toBe(first);
    // The next item is blind: the judge's values stay out of the whole answer.
    expect(text).not.toContain("42.5");
    const claims = await prisma.reviewQueueAssignment.findMany({ where: { queueId, status: "claimed" } });
    expect(claims.map((c) => c.itemId)).toEqual([body.next.item.id]);

    const last = (await (await submitAndNext(body.next.item.id)).json()) as { status: string; next: unknown };
    expect(last).toEqual(expect.objectContaining({ status: "done", next: null }));
    // Without ?next the answer is the submission alone.
    const again = (await (await submitAndNext(first, "")).json()) as Record<string, unknown>;
    expect(again).not.toHaveProperty("next");
  });
});

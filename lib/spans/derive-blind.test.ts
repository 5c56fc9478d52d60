/**
 * Deriving a run's judge spans again answers with totals over the run's finished videos: an owner reviewing one of
 * them blind is refused (409 withheld) before anything is derived, so the totals never count a video hidden from them.
 */
import { describe, expect, it } from "vitest";
import { POST as rederiveRoute } from "@/app/api/v1/runs/[runId]/judge-spans/route";
import { createApiKey } from "../auth/api-keys";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createQueue } from "../queues/create-queue";
import { nextItem } from "../queues/next-item";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";

const times = Array.from({ length: 50 }, (_, i) => i * 0.04);

describe("deriving a run's judge spans for an owner reviewing blind", () => {
  it("is withheld whole while they review one of the run's videos blind, and derives once they no longer do", async () => {
    const owner = await makeUser();
    const key = (await createApiKey(prisma, owner.userId, "t")).key;
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 });
    for (const videoId of videoIds)
      await prisma.videoFrameTimes.create({ data: { videoId, timesS: times, endS: 2, variable: false } });
    const { runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 1, category: "s4", value: 9 }],
      outcome: () => ({ verdict: true, overall: 50 }),
    });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Blind",
      filter: {},
      scope: "verdict",
      blind: true,
      videoIds: [videoIds[1]!],
    });
    await nextItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id);
    const post = () =>
      rederiveRoute(apiRequest(`/api/v1/runs/${runId}/judge-spans`, key, { method: "POST" }), routeContext({ runId }));

    const withheld = await post();
    expect(withheld.status).toBe(409);
    const body = (await withheld.json()) as { error: { code: string; details: { withheld: { blindVideos: number } } } };
    expect(body.error).toMatchObject({ code: "withheld", details: { withheld: { blindVideos: 1 } } });
    expect(JSON.stringify(body)).not.toContain(videoIds[1]!);
    expect(await prisma.span.count({ where: { runId } })).toBe(0);

    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
    const derived = await post();
    expect(derived.status).toBe(200);
    expect(await derived.json()).toMatchObject({ videos: 2, spans: 2 });
  });
});

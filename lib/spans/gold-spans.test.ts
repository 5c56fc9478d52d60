import { beforeAll, describe, expect, it } from "vitest";
import { GET as adjudicationSpansRoute } from "@/app/api/v1/projects/[projectId]/adjudication/spans/route";
import { POST as goldSpanRoute } from "@/app/api/v1/videos/[videoId]/gold-spans/route";
import type { Actor } from "../auth/actor";
import { createApiKey } from "../auth/api-keys";
import { projectAccess } from "../authz/permissions";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "../db/prisma";
import { spanAdjudication, spanAdjudicationQuerySchema } from "../adjudication/span-adjudication";
import { createQueue } from "../queues/create-queue";
import { nextItem } from "../queues/next-item";
import type { ObjectStorage } from "../storage/object-storage";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createGoldSpan } from "./gold-spans";
import { insertEndpoint, insertFinishedRun } from "../../testkit/testing/raw-rows";
import { createSpan, insertSpans, SpanConflictError, spanHistory, updateSpan, withdrawSpan } from "./span-store";
import { judgeAuthorId } from "./span-types";

/*
 * Two reviewers mark s1 on the first video: ann frames 0–9, bob 5–14 (they share 5 of 15 frames: disagreement 2/3);
 * on the second video both mark d1 at 3–4 (they agree). Twenty frames of 0.1 s each.
 */
const deps = { prisma, storage: {} as ObjectStorage };
const catalogue = builtInCatalogue().declarations();
let owner: Actor & { key: string };
let ann: Actor & { key: string };
let bob: Actor;
let projectId: string;
let videos: { id: string; projectId: string; storageKey: string }[];
let annSpanId: string;

async function member(role: "reviewer" | "owner"): Promise<Actor & { key: string }> {
  const user = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: user.userId, role } });
  return { ...user, key: (await createApiKey(prisma, user.userId, "t")).key };
}

const mark = async (actor: Actor, video: number, label: string, startFrame: number, endFrame: number) =>
  createSpan(
    deps,
    await projectAccess(prisma, actor, projectId, "scores.review"),
    videos[video]!,
    { task: "hallucination", label, itemId: "", startFrame, endFrame, boxes: [], note: "" },
    { catalogue },
  );

beforeAll(async () => {
  const made = await makeUser();
  const framed = await projectWithFramedVideos(prisma, made, { videoCount: 2, keyFrames: 1, name: "Gold spans" });
  projectId = framed.projectId;
  owner = { ...made, key: (await createApiKey(prisma, made.userId, "t")).key };
  ann = await member("reviewer");
  bob = await member("reviewer");
  await seedFinishedRun(prisma, owner, projectId, framed.videoIds, {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 8 }],
    outcome: () => ({ verdict: true, overall: 30 }),
  });
  videos = await prisma.video.findMany({
    where: { id: { in: framed.videoIds } },
    orderBy: { relativePath: "asc" },
    select: { id: true, projectId: true, storageKey: true },
  });
  for (const v of videos)
    await prisma.videoFrameTimes.create({
      data: { videoId: v.id, timesS: Array.from({ length: 20 }, (_, i) => i / 10), endS: 2, variable: false },
    });
  annSpanId = (await mark(ann, 0, "s1", 0, 9)).id;
  await mark(bob, 0, "s1", 5, 14);
  await mark(ann, 1, "d1", 3, 4);
  await mark(bob, 1, "d1", 3, 4);
});

describe("gold spans", () => {
  it("lists the reviewers' spans per label, most disputed first, for owners only", async () => {
    // Owners only: the route's wrapper checks gold.set before the spans are read.
    const refused = await adjudicationSpansRoute(
      apiRequest(`/api/v1/projects/${projectId}/adjudication/spans`, ann.key),
      routeContext({ projectId }),
    );
    expect(refused.status).toBe(403);
    const { total, items } = await spanAdjudication(prisma, owner, projectId, spanAdjudicationQuerySchema.parse({}));
    expect(total).toBe(2);
    expect(items.map((i) => i.video.id)).toEqual([videos[0]!.id, videos[1]!.id]);
    expect(items[0]!.disagreement).toBeCloseTo(1 - 5 / 15, 12);
    expect(items[1]!.disagreement).toBe(0);
    const s1 = items[0]!.labels.find((l) => l.label === "s1")!;
    expect(s1.name).toBe("Geometric structure irrationality");
    expect(s1.reviewers.map((r) => r.spans.map((s) => [s.startFrame, s.endFrame]))).toEqual([[[0, 9]], [[5, 14]]]);
    const bad = await adjudicationSpansRoute(
      apiRequest(`/api/v1/projects/${projectId}/adjudication/spans?state=maybe`, owner.key),
      routeContext({ projectId }),
    );
    expect(bad.status).toBe(400);
  });

  it("accepts a reviewer's span as gold, draws one, and versions changes (409 on a stale version) with history", async () => {
    await expect(projectAccess(prisma, ann, projectId, "gold.set")).rejects.toMatchObject({
      status: 403,
    });
    const goldAccess = await projectAccess(prisma, owner, projectId, "gold.set");
    // A video of another project is not found through an access to this one.
    await expect(
      createGoldSpan(
        deps,
        goldAccess,
        { ...videos[0]!, projectId: "another-project" },
        { fromSpanId: annSpanId },
        catalogue,
      ),
    ).rejects.toMatchObject({ status: 404 });
    const accepted = await createGoldSpan(
      deps,
      goldAccess,
      videos[0]!,
      { fromSpanId: annSpanId, note: "ann is right" },
      catalogue,
    );
    expect(accepted).toMatchObject({ authorKind: "gold", authorId: "gold", label: "s1", startFrame: 0, endFrame: 9 });
    expect(accepted.note).toBe("ann is right");
    await expect(createGoldSpan(deps, goldAccess, videos[0]!, { fromSpanId: accepted.id }, catalogue)).rejects.toThrow(
      /gold already/,
    );
    await expect(
      createGoldSpan(deps, goldAccess, videos[1]!, { fromSpanId: annSpanId }, catalogue),
    ).rejects.toMatchObject({
      status: 404,
    });

    const post = (videoId: string, body: unknown) =>
      goldSpanRoute(
        apiRequest(`/api/v1/videos/${videoId}/gold-spans`, owner.key, { method: "POST", body: JSON.stringify(body) }),
        routeContext({ videoId }),
      );
    const drawnBody = { task: "hallucination", label: "d1", startFrame: 3, endFrame: 4 };
    expect((await post(videos[1]!.id, { ...drawnBody, label: "nope" })).status).toBe(400);
    expect((await post(videos[1]!.id, { ...drawnBody, endFrame: 20 })).status).toBe(400);
    expect((await post(videos[1]!.id, { ...drawnBody, fromSpanId: annSpanId })).status).toBe(400);
    const drawn = await post(videos[1]!.id, drawnBody);
    expect(drawn.status).toBe(201);
    expect(await drawn.json()).toMatchObject({ authorKind: "gold", label: "d1", startFrame: 3, endFrame: 4 });

    const moved = await updateSpan(
      deps,
      await projectAccess(prisma, owner, projectId, "scores.review"),
      accepted.id,
      { expectedVersion: 1, endFrame: 7 },
      catalogue,
    );
    expect(moved.version).toBe(2);
    const stale = await updateSpan(
      deps,
      await projectAccess(prisma, owner, projectId, "scores.review"),
      accepted.id,
      { expectedVersion: 1, endFrame: 8 },
      catalogue,
    ).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(SpanConflictError);
    expect((stale as SpanConflictError).details).toMatchObject({ current: { version: 2, endFrame: 7 } });
    await expect(
      updateSpan(
        deps,
        await projectAccess(prisma, ann, projectId, "scores.review"),
        accepted.id,
        { expectedVersion: 2, endFrame: 8 },
        catalogue,
      ),
    ).rejects.toMatchObject({ status: 403 });
    expect((await spanHistory(prisma, accepted.id)).map((h) => [h.version, h.changedBy])).toEqual([
      [1, owner.userId],
      [2, owner.userId],
    ]);
    const { items, settled } = await spanAdjudication(prisma, owner, projectId, spanAdjudicationQuerySchema.parse({}));
    expect(settled).toBe(2);
    const gold = items[0]!.labels.find((l) => l.label === "s1")!.gold;
    expect(gold.map((g) => [g.endFrame, g.history.map((h) => h.version)])).toEqual([[7, [1, 2]]]);
    await withdrawSpan(deps, await projectAccess(prisma, owner, projectId, "scores.review"), accepted.id, 2);
    const open = await spanAdjudication(prisma, owner, projectId, spanAdjudicationQuerySchema.parse({ state: "open" }));
    expect(open.items.map((i) => i.video.id)).toEqual([videos[0]!.id]);
  });

  it("hides and refuses the videos the owner reviews blind", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Blind",
      filter: {},
      scope: "verdict",
      blind: true,
      videoIds: [videos[1]!.id],
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id);
    const held = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).videoId;
    const { items } = await spanAdjudication(prisma, owner, projectId, spanAdjudicationQuerySchema.parse({}));
    expect(items.map((i) => i.video.id)).not.toContain(held);
    expect(items.length).toBeGreaterThan(0);
    const video = videos.find((v) => v.id === held)!;
    await expect(
      createGoldSpan(
        deps,
        await projectAccess(prisma, owner, projectId, "gold.set"),
        video,
        { task: "hallucination", label: "s1", startFrame: 0, endFrame: 0 },
        catalogue,
      ),
    ).rejects.toMatchObject({ status: 403 });
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
  });

  it("neither shows nor changes a gold span of a video the owner reviews blind, not even through a stale version's 409", async () => {
    const gold = await createGoldSpan(
      deps,
      await projectAccess(prisma, owner, projectId, "gold.set"),
      videos[1]!,
      { task: "hallucination", label: "s1", startFrame: 2, endFrame: 6, note: "gold note" },
      catalogue,
    );
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Blind again",
      filter: {},
      scope: "verdict",
      blind: true,
      videoIds: [videos[1]!.id],
    });
    await nextItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id);
    const refusals = [
      await updateSpan(
        deps,
        await projectAccess(prisma, owner, projectId, "scores.review"),
        gold.id,
        { expectedVersion: 7, endFrame: 8 },
        catalogue,
      ).catch((e: unknown) => e),
      await updateSpan(
        deps,
        await projectAccess(prisma, owner, projectId, "scores.review"),
        gold.id,
        { expectedVersion: 1, endFrame: 8 },
        catalogue,
      ).catch((e: unknown) => e),
      await withdrawSpan(deps, await projectAccess(prisma, owner, projectId, "scores.review"), gold.id, 7).catch(
        (e: unknown) => e,
      ),
      await withdrawSpan(deps, await projectAccess(prisma, owner, projectId, "scores.review"), gold.id, 1).catch(
        (e: unknown) => e,
      ),
    ];
    for (const refusal of refusals) {
      expect(refusal).not.toBeInstanceOf(SpanConflictError);
      expect(refusal).toMatchObject({ status: 404, message: "No such span of yours." });
      expect(JSON.stringify((refusal as { details?: unknown }).details ?? null)).not.toContain("gold note");
    }
    expect(await prisma.span.findUniqueOrThrow({ where: { id: gold.id } })).toMatchObject({
      version: 1,
      endFrame: 6,
      withdrawn: false,
    });
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
    expect(
      (
        await updateSpan(
          deps,
          await projectAccess(prisma, owner, projectId, "scores.review"),
          gold.id,
          { expectedVersion: 1, endFrame: 8 },
          catalogue,
        )
      ).version,
    ).toBe(2);
  });

  it("names the latest judge run's spans of each item beside the reviewers', never two runs' at once", async () => {
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "stub",
      baseUrl: "http://stub",
      model: "m",
      createdById: owner.userId,
    });
    const runs: string[] = [];
    for (const at of [0, 1]) {
      const runId = await insertFinishedRun(prisma, {
        projectId,
        pipeline: "hallucination",
        endpointId,
        createdById: owner.userId,
        endpointSnapshot: { name: "stub", model: "m" },
      });
      await prisma.judgeRun.update({ where: { id: runId }, data: { createdAt: new Date(Date.UTC(2030, 0, 1 + at)) } });
      runs.push(runId);
      await prisma.$transaction((tx) =>
        insertSpans(
          tx,
          [
            {
              projectId,
              videoId: videos[0]!.id,
              task: "hallucination",
              label: "s1",
              itemId: "",
              startFrame: at,
              endFrame: at + 2,
              startS: at / 10,
              endS: (at + 3) / 10,
              boxes: [],
              note: "",
              authorKind: "judge",
              authorId: judgeAuthorId(runId),
              runId,
            },
          ],
          owner.userId,
        ),
      );
    }
    const { items } = await spanAdjudication(prisma, owner, projectId, spanAdjudicationQuerySchema.parse({}));
    const first = items.find((i) => i.video.id === videos[0]!.id)!;
    expect(first.judge?.runId).toBe(runs[1]);
    expect(first.judge?.spans.map((s) => [s.runId, s.startFrame, s.endFrame])).toEqual([[runs[1], 1, 3]]);
    expect(items.find((i) => i.video.id === videos[1]!.id)!.judge).toBeNull();
  });
});

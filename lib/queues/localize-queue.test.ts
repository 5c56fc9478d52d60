import { beforeAll, describe, expect, it } from "vitest";
import { GET as listSpans, POST as markSpan } from "@/app/api/v1/videos/[videoId]/spans/route";
import type { Actor } from "../auth/actor";
import { createApiKey } from "../auth/api-keys";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { insertSpans, type NewSpan } from "../spans/span-store";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { createQueue } from "./create-queue";
import { getQueueItem } from "./get-queue-item";
import { localizeProblem } from "./localize";
import { nextItem } from "./next-item";
import { submitItem } from "./submit-item";
import { queueJson } from "./queue-json";

/*
 * Presence first, then where. The judge scored s1 at two key frames (2, 7: present at t = 5), s2 (1, 0) and d1 (3):
 * the reviewer grades s1 and any category they mark present; a localising queue also asks a span of each.
 */
let owner: Actor;
let projectId: string;
let videoIds: string[];

async function reviewer(): Promise<Actor & { key: string }> {
  const user = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: user.userId, role: "reviewer" } });
  return { ...user, key: (await createApiKey(prisma, user.userId, "t")).key };
}

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 2,
    name: "Localising queue",
  }));
  await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: () => [
      { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 2 },
      { stepId: "static_hallucination", scopeIndex: 1, category: "s1", value: 7 },
      { stepId: "static_hallucination", scopeIndex: 0, category: "s2", value: 1 },
      { stepId: "dynamic_hallucination", scopeIndex: 0, category: "d1", value: 3 },
    ],
    outcome: () => ({ verdict: true, overall: 50 }),
  });
  // Ten frames of 0.1 s each: the spans' frames and seconds (read from the file elsewhere; stored here).
  for (const videoId of videoIds)
    await prisma.videoFrameTimes.create({
      data: { videoId, timesS: Array.from({ length: 10 }, (_, i) => i / 10), endS: 1, variable: false },
    });
});

const localizing = async (name: string, extra: Record<string, unknown> = {}) =>
  createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name,
    filter: {},
    scope: "scores",
    categories: ["s1", "s2", "d1"],
    mode: "presence",
    localize: true,
    ...extra,
  });

function postSpan(key: string, videoId: string, body: Record<string, unknown>) {
  return markSpan(
    apiRequest(`/api/v1/videos/${videoId}/spans`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ videoId }),
  );
}

/** A one-frame d1 span at `frame` (the author is set by the caller). */
function newSpan(videoId: string, frame: number): Omit<NewSpan, "authorKind" | "authorId"> {
  return {
    projectId,
    videoId,
    task: "hallucination",
    label: "d1",
    itemId: "",
    startFrame: frame,
    endFrame: frame,
    startS: frame / 10,
    endS: (frame + 1) / 10,
    boxes: [],
    note: "",
  };
}

const presence = [
  { category: "s1", value: 1 as const },
  { category: "s2", value: 1 as const },
  { category: "d1", value: 0 as const },
];

describe("queues that localise", () => {
  it("stores the option and shows the span task, labels and the labels a present answer requires", async () => {
    const queue = await localizing("Where, presence first");
    expect(queueJson(queue).localize).toBe(true);
    const plain = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Plain",
      filter: {},
      scope: "verdict",
    });
    expect(plain.localize).toBe(false);
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.queue.localize).toBe(true);
    expect(item.localize!.task).toBe("hallucination");
    expect(item.localize!.labels.map((l) => l.id)).toContain("d9");
    expect(item.localize!.requiredWhenPresent).toEqual(["s1", "s2", "d1"]);
    // On its own (no presence step) the spans are asked, none required.
    const verdict = await localizing("Verdict where", { scope: "verdict", mode: "full", categories: [] });
    const first = await nextItem(prisma, await queueAccess(prisma, me, verdict.id, "scores.review"), verdict.id);
    expect(
      (
        await getQueueItem(
          prisma,
          await queueAccess(prisma, me, verdict.id, "scores.review"),
          verdict.id,
          first.itemId!,
        )
      ).localize!.requiredWhenPresent,
    ).toEqual([]);
  });

  it("refuses a submission that marks a label present without a span of it (400 naming the labels), then takes it", async () => {
    const queue = await localizing("Where, refused then taken");
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    const judgments = item.targets.map((t) => ({ target: t.key, value: t.category === "d1" ? 0 : 4 }));
    const refused = await submitItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
      { presence, judgments },
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: "spans_missing", details: { labels: ["s1", "s2"] } });
    expect((refused as Error).message).toMatch(/no span of s1 \(Geometric structure irrationality\), s2 \(/);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: me.userId } })).toBe(0);

    const marked = await postSpan(me.key, item.video.id, {
      task: "hallucination",
      label: "s1",
      startFrame: 2,
      endFrame: 4,
      queueId: queue.id,
    });
    expect(marked.status).toBe(201);
    expect(((await marked.json()) as { queueId: string }).queueId).toBe(queue.id);
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
        presence,
        judgments,
      }),
    ).rejects.toMatchObject({
      details: { labels: ["s2"] },
    });
    // A span of the label marked outside the queue counts too: it is the reviewer's statement about the video.
    expect(
      (await postSpan(me.key, item.video.id, { task: "hallucination", label: "s2", startS: 0.5, endS: 0.6 })).status,
    ).toBe(201);
    const done = await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
      presence,
      judgments,
    });
    expect(done.counted).toBe(true);
  });

  it("refuses a submission that marks a label absent while the reviewer holds a span of it there (400 naming it)", async () => {
    const queue = await localizing("Where, absent yet marked", { categories: ["d1"] });
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    const marked = await postSpan(me.key, item.video.id, {
      task: "hallucination",
      label: "d1",
      startFrame: 3,
      endFrame: 5,
      queueId: queue.id,
    });
    expect(marked.status).toBe(201);
    const absent = { presence: [{ category: "d1", value: 0 as const }], judgments: [] };
    const refused = await submitItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
      absent,
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: "spans_contradict", details: { labels: ["d1"] } });
    expect((refused as Error).message).toMatch(/d1 \(Clipping\) absent but hold a span/);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: me.userId } })).toBe(0);
    // Withdrawn, the span no longer says the label is there: the answer stands.
    const span = await prisma.span.findFirstOrThrow({ where: { authorId: me.userId, label: "d1" } });
    await prisma.span.update({ where: { id: span.id }, data: { withdrawn: true } });
    expect(
      (await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, absent))
        .counted,
    ).toBe(true);
  });

  it("lets only a reviewer holding the item mark spans in the queue, in a localising queue of its task", async () => {
    const queue = await localizing("Where, claims");
    const holder = await reviewer();
    const other = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, holder, queue.id, "scores.review"), queue.id);
    const videoId = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).videoId;
    const span = { task: "hallucination", label: "s1", startFrame: 0, endFrame: 0, queueId: queue.id };
    const notHeld = await postSpan(other.key, videoId, span);
    expect(notHeld.status).toBe(404);
    expect(await notHeld.text()).toMatch(/not assigned to you/);
    expect((await postSpan(holder.key, videoId, { ...span, task: "project" })).status).toBe(400);
    const plain = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Not where",
      filter: {},
      scope: "verdict",
    });
    await nextItem(prisma, await queueAccess(prisma, holder, plain.id, "scores.review"), plain.id);
    const notLocalizing = await postSpan(holder.key, videoId, { ...span, queueId: plain.id });
    expect(notLocalizing.status).toBe(400);
    expect((await postSpan(holder.key, videoId, { ...span, queueId: "nosuchqueue" })).status).toBe(404);
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
    expect((await postSpan(holder.key, videoId, span)).status).toBe(400);
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: null } });
    expect((await postSpan(holder.key, videoId, span)).status).toBe(201);
    // A span about one of the video's judged items (a question) is marked on the video's item of the queue.
    expect((await postSpan(holder.key, videoId, { ...span, itemId: "s1:q1" })).status).toBe(201);
    expect(await prisma.span.count({ where: { queueId: queue.id } })).toBe(2);
  });

  it("while blind, shows the reviewer only their own spans (not the judge's, gold or others'), all after submit", async () => {
    const queue = await localizing("Where, blind", { blind: true, videoIds: [videoIds[1]!], categories: ["d1"] });
    const [me, other] = [await reviewer(), await reviewer()];
    const videoId = videoIds[1]!;
    const run = await prisma.judgeRun.findFirstOrThrow({ where: { projectId }, select: { id: true } });
    await prisma.$transaction((tx) =>
      insertSpans(
        tx,
        [
          { ...newSpan(videoId, 1), authorKind: "judge", authorId: `run:${run.id}`, runId: run.id },
          { ...newSpan(videoId, 2), authorKind: "gold", authorId: "gold" },
          { ...newSpan(videoId, 3), authorKind: "reviewer", authorId: other.userId },
        ],
        owner.userId,
      ),
    );
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const mine = await postSpan(me.key, videoId, {
      task: "hallucination",
      label: "d1",
      startFrame: 5,
      endFrame: 6,
      queueId: queue.id,
    });
    expect(mine.status).toBe(201);
    // The other reviewer holds no item of this queue: a span marked in it is refused.
    expect(
      (
        await postSpan(other.key, videoId, {
          task: "hallucination",
          label: "d1",
          startFrame: 0,
          endFrame: 0,
          queueId: queue.id,
        })
      ).status,
    ).toBe(404);
    const seen = async () => {
      const response = await listSpans(
        apiRequest(`/api/v1/videos/${videoId}/spans`, me.key),
        routeContext({ videoId }),
      );
      const body = (await response.json()) as { blind: boolean; spans: { authorKind: string; startFrame: number }[] };
      return { blind: body.blind, spans: body.spans.map((s) => `${s.authorKind}@${s.startFrame}`) };
    };
    expect(await seen()).toEqual({ blind: true, spans: ["reviewer@5"] });
    await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
      presence: [{ category: "d1", value: 1 }],
      judgments: (
        await getQueueItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!)
      ).targets.map((t) => ({ target: t.key, value: 5 })),
    });
    expect(await seen()).toEqual({ blind: false, spans: ["judge@1", "gold@2", "reviewer@3", "reviewer@5"] });
  });

  it("refuses to localise a task without span labels or a queue of items", () => {
    const task = builtInCatalogue().findTask("hallucination")!;
    expect(localizeProblem(task, "scores", null)).toBeNull();
    const unlabelled = {
      ...task,
      spanLabels: undefined,
      targets: task.targets.map((t) => ({ ...t, reviewable: false })),
    } as TaskDeclaration;
    expect(localizeProblem(unlabelled, "scores", null)).toMatch(/has no span labels/);
    expect(localizeProblem(task, "captions", "caption")).toMatch(/a queue of captions does not localise/);
  });
});

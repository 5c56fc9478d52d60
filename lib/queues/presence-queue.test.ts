import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema } from "../agreement/report-filter";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createQueue } from "./create-queue";
import { getQueueItem } from "./get-queue-item";
import { nextItem } from "./next-item";
import { submitItem } from "./submit-item";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * Presence first, then grade. The judge scored, per video: s1 at two key frames (2, 7: present at the
 * declared t = 5), s2 (1, 0: absent), d1 at one cluster (3: absent).
 */
let owner: Actor;
let projectId: string;
let videoIds: string[];

async function reviewer(): Promise<Actor> {
  const user = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: user.userId, role: "reviewer" } });
  return user;
}

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 2,
    name: "Presence queue",
  }));
  await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: () => [
      { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 2 },
      { stepId: "static_hallucination", scopeIndex: 1, category: "s1", value: 7 },
      { stepId: "static_hallucination", scopeIndex: 0, category: "s2", value: 1 },
      { stepId: "static_hallucination", scopeIndex: 1, category: "s2", value: 0 },
      { stepId: "dynamic_hallucination", scopeIndex: 0, category: "d1", value: 3 },
    ],
    outcome: () => ({ verdict: true, overall: 50 }),
  });
});

const presenceQueue = async (blind: boolean) =>
  createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name: `Presence ${blind ? "blind" : "open"}`,
    filter: {},
    scope: "scores",
    categories: ["s1", "s2", "d1"],
    mode: "presence",
    blind,
  });

async function judgmentsOf(actor: Actor, videoId: string) {
  const rows = await prisma.humanJudgment.findMany({
    where: { reviewerId: actor.userId, videoId },
    select: { targetType: true, target: true, scopeIndex: true, value: true, targetKey: true },
  });
  return rows
    .map((r) => `${r.targetType}:${r.target}${r.targetType === "score" ? `@${r.scopeIndex}` : ""}=${r.value}`)
    .sort();
}

describe("presence-first queues", () => {
  it("asks presence first with the judge's presence shown, requires values where the reviewer or the judge says present, and stores absent as 0", async () => {
    const queue = await presenceQueue(false);
    expect(await prisma.reviewQueue.findUniqueOrThrow({ where: { id: queue.id }, select: { mode: true } })).toEqual({
      mode: "presence",
    });
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.queue.mode).toBe("presence");
    expect(item.presence!.absentValue).toBe(0);
    expect(item.presence!.categories.map((c) => [c.id, c.key, c.label, c.targetKeys.length, c.judge])).toEqual([
      ["s1", "1", "Geometric structure irrationality", 2, 1],
      ["s2", "2", expect.any(String), 2, 0],
      ["d1", "3", expect.any(String), 1, 0],
    ]);
    expect(item.presence!.categories[0]!.definition.length).toBeGreaterThan(10);
    const key = (category: string, scope: number) =>
      item.targets.find((t) => t.category === category && t.scopeIndex === scope)!.key;

    const presence = [
      { category: "s1", value: 0 as const },
      { category: "s2", value: 1 as const },
      { category: "d1", value: 0 as const },
    ];
    const s2Values = [
      { target: key("s2", 0), value: 4 },
      { target: key("s2", 1), value: 6 },
    ];
    // The judge says s1 is present: the reviewer must grade it even though they said absent.
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
        presence,
        judgments: s2Values,
      }),
    ).rejects.toThrow(/missing: s1 · key frame 1, s1 · key frame 2/);
    // d1 is absent on both sides: a value other than 0 is refused.
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
        presence,
        judgments: [
          ...s2Values,
          { target: key("s1", 0), value: 1 },
          { target: key("s1", 1), value: 0 },
          { target: key("d1", 0), value: 5 },
        ],
      }),
    ).rejects.toThrow(/d1 is marked absent, so its scores are 0/);
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
        presence: presence.slice(0, 2),
        judgments: s2Values,
      }),
    ).rejects.toThrow(/missing: d1/);
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: s2Values,
      }),
    ).rejects.toThrow(ValidationError);
    expect(await judgmentsOf(me, item.video.id)).toEqual([]);

    const done = await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
      presence,
      judgments: [...s2Values, { target: key("s1", 0), value: 1 }, { target: key("s1", 1), value: 0 }],
    });
    expect(done).toMatchObject({ status: "done", counted: true });
    expect(await judgmentsOf(me, item.video.id)).toEqual(
      [
        "presence:d1=0",
        "presence:s1=0",
        "presence:s2=1",
        "score:d1@0=0",
        "score:s1@0=1",
        "score:s1@1=0",
        "score:s2@0=4",
        "score:s2@1=6",
      ].sort(),
    );
    const presenceKey = (
      await prisma.humanJudgment.findFirstOrThrow({
        where: { reviewerId: me.userId, targetType: "presence", target: "s2" },
      })
    ).targetKey;
    expect(presenceKey).toBe(`hallucination|v:${item.video.id}|s2`);

    // Reopened, the item shows the reviewer's own presence answers with their versions.
    const again = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(again.presence!.categories.map((c) => [c.id, c.mine?.value, c.mine?.version])).toEqual([
      ["s1", 0, 1],
      ["s2", 1, 1],
      ["d1", 0, 1],
    ]);

    // The presence judgments enter agreement against the judge's derived presence: s1 fp (judge 7), s2 fn (judge 1), d1 tn.
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({}),
    );
    const curve = report.presence[0]!.curves.find((c) => c.human === me.userId)!;
    expect(curve.chosen).toMatchObject({ threshold: 5, tp: 0, fp: 1, fn: 1, tn: 1 });
  });

  it("in a blind queue hides the judge's presence and asks values only where the reviewer says present", async () => {
    const queue = await presenceQueue(true);
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.blind).toBe(true);
    for (const category of item.presence!.categories) expect(category).not.toHaveProperty("judge");
    // Everything absent: nothing to grade (the judge's s1 is hidden, so it asks nothing), every score stored as 0.
    await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
      presence: ["s1", "s2", "d1"].map((category) => ({ category, value: 0 as const })),
      judgments: [],
    });
    expect(await judgmentsOf(me, item.video.id)).toEqual(
      [
        "presence:d1=0",
        "presence:s1=0",
        "presence:s2=0",
        "score:d1@0=0",
        "score:s1@0=0",
        "score:s1@1=0",
        "score:s2@0=0",
        "score:s2@1=0",
      ].sort(),
    );
  });

  it("is chosen for queues of scores of a task that declares presence", async () => {
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        filter: {},
        scope: "verdict",
        mode: "presence",
      }),
    ).rejects.toThrow(/Presence first applies to a queue of scores/);
    const full = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "full",
      filter: {},
      scope: "scores",
      categories: ["s1"],
    });
    expect(await prisma.reviewQueue.findUniqueOrThrow({ where: { id: full.id }, select: { mode: true } })).toEqual({
      mode: "full",
    });
    const me = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, full.id, "scores.review"), full.id);
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, me, full.id, "scores.review"), full.id, itemId!)).presence,
    ).toBeNull();
    await expect(
      submitItem(prisma, await queueAccess(prisma, me, full.id, "scores.review"), full.id, itemId!, {
        presence: [{ category: "s1", value: 0 }],
        judgments: [],
      }),
    ).rejects.toThrow(/asks no presence/);
  });
});

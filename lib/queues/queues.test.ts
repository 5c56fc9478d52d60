import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { videoScores } from "../judge/runs/runs";
import { createProject, setProjectGuidelines } from "../projects/projects";
import { reviewScore, videoReviews } from "../reviews/reviews";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { claimAhead, MAX_OPEN_CLAIMS } from "./claim-ahead";
import { createQueue } from "./create-queue";
import { setQueueGuidelines } from "./set-queue-guidelines";
import { getQueue } from "./get-queue";
import { getQueueItem } from "./get-queue-item";
import { listQueues } from "./list-queues";
import { nextItem } from "./next-item";
import { previewQueue } from "./preview-queue";
import { releaseClaim } from "./release-claim";
import { submitItem } from "./submit-item";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { accessOfVideo } from "../../testkit/testing/record-access";

/** A queue's progress as the queue page gets it (the queue read, with its access check). */
async function getQueueProgress(db: typeof prisma, actor: Actor, queueId: string) {
  return (await getQueue(db, await queueAccess(db, actor, queueId, "project.view"), queueId)).progress;
}

let owner: Actor;
let viewer: Actor;
let stranger: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;
/** Distinctive judge values, so a leak shows up in any serialized response. */
const JUDGE_S1 = 7.25;
const JUDGE_S2 = 3.75;
const JUDGE_OVERALL = 61.5;

async function reviewer(): Promise<Actor> {
  const user = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: user.userId, role: "reviewer" } });
  return user;
}

/** A finished run over the first `count` videos: s1 and s2 on two key frames, I, a summary, a verdict. */
async function seedRun(ids: string[], verdicts: boolean[]) {
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: `e-${Date.now()}`,
      baseUrl: "http://127.0.0.1:1/v1",
      model: "m",
      createdById: owner.userId,
    },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
  for (const [v, videoId] of ids.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    for (const k of [0, 1]) {
      const step = await prisma.stepResult.create({
        data: {
          runId: run.id,
          videoId,
          stepId: "static_hallucination",
          scopeIndex: k,
          status: "done",
          templateId: "t",
          output: { scores: { s1: JUDGE_S1, s2: JUDGE_S2 } },
        },
      });
      await prisma.score.createMany({
        data: [
          {
            runId: run.id,
            videoId,
            stepResultId: step.id,
            stepId: "static_hallucination",
            scopeIndex: k,
            category: "s1",
            value: JUDGE_S1,
          },
          {
            runId: run.id,
            videoId,
            stepResultId: step.id,
            stepId: "static_hallucination",
            scopeIndex: k,
            category: "s2",
            value: JUDGE_S2,
          },
        ],
      });
    }
    await prisma.stepResult.create({
      data: {
        runId: run.id,
        videoId,
        stepId: "static_kg",
        scopeIndex: 0,
        status: "done",
        templateId: "t",
        output: { objects: ["ball"] },
      },
    });
    const overall = JUDGE_OVERALL + v;
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { S: JUDGE_S1, D: 0, I: 0, overall, hallucination: verdicts[v], complete: true },
      metrics: { overall: overall, S: JUDGE_S1, verdict: verdicts[v] },
    });
  }
  return run.id;
}

beforeAll(async () => {
  [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 5,
    keyFrames: 2,
    name: "Queues",
  }));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  // Video 4 is not in the run; videos 0 and 2 have the verdict "yes".
  runId = await seedRun(videoIds.slice(0, 4), [true, false, true, false]);
});

const verdictQueue = async (extra: Partial<Parameters<typeof createQueue>[2]> = {}) =>
  createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name: "Verdicts",
    filter: {},
    scope: "verdict",
    ...extra,
  });

describe("creating a queue from a video filter", () => {
  it("holds the matching videos of the run, in list order, and only those", async () => {
    const all = await verdictQueue();
    expect(all.runId).toBe(runId);
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId: all.id }, orderBy: { position: "asc" } });
    expect(items.map((i) => i.videoId)).toEqual(videoIds.slice(0, 4));
    expect(all.itemCount).toBe(4);

    const yes = await verdictQueue({ filter: { verdict: "yes" } });
    expect(
      (await prisma.reviewQueueItem.findMany({ where: { queueId: yes.id }, orderBy: { position: "asc" } })).map(
        (i) => i.videoId,
      ),
    ).toEqual([videoIds[0], videoIds[2]]);

    const byOverall = await verdictQueue({ sort: "overall", dir: "desc" });
    expect(
      (await prisma.reviewQueueItem.findMany({ where: { queueId: byOverall.id }, orderBy: { position: "asc" } })).map(
        (i) => i.videoId,
      ),
    ).toEqual(videoIds.slice(0, 4).reverse());

    expect(
      await previewQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        filter: { verdict: "no" },
      }),
    ).toMatchObject({
      runId,
      count: 2,
    });
  });

  it("previews the targets each video would ask: every score of the chosen categories, and presence first's cut by the judge's presence", async () => {
    // Each video in the run: s1 (the judge's 7.25, present at the threshold of 5) and s2 (3.75, absent) on two key frames.
    const chosen = await previewQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      filter: { verdict: "no" },
      categories: ["s1", "s2"],
    });
    expect(chosen.targets).toEqual({
      full: { min: 4, max: 4, mean: 4 },
      presenceFirst: { questions: 2, scores: { min: 2, max: 2, mean: 2 } },
    });
    // None chosen: every category is asked about first (the run scored only s1 and s2).
    const all = await previewQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      filter: {},
    });
    expect(all.count).toBe(4);
    expect(all.targets).toEqual({
      full: { min: 4, max: 4, mean: 4 },
      presenceFirst: {
        questions: BUILT_IN_DECLARATIONS.taskOf("hallucination").presence!.of.length,
        scores: { min: 2, max: 2, mean: 2 },
      },
    });
    const s2Only = await previewQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      filter: {},
      categories: ["s2"],
    });
    expect(s2Only.targets).toEqual({
      full: { min: 2, max: 2, mean: 2 },
      presenceFirst: { questions: 1, scores: { min: 0, max: 0, mean: 0 } },
    });
  });

  it("refuses an empty match, a project without runs, and bad input with a 400", async () => {
    const empty = await verdictQueue({ filter: { prompt: "no such prompt anywhere" } }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ValidationError);
    expect((empty as ValidationError).message).toMatch(/queue would be empty/);
    const bare = await createProject(prisma, owner, { name: "No runs" });
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, bare.id, "queues.manage"), {
        name: "x",
        filter: {},
        scope: "verdict",
      }),
    ).rejects.toThrow(/no judge run yet/);
    await expect(verdictQueue({ runId: "missing-run" })).rejects.toThrow(/No such judge run/);
    await expect(verdictQueue({ reviewersPerItem: 11 })).rejects.toThrow(/At most 10/);
    await expect(verdictQueue({ name: "  " })).rejects.toThrow(/name/);
  });

  it("is for owners: a reviewer or viewer gets Forbidden, a non-member NotFound", async () => {
    const someReviewer = await reviewer();
    await expect(projectAccess(prisma, someReviewer, projectId, "queues.manage")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(projectAccess(prisma, viewer, projectId, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, stranger, projectId, "queues.manage")).rejects.toBeInstanceOf(NotFoundError);
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    expect(
      (await listQueues(prisma, await projectAccess(prisma, viewer, projectId, "project.view"))).length,
    ).toBeGreaterThan(0);
  });

  it("with scope scores, reviews each judge score of the chosen categories with its key frame", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "s1 only",
      filter: { verdict: "yes" },
      scope: "scores",
      categories: ["s1"],
    });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const payload = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(payload.video.id).toBe(videoIds[0]);
    expect(payload.targets.map((t) => [t.label, t.judge])).toEqual([
      ["s1 · key frame 1", JUDGE_S1],
      ["s1 · key frame 2", JUDGE_S1],
    ]);
    // Key frame 2 of the fixture is frame 4 (frames 3 and 5 are its cluster).
    expect(payload.targets[1]!.frameIndexes).toEqual([4]);
    expect(payload.video.frames).toHaveLength(6);
  });
});

describe("handing out items", () => {
  it("gives each item to N reviewers, and never to a third once two completed it", async () => {
    const queue = await verdictQueue({ reviewersPerItem: 2 });
    const [a, b, c] = [await reviewer(), await reviewer(), await reviewer()];
    const first = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
    expect(await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id)).toEqual(first); // their own open claim again
    const second = await nextItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id);
    expect(second).toEqual(first);
    const third = await nextItem(prisma, await queueAccess(prisma, c, queue.id, "scores.review"), queue.id);
    expect(third.itemId).not.toBe(first.itemId);
    await submitItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id, first.itemId!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    await submitItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id, first.itemId!, {
      judgments: [{ target: "verdict", value: 0 }],
    });
    await submitItem(prisma, await queueAccess(prisma, c, queue.id, "scores.review"), queue.id, third.itemId!, {
      judgments: [{ target: "verdict", value: 0 }],
    });
    const seen = new Set<string>();
    for (;;) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, c, queue.id, "scores.review"), queue.id);
      if (!itemId) break;
      expect(itemId).not.toBe(first.itemId);
      seen.add(itemId);
      await submitItem(prisma, await queueAccess(prisma, c, queue.id, "scores.review"), queue.id, itemId, {
        judgments: [{ target: "verdict", value: 1 }],
      });
    }
    expect(seen.size).toBe(2); // 4 items: one completed by a and b, three by c
    const progress = await getQueueProgress(prisma, viewer, queue.id);
    expect(progress.items).toBe(4);
    expect(progress.complete).toBe(1);
    expect(progress.reviewers.find((r) => r.reviewerId === c.userId)).toMatchObject({
      email: c.email,
      done: 3,
      claimed: 0,
    });
    expect(progress.reviewers.find((r) => r.reviewerId === a.userId)).toMatchObject({ done: 1, claimed: 0 });
  });

  it("hands out overlap first by default: a second reviewer gets the item the first submitted, not a fresh one", async () => {
    const queue = await verdictQueue({ reviewersPerItem: 2 });
    expect(queue.handOut).toBe("overlap");
    const [a, b] = [await reviewer(), await reviewer()];
    const order: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
      order.push(itemId!);
      await submitItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: "verdict", value: 1 }],
      });
    }
    // b meets a on a's items, in the same order, so their agreement counts from b's first submission.
    for (const expected of order) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id);
      expect(itemId).toBe(expected);
      await submitItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: "verdict", value: 0 }],
      });
    }
    expect((await getQueueProgress(prisma, viewer, queue.id)).complete).toBe(2);
  });

  it("hands out coverage first when the owner chooses it: every item gets one reviewer before any gets a second", async () => {
    const queue = await verdictQueue({ reviewersPerItem: 2, handOut: "coverage" });
    const [a, b] = [await reviewer(), await reviewer()];
    const { itemId: first } = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
    await submitItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id, first!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id);
    expect(itemId).not.toBe(first);
    expect(await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).toMatchObject({ doneCount: 0 });
  });

  it("refuses an unknown hand-out order with a 400 and creates nothing", async () => {
    const before = await prisma.reviewQueue.count({ where: { projectId } });
    await expect(verdictQueue({ handOut: "random" as "overlap" })).rejects.toMatchObject({ name: "ZodError" });
    expect(await prisma.reviewQueue.count({ where: { projectId } })).toBe(before);
  });

  it("never gives one item of an N=1 queue to two reviewers calling at once", async () => {
    const queue = await verdictQueue({ filter: { verdict: "yes" } }); // 2 items
    const reviewers = await Promise.all([1, 2, 3, 4, 5].map(() => reviewer()));
    const results = await Promise.all(
      reviewers.map(async (r) => nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id)),
    );
    const claimed = results.map((r) => r.itemId).filter((id): id is string => id !== null);
    expect(claimed).toHaveLength(2);
    expect(new Set(claimed).size).toBe(2);
    expect(await prisma.reviewQueueAssignment.count({ where: { queueId: queue.id } })).toBe(2);
  });

  it("lets a claim older than 30 minutes be taken by someone else", async () => {
    const queue = await verdictQueue({ filter: { verdict: "yes", overallMax: JUDGE_OVERALL } }); // 1 item
    const [a, b] = [await reviewer(), await reviewer()];
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
    expect(itemId).not.toBeNull();
    expect(await nextItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id)).toEqual({
      itemId: null,
    });
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: itemId!, reviewerId: a.userId } },
      data: { claimedAt: new Date(Date.now() - 31 * 60_000) },
    });
    expect(await nextItem(prisma, await queueAccess(prisma, b, queue.id, "scores.review"), queue.id)).toEqual({
      itemId,
    });
    // a's stale claim has no room any more: it is let go, and nothing is left for a.
    expect(await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id)).toEqual({
      itemId: null,
    });
    expect(await prisma.reviewQueueAssignment.count({ where: { itemId: itemId!, reviewerId: a.userId } })).toBe(0);
  });

  it("refuses viewers and hides the queue from non-members", async () => {
    const queue = await verdictQueue();
    await expect(queueAccess(prisma, viewer, queue.id, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(queueAccess(prisma, stranger, queue.id, "scores.review")).rejects.toBeInstanceOf(NotFoundError);
    await expect(queueAccess(prisma, stranger, queue.id, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    const item = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId: queue.id } });
    // The queue is not found through an access to another project, even the owner's own.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "queues.manage");
    const reviewThere = await projectAccess(prisma, owner, elsewhere.id, "scores.review");
    await expect(getQueue(prisma, there, queue.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(nextItem(prisma, reviewThere, queue.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getQueueItem(prisma, reviewThere, queue.id, item.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(claimAhead(prisma, reviewThere, queue.id, item.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(releaseClaim(prisma, reviewThere, queue.id, item.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      submitItem(prisma, reviewThere, queue.id, item.id, { judgments: [{ target: "verdict", value: 1 }] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(setQueueGuidelines(prisma, there, queue.id, { guidelines: "x" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(queueAccess(prisma, viewer, queue.id, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(queueAccess(prisma, stranger, queue.id, "scores.review")).rejects.toBeInstanceOf(NotFoundError);
    await expect(queueAccess(prisma, viewer, queue.id, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
    // A reviewer who was not given the item can neither read nor submit it.
    const r = await reviewer();
    await expect(
      getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, item.id),
    ).rejects.toThrow(/not assigned to you/);
    await expect(
      submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, item.id, {
        judgments: [{ target: "verdict", value: 1 }],
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(
      await prisma.humanJudgment.count({ where: { reviewerId: { in: [viewer.userId, stranger.userId, r.userId] } } }),
    ).toBe(0);
  });
});

describe("submitting an item", () => {
  it("counts a reviewer once however often they submit, and keeps edits in the history", async () => {
    const queue = await verdictQueue({ reviewersPerItem: 3 });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const first = await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: "verdict", value: 1, note: "melting hand" }],
    });
    expect(first.counted).toBe(true);
    // The same submission again (a double Enter) saves and counts nothing.
    expect(
      (
        await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
          judgments: [{ target: "verdict", value: 1, note: "melting hand" }],
        })
      ).counted,
    ).toBe(false);
    // Two racing identical submissions.
    await Promise.all(
      [1, 2].map(async () =>
        submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
          judgments: [{ target: "verdict", value: 1, note: "melting hand" }],
        }),
      ),
    );
    // An edit of the submitted item, at the version the reviewer saw.
    const payload = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    const verdict = payload.targets.find((t) => t.key === "verdict")!;
    expect(verdict.mine).toMatchObject({ value: 1, version: 1, note: "melting hand" });
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [
        { target: "verdict", value: 0, expectedVersion: 1 },
        { target: "overall", value: 80 },
      ],
    });
    // A stale edit is a conflict, as everywhere.
    await expect(
      submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: "verdict", value: 1, expectedVersion: 1 }],
      }),
    ).rejects.toMatchObject({ status: 409 });

    expect((await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).doneCount).toBe(1);
    const judgment = await prisma.humanJudgment.findFirstOrThrow({
      where: { reviewerId: r.userId, targetType: "verdict" },
      include: { history: true },
    });
    expect([judgment.value, judgment.version, judgment.history.length]).toEqual([0, 2, 2]);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: r.userId, targetType: "overall" } })).toBe(1);
  });

  it("refuses a submission with missing, unknown or out-of-range targets, naming them", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "scores",
      filter: { verdict: "no" },
      scope: "scores",
      categories: ["s1", "s2"],
    });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const { targets } = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(targets).toHaveLength(4);
    const partial = targets.slice(0, 2).map((t) => ({ target: t.key, value: 2 }));
    const missing = await submitItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
      { judgments: partial },
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as Error).message).toBe(
      "Judge every target before submitting; missing: s1 · key frame 2, s2 · key frame 2.",
    );
    await expect(
      submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [...partial, { target: "verdict", value: 1 }],
      }),
    ).rejects.toThrow(/"verdict" is not something to judge/);
    await expect(
      submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: targets.map((t) => ({ target: t.key, value: 11 })),
      }),
    ).rejects.toThrow(/between 0 and 10/);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: r.userId } })).toBe(0);
    expect(
      (await prisma.reviewQueueAssignment.findFirstOrThrow({ where: { itemId: itemId!, reviewerId: r.userId } }))
        .status,
    ).toBe("claimed");

    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: targets.map((t) => ({ target: t.key, value: 4 })),
    });
    expect(await prisma.humanJudgment.count({ where: { reviewerId: r.userId, targetType: "score" } })).toBe(4);
  });

  it("saves an item's judgments and its done mark together: a failure on the last target saves nothing of the item", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "atomic",
      filter: { verdict: "no" },
      scope: "scores",
      categories: ["s1", "s2"],
    });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const { targets } = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(targets).toHaveLength(4);
    const last = targets.at(-1)!.key;
    // A database failure injected on the last target only: the judgments before it are written first. The
    // failing target's id is a row of a table (bound as a parameter), so the DDL below is constant text.
    await prisma.$executeRaw`CREATE TABLE injected_failure ("scoreId" text PRIMARY KEY)`;
    await prisma.$executeRaw`INSERT INTO injected_failure ("scoreId") VALUES (${last})`;
    await prisma.$executeRaw`CREATE FUNCTION fail_injected_target() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM injected_failure f WHERE f."scoreId" = NEW."scoreId") THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`;
    await prisma.$executeRaw`CREATE TRIGGER fail_injected_target BEFORE INSERT ON "human_judgment" FOR EACH ROW EXECUTE FUNCTION fail_injected_target()`;
    try {
      await expect(
        submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
          judgments: targets.map((t) => ({ target: t.key, value: 3 })),
        }),
      ).rejects.toThrow(/injected failure/);
    } finally {
      await prisma.$executeRaw`DROP TRIGGER fail_injected_target ON "human_judgment"`;
      await prisma.$executeRaw`DROP FUNCTION fail_injected_target()`;
      await prisma.$executeRaw`DROP TABLE injected_failure`;
    }
    expect(await prisma.humanJudgment.count({ where: { reviewerId: r.userId } })).toBe(0);
    expect(await prisma.humanJudgmentHistory.count({ where: { reviewerId: r.userId } })).toBe(0);
    expect(
      (await prisma.reviewQueueAssignment.findFirstOrThrow({ where: { itemId: itemId!, reviewerId: r.userId } }))
        .status,
    ).toBe("claimed");
    expect((await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).doneCount).toBe(0);

    // Submitted again without the failure, everything is saved once.
    expect(
      (
        await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
          judgments: targets.map((t) => ({ target: t.key, value: 3 })),
        })
      ).counted,
    ).toBe(true);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: r.userId } })).toBe(4);
  });

  it("moves through the reviewer's own items, in the order they took them", async () => {
    const queue = await verdictQueue();
    const r = await reviewer();
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
      taken.push(itemId!);
      await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: "verdict", value: 0 }],
      });
    }
    const middle = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      taken[1]!,
    );
    expect(middle.nav).toMatchObject({ index: 1, count: 3, previousItemId: taken[0], nextItemId: taken[2] });
    expect(middle.progress).toMatchObject({ items: 4, mine: { done: 3 } });
    const mine = await getQueue(prisma, await queueAccess(prisma, r, queue.id, "project.view"), queue.id);
    expect(mine.mine).toEqual({ done: 3, claimed: 0 });
  });
});

describe("guidelines", () => {
  it("are written by owners for the project and each queue, and reach the reviewer with every item", async () => {
    const queue = await verdictQueue({
      name: "With guidelines",
      guidelines: "  Look for **melting** hands.\r\n\r\n- one\r\n- two  ",
    });
    expect(queue.guidelines).toBe("Look for **melting** hands.\n\n- one\n- two");
    await setProjectGuidelines(prisma, await projectAccess(prisma, owner, projectId, "project.rename"), {
      projectId,
      guidelines: "Score what you *see*, not what the prompt says.",
    });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!))
        .guidelines,
    ).toEqual({
      project: "Score what you *see*, not what the prompt says.",
      queue: "Look for **melting** hands.\n\n- one\n- two",
    });

    expect(
      (
        await setQueueGuidelines(prisma, await queueAccess(prisma, owner, queue.id, "queues.manage"), queue.id, {
          guidelines: "<script>alert(1)</script> stays text",
        })
      ).guidelines,
    ).toBe("<script>alert(1)</script> stays text");
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!))
        .guidelines.queue,
    ).toBe("<script>alert(1)</script> stays text");
    expect((await getQueue(prisma, await queueAccess(prisma, r, queue.id, "project.view"), queue.id)).guidelines).toBe(
      "<script>alert(1)</script> stays text",
    );
    // Reviewers read them; only owners write them.
    await expect(queueAccess(prisma, r, queue.id, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, r, projectId, "project.rename")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(queueAccess(prisma, stranger, queue.id, "queues.manage")).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      setQueueGuidelines(prisma, await queueAccess(prisma, owner, queue.id, "queues.manage"), queue.id, {
        guidelines: "x".repeat(20_001),
      }),
    ).rejects.toThrow(/at most 20,000/);
    await setProjectGuidelines(prisma, await projectAccess(prisma, owner, projectId, "project.rename"), {
      projectId,
      guidelines: "",
    });
  });
});

describe("claiming ahead", () => {
  /** Live claims per item of the queue (submitted ones count too: doneCount). */
  const takenPerItem = async (queueId: string) => {
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId }, include: { assignments: true } });
    return items.map((i) => i.assignments.length);
  };

  it("never lets two reviewers' claims ahead take one item beyond reviewersPerItem, however they race", async () => {
    for (const reviewersPerItem of [1, 2]) {
      const queue = await verdictQueue({ reviewersPerItem }); // 4 items
      const reviewers = await Promise.all([1, 2, 3].map(() => reviewer()));
      const current = await Promise.all(
        reviewers.map(async (r) => nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id)),
      );
      // Everyone claims ahead at once, twice over (a second call must not take another item).
      const ahead = await Promise.all(
        reviewers.map(async (r, i) =>
          claimAhead(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, current[i]!.itemId!),
        ),
      );
      const again = await Promise.all(
        reviewers.map(async (r, i) =>
          claimAhead(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, current[i]!.itemId!),
        ),
      );
      expect(again).toEqual(ahead);
      for (const [i, r] of reviewers.entries()) {
        if (ahead[i]!.itemId) expect(ahead[i]!.itemId).not.toBe(current[i]!.itemId);
        expect(await prisma.reviewQueueAssignment.count({ where: { queueId: queue.id, reviewerId: r.userId } })).toBe(
          ahead[i]!.itemId ? 2 : 1,
        );
      }
      const perItem = await takenPerItem(queue.id);
      expect(Math.max(...perItem)).toBeLessThanOrEqual(reviewersPerItem);
      // N=1: 3 current items, and one item left for a single claim ahead; N=2: 8 places for 6 claims.
      expect(perItem.reduce((a, b) => a + b, 0)).toBe(reviewersPerItem === 1 ? 4 : 6);
    }
  });

  it("hands the item claimed ahead out next, keeps its video blind until submitted, and lets it go when released", async () => {
    const queue = await verdictQueue({ name: "Blind ahead", blind: true }); // 4 items
    const [r, other] = [await reviewer(), await reviewer()];
    const { itemId: first } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const { itemId: second } = await claimAhead(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      first!,
    );
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    // The claim ahead is theirs and blind like the item on screen: the judge's values stay out.
    const ahead = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      second!,
    );
    expect(ahead.blind).toBe(true);
    expect(ahead.targets.every((t) => !("judge" in t))).toBe(true);
    expect(ahead.judgeSummary).toBeUndefined();
    const secondVideo = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: second! } })).videoId;
    expect((await videoScores(prisma, await accessOfVideo(prisma, r, secondVideo), secondVideo)).blind).toBe(true);
    // Their open item stays the one before it; once it is submitted, the one ahead comes next.
    expect(await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id)).toEqual({
      itemId: first,
    });
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    expect(await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id)).toEqual({
      itemId: second,
    });
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!)).blind,
    ).toBe(true);
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!, {
      judgments: [{ target: "verdict", value: 0 }],
    });
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!)).blind,
    ).toBe(false);

    // Released, the claim ahead goes to the next reviewer at once; a submitted item is never released.
    const { itemId: third } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const { itemId: fourth } = await claimAhead(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      third!,
    );
    expect(fourth).not.toBeNull();
    const { itemId: othersFirst } = await nextItem(
      prisma,
      await queueAccess(prisma, other, queue.id, "scores.review"),
      queue.id,
    );
    expect([first, second, third, fourth]).not.toContain(othersFirst); // N=1: nothing is left for them
    expect(othersFirst).toBeNull();
    expect(
      await releaseClaim(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, fourth!),
    ).toEqual({ released: true });
    expect(await nextItem(prisma, await queueAccess(prisma, other, queue.id, "scores.review"), queue.id)).toEqual({
      itemId: fourth,
    });
    expect(
      await releaseClaim(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!),
    ).toEqual({ released: false });
    expect((await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: second! } })).doneCount).toBe(1);
    // Someone else's item, or one never claimed, cannot be claimed ahead of.
    await expect(
      claimAhead(prisma, await queueAccess(prisma, other, queue.id, "scores.review"), queue.id, third!),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(queueAccess(prisma, viewer, queue.id, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("leaves claims ahead out of the item's position count, before and after submitting (1 of 1, not 1 of 3)", async () => {
    const queue = await verdictQueue({ name: "Position", blind: true }); // 4 items
    const r = await reviewer();
    const { itemId: first } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!)).nav,
    ).toMatchObject({ index: 0, count: 1 });
    // The review screen claims two ahead while the reviewer works on the first item.
    const { itemId: second } = await claimAhead(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      first!,
    );
    const { itemId: third } = await claimAhead(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      second!,
    );
    expect(third).not.toBeNull();
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!)).nav,
    ).toMatchObject({
      index: 0,
      count: 1,
      nextItemId: second,
    });
    // Submitted (the judge's values shown until they move on): still the first of one.
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!)).nav,
    ).toMatchObject({
      index: 0,
      count: 1,
      nextItemId: second,
    });
    // Opened, the next item counts: 2 of 2; submitted, the first reads 1 of 2.
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!)).nav,
    ).toMatchObject({
      index: 1,
      count: 2,
      previousItemId: first,
    });
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, second!, {
      judgments: [{ target: "verdict", value: 0 }],
    });
    expect(
      (await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, first!)).nav,
    ).toMatchObject({ index: 0, count: 2 });
  });

  it("counts as in progress only claims on items that still need a review: none once every item is complete", async () => {
    const queue = await verdictQueue({ name: "Progress after the end" }); // 4 items, 1 reviewer each
    const [a, b] = [await reviewer(), await reviewer()];
    const { itemId: first } = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
    const { itemId: second } = await claimAhead(
      prisma,
      await queueAccess(prisma, a, queue.id, "scores.review"),
      queue.id,
      first!,
    );
    const { itemId: third } = await claimAhead(
      prisma,
      await queueAccess(prisma, a, queue.id, "scores.review"),
      queue.id,
      second!,
    );
    // a's claims ahead go stale; b takes those items (claiming ahead too), and then a submits them after all.
    await prisma.reviewQueueAssignment.updateMany({
      where: { queueId: queue.id, reviewerId: a.userId, itemId: { in: [second!, third!] } },
      data: { claimedAt: new Date(Date.now() - 31 * 60_000) },
    });
    const { itemId: bFirst } = await nextItem(
      prisma,
      await queueAccess(prisma, b, queue.id, "scores.review"),
      queue.id,
    );
    const { itemId: bAhead } = await claimAhead(
      prisma,
      await queueAccess(prisma, b, queue.id, "scores.review"),
      queue.id,
      bFirst!,
    );
    expect(new Set([bFirst, bAhead])).toEqual(new Set([second, third]));
    expect(
      (await getQueue(prisma, await queueAccess(prisma, b, queue.id, "project.view"), queue.id)).mine.claimed,
    ).toBe(2);
    for (const itemId of [first!, second!, third!])
      await submitItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id, itemId, {
        judgments: [{ target: "verdict", value: 1 }],
      });
    const { itemId: last } = await nextItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id);
    await submitItem(prisma, await queueAccess(prisma, a, queue.id, "scores.review"), queue.id, last!, {
      judgments: [{ target: "verdict", value: 0 }],
    });

    const progress = await getQueueProgress(prisma, owner, queue.id);
    expect(progress.complete).toBe(4);
    expect(progress.reviewers.find((r) => r.reviewerId === a.userId)).toMatchObject({ done: 4, claimed: 0 });
    expect(progress.reviewers.find((r) => r.reviewerId === b.userId)?.claimed ?? 0).toBe(0);
    const bView = await getQueue(prisma, await queueAccess(prisma, b, queue.id, "project.view"), queue.id);
    expect(bView.finished).toBe(true);
    expect(bView.mine).toEqual({ done: 0, claimed: 0 });
  });

  it("holds at most MAX_OPEN_CLAIMS unsubmitted claims per reviewer", async () => {
    const queue = await verdictQueue({ name: "Hoarding" }); // 4 items, and a fifth so the queue outlasts the limit
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: videoIds[4]!, position: 4 } });
    const r = await reviewer();
    let { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const held = [itemId!];
    for (let i = 0; i < 5; i++) {
      ({ itemId } = await claimAhead(
        prisma,
        await queueAccess(prisma, r, queue.id, "scores.review"),
        queue.id,
        held.at(-1)!,
      ));
      if (!itemId) break;
      held.push(itemId);
    }
    expect(held).toHaveLength(MAX_OPEN_CLAIMS);
    expect(new Set(held).size).toBe(MAX_OPEN_CLAIMS);
    // Submitting one frees a place for the next claim ahead.
    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, held[0]!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    expect(
      (await claimAhead(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, held.at(-1)!))
        .itemId,
    ).not.toBeNull();
  });
});

describe("blind queues", () => {
  it("hide the judge's and other reviewers' values from a reviewer until they submit, in every response", async () => {
    const queue = await verdictQueue({ name: "Blind", blind: true, filter: { verdict: "no" } });
    const [r, other] = [await reviewer(), await reviewer()];
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const videoId = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).videoId;
    const score = await prisma.score.findFirstOrThrow({ where: { runId, videoId } });
    await reviewScore(prisma, await projectAccess(prisma, other, projectId, "scores.review"), score.id, {
      value: 9.5,
      note: "the other reviewer's note",
    });
    // Blind covers every video of the queue, not only the held item's (here the filter gives two).
    const queueVideos = (
      await prisma.reviewQueueItem.findMany({ where: { queueId: queue.id }, select: { videoId: true } })
    ).map((i) => i.videoId);
    expect(queueVideos.length).toBeGreaterThan(1);
    expect([...(await blindVideoIdsFor(prisma, r.userId))].sort()).toEqual([...queueVideos].sort());

    // Every number, string and key anywhere in the response, as the browser would receive it.
    const leaks = (payload: unknown) => {
      const found: unknown[] = [];
      const walk = (value: unknown, key?: string) => {
        if (key !== undefined) found.push(`key:${key}`);
        if (Array.isArray(value)) value.forEach((v) => walk(v));
        else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
        else found.push(value);
      };
      walk(JSON.parse(JSON.stringify(payload)));
      return [
        JUDGE_S1,
        JUDGE_S2,
        JUDGE_OVERALL + 1,
        9.5,
        "the other reviewer's note",
        "key:judge",
        "key:judgeSummary",
      ].filter((needle) => found.includes(needle));
    };
    const item = await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!);
    expect(item.blind).toBe(true);
    expect(leaks(item)).toEqual([]);
    expect(item.targets.map((t) => t.key)).toEqual(["verdict", "overall"]);

    const scores = await videoScores(prisma, await accessOfVideo(prisma, r, videoId), videoId);
    expect(scores).toMatchObject({ blind: true, summary: null });
    expect(leaks(scores)).toEqual([]);
    // Knowledge graphs carry no judge values and stay visible.
    expect(scores.steps.find((s) => s.stepId === "static_kg")!.output).toEqual({ objects: ["ball"] });
    const reviews = await videoReviews(prisma, await projectAccess(prisma, r, projectId, "project.view"), videoId);
    expect(reviews).toMatchObject({ blind: true, judgments: [] });

    // Everyone else still sees everything.
    const forOwner = await videoScores(prisma, await accessOfVideo(prisma, owner, videoId), videoId);
    expect(forOwner.blind).toBe(false);
    expect(leaks(forOwner)).toEqual(expect.arrayContaining([JUDGE_S1, JUDGE_OVERALL + 1]));
    expect(
      (
        await videoReviews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), videoId)
      ).judgments.map((j) => j.reviewer.id),
    ).toContain(other.userId);

    await submitItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    const after = await getQueueItem(
      prisma,
      await queueAccess(prisma, r, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(after.blind).toBe(false);
    expect(after.judgeSummary).toMatchObject({ overall: JUDGE_OVERALL + 1, hallucination: false });
    expect(after.targets.map((t) => [t.key, t.judge])).toEqual([
      ["verdict", 0],
      ["overall", JUDGE_OVERALL + 1],
    ]);
    // The submitted video is revealed; the queue's other videos stay blind while they are left to do.
    expect([...(await blindVideoIdsFor(prisma, r.userId))].sort()).toEqual(
      queueVideos.filter((v) => v !== videoId).sort(),
    );
    const scoresAfter = await videoScores(prisma, await accessOfVideo(prisma, r, videoId), videoId);
    expect(scoresAfter.blind).toBe(false);
    expect(scoresAfter.steps.flatMap((s) => s.scores.map((x) => x.value))).toContain(JUDGE_S1);
    const reviewsAfter = await videoReviews(prisma, await projectAccess(prisma, r, projectId, "project.view"), videoId);
    expect(reviewsAfter.blind).toBe(false);
    expect(
      reviewsAfter.judgments
        .filter((j) => [r.userId, other.userId].includes(j.reviewer.id))
        .map((j) => j.value)
        .sort(),
    ).toEqual([1, 9.5]);
    expect(reviewsAfter.judgments.find((j) => j.reviewer.id === other.userId)!.judge).toMatchObject({
      value: score.value,
    });
  });

  it("do not hide anything in a queue that is not blind", async () => {
    const queue = await verdictQueue({ name: "Open", filter: { verdict: "yes" } });
    const r = await reviewer();
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(prisma, await queueAccess(prisma, r, queue.id, "scores.review"), queue.id, itemId!);
    expect(item.blind).toBe(false);
    expect(item.targets.find((t) => t.key === "verdict")!.judge).toBe(1);
    expect((await videoScores(prisma, await accessOfVideo(prisma, r, item.video.id), item.video.id)).blind).toBe(false);
  });
});

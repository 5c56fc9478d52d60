import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { ForbiddenError, ValidationError } from "../errors";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createQueue } from "./create-queue";
import { getQueue } from "./get-queue";
import { listQueues } from "./list-queues";
import { nextItem } from "./next-item";
import { submitItem } from "./submit-item";
import { getQueueItem } from "./get-queue-item";
import { updateQueueState } from "./queue-states";

let owner: Actor;
let ann: Actor;
let bob: Actor;
let viewer: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  [owner, ann, bob, viewer] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Queue states",
  }));
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 4 }],
    outcome: (v) => ({ verdict: v === 0, overall: 50 }),
  });
});

const queue = async (name: string) =>
  createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name,
    filter: {},
    scope: "verdict",
  });

describe("archived queues", () => {
  it("leave the default list, show under archived, refuse claims, and come back when restored", async () => {
    const q = await queue("to archive");
    await expect(queueAccess(prisma, ann, q.id, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    // Not found through an access to another project, even the owner's own.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "queues.manage");
    await expect(updateQueueState(prisma, there, q.id, { archived: true })).rejects.toMatchObject({ status: 404 });
    expect(
      await updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, { archived: true }),
    ).toMatchObject({ archived: true });
    expect(
      (await listQueues(prisma, await projectAccess(prisma, ann, projectId, "project.view"))).map((x) => x.id),
    ).not.toContain(q.id);
    expect(
      (await listQueues(prisma, await projectAccess(prisma, ann, projectId, "project.view"), { archived: true })).map(
        (x) => x.id,
      ),
    ).toContain(q.id);
    await expect(nextItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id)).rejects.toBeInstanceOf(
      ValidationError,
    );
    await updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, { archived: false });
    expect(
      (await listQueues(prisma, await projectAccess(prisma, ann, projectId, "project.view"))).map((x) => x.id),
    ).toContain(q.id);
    expect((await nextItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id)).itemId).not.toBeNull();
  });
});

describe("assigned queues", () => {
  it("let only the named reviewers claim items; others see it assigned to someone else", async () => {
    const q = await queue("for Ann");
    await expect(
      updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, {
        assignees: [viewer.email],
      }),
    ).rejects.toThrow(viewer.email);
    await expect(
      updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, {
        assignees: ["nobody@example.test"],
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    const assigned = await updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, {
      assignees: [ann.email.toUpperCase()],
    });
    expect(assigned.assignees).toEqual([{ id: ann.userId, email: ann.email }]);
    await expect(nextItem(prisma, await queueAccess(prisma, bob, q.id, "scores.review"), q.id)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect((await getQueue(prisma, await queueAccess(prisma, bob, q.id, "project.view"), q.id)).assignment).toEqual({
      assignees: [ann.email],
      toMe: false,
      open: false,
    });
    expect((await getQueue(prisma, await queueAccess(prisma, ann, q.id, "project.view"), q.id)).assignment).toEqual({
      assignees: [ann.email],
      toMe: true,
      open: true,
    });
    expect((await nextItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id)).itemId).not.toBeNull();
    // Opened to everyone again.
    await updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, { assignees: [] });
    expect((await nextItem(prisma, await queueAccess(prisma, bob, q.id, "scores.review"), q.id)).itemId).not.toBeNull();
  });
});

describe("the hand-out order", () => {
  it("is the owner's to change: next items follow the new order; a reviewer or an unknown order changes nothing", async () => {
    const q = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "order",
      filter: {},
      scope: "verdict",
      reviewersPerItem: 2,
    });
    await expect(queueAccess(prisma, ann, q.id, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, {
        handOut: "random" as "coverage",
      }),
    ).rejects.toMatchObject({
      name: "ZodError",
    });
    expect((await getQueue(prisma, await queueAccess(prisma, bob, q.id, "project.view"), q.id)).handOut).toBe(
      "overlap",
    );
    const { itemId: first } = await nextItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id);
    await submitItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id, first!, {
      judgments: [{ target: "verdict", value: 1 }],
    });
    expect(
      await updateQueueState(prisma, await queueAccess(prisma, owner, q.id, "queues.manage"), q.id, {
        handOut: "coverage",
      }),
    ).toMatchObject({ handOut: "coverage" });
    // Coverage first: bob gets the item nobody has reviewed, not ann's.
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, bob, q.id, "scores.review"), q.id);
    expect(itemId).not.toBe(first);
  });
});

describe("finished queues", () => {
  it("say so once every item has its reviewers", async () => {
    const q = await queue("to finish");
    expect((await getQueue(prisma, await queueAccess(prisma, ann, q.id, "project.view"), q.id)).finished).toBe(false);
    for (;;) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id);
      if (!itemId) break;
      const item = await getQueueItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id, itemId);
      const verdict = item.targets.find((t) => t.key === "verdict")!;
      await submitItem(prisma, await queueAccess(prisma, ann, q.id, "scores.review"), q.id, itemId, {
        judgments: [
          { target: verdict.key, value: 0, ...(verdict.mine ? { expectedVersion: verdict.mine.version } : {}) },
        ],
      });
    }
    const done = await getQueue(prisma, await queueAccess(prisma, bob, q.id, "project.view"), q.id);
    expect(done.finished).toBe(true);
    expect(done.progress.complete).toBe(2);
    expect(
      (await listQueues(prisma, await projectAccess(prisma, bob, projectId, "project.view"))).find(
        (x) => x.id === q.id,
      )!.finished,
    ).toBe(true);
  });
});

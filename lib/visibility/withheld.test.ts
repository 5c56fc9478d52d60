/**
 * What a withheld view says: the blind queues holding the view's videos, each with the items the caller has left in it
 * (unsubmitted and still theirs to submit: held by them or needing reviewers), counting down as they submit, and
 * nothing once they are done or the view holds none of those videos.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { requireWholeView, WithheldError, withheldFor, withheldReason } from "./withheld";

let owner: Actor;
let ann: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  [owner, ann] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 4,
    keyFrames: 1,
    name: "Withheld",
  }));
  await prisma.projectMember.create({ data: { projectId, userId: ann.userId, role: "reviewer" } });
});

async function blindQueue(name: string, videos: string[], reviewersPerItem = 1) {
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name,
      runId: "no-run",
      scope: "verdict",
      blind: true,
      reviewersPerItem,
      itemCount: videos.length,
      createdById: owner.userId,
    },
  });
  const items = [];
  for (const [position, videoId] of videos.entries())
    items.push(await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } }));
  return { id: queue.id, items };
}

async function claim(actor: Actor, queueId: string, itemId: string) {
  await prisma.reviewQueueAssignment.create({ data: { itemId, queueId, reviewerId: actor.userId } });
}

async function submit(actor: Actor, itemId: string) {
  await prisma.reviewQueueAssignment.update({
    where: { itemId_reviewerId: { itemId, reviewerId: actor.userId } },
    data: { status: "done", doneAt: new Date() },
  });
  await prisma.reviewQueueItem.update({ where: { id: itemId }, data: { doneCount: { increment: 1 } } });
}

describe("withheldFor", () => {
  it("names the blind queue and the items left, counting down as they are submitted, and nothing once all are", async () => {
    const queue = await blindQueue("Q three", videoIds.slice(0, 3));
    await claim(ann, queue.id, queue.items[0]!.id);
    expect(await withheldFor(prisma, ann.userId, videoIds)).toEqual({
      queues: [{ id: queue.id, name: "Q three", itemsLeft: 3 }],
      blindVideos: 3,
    });
    // A view without the queue's videos is whole.
    expect(await withheldFor(prisma, ann.userId, [videoIds[3]!])).toBeNull();
    // Someone who reviews nothing is never withheld.
    expect(await withheldFor(prisma, owner.userId, videoIds)).toBeNull();

    await submit(ann, queue.items[0]!.id);
    expect(await withheldFor(prisma, ann.userId, videoIds)).toEqual({
      queues: [{ id: queue.id, name: "Q three", itemsLeft: 2 }],
      blindVideos: 2,
    });
    // An item another reviewer finished (one reviewer per item) is not left for her.
    await claim(owner, queue.id, queue.items[1]!.id);
    await submit(owner, queue.items[1]!.id);
    const one = await withheldFor(prisma, ann.userId, videoIds);
    expect(one?.queues).toEqual([{ id: queue.id, name: "Q three", itemsLeft: 1 }]);
    expect(withheldReason(one!)).toBe('hidden while you review "Q three" blind: 1 item left');
    await expect(requireWholeView(prisma, ann.userId, videoIds, "The thing")).rejects.toThrow(
      'The thing is hidden while you review "Q three" blind: 1 item left.',
    );

    await claim(ann, queue.id, queue.items[2]!.id);
    await submit(ann, queue.items[2]!.id);
    expect(await withheldFor(prisma, ann.userId, videoIds)).toBeNull();
    await expect(requireWholeView(prisma, ann.userId, videoIds, "The thing")).resolves.toBeUndefined();
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
  });

  it("names every blind queue holding the view's videos, and answers 409 withheld with them in its details", async () => {
    const a = await blindQueue("A queue", [videoIds[0]!]);
    const b = await blindQueue("B queue", [videoIds[1]!, videoIds[2]!], 2);
    await claim(ann, a.id, a.items[0]!.id);
    await claim(ann, b.id, b.items[0]!.id);
    const error = await requireWholeView(prisma, ann.userId, videoIds, "The report").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WithheldError);
    expect((error as WithheldError).status).toBe(409);
    expect((error as WithheldError).code).toBe("withheld");
    expect((error as WithheldError).message).toContain(
      'hidden while you review "A queue" blind: 1 item left; "B queue" blind: 2 items left',
    );
    expect((error as WithheldError).details).toEqual({
      withheld: {
        queues: [
          { id: a.id, name: "A queue", itemsLeft: 1 },
          { id: b.id, name: "B queue", itemsLeft: 2 },
        ],
        blindVideos: 3,
      },
    });
    // Only the queue holding the view's videos is named.
    expect((await withheldFor(prisma, ann.userId, [videoIds[0]!]))?.queues.map((q) => q.name)).toEqual(["A queue"]);
  });
});

/**
 * Blind is per queue: a reviewer of a blind queue sees no judge values for any video of it they have not
 * submitted, while they hold a claim in it or it still has items they could be given. Claims go through
 * nextItem; a submission is written as submitItem records it (the assignment done, the item counted).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "../db/prisma";
import { nextItem } from "../queues/next-item";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { blindVideoIdsFor, isBlindFor, redactVideoReviewsFor } from "./judge-visibility";

let owner: Actor;
let ann: Actor;
let carl: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  [owner, ann, carl] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1, name: "Blind queue" });
  projectId = project.projectId;
  videoIds = project.videoIds;
  for (const reviewer of [ann, carl])
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
}, 60_000);

/** A queue over the first three videos, in order; the fourth video is in no queue. */
async function queueOverThree(options: { blind: boolean; reviewersPerItem?: number }) {
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name: "Q",
      runId: "no-run",
      scope: "verdict",
      blind: options.blind,
      reviewersPerItem: options.reviewersPerItem ?? 1,
      itemCount: 3,
      createdById: owner.userId,
    },
  });
  for (const [position, videoId] of videoIds.slice(0, 3).entries())
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } });
  return queue.id;
}

async function submit(actor: Actor, itemId: string) {
  await prisma.reviewQueueAssignment.update({
    where: { itemId_reviewerId: { itemId, reviewerId: actor.userId } },
    data: { status: "done", doneAt: new Date() },
  });
  await prisma.reviewQueueItem.update({ where: { id: itemId }, data: { doneCount: { increment: 1 } } });
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

describe("a blind queue", () => {
  let queueId: string;
  beforeAll(async () => {
    queueId = await queueOverThree({ blind: true });
  });

  it("hides every video of the queue from a reviewer holding one item, the next item's video included", async () => {
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, ann, queueId, "scores.review"), queueId);
    const held = await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } });
    expect(held.videoId).toBe(videoIds[0]);
    expect(sorted(await blindVideoIdsFor(prisma, ann.userId))).toEqual(sorted(videoIds.slice(0, 3)));
    expect(await isBlindFor(prisma, ann.userId, videoIds[1]!)).toBe(true);
    expect(await isBlindFor(prisma, ann.userId, videoIds[3]!)).toBe(false);
    // Another reviewer's judgments of the next item's video are not hers to see.
    const payload = {
      judgments: [
        { reviewer: { id: carl.userId }, judge: 7 },
        { reviewer: { id: ann.userId }, judge: 7 },
      ],
    };
    const redacted = await redactVideoReviewsFor(prisma, ann.userId, videoIds[1]!, payload);
    expect(redacted).toEqual({ blind: true, judgments: [{ reviewer: { id: ann.userId }, judge: null }] });
    // A member who is not reviewing the queue sees everything.
    expect(sorted(await blindVideoIdsFor(prisma, carl.userId))).toEqual([]);
  });

  it("reveals an item she submitted while the rest stay hidden, with no claim held", async () => {
    const [item0] = await prisma.reviewQueueItem.findMany({ where: { queueId, position: 0 } });
    await submit(ann, item0!.id);
    expect(
      await prisma.reviewQueueAssignment.count({ where: { queueId, reviewerId: ann.userId, status: "claimed" } }),
    ).toBe(0);
    expect(sorted(await blindVideoIdsFor(prisma, ann.userId))).toEqual(sorted(videoIds.slice(1, 3)));
    expect(sorted(await blindVideoIdsFor(prisma, ann.userId, [videoIds[0]!, videoIds[2]!]))).toEqual([videoIds[2]]);
  });

  it("keeps a video hidden from another reviewer who has started the queue until they submit it", async () => {
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, carl, queueId, "scores.review"), queueId);
    const item = await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } });
    expect(item.videoId).toBe(videoIds[1]);
    expect(sorted(await blindVideoIdsFor(prisma, carl.userId))).toEqual(sorted(videoIds.slice(0, 3)));
    await submit(carl, item.id);
    expect(sorted(await blindVideoIdsFor(prisma, carl.userId))).toEqual(sorted([videoIds[0]!, videoIds[2]!]));
  });

  it("reveals the rest once no item is left for her (the others reviewed by someone else)", async () => {
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, carl, queueId, "scores.review"), queueId);
    await submit(carl, itemId!);
    // Every item now has its one reviewer: Ann has nothing left to do in this queue.
    expect(sorted(await blindVideoIdsFor(prisma, ann.userId))).toEqual([]);
    expect(sorted(await blindVideoIdsFor(prisma, carl.userId))).toEqual([]);
  });
});

describe("other queues", () => {
  it("an archived blind queue and a queue that is not blind hide nothing", async () => {
    const blindQueue = await queueOverThree({ blind: true, reviewersPerItem: 2 });
    const openQueue = await queueOverThree({ blind: false, reviewersPerItem: 2 });
    const dave = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: dave.userId, role: "reviewer" } });
    await nextItem(prisma, await queueAccess(prisma, dave, openQueue, "scores.review"), openQueue);
    expect(sorted(await blindVideoIdsFor(prisma, dave.userId))).toEqual([]);
    await nextItem(prisma, await queueAccess(prisma, dave, blindQueue, "scores.review"), blindQueue);
    expect(sorted(await blindVideoIdsFor(prisma, dave.userId))).toEqual(sorted(videoIds.slice(0, 3)));
    await prisma.reviewQueue.update({ where: { id: blindQueue }, data: { archivedAt: new Date() } });
    expect(sorted(await blindVideoIdsFor(prisma, dave.userId))).toEqual([]);
  });
});

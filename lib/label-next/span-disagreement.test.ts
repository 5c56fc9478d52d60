import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createQueue } from "../queues/create-queue";
import { insertSpans, type NewSpan } from "../spans/span-store";
import { judgeAuthorId } from "../spans/span-types";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { WithheldError } from "../visibility/withheld";
import { labelNextPlan } from "./label-next";

/*
 * Four videos of one run (s = reviewers' and the judge's spans of a label, frames inclusive):
 * v0: ann, bob and the judge all mark s1 at 0–9 (they agree: not proposed);
 * v1: ann s1 0–9, bob s1 5–14, the judge s1 0–9 (the least-overlapping pair, ann/bob, shares 5 of 15 frames: 2/3);
 * v2: the judge marks d1 at 2–3 and no reviewer localised it (1: nobody checked the judge);
 * v3: ann submitted it in a localising queue with no span, the judge marks s1 at 0–4 (1: no reviewer marks it).
 * Noise that must not count: a withdrawn span, another task's span, an older run's judge span.
 */
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let runId: string;
let v: string[];

function span(videoId: string, authorId: string, label: string, startFrame: number, endFrame: number): NewSpan {
  const judge = authorId.startsWith("run:");
  return {
    projectId,
    videoId,
    task: "hallucination",
    label,
    itemId: "",
    startFrame,
    endFrame,
    startS: startFrame / 10,
    endS: (endFrame + 1) / 10,
    boxes: [],
    note: "",
    authorKind: judge ? "judge" : "reviewer",
    authorId,
    runId: judge ? authorId.slice(4) : null,
  };
}

beforeAll(async () => {
  owner = await makeUser();
  [ann, bob] = await Promise.all([makeUser(), makeUser()]);
  const framed = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1, name: "Span next" });
  projectId = framed.projectId;
  v = framed.videoIds;
  for (const a of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: a.userId, role: "reviewer" } });
  const seed = {
    scores: () => [{ stepId: "static_hallucination" as const, scopeIndex: 0, category: "s1", value: 8 }],
    outcome: (i: number) => ({ verdict: i % 2 === 0, overall: 10 * i }),
  };
  const older = (await seedFinishedRun(prisma, owner, projectId, v, seed)).runId;
  runId = (await seedFinishedRun(prisma, owner, projectId, v, seed)).runId;
  const judge = judgeAuthorId(runId);
  await prisma.$transaction((tx) =>
    insertSpans(
      tx,
      [
        span(v[0]!, ann.userId, "s1", 0, 9),
        span(v[0]!, bob.userId, "s1", 0, 9),
        span(v[0]!, judge, "s1", 0, 9),
        span(v[1]!, ann.userId, "s1", 0, 9),
        span(v[1]!, bob.userId, "s1", 5, 14),
        span(v[1]!, judge, "s1", 0, 9),
        span(v[2]!, judge, "d1", 2, 3),
        span(v[3]!, judge, "s1", 0, 4),
        // Noise: an older run's judge marks d2 on v0; bob's d3 on v0 is withdrawn; ann's v0 span of another task.
        span(v[0]!, judgeAuthorId(older), "d2", 0, 3),
        { ...span(v[0]!, bob.userId, "d3", 0, 3) },
        { ...span(v[0]!, ann.userId, "d4", 0, 3), task: "project" },
      ],
      owner.userId,
    ),
  );
  await prisma.span.updateMany({ where: { videoId: v[0]!, label: "d3" }, data: { withdrawn: true } });
  const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name: "Where",
    runId,
    filter: {},
    scope: "scores",
    mode: "presence",
    localize: true,
  });
  const item = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId: queue.id, videoId: v[3]! } });
  await prisma.reviewQueueAssignment.create({
    data: { itemId: item.id, queueId: queue.id, reviewerId: ann.userId, status: "done", doneAt: new Date() },
  });
});

describe("what to label next: where spans disagree", () => {
  it("ranks judge spans no reviewer marks first, then the least-overlapping pair, from every video or none", async () => {
    const plan = await labelNextPlan(prisma, owner, projectId, runId, { budget: 10 });
    const paths = new Map(
      (await prisma.video.findMany({ where: { id: { in: v } } })).map((video) => [video.id, video.relativePath]),
    );
    const [first, second] = [v[2]!, v[3]!].sort((a, b) => paths.get(a)!.localeCompare(paths.get(b)!));
    expect(plan.spans.videos.map((x) => [x.id, x.label, x.reason, x.reviewers])).toEqual([
      [first, first === v[2] ? "d1" : "s1", "judge_only", first === v[2] ? 0 : 1],
      [second, second === v[2] ? "d1" : "s1", "judge_only", second === v[2] ? 0 : 1],
      [v[1], "s1", "overlap", 2],
    ]);
    expect(plan.spans.videos[2]!.disagreement).toBeCloseTo(1 - 5 / 15, 12);
    expect(plan.spans.withSpans).toBe(4);
    expect(plan.spans.localised).toBe(3);
    expect((await labelNextPlan(prisma, owner, projectId, runId, { budget: 1 })).spans.videos.map((x) => x.id)).toEqual(
      [first],
    );

    // Computed from every video of the run: withheld from an owner who reviews some of them blind.
    const blind = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Blind",
      runId,
      filter: {},
      scope: "verdict",
      blind: true,
      videoIds: [v[0]!],
    });
    await prisma.reviewQueueAssignment.create({
      data: {
        itemId: (await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId: blind.id } })).id,
        queueId: blind.id,
        reviewerId: owner.userId,
      },
    });
    await expect(labelNextPlan(prisma, owner, projectId, runId, { budget: 10 })).rejects.toBeInstanceOf(WithheldError);
  });
});

describe("where spans disagree, on the labels the raters were asked", () => {
  /*
   * Two videos, both submitted by ann in a localising queue that asks d1 only. The judge marks s3 on both (a label
   * the queue never asked) and d1 on w1, where ann marks none: only w1 is disputed, on d1.
   */
  it("leaves out labels no queue of the video asked its reviewers", async () => {
    const framed = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, name: "Asked" });
    projectId = framed.projectId;
    const w = framed.videoIds;
    await prisma.projectMember.create({ data: { projectId, userId: ann.userId, role: "reviewer" } });
    const seed = {
      scores: () => [
        { stepId: "static_hallucination" as const, scopeIndex: 0, category: "s1", value: 8 },
        { stepId: "dynamic_hallucination" as const, scopeIndex: 0, category: "d1", value: 3 },
      ],
      outcome: () => ({ verdict: true, overall: 10 }),
    };
    const run = (await seedFinishedRun(prisma, owner, projectId, w, seed)).runId;
    const judge = judgeAuthorId(run);
    await prisma.$transaction((tx) =>
      insertSpans(
        tx,
        [span(w[0]!, judge, "s3", 0, 4), span(w[1]!, judge, "s3", 0, 4), span(w[1]!, judge, "d1", 2, 3)],
        owner.userId,
      ),
    );
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Where d1",
      runId: run,
      filter: {},
      scope: "scores",
      categories: ["d1"],
      mode: "presence",
      localize: true,
    });
    for (const item of await prisma.reviewQueueItem.findMany({ where: { queueId: queue.id } }))
      await prisma.reviewQueueAssignment.create({
        data: { itemId: item.id, queueId: queue.id, reviewerId: ann.userId, status: "done", doneAt: new Date() },
      });
    const plan = await labelNextPlan(prisma, owner, projectId, run, { budget: 10 });
    expect(plan.spans.videos.map((x) => [x.id, x.label, x.reason, x.disputedLabels])).toEqual([
      [w[1], "d1", "judge_only", 1],
    ]);
  });
});

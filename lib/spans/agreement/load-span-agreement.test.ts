import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { NotFoundError, ValidationError } from "../../errors";
import { seedFinishedRun } from "../../../testkit/tasks/hallucination/agreement-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { WithheldError } from "../../visibility/withheld";
import { taskSpanLabels } from "../span-labels";
import { projectSpanAgreement } from "./load-span-agreement";

/*
 * Three videos: v0 with stored frame times (30 frames), v1 with a probed frame count (20), v2 with neither (left out).
 * Ann and Bob (reviewers) and run r1 (the judge, all three videos) mark spans of one hallucination label.
 */
let owner: Actor;
let ann: Actor;
let bob: Actor;
let viewer: Actor;
let projectId: string;
let videoIds: string[];
let r1: string;
let otherRun: string;
const catalogue = builtInCatalogue();
const label = taskSpanLabels(catalogue.findTask("hallucination")!)[0]!.id;

const spanRow = (
  videoId: string,
  author: Actor | string,
  startFrame: number,
  endFrame: number,
  extra: {
    withdrawn?: boolean;
    label?: string;
    boxes?: { frame: number; x: number; y: number; w: number; h: number; enabled: boolean }[];
  } = {},
) => {
  const judge = typeof author === "string";
  return {
    projectId,
    videoId,
    task: "hallucination",
    label: extra.label ?? label,
    startFrame,
    endFrame,
    startS: startFrame / 10,
    endS: (endFrame + 1) / 10,
    authorKind: judge ? ("judge" as const) : ("reviewer" as const),
    authorId: judge ? `run:${author}` : author.userId,
    runId: judge ? author : null,
    withdrawn: extra.withdrawn ?? false,
    boxes: extra.boxes ?? [],
  };
};

const box = (frame: number, x: number) => ({ frame, x, y: 0, w: 0.5, h: 0.5, enabled: true });

beforeAll(async () => {
  [owner, ann, bob, viewer] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 1,
    name: "Spans agree",
  }));
  for (const [actor, role] of [
    [ann, "reviewer"],
    [bob, "reviewer"],
    [viewer, "viewer"],
  ] as const)
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role } });
  const [v0, v1, v2] = videoIds as [string, string, string];
  await prisma.videoFrameTimes.create({
    data: { videoId: v0, timesS: Array.from({ length: 30 }, (_, i) => i / 10), endS: 3, variable: false },
  });
  await prisma.video.update({ where: { id: v1 }, data: { frameCount: 20 } });
  const seeded = { scores: () => [], outcome: () => ({ verdict: false, overall: 90 }) };
  r1 = (await seedFinishedRun(prisma, owner, projectId, videoIds, seeded)).runId;
  const other = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Other" });
  otherRun = (await seedFinishedRun(prisma, owner, other.projectId, other.videoIds, seeded)).runId;
  await prisma.span.createMany({
    data: [
      spanRow(v0, ann, 0, 9, { boxes: [box(5, 0.25), box(0, 0)] }),
      spanRow(v0, ann, 20, 29, { withdrawn: true }),
      spanRow(v1, ann, 0, 4),
      spanRow(v2, ann, 0, 4),
      spanRow(v0, bob, 0, 9, { boxes: [box(0, 0)] }),
      spanRow(v0, r1, 5, 14),
      spanRow(v2, r1, 0, 3),
    ],
  });
});

const query = (q: Record<string, string> = {}) => ({ task: "hallucination", ...q });

describe("projectSpanAgreement", () => {
  it("compares the judge with each reviewer over the videos both looked at, never counting withdrawn spans", async () => {
    const report = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      query({ runId: r1 }),
      catalogue,
      {
        iterations: 100,
      },
    );
    expect(report).toMatchObject({ task: "hallucination", runId: r1, label: null, videosLeftOut: 1 });
    expect(report.labels.map((l) => l.label)).toEqual([label]);
    const byKey = new Map(report.labels[0]!.comparisons.map((c) => [c.key, c]));
    const withAnn = byKey.get(`judge:run:${r1}|${ann.userId}`)!;
    // v0 (ann 0–9, judge 5–14: IoU 5/15) and v1 (ann 0–4, judge none); v2 has no frame count.
    expect(withAnn).toMatchObject({ kind: "judge_person", videos: 2, referenceSpans: 2, predictionSpans: 1 });
    expect(withAnn.thresholds.map((t) => t.matched)).toEqual([1, 1, 0, 0]);
    expect(withAnn.thresholds[0]!.recall.value).toBe(0.5);
    expect(withAnn.meanIou.value).toBeCloseTo(1 / 3, 12);
    // Frames: v0 30 (ann 0–9, judge 5–14: both 5, ann only 5, judge only 5, neither 15) and v1 20 (ann only 5, neither 15).
    expect(withAnn.frames).toMatchObject({ both: 5, referenceOnly: 10, predictionOnly: 5, neither: 30 });
    // Bob looked at v0 only (his span there): ann and bob agree exactly on it.
    const people = byKey.get(`people:${[ann.userId, bob.userId].sort().join("|")}`)!;
    expect(people).toMatchObject({ videos: 1, referenceSpans: 1, predictionSpans: 1 });
    expect(people.thresholds[3]!.f1.value).toBe(1);
    // Boxes as stored, put in frame order: ann's box moves from x 0 (frame 0) to 0.25 (frame 5), bob's stays at 0.
    // IoU per frame: 1, then (0.5 − 0.05k) / (0.5 + 0.05k) for k = 1..5, then 1/3 to frame 9.
    const perFrame = [
      1,
      ...[1, 2, 3, 4, 5].map((k) => (0.5 - 0.05 * k) / (0.5 + 0.05 * k)),
      1 / 3,
      1 / 3,
      1 / 3,
      1 / 3,
    ];
    expect(people.boxIou.pairs).toBe(1);
    expect(people.boxIou.value).toBeCloseTo(perFrame.reduce((a, b) => a + b) / 10, 12);
    expect(byKey.get(`judge:run:${r1}|people`)).toMatchObject({ kind: "judge_people", referenceSpans: 3, videos: 2 });
  });

  it("gives one label the same numbers as the whole report, and refuses unknown tasks, labels and runs", async () => {
    const whole = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      query({ runId: r1 }),
      catalogue,
      {
        iterations: 100,
      },
    );
    const one = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      query({ runId: r1, label }),
      catalogue,
      {
        iterations: 100,
      },
    );
    expect(one.labels).toEqual(whole.labels);
    await expect(
      projectSpanAgreement(
        prisma,
        await projectAccess(prisma, viewer, projectId, "export.read"),
        { task: "nope" },
        catalogue,
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      projectSpanAgreement(
        prisma,
        await projectAccess(prisma, viewer, projectId, "export.read"),
        query({ label: "nope" }),
        catalogue,
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      projectSpanAgreement(
        prisma,
        await projectAccess(prisma, viewer, projectId, "export.read"),
        query({ runId: otherRun }),
        catalogue,
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("is withheld whole from a reviewer while they review one of its videos blind, and whole once they submit it", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "blind spans",
        runId: r1,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[1]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId: bob.userId } });
    const held = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, bob, projectId, "export.read"),
      query(),
      catalogue,
      { iterations: 50 },
    ).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(WithheldError);
    expect((held as WithheldError).message).toContain('"blind spans" blind: 1 item left');
    const open = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      query(),
      catalogue,
      { iterations: 50 },
    );
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: bob.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    // Bob's submitted item is a video he looked at: v1 joins his comparisons, for everyone alike.
    const after = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, bob, projectId, "export.read"),
      query(),
      catalogue,
      { iterations: 50 },
    );
    expect(after).toEqual(
      await projectSpanAgreement(
        prisma,
        await projectAccess(prisma, viewer, projectId, "export.read"),
        query(),
        catalogue,
        { iterations: 50 },
      ),
    );
    expect(after).not.toEqual(open);
  });
});

describe("raters who looked and marked nothing", () => {
  /*
   * One video of 30 frames. Run rA judged it and found nothing above its threshold (no judge span); Ann marked frames
   * 0–9 of the label; Carl submitted the video in a localising queue of rA and marked nothing. Both are raters of it.
   */
  it("a run that judged a video and a reviewer who submitted it localising count, and their silence counts against recall", async () => {
    const carl = await makeUser();
    const framed = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Nothing here" });
    const [video] = framed.videoIds as [string];
    for (const actor of [ann, carl])
      await prisma.projectMember.create({
        data: { projectId: framed.projectId, userId: actor.userId, role: "reviewer" },
      });
    await prisma.videoFrameTimes.create({
      data: { videoId: video, timesS: Array.from({ length: 30 }, (_, i) => i / 10), endS: 3, variable: false },
    });
    const seeded = { scores: () => [], outcome: () => ({ verdict: false, overall: 90 }) };
    const { runId: rA } = await seedFinishedRun(prisma, owner, framed.projectId, framed.videoIds, seeded);
    await prisma.span.create({ data: { ...spanRow(video, ann, 0, 9), projectId: framed.projectId } });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId: framed.projectId,
        name: "where",
        runId: rA,
        scope: "verdict",
        localize: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: video, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: carl.userId, status: "done", doneAt: new Date() },
    });

    const report = await projectSpanAgreement(
      prisma,
      await projectAccess(prisma, owner, framed.projectId, "export.read"),
      query(),
      catalogue,
      { iterations: 50 },
    );
    expect(report.raters.map((r) => [r.id, r.kind]).sort()).toEqual(
      [
        [ann.userId, "reviewer"],
        [carl.userId, "reviewer"],
        [`run:${rA}`, "judge"],
      ].sort(),
    );
    const byKey = new Map(report.labels[0]!.comparisons.map((c) => [c.key, c]));
    // The judge against Ann: her one span, none of the judge's: nothing matched, recall 0; her 10 frames hers alone.
    const judgeAnn = byKey.get(`judge:run:${rA}|${ann.userId}`)!;
    expect(judgeAnn).toMatchObject({ kind: "judge_person", videos: 1, referenceSpans: 1, predictionSpans: 0 });
    expect(judgeAnn.thresholds[0]).toMatchObject({ matched: 0, recall: { value: 0 } });
    expect(judgeAnn.frames).toMatchObject({ both: 0, referenceOnly: 10, predictionOnly: 0, neither: 20 });
    // The judge against Carl: neither marks anything, so there is nothing to report for the label.
    expect(byKey.has(`judge:run:${rA}|${carl.userId}`)).toBe(false);
    // Ann against Carl: one span against none, on the one video both looked at.
    const people = byKey.get(`people:${[ann.userId, carl.userId].sort().join("|")}`)!;
    expect(people).toMatchObject({ kind: "people", videos: 1 });
    expect(people.referenceSpans + people.predictionSpans).toBe(1);
    expect(people.thresholds[0]!.matched).toBe(0);
  });
});

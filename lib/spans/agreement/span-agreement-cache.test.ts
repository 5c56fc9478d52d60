/**
 * Kept span agreement reports: a repeated request over unchanged inputs answers from the kept report, and any change
 * to a span (through the app's client, a raw statement, a delete, a cascade) or to another input shows in the next
 * report, which then equals a report computed afresh. Access and blind review are checked on every request.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { seedFinishedRun } from "../../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { WithheldError } from "../../visibility/withheld";
import { taskSpanLabels } from "../span-labels";
import { projectSpanAgreement, spanAgreementReport } from "./load-span-agreement";
import {
  catalogue,
  freshReport,
  keptReportProject,
  query,
  spanRowIn,
} from "../../../testkit/spans/kept-report-project";
import { spanRevision, videosWrittenSince } from "./span-agreement-cache";

const options = { iterations: 50 };

let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

const spanRow = (
  videoId: string,
  author: Actor | string,
  startFrame: number,
  endFrame: number,
  extra: { projectId?: string; label?: string } = {},
) => spanRowIn(extra.projectId ?? projectId, videoId, author, startFrame, endFrame, extra);

beforeAll(async () => {
  ({ owner, ann, bob, projectId, videoIds } = await keptReportProject(prisma, "Kept span agreement"));
  const seeded = { scores: () => [], outcome: () => ({ verdict: false, overall: 90 }) };
  runId = (await seedFinishedRun(prisma, owner, projectId, videoIds, seeded)).runId;
  const [v0, v1, v2] = videoIds as [string, string, string];
  await prisma.span.createMany({
    data: [
      spanRow(v0, ann, 0, 9),
      spanRow(v1, ann, 10, 19),
      spanRow(v2, ann, 0, 4),
      spanRow(v0, bob, 0, 9),
      spanRow(v1, bob, 12, 19),
      spanRow(v0, runId, 5, 14),
      spanRow(v2, runId, 0, 3),
    ],
  });
});

/** The report computed afresh from the database, with nothing kept. */
const fresh = (actor: Actor, project = projectId) => freshReport(prisma, actor, project, options);

const report = async (actor: Actor = owner) =>
  projectSpanAgreement(prisma, await projectAccess(prisma, actor, projectId, "export.read"), query, catalogue, options);

const annWithBob = (r: Awaited<ReturnType<typeof report>>) =>
  r.labels[0]!.comparisons.find((c) => c.kind === "people")!;

describe("kept span agreement reports", () => {
  it("answers a repeated request from the kept report, for whoever asks", async () => {
    const first = await report();
    const again = await report(ann);
    expect(again).toEqual(first);
    // The same objects: the spans were neither read nor matched again.
    expect(again.labels).toBe(first.labels);
    expect(again.byGenerator).toBe(first.byGenerator);
    expect(first).toEqual(await fresh(owner));
  });

  it("reflects one changed span in the next report, whoever or whatever changed it", async () => {
    const before = await report();
    expect(annWithBob(before).thresholds.map((t) => t.matched)).toEqual([2, 2, 2, 2]);
    const bobs = await prisma.span.findFirstOrThrow({
      where: { projectId, authorId: bob.userId, videoId: videoIds[1]! },
    });
    // Through the app's client: bob's v1 span moves to 25–29, off ann's 10–19.
    await prisma.span.update({ where: { id: bobs.id }, data: { startFrame: 25, endFrame: 29 } });
    const moved = await report();
    expect(annWithBob(moved).thresholds.map((t) => t.matched)).toEqual([1, 1, 1, 1]);
    expect(moved).toEqual(await fresh(owner));
    // A raw statement that sets no updatedAt: back to 12–19.
    await prisma.$executeRaw`UPDATE "span" SET "startFrame" = 12, "endFrame" = 19 WHERE "id" = ${bobs.id}`;
    const back = await report();
    expect(annWithBob(back).thresholds.map((t) => t.matched)).toEqual([2, 2, 2, 2]);
    expect(back).toEqual(before);
    // A deleted span: bob no longer looked at v1, so the two compare v0 alone.
    await prisma.span.delete({ where: { id: bobs.id } });
    const deleted = await report();
    expect(annWithBob(before)).toMatchObject({ videos: 2, referenceSpans: 2, predictionSpans: 2 });
    expect(annWithBob(deleted)).toMatchObject({ videos: 1, referenceSpans: 1, predictionSpans: 1 });
    expect(deleted).toEqual(await fresh(owner));
    await prisma.span.create({ data: spanRow(videoIds[1]!, bob, 12, 19) });
    expect(await report()).toEqual(before);
  });

  it("reflects another input's change: a frame count, a generator", async () => {
    const before = await report();
    await prisma.video.update({ where: { id: videoIds[2]! }, data: { frameCount: 60 } });
    const longer = await report();
    expect(longer).not.toEqual(before);
    expect(longer).toEqual(await fresh(owner));
    await prisma.video.update({ where: { id: videoIds[2]! }, data: { model: "Sora" } });
    const oneGenerator = await report();
    expect(oneGenerator.byGenerator.map((g) => g.generator)).toEqual(["Sora"]);
    expect(oneGenerator).toEqual(await fresh(owner));
  });

  it("checks blind review on every request, the report kept or not", async () => {
    await report();
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 1, createdById: owner.userId },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId: bob.userId } });
    await expect(report(bob)).rejects.toBeInstanceOf(WithheldError);
    expect(await report(owner)).toEqual(await fresh(owner));
  });

  it("bumps the project's span revision in the same transaction as each span write, cascades included", async () => {
    let start = BigInt(await spanRevision(prisma, projectId));
    await prisma.span.updateMany({ where: { projectId, authorId: ann.userId }, data: { note: "seen" } });
    expect(BigInt(await spanRevision(prisma, projectId))).toBe(start + 1n);
    // Each video written holds the revision of its last write; a span moved to another video marks both.
    expect((await videosWrittenSince(prisma, projectId, String(start))).sort()).toEqual([...videoIds].sort());
    expect(await videosWrittenSince(prisma, projectId, String(start + 1n))).toEqual([]);
    const moving = await prisma.span.findFirstOrThrow({ where: { projectId, videoId: videoIds[0]! } });
    await prisma.span.update({ where: { id: moving.id }, data: { videoId: videoIds[1]! } });
    expect((await videosWrittenSince(prisma, projectId, String(start + 1n))).sort()).toEqual(
      [videoIds[0]!, videoIds[1]!].sort(),
    );
    await prisma.span.update({ where: { id: moving.id }, data: { videoId: videoIds[0]! } });
    start += 2n;
    // A write rolled back leaves it as it was.
    await prisma
      .$transaction(async (tx) => {
        await tx.span.create({ data: spanRow(videoIds[0]!, ann, 20, 25) });
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(BigInt(await spanRevision(prisma, projectId))).toBe(start + 1n);
    // Deleting a video deletes its spans by cascade.
    const before = await report();
    await prisma.video.delete({ where: { id: videoIds[2]! } });
    expect(BigInt(await spanRevision(prisma, projectId))).toBe(start + 2n);
    const after = await report();
    expect(after).not.toEqual(before);
    expect(after).toEqual(await fresh(owner));
  });
});

describe("a kept report after a few writes", () => {
  let project: string;
  let videos: string[];
  let run: string;
  const [first, second, third] = taskSpanLabels(catalogue.findTask("hallucination")!).map((l) => l.id) as [
    string,
    string,
    string,
  ];
  const ask = async () =>
    spanAgreementReport(prisma, await projectAccess(prisma, owner, project, "export.read"), query, catalogue, options);

  beforeAll(async () => {
    ({ projectId: project, videoIds: videos } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 6,
      keyFrames: 1,
      name: "Rematched span agreement",
    }));
    for (const actor of [ann, bob])
      await prisma.projectMember.create({ data: { projectId: project, userId: actor.userId, role: "reviewer" } });
    for (const [i, videoId] of videos.entries())
      await prisma.video.update({ where: { id: videoId }, data: { frameCount: 40, model: ["Sora", "Kling"][i % 2]! } });
    const seeded = { scores: () => [], outcome: () => ({ verdict: false, overall: 90 }) };
    run = (await seedFinishedRun(prisma, owner, project, videos, seeded)).runId;
    await prisma.span.createMany({
      data: videos.flatMap((v, i) => [
        spanRow(v, ann, i, i + 9, { projectId: project, label: i % 3 === 0 ? second : first }),
        spanRow(v, bob, i + 1, i + 10, { projectId: project, label: i % 3 === 0 ? second : first }),
        ...(i < 5 ? [spanRow(v, run, i + 2, i + 8, { projectId: project })] : []),
      ]),
    });
  });

  it("matches again only the videos written or otherwise changed, and equals the report computed afresh", async () => {
    const computed = await ask();
    expect(computed).toMatchObject({ how: "computed", videosMatched: 6 });
    expect(await ask()).toMatchObject({ how: "kept", videosMatched: 0, report: computed.report });
    const steps: [string, () => Promise<unknown>, number][] = [
      [
        "a span moved",
        () =>
          prisma.span.updateMany({
            where: { videoId: videos[1]!, authorId: bob.userId },
            data: { startFrame: 30, endFrame: 35 },
          }),
        1,
      ],
      // ann's span on the last video goes: she no longer looked at it, so her pairs there go too.
      ["a span deleted", () => prisma.span.deleteMany({ where: { videoId: videos[5]!, authorId: ann.userId } }), 1],
      ["a span added", () => prisma.span.create({ data: spanRow(videos[5]!, ann, 0, 3, { projectId: project }) }), 1],
      [
        "a span moved to another video",
        () =>
          prisma.span.updateMany({
            where: { videoId: videos[2]!, authorId: ann.userId },
            data: { videoId: videos[4]! },
          }),
        2,
      ],
      ["a frame count", () => prisma.video.update({ where: { id: videos[3]! }, data: { frameCount: 80 } }), 1],
      ["a generator", () => prisma.video.update({ where: { id: videos[0]! }, data: { model: "Kling" } }), 1],
      [
        "a raw write that changes nothing",
        () => prisma.$executeRaw`UPDATE "span" SET "note" = "note" WHERE "projectId" = ${project}`,
        6,
      ],
    ];
    for (const [what, write, matched] of steps) {
      const before = await ask();
      await write();
      const after = await ask();
      expect({ what, how: after.how, videosMatched: after.videosMatched }).toEqual({
        what,
        how: "rematched",
        videosMatched: matched,
      });
      expect({ what, report: after.report }).toEqual({ what, report: await fresh(owner, project) });
      if (what === "a span moved") {
        expect(after.report).not.toEqual(before.report);
        // Only Kling's videos changed (videos[1]): Sora's report is the kept one, not computed again.
        const sora = (r: typeof after) => r.report.byGenerator.find((g) => g.generator === "Sora");
        const kling = (r: typeof after) => r.report.byGenerator.find((g) => g.generator === "Kling");
        expect(sora(after)).toBe(sora(before));
        expect(kling(after)).not.toBe(kling(before));
      }
    }
  });

  it("cuts a label's first report from the kept report of every label, equal to the label's computed afresh", async () => {
    await ask();
    const ofLabel = async (label: string) =>
      spanAgreementReport(
        prisma,
        await projectAccess(prisma, owner, project, "export.read"),
        { ...query, label },
        catalogue,
        options,
      );
    // `third` is a label no span marks yet: its report has no comparison, as when computed from its spans.
    for (const label of [first, second, third]) {
      const cut = await ofLabel(label);
      expect({ label, how: cut.how, keptIn: cut.keptIn }).toEqual({ label, how: "cut", keptIn: "process" });
      expect(cut.report).toEqual(await freshReport(prisma, owner, project, options, label));
      expect((await ofLabel(label)).how).toBe("kept");
    }
    await prisma.span.updateMany({
      where: { videoId: videos[1]!, authorId: bob.userId },
      data: { startFrame: 20, endFrame: 25 },
    });
    const rematched = await ofLabel(first);
    expect(rematched).toMatchObject({ how: "rematched", videosMatched: 1 });
    expect(rematched.report).toEqual(await freshReport(prisma, owner, project, options, first));
    await expect(ofLabel("no-such-label")).rejects.toThrow('label: "no-such-label" is not a span label');
  });

  it("computes afresh when the raters or the rows' labels change", async () => {
    await ask();
    // A label no span marked before widens every row.
    await prisma.span.create({ data: spanRow(videos[0]!, ann, 0, 5, { projectId: project, label: third }) });
    const widened = await ask();
    expect(widened.how).toBe("computed");
    expect(widened.report).toEqual(await fresh(owner, project));
    // A new author of spans is a new rater.
    const carl = await makeUser();
    await prisma.projectMember.create({ data: { projectId: project, userId: carl.userId, role: "reviewer" } });
    await prisma.span.create({ data: spanRow(videos[0]!, carl, 0, 5, { projectId: project }) });
    const newRater = await ask();
    expect(newRater.how).toBe("computed");
    expect(newRater.report).toEqual(await fresh(owner, project));
    expect(newRater.report.raters.map((r) => r.id)).toContain(carl.userId);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { NotFoundError, ValidationError } from "../errors";
import { type ExportRow, projectExport } from "../agreement/export";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema, exportQuerySchema } from "../agreement/report-filter";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema } from "../videos/video-filter";
import { createQueue } from "../queues/create-queue";
import { nextItem } from "../queues/next-item";
import { submitItem } from "../queues/submit-item";
import { ReviewConflictError, reviewScore, reviewVideoOutcome, videoReviews, withdrawJudgment } from "./reviews";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * Two videos judged by one run: s1 at key frame 0 is 8 on v0 and 2 on v1. Ann gives v0 her own 3 and
 * accepts the judge's 2 on v1; Bob judges v0's verdict.
 */
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;
let s1: (v: number) => string;

beforeAll(async () => {
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Honest judgments",
  }));
  videoIds.sort();
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  const run = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2][v]! }],
    outcome: (v) => ({ verdict: [true, false][v]!, overall: [40, 80][v]! }),
  });
  runId = run.runId;
  s1 = (v) => run.scoreIds.get(`${v}:static_hallucination:0:s1`)!;
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(0), { value: 3 });
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(1), {
    value: 2,
    acceptedJudge: true,
  });
});

const agreement = async (params: Record<string, string> = {}) =>
  projectAgreement(
    prisma,
    await projectAccess(prisma, owner, projectId, "export.read"),
    agreementQuerySchema(builtInCatalogue()).parse(params),
  );

async function exportText(format: "csv" | "jsonl") {
  const { stream } = await projectExport(
    prisma,
    await projectAccess(prisma, owner, projectId, "export.read"),
    exportQuerySchema(builtInCatalogue()).parse({ format }),
  );
  return new Response(stream).text();
}

describe("accepting the judge's value", () => {
  it("is recorded on the judgment and its history, and refused for a value that is not the judge's", async () => {
    const accepted = await prisma.humanJudgment.findFirstOrThrow({
      where: { reviewerId: ann.userId, videoId: videoIds[1]! },
      include: { history: true },
    });
    expect(accepted.acceptedJudge).toBe(true);
    expect(accepted.history.map((h) => h.after)).toEqual([{ value: 2, note: null, reason: null, acceptedJudge: true }]);
    const own = await prisma.humanJudgment.findFirstOrThrow({
      where: { reviewerId: ann.userId, videoId: videoIds[0]! },
    });
    expect(own.acceptedJudge).toBe(false);
    await expect(
      reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(0), {
        value: 7,
        acceptedJudge: true,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: bob.userId } })).toBe(0);
    const reviews = await videoReviews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoIds[1]!,
      { runId },
    );
    expect(reviews.judgments.map((j) => (j as { acceptedJudge?: boolean }).acceptedJudge)).toEqual([true]);
  });

  it("is carried by the exports: accepted_judge in JSONL, a column per reviewer in CSV", async () => {
    const rows = (await exportText("jsonl"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as Omit<ExportRow, "reviews"> & {
            reviews: { reviewerId: string; accepted_judge: boolean }[];
          },
      );
    const reviewed = rows.filter((r) => r.category === "s1" && r.reviews.length > 0);
    expect(reviewed.map((r) => [r.videoId, r.reviews.map((x) => x.accepted_judge)])).toEqual([
      [videoIds[0], [false]],
      [videoIds[1], [true]],
    ]);
    const csv = (await exportText("csv")).split("\r\n");
    const header = csv[0]!.split(",");
    const column = header.findIndex((h) => h.endsWith(" accepted_judge"));
    expect(column).toBeGreaterThan(0);
    const s1Rows = csv.slice(1).filter((line) => line.includes(",s1,"));
    expect(s1Rows.map((line) => line.split(",")[column])).toEqual(["false", "true"]);
  });

  it("is left out of the agreement report by default (independent=only) and counted with independent=all", async () => {
    const independent = await agreement();
    expect(independent.independentOnly).toBe(true);
    // Only v0's own 3 against the judge's 8.
    expect(independent.summary).toMatchObject({ reviewedItems: 1, judgments: 1 });
    expect(independent.humanVsJudge.consensus.native.score.values.mae).toBeCloseTo(5, 12);
    const all = await agreement({ independent: "all" });
    expect(all.independentOnly).toBe(false);
    expect(all.summary).toMatchObject({ reviewedItems: 2, judgments: 2 });
    // The accepted 2 agrees exactly with the judge's 2: (5 + 0) / 2.
    expect(all.humanVsJudge.consensus.native.score.values.mae).toBeCloseTo(2.5, 12);
    expect(() => agreementQuerySchema(builtInCatalogue()).parse({ independent: "some" })).toThrow();
  });
});

describe("withdrawing a judgment", () => {
  it("removes it from agreement, exports and the list's flags, keeps its history, and a later save continues its versions", async () => {
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, bob, projectId, "scores.review"),
      runId,
      videoIds[0]!,
      "verdict",
      { value: 0 },
    );
    const judgment = await prisma.humanJudgment.findFirstOrThrow({ where: { reviewerId: bob.userId } });
    const listed = async () =>
      (
        await browseVideos(
          prisma,
          await projectAccess(prisma, bob, projectId, "project.view"),
          videoListQuerySchema(builtInCatalogue()).parse({ runId }),
        )
      ).videos.find((v) => v.id === videoIds[0]!)!.review;
    expect(await listed()).toMatchObject({ reviewers: 2, byMe: true, disagreement: true });

    // Someone else's judgment reads as missing; a stale version is a conflict.
    await expect(
      withdrawJudgment(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgment.id, {
        expectedVersion: 1,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      withdrawJudgment(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), judgment.id, {
        expectedVersion: 2,
      }),
    ).rejects.toBeInstanceOf(ReviewConflictError);

    const withdrawn = await withdrawJudgment(
      prisma,
      await projectAccess(prisma, bob, projectId, "scores.review"),
      judgment.id,
      { expectedVersion: 1 },
    );
    expect(withdrawn).toMatchObject({ withdrawn: true, version: 2 });
    expect(await listed()).toMatchObject({ reviewers: 1, byMe: false });
    const report = await agreement({ independent: "all" });
    expect(report.summary).toMatchObject({ judgments: 2, reviewers: 1 });
    expect(report.confusion.verdict!.cells.every((c) => c.count === 0)).toBe(true);
    expect((await exportText("csv")).split("\r\n")[0]).not.toContain(bob.userId);
    expect(
      (
        await videoReviews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), videoIds[0]!, {
          runId,
        })
      ).judgments.map((j) => j.reviewer.id),
    ).toEqual([ann.userId]);
    const history = await prisma.humanJudgmentHistory.findMany({
      where: { judgmentId: judgment.id },
      orderBy: { version: "asc" },
    });
    expect(history.map((h) => [h.version, h.after])).toEqual([
      [1, { value: 0, note: null, reason: null, acceptedJudge: false }],
      [2, { withdrawn: true }],
    ]);
    // Withdrawing twice: nothing left to withdraw.
    await expect(
      withdrawJudgment(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), judgment.id, {
        expectedVersion: 2,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);

    // Saving again: like a first judgment (no version), or with the current one; a stale one is a conflict.
    await expect(
      reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, bob, projectId, "scores.review"),
        runId,
        videoIds[0]!,
        "verdict",
        { value: 1, expectedVersion: 1 },
      ),
    ).rejects.toBeInstanceOf(ReviewConflictError);
    const again = await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, bob, projectId, "scores.review"),
      runId,
      videoIds[0]!,
      "verdict",
      { value: 1 },
    );
    expect(again).toMatchObject({ id: judgment.id, withdrawn: false, value: 1, version: 3 });
    await expect(
      reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, bob, projectId, "scores.review"),
        runId,
        videoIds[0]!,
        "verdict",
        { value: 0 },
      ),
    ).rejects.toBeInstanceOf(ReviewConflictError);
    expect(await listed()).toMatchObject({ reviewers: 2, byMe: true });
    const after = await prisma.humanJudgmentHistory.findMany({
      where: { judgmentId: judgment.id },
      orderBy: { version: "asc" },
    });
    expect(after.map((h) => [h.version, h.before, h.after])).toEqual([
      [1, null, { value: 0, note: null, reason: null, acceptedJudge: false }],
      [2, { value: 0, note: null, reason: null, acceptedJudge: false }, { withdrawn: true }],
      [
        3,
        { value: 0, note: null, reason: null, acceptedJudge: false, withdrawn: true },
        { value: 1, note: null, reason: null, acceptedJudge: false },
      ],
    ]);
    expect((await agreement({ independent: "all" })).summary).toMatchObject({ reviewers: 2 });
  });
});

describe("accepting while blind", () => {
  it("is refused until the reviewer submits the item, in the queue and on the video page; after that it is recorded", async () => {
    const carol = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: carol.userId, role: "reviewer" } });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Blind verdicts",
      filter: {},
      scope: "verdict",
      blind: true,
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, carol, queue.id, "scores.review"), queue.id);
    const videoId = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId! } })).videoId;
    const judge = [1, 0][videoIds.indexOf(videoId)]!;
    await expect(
      reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, carol, projectId, "scores.review"),
        runId,
        videoId,
        "verdict",
        { value: judge, acceptedJudge: true },
      ),
    ).rejects.toThrow(/Blind queue/);
    await expect(
      submitItem(prisma, await queueAccess(prisma, carol, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: "verdict", value: judge, acceptedJudge: true }],
      }),
    ).rejects.toThrow(/Blind queue/);
    expect(await prisma.humanJudgment.count({ where: { reviewerId: carol.userId } })).toBe(0);
    await submitItem(prisma, await queueAccess(prisma, carol, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: "verdict", value: 1 - judge }],
    });
    // Submitted: the judge's value is shown, and accepting it now is an explicit, marked change.
    const judgment = await prisma.humanJudgment.findFirstOrThrow({ where: { reviewerId: carol.userId } });
    expect(judgment).toMatchObject({ acceptedJudge: false, version: 1 });
    await submitItem(prisma, await queueAccess(prisma, carol, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: "verdict", value: judge, acceptedJudge: true, expectedVersion: 1 }],
    });
    expect(await prisma.humanJudgment.findUniqueOrThrow({ where: { id: judgment.id } })).toMatchObject({
      acceptedJudge: true,
      value: judge,
      version: 2,
    });
  });
});

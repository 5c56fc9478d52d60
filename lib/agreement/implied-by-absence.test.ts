import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createQueue } from "../queues/create-queue";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { submitItem } from "../queues/submit-item";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { projectExport } from "./export";
import { projectAgreement } from "./load";
import { agreementQuerySchema, exportQuerySchema } from "./report-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * Issue 23, item 8: a presence-first queue stores the absent value (0) for every score of a category the
 * reviewer marks absent. Those values were never typed, so by default they are not judgments of the scores.
 *
 * Fixture: 3 videos, 2 key frames each; the judge scored every video alike:
 *   s1 @ key frame 0 = 2, s1 @ key frame 1 = 7  → judge's presence of s1 (max ≥ 5): present
 *   s2 @ key frame 0 = 1, s2 @ key frame 1 = 0  → absent
 *   d1 @ cluster 0   = 3                         → absent
 * One reviewer, a BLIND presence-first queue over s1, s2, d1 (so only their own answers decide what is asked):
 *   v0: s1 present, types s1@0 = 6, s1@1 = 8; s2, d1 absent → implied s2@0, s2@1, d1@0 = 0   (3 implied)
 *   v1: s2 present, types s2@0 = 4, s2@1 = 6; s1, d1 absent → implied s1@0, s1@1, d1@0 = 0   (3 implied)
 *   v2: nothing present                                     → implied all five scores = 0    (5 implied)
 * So 4 typed values, 11 implied ones and 9 presence answers.
 *
 * Default (implied excluded): reviewed targets = 4 typed scores + 9 presence = 13, judgments 13.
 *   Binarised (scores: ≥ 5 is positive; presence: present is positive), truth = reviewer, predicted = judge:
 *   scores   v0 s1@0 h6/j2 fn · v0 s1@1 h8/j7 tp · v1 s2@0 h4/j1 tn · v1 s2@1 h6/j0 fn
 *   presence v0 s1 h1/j1 tp, s2 tn, d1 tn · v1 s1 h0/j1 fp, s2 h1/j0 fn, d1 tn · v2 s1 h0/j1 fp, s2 tn, d1 tn
 *   tp 2, fp 2, fn 3, tn 6; accuracy 8/13; chance = (4·5 + 9·8)/13² = 92/169; κ = (104 − 92)/(169 − 92) = 12/77.
 * Included: + the 11 implied zeros: v0 s2@0, s2@1, d1 tn (3) · v1 s1@0 tn, s1@1 (judge 7) fp, d1 tn ·
 *   v2 s1@0 tn, s1@1 fp, s2@0, s2@1, d1 tn  → fp + 2, tn + 9:
 *   tp 2, fp 4, fn 3, tn 15, n 24; accuracy 17/24; chance = (6·5 + 18·19)/24² = 372/576; κ = (408 − 372)/(576 − 372) = 3/17.
 */
let owner: Actor;
let me: Actor;
let projectId: string;
let videoIds: string[];

const PRESENT: Record<number, string[]> = { 0: ["s1"], 1: ["s2"], 2: [] };
const TYPED: Record<number, Record<string, number[]>> = { 0: { s1: [6, 8] }, 1: { s2: [4, 6] }, 2: {} };

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 2,
    name: "Implied by absence",
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
  const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
    name: "Presence blind",
    filter: {},
    scope: "scores",
    categories: ["s1", "s2", "d1"],
    mode: "presence",
    blind: true,
  });
  me = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: me.userId, role: "reviewer" } });
  for (let i = 0; i < 3; i++) {
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, me, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    const v = videoIds.indexOf(item.video.id);
    const judgments = Object.entries(TYPED[v]!).flatMap(([category, values]) =>
      values.map((value, scope) => ({
        target: item.targets.find((t) => t.category === category && t.scopeIndex === scope)!.key,
        value,
      })),
    );
    await submitItem(prisma, await queueAccess(prisma, me, queue.id, "scores.review"), queue.id, itemId!, {
      presence: ["s1", "s2", "d1"].map((category) => ({
        category,
        value: PRESENT[v]!.includes(category) ? (1 as const) : (0 as const),
      })),
      judgments,
    });
  }
});

const report = async (params: Record<string, string> = {}) =>
  projectAgreement(
    prisma,
    await projectAccess(prisma, owner, projectId, "export.read"),
    agreementQuerySchema(builtInCatalogue()).parse(params),
  );

describe("values implied by an absent category", () => {
  it("are stored marked implied_by_absence; the values the reviewer typed stay typed", async () => {
    const rows = await prisma.humanJudgment.findMany({
      where: { projectId, reviewerId: me.userId, targetType: "score" },
      select: { origin: true, value: true },
    });
    expect(
      rows
        .filter((r) => r.origin === "typed")
        .map((r) => r.value)
        .sort(),
    ).toEqual([4, 6, 6, 8]);
    expect(rows.filter((r) => r.origin === "implied_by_absence").map((r) => r.value)).toEqual(Array(11).fill(0));
    expect(
      await prisma.humanJudgment.count({
        where: { projectId, reviewerId: me.userId, targetType: "presence", origin: "typed" },
      }),
    ).toBe(9);
  });

  it("are left out of the agreement report by default: hand-counted n, accuracy and κ", async () => {
    const r = await report();
    expect(r.impliedIncluded).toBe(false);
    expect(r.summary.reviewedItems).toBe(13);
    expect(r.summary.judgments).toBe(13);
    const binary = r.humanVsJudge.consensus.binary;
    expect(binary.n).toBe(13);
    expect(binary.confusion).toEqual({ tp: 2, fp: 2, fn: 3, tn: 6 });
    expect(binary.values.accuracy).toBeCloseTo(8 / 13, 10);
    expect(binary.values.kappa).toBeCloseTo(12 / 77, 10);
    expect(r.humanVsJudge.consensus.native.score!.n).toBe(4);
    // Presence still counts through the presence targets: 9 answers, judge at t = 5.
    expect(r.presence[0]!.curves.find((c) => c.human === me.userId)!.chosen).toMatchObject({
      threshold: 5,
      tp: 1,
      fp: 2,
      fn: 1,
      tn: 5,
    });
  });

  it("count when the switch includes them (implied=include)", async () => {
    const r = await report({ implied: "include" });
    expect(r.impliedIncluded).toBe(true);
    expect(r.summary.reviewedItems).toBe(24);
    const binary = r.humanVsJudge.consensus.binary;
    expect(binary.confusion).toEqual({ tp: 2, fp: 4, fn: 3, tn: 15 });
    expect(binary.values.accuracy).toBeCloseTo(17 / 24, 10);
    expect(binary.values.kappa).toBeCloseTo(3 / 17, 10);
    expect(r.humanVsJudge.consensus.native.score!.n).toBe(15);
    expect(agreementQuerySchema(builtInCatalogue()).safeParse({ implied: "yes" }).success).toBe(false);
  });

  it("are marked in the exports: an implied column per reviewer in CSV, implied on each review in JSONL", async () => {
    const read = async (format: "csv" | "jsonl") =>
      new Response(
        (
          await projectExport(
            prisma,
            await projectAccess(prisma, owner, projectId, "export.read"),
            exportQuerySchema(builtInCatalogue()).parse({ format }),
          )
        ).stream,
      ).text();
    const lines = (await read("jsonl"))
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            target: string;
            category: string;
            scopeIndex: number | null;
            reviews: { implied: boolean; value: number }[];
          },
      );
    const scoreReviews = lines.filter((l) => l.target === "score").flatMap((l) => l.reviews);
    expect(scoreReviews.filter((x) => x.implied)).toHaveLength(11);
    expect(
      scoreReviews
        .filter((x) => !x.implied)
        .map((x) => x.value)
        .sort(),
    ).toEqual([4, 6, 6, 8]);
    expect(
      lines
        .filter((l) => l.target === "presence")
        .flatMap((l) => l.reviews)
        .every((x) => x.implied === false),
    ).toBe(true);

    const csv = (await read("csv"))
      .split("\r\n")
      .filter(Boolean)
      .map((l) => l.split(","));
    const header = csv[0]!;
    const implied = header.findIndex((h) => h.endsWith(" implied"));
    const target = header.indexOf("target");
    expect(implied).toBeGreaterThan(0);
    const scoreRows = csv.slice(1).filter((row) => row[target] === "score");
    expect(scoreRows.filter((row) => row[implied] === "true")).toHaveLength(11);
    expect(scoreRows.filter((row) => row[implied] === "false")).toHaveLength(4);
  });

  it("are found again by the migration's back-fill in rows saved before the column existed", async () => {
    const sql = fs.readFileSync(
      path.join(process.cwd(), "prisma/migrations/20261123090000_judgment_origin/migration.sql"),
      "utf8",
    );
    const update = sql.slice(sql.indexOf("UPDATE"));
    await prisma.humanJudgment.updateMany({ where: { projectId }, data: { origin: "typed" } });
    await prisma.$executeRawUnsafe(update);
    const rows = await prisma.humanJudgment.findMany({
      where: { projectId, reviewerId: me.userId },
      select: { origin: true, targetType: true, value: true },
    });
    expect(rows.filter((r) => r.origin === "implied_by_absence")).toHaveLength(11);
    expect(
      rows
        .filter((r) => r.origin === "typed" && r.targetType === "score")
        .map((r) => r.value)
        .sort(),
    ).toEqual([4, 6, 6, 8]);
  });
});

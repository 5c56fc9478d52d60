import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { ReviewConflictError, reviewScore, reviewVideoOutcome } from "../reviews/reviews";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { WithheldError } from "../visibility/withheld";
import { type ExportRow, projectExport } from "./export";
import { loadAgreementInput, projectAgreement } from "./load";
import { reportCsv } from "./report-csv";
import { agreementQuerySchema, exportQuerySchema, resolveReportFilter } from "./report-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * Three videos with two key frames each (frames 0–5 at 0.25 s steps; key frames 1 and 4, clusters
 * {0,1,2} and {3,4,5}). Run r1 (endpoint "alpha") judges all three, run r2 ("beta", later) only v0.
 */
let owner: Actor;
let ann: Actor;
let bob: Actor;
let viewer: Actor;
let stranger: Actor;
let projectId: string;
let videoIds: string[];
let r1: string;
let r2: string;
/** r2's s1 at key frame 0 of video 0: the same target (same frame set) that ann and bob judged in r1. */
let r2S1: string;

const S1_0 = [8, 2, 6];
const I = [5, 4, 9];

beforeAll(async () => {
  [owner, ann, bob, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 2,
    name: "Agreement",
  }));
  videoIds.sort(); // the export's order
  await prisma.video.update({
    where: { id: videoIds[1]! },
    data: { model: "Kling", prompt: "=1+1 a formula-looking prompt" },
  });
  for (const [actor, role] of [
    [ann, "reviewer"],
    [bob, "reviewer"],
    [viewer, "viewer"],
  ] as const)
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role } });
  const first = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    endpointName: "alpha",
    templateHash: "aaaaaaaaaaaaaaaa",
    scores: (v) => [
      { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: S1_0[v]! },
      { stepId: "static_hallucination", scopeIndex: 1, category: "s1", value: 3 },
      { stepId: "dynamic_hallucination", scopeIndex: 0, category: "d1", value: [7, 1, 0][v]! },
      { stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: I[v]! },
    ],
    outcome: (v) => ({ verdict: [true, false, true][v]!, overall: [40, 80, 50][v]!, I: I[v]!, S: 5, D: 3 }),
  });
  r1 = first.runId;
  await new Promise((resolve) => setTimeout(resolve, 5)); // r2 is the later run
  const second = await seedFinishedRun(prisma, owner, projectId, [videoIds[0]!], {
    endpointName: "beta",
    templateHash: "bbbbbbbbbbbbbbbb",
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 1 }],
    outcome: () => ({ verdict: false, overall: 90 }),
  });
  r2 = second.runId;
  const s1 = (v: number) => first.scoreIds.get(`${v}:static_hallucination:0:s1`)!;
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(0), {
    value: 9,
    note: '=HYPERLINK("http://evil")',
    reason: "hands, blur",
  });
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(1), { value: 1 });
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(2), { value: 2 });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(0), { value: 7 });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(1), { value: 3 });
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, ann, projectId, "scores.review"),
    r1,
    videoIds[0]!,
    "verdict",
    { value: 1 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, ann, projectId, "scores.review"),
    r1,
    videoIds[1]!,
    "verdict",
    { value: 0 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, ann, projectId, "scores.review"),
    r1,
    videoIds[2]!,
    "verdict",
    { value: 0 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, bob, projectId, "scores.review"),
    r1,
    videoIds[0]!,
    "verdict",
    { value: 1 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, bob, projectId, "scores.review"),
    r1,
    videoIds[1]!,
    "verdict",
    { value: 1 },
  );
  r2S1 = second.scoreIds.get("0:static_hallucination:0:s1")!;
});

const agreement = async (actor: Actor, params: Record<string, string> = {}) =>
  projectAgreement(
    prisma,
    await projectAccess(prisma, actor, projectId, "export.read"),
    agreementQuerySchema(builtInCatalogue()).parse(params),
  );

describe("projectAgreement (database)", () => {
  it("reads every run by default, with counts of all judged targets and breakdowns by endpoint and prompt version", async () => {
    const report = await agreement(viewer);
    // r1: 3 videos × 4 scores + 3 verdicts + 3 overalls; r2: 1 score + verdict + overall.
    // Judgments belong to targets: r2 scored v0's s1 at key frame 0 and v0's verdict, which ann and bob
    // judged once (seen in r1), so both count against r2 too: 6 items in r1 + 2 in r2, 10 judgments.
    expect(report.summary).toMatchObject({
      videos: 3,
      judgeItems: 21,
      reviewedItems: 8,
      judgments: 10,
      reviewers: 2,
      multiReviewedItems: 4,
    });
    expect(report.runs.map((r) => [r.id, r.endpointName])).toEqual([
      [r1, "alpha"],
      [r2, "beta"],
    ]);
    expect(report.breakdowns.endpoint.map((g) => [g.label, g.items, g.link])).toEqual([
      ["alpha", 6, { runId: r1 }],
      ["beta", 2, { runId: r2 }],
    ]);
    expect(report.breakdowns.promptVersion.map((g) => [g.label, g.items])).toEqual([
      ["aaaaaaaa", 6],
      ["bbbbbbbb", 2],
    ]);
    expect(report.breakdowns.model.map((g) => [g.label, g.items])).toEqual([
      ["(none)", 6],
      ["Kling", 2],
    ]);
    // verdicts (r1): v0 both yes → consensus yes, judge yes (tp); v1 tie → none; v2 no, judge yes (fp);
    // (r2): v0 both yes, judge no (fn)
    expect(report.confusion.verdict!.cells.map((c) => c.count)).toEqual([1, 1, 1, 0]);
    expect(report.confusion.verdict!.cells[1]!.runs).toEqual([{ runId: r2, count: 1 }]);
    expect(report.confusion.verdict!.cells[2]!.runs).toEqual([{ runId: r1, count: 1 }]);
    // sweep on I: v0 (yes, I 5) and v2 (no, I 9); thresholds up to 5 flag both → F1 2/3 at best, first at 0
    const sweepI = report.sweep.find((c) => c.metric === "I")!;
    expect(sweepI.n).toBe(2);
    expect(sweepI.best).toMatchObject({ threshold: 0, tp: 1, fp: 1 });
    expect(sweepI.best!.f1).toBeCloseTo(2 / 3, 12);
    // scores vs consensus: v0 r1 (8 vs 8), v1 (2 vs 2), v2 (6 vs 2), v0 r2 (1 vs 8, the same judgments): MAE 11/4
    expect(report.humanVsJudge.consensus.native.score.values.mae).toBeCloseTo(2.75, 12);
  });

  it("compares a judgment given once with every run that scored its target", async () => {
    const report = await agreement(viewer);
    const input = await loadAgreementInput(
      prisma,
      await resolveReportFilter(prisma, projectId, agreementQuerySchema(builtInCatalogue()).parse({}), viewer.userId),
    );
    const v0s1 = input.items.filter((i) => i.videoId === videoIds[0] && i.category === "s1" && i.scopeIndex === 0);
    expect(v0s1.map((i) => [i.runId, i.judge, i.ratings.map((r) => r.value).sort()])).toEqual([
      [r1, 8, [7, 9]],
      [r2, 1, [7, 9]],
    ]);
    expect(new Set(v0s1.map((i) => i.targetKey)).size).toBe(1);
    // Among reviewers each target counts once, however many runs scored it.
    expect(report.humanVsHuman.items).toBe(4);
    // Saving through r2's score edits the same judgment (a new version), not a second one.
    await expect(
      reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), r2S1, { value: 9 }),
    ).rejects.toBeInstanceOf(ReviewConflictError);
  });

  it("applies the video filters and the run", async () => {
    expect((await agreement(viewer, { runId: r1 })).summary).toMatchObject({ reviewedItems: 6, judgeItems: 18 });
    // judge verdict "yes" in r1: v0 and v2 → their s1 and verdict targets
    expect((await agreement(viewer, { runId: r1, verdict: "yes" })).summary).toMatchObject({
      videos: 2,
      reviewedItems: 4,
    });
    // reviewers' majority "no" in r1: only v2 (v1 is a tie)
    expect((await agreement(viewer, { runId: r1, humanVerdict: "no" })).summary).toMatchObject({
      videos: 1,
      reviewedItems: 2,
    });
    // without runId the video filters read the latest run (r2, where v0 is "no"); the targets come from every run
    expect((await agreement(viewer, { verdict: "no" })).summary).toMatchObject({ videos: 1, reviewedItems: 4 });
    // a category keeps that category's scores (and the video-level targets)
    const d1 = await agreement(viewer, { runId: r1, category: "d1" });
    expect(d1.summary).toMatchObject({ reviewedItems: 3, judgeItems: 3 + 6 });
    expect(d1.breakdowns.category.map((g) => g.key)).toEqual(["verdict"]);
    expect((await agreement(viewer, { model: "Kling" })).summary).toMatchObject({ videos: 1, reviewedItems: 2 });
    expect((await agreement(viewer, { runId: r1, threshold: "9" })).options.threshold).toBe(9);
  });

  it("is for members only; an unknown run is not found", async () => {
    await expect(agreement(stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(agreement(viewer, { runId: "no-such-run" })).rejects.toBeInstanceOf(NotFoundError);
    expect(() => agreementQuerySchema(builtInCatalogue()).parse({ threshold: "eleven" })).toThrow();
    expect(() => agreementQuerySchema(builtInCatalogue()).parse({ verdict: "maybe" })).toThrow();
  });

  it("flattens to CSV rows with intervals", async () => {
    const csv = reportCsv(await agreement(viewer, { runId: r1 }));
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("comparison,breakdown,group,statistic,value,ci_low,ci_high,n");
    expect(lines).toContain("summary,all,all,reviewedItems,6,,,");
    expect(lines.some((l) => /^judge_vs_consensus,all,binary,kappa,[-\d.]+,[-\d.]*,[-\d.]*,\d+$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("judge_vs_consensus,category,s1,accuracy,"))).toBe(true);
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, chunks };
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
}

describe("projectExport (database)", () => {
  it("streams JSONL in batches of videos: every judged item, complete and in order, with the frames the judge saw", async () => {
    const { stream, filename, contentType } = await projectExport(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl", runId: r1 }),
      undefined,
      2,
    );
    expect(contentType).toContain("application/x-ndjson");
    expect(filename).toBe(`framejury_Agreement_items_runId-${r1}_${new Date().toISOString().slice(0, 10)}.jsonl`);
    const { text, chunks } = await readAll(stream);
    expect(chunks).toBe(1); // 3 videos in batches of 2, all under one 64 KiB chunk (export-streaming.test.ts checks chunking)
    const rows = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    expect(rows).toHaveLength(18);
    expect(rows.map((r) => r.videoId)).toEqual(videoIds.flatMap((id) => Array<string>(6).fill(id)));
    expect(rows.slice(0, 6).map((r) => [r.target, r.step, r.scopeIndex, r.category, r.judgeValue])).toEqual([
      ["score", "dynamic_hallucination", 0, "d1", 7],
      ["score", "inconsistency", 0, "inconsistency", 5],
      ["score", "static_hallucination", 0, "s1", 8],
      ["score", "static_hallucination", 1, "s1", 3],
      ["verdict", null, null, "verdict", 1],
      ["overall", null, null, "overall", 40],
    ]);
    const [dynamic, inconsistency, static0, static1, verdict] = rows;
    expect([dynamic!.keyFrameIndex, dynamic!.frameTimestamps]).toEqual([1, [0, 0.25, 0.5]]);
    expect(inconsistency!.frameTimestamps).toEqual([0.25, 1]);
    expect([static0!.keyFrameIndex, static0!.frameTimestamps]).toEqual([1, [0.25]]);
    expect([static1!.keyFrameIndex, static1!.frameTimestamps]).toEqual([4, [1]]);
    expect(static0!.promptVersion).toBe("aaaaaaaaaaaaaaaa");
    expect(static0!.endpoint).toBe("alpha");
    expect(static0!.reviews.map((r) => [r.reviewerId, r.value]).sort()).toEqual(
      [
        [ann.userId, 9],
        [bob.userId, 7],
      ].sort(),
    );
    expect(verdict!.reviews.map((r) => r.value).sort()).toEqual([1, 1]);
    // reviewed in r1: s1 at key frame 0 and the verdict of each video
    expect(rows.filter((r) => r.reviews.length > 0).map((r) => r.category)).toEqual([
      "s1",
      "verdict",
      "s1",
      "verdict",
      "s1",
      "verdict",
    ]);
  });

  it("streams CSV with per-reviewer columns, formula cells neutralised; every run by default", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({}),
      undefined,
      1,
    );
    const { text, chunks } = await readAll(stream);
    expect(chunks).toBe(2); // the header, then the rows (under one 64 KiB chunk)
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + 18 + 3);
    const header = lines[0]!.split(",");
    expect(header.slice(0, 15)).toEqual([
      "video_id",
      "path",
      "prompt",
      "model",
      "dimensions",
      "run_id",
      "endpoint",
      "target",
      "step",
      "scope_index",
      "key_frame_index",
      "category",
      "prompt_version",
      "judge_value",
      "frame_timestamps",
    ]);
    expect(header.slice(15, 18)).toEqual(["gold_value", "gold_note", "gold_adjudicator"]);
    expect(header).toHaveLength(18 + 2 * 5); // value, note, reason, accepted_judge, implied per reviewer
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain("'=1+1 a formula-looking prompt");
    expect(text).not.toMatch(/(^|,)=/m);
    expect(text).toContain(`"hands, blur"`);
    expect(lines.filter((l) => l.includes(`,${r2},beta,`))).toHaveLength(3);
  });

  it("keeps streaming past batches of videos that no run judged", async () => {
    const other = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1, name: "Partly judged" });
    const ids = [...other.videoIds].sort();
    // only the last video (in id order) is judged: batches 1–3 of one video each have no rows
    await seedFinishedRun(prisma, owner, other.projectId, [ids[3]!], {
      scores: () => [{ stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: 4 }],
      outcome: () => ({ verdict: false, overall: 84 }),
    });
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, other.projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl" }),
      undefined,
      1,
    );
    const { text } = await readAll(stream);
    const rows = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    expect(rows.map((r) => [r.videoId, r.target])).toEqual([
      [ids[3], "score"],
      [ids[3], "verdict"],
      [ids[3], "overall"],
    ]);
  });

  it("is for members only", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("agreement and exports for a reviewer in a blind queue", () => {
  it("are withheld whole while they review a video of the filter blind, and whole again once they submit it", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "blind",
        runId: r1,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId: ann.userId } });
    const exported = async (as: Actor) => {
      const { stream } = await projectExport(
        prisma,
        await projectAccess(prisma, as, projectId, "export.read"),
        exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl", runId: r1 }),
      );
      return (await readAll(stream)).text
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as ExportRow).videoId);
    };
    const withheld = await exported(ann).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('hidden while you review "blind" blind: 1 item left');
    await expect(
      projectAgreement(
        prisma,
        await projectAccess(prisma, ann, projectId, "export.read"),
        agreementQuerySchema(builtInCatalogue()).parse({ runId: r1 }),
      ),
    ).rejects.toBeInstanceOf(WithheldError);
    const viewerRows = await exported(viewer);
    expect(viewerRows).toHaveLength(18);
    const openReport = await projectAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId: r1 }),
    );
    expect(openReport.summary.videos).toBe(3);
    // A filter that leaves the blind video out (only video 1 is Kling's) is whole without it: the same for her as for the viewer.
    const kling = agreementQuerySchema(builtInCatalogue()).parse({ runId: r1, model: "Kling" });
    const klingForAnn = await projectAgreement(
      prisma,
      await projectAccess(prisma, ann, projectId, "export.read"),
      kling,
    );
    expect(klingForAnn.summary.videos).toBe(1);
    expect(klingForAnn).toEqual(
      await projectAgreement(prisma, await projectAccess(prisma, viewer, projectId, "export.read"), kling),
    );

    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: ann.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    expect(await exported(ann)).toEqual(viewerRows);
    expect(
      await projectAgreement(
        prisma,
        await projectAccess(prisma, ann, projectId, "export.read"),
        agreementQuerySchema(builtInCatalogue()).parse({ runId: r1 }),
      ),
    ).toEqual(openReport);
  });
});

import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema } from "../agreement/report-filter";
import { reviewVideoOutcome, videoReviews } from "../reviews/reviews";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema } from "../videos/video-filter";
import { importT2vHaluBench, parseT2vHaluBenchSheet } from "../tasks/hallucination/t2vhalubench";
import { deleteLabelSet, listLabelSets, sha256Of } from "./label-sets";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const HEADER = [
  "Example",
  "Is_Hallucination",
  "Is_Prompt_Consistency",
  "Static_Hallucination",
  "Dynamic_Hallucination",
  "model",
  "video_path",
];

/** A label sheet like T2VHaluBench's, with each kind of mistake the published one has. */
async function sheet(rows: (string | number | null)[][], header = HEADER): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet("Sheet1");
  ws.addRow(header);
  for (const row of rows) ws.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const ROWS: (string | number | null)[][] = [
  ["1.mp4", 1, 1, "s1, s7", "d5, d4", "Sora", "Mechanics/one-0.mp4"], // row 2: clean
  [" 2.mp4 ", 1, 0, "s3", "d2, s5", "Kling", "Mechanics/two-0.mp4"], // row 3: stray spaces; a static code in the dynamic column
  ["3.mp4", 1, 1, "s1. s2", "-", "Sora", "Mechanics/three-0.mp4"], // row 4: '.' between codes
  ["4.mp4", 0, 1, " - ", "-", "Sora", "Mechanics/four-0.mp4"], // row 5: stray spaces around "-"
  ["5.mp4", "x", 1, "s12, s1", "-", "Sora", "Mechanics/five-0.mp4"], // row 6: no verdict; an unknown code
  ["missing.mp4", 1, 1, "-", "-", "Sora", "Mechanics/none-0.mp4"], // row 7: no such video
];

const STATIC = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"];
const DYNAMIC = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"];
const labels = (present: string[], ids: string[]) =>
  Object.fromEntries(ids.map((id) => [id, present.includes(id) ? 1 : 0]));

describe("parseT2vHaluBenchSheet", () => {
  it("reads what is unambiguous and lists every interpreted or skipped cell with its row", async () => {
    const parsed = await parseT2vHaluBenchSheet(await sheet(ROWS));
    expect(parsed.rows.map((r) => [r.row, r.example, r.model, r.hallucination, r.promptConsistency])).toEqual([
      [2, "1.mp4", "Sora", 1, 1],
      [3, "2.mp4", "Kling", 1, 0],
      [4, "3.mp4", "Sora", 1, 1],
      [5, "4.mp4", "Sora", 0, 1],
      [6, "5.mp4", "Sora", null, 1],
      [7, "missing.mp4", "Sora", 1, 1],
    ]);
    expect(parsed.rows[0]!.categories).toEqual({ ...labels(["s1", "s7"], STATIC), ...labels(["d4", "d5"], DYNAMIC) });
    // s5 in the dynamic column is a static hallucination; the dynamic column's other codes are absent.
    expect(parsed.rows[1]!.categories).toEqual({ ...labels(["s3", "s5"], STATIC), ...labels(["d2"], DYNAMIC) });
    expect(parsed.rows[2]!.categories).toEqual({ ...labels(["s1", "s2"], STATIC), ...labels([], DYNAMIC) });
    expect(parsed.rows[3]!.categories).toEqual({ ...labels([], STATIC), ...labels([], DYNAMIC) });
    // "s12" is no code: s1 is present, the other static categories are unknown (not absent).
    expect(parsed.rows[4]!.categories).toEqual({ s1: 1, ...labels([], DYNAMIC) });
    expect(parsed.issues).toEqual([
      { row: 3, column: "Example", cell: " 2.mp4 ", action: "interpreted", message: "stray spaces around the cell" },
      {
        row: 3,
        column: "Dynamic_Hallucination",
        cell: "d2, s5",
        action: "interpreted",
        message: "s5 is a static code: read as present in its own kind",
      },
      {
        row: 4,
        column: "Static_Hallucination",
        cell: "s1. s2",
        action: "interpreted",
        message: "'.' read as ',' between codes",
      },
      {
        row: 5,
        column: "Static_Hallucination",
        cell: " - ",
        action: "interpreted",
        message: "stray spaces around the cell",
      },
      { row: 6, column: "Is_Hallucination", cell: "x", action: "skipped", message: "not 1 or 0: not labelled" },
      {
        row: 6,
        column: "Static_Hallucination",
        cell: "s12, s1",
        action: "skipped",
        message: '"s12" is no category code: the column\'s other categories are not labelled',
      },
    ]);
    expect(parsed.headers).toEqual(HEADER);
  });

  it("reads upper-case codes, spaces inside codes and ';' as interpreted", async () => {
    const parsed = await parseT2vHaluBenchSheet(await sheet([["1.mp4", " 1", 1, "S1;s 7", "-", "Sora", ""]]));
    expect(parsed.rows[0]!.hallucination).toBe(1);
    expect(parsed.rows[0]!.categories).toMatchObject({ s1: 1, s7: 1, s2: 0 });
    expect(parsed.issues.map((i) => [i.row, i.column, i.message])).toEqual([
      [2, "Is_Hallucination", "stray spaces around the cell"],
      [2, "Static_Hallucination", "';' read as ',' between codes"],
      [2, "Static_Hallucination", '"S1" read as "s1"'],
      [2, "Static_Hallucination", 'stray spaces inside "s 7"'],
    ]);
  });

  it("rejects a workbook without the sheet's columns, and a file that is no workbook", async () => {
    await expect(parseT2vHaluBenchSheet(await sheet([["1.mp4", 1]], ["Example", "Is_Hallucination"]))).rejects.toThrow(
      /lacks the column\(s\) Is_Prompt_Consistency, Static_Hallucination, Dynamic_Hallucination/,
    );
    await expect(parseT2vHaluBenchSheet(await sheet([["a"]], ["Name"]))).rejects.toThrow(
      /No worksheet has the header "Example"/,
    );
    await expect(parseT2vHaluBenchSheet(new TextEncoder().encode("not a zip"))).rejects.toThrow(ValidationError);
  });
});

describe("T2VHaluBench label sets (database)", () => {
  let owner: Actor;
  let reviewer: Actor;
  let viewer: Actor;
  let projectId: string;
  let videoIds: string[];
  let runId: string;
  let file: Uint8Array;

  beforeAll(async () => {
    [owner, reviewer, viewer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 5,
      keyFrames: 1,
      name: "Labels",
    }));
    const names = ["one", "two", "three", "four", "five"];
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({
        where: { id },
        data: { fileName: `${i + 1}.mp4`, relativePath: `Mechanics/${names[i]}-0.mp4` },
      });
    for (const [actor, role] of [
      [reviewer, "reviewer"],
      [viewer, "viewer"],
    ] as const)
      await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role } });
    // The judge says "hallucination" for videos 0–2 and not for 3–4.
    ({ runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 3 }],
      outcome: (v) => ({ verdict: v < 3, overall: v < 3 ? 40 : 80 }),
    }));
    file = await sheet(ROWS);
  });

  const input = (over: Partial<Parameters<typeof importT2vHaluBench>[2]> = {}) => ({
    file,
    fileName: "T2VHaluBench.xlsx",
    name: "T2VHaluBench authors",
    citation: "Chu et al., Sora Detector (2024)",
    match: { by: "file_name" as const },
    dryRun: true,
    ...over,
  });

  it("dry-runs without writing, imports, acts as an annotator in agreement apart from live reviewers, and deletes exactly its judgments", async () => {
    const dry = await importT2vHaluBench(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input(),
    );
    expect(dry.labelSet).toBeNull();
    expect(await prisma.labelSet.count({ where: { projectId } })).toBe(0);
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
    // 5 matched rows: 4 verdicts (row 6 has none), 5 prompt-consistency labels, 19 categories each except row 6 (s1 + 9 dynamic).
    expect(dry.plan).toMatchObject({
      name: "T2VHaluBench authors",
      sha256: sha256Of(file),
      rows: 6,
      matchedVideos: 5,
      judgments: { verdict: 4, presence: 5 + 4 * 19 + 10 },
    });
    expect(dry.plan.issues.filter((i) => i.row === 7)).toEqual([
      {
        row: 7,
        column: "Example",
        cell: "missing.mp4",
        action: "skipped",
        message: "no video of the project has this file name or path",
      },
    ]);
    expect(dry.plan.issues).toHaveLength(7);

    // A live reviewer's verdict, which must survive the label set's deletion.
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "scores.review"),
      runId,
      videoIds[3]!,
      "verdict",
      { value: 1 },
    );

    const imported = await importT2vHaluBench(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input({ dryRun: false }),
    );
    const labelSetId = imported.labelSet!.id;
    const labelReviewer = `labelset:${labelSetId}`;
    expect(imported.labelSet).toMatchObject({
      name: "T2VHaluBench authors",
      format: "t2vhalubench",
      fileName: "T2VHaluBench.xlsx",
      sha256: sha256Of(file),
      citation: "Chu et al., Sora Detector (2024)",
      importedById: owner.userId,
      judgments: 95,
    });
    const verdicts = await prisma.humanJudgment.findMany({
      where: { labelSetId, targetType: "verdict" },
      orderBy: { videoId: "asc" },
    });
    expect(verdicts.map((j) => [videoIds.indexOf(j.videoId), j.value, j.runId, j.reviewerId])).toEqual(
      [
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 0],
      ]
        .sort((a, b) => videoIds[a[0]!]!.localeCompare(videoIds[b[0]!]!))
        .map(([v, value]) => [v, value, null, labelReviewer]),
    );
    const video1 = await prisma.humanJudgment.findMany({
      where: { labelSetId, videoId: videoIds[1]!, targetType: "presence", value: 1 },
      select: { target: true, targetKey: true },
    });
    expect(video1.map((j) => j.target).sort()).toEqual(["d2", "inconsistency", "s3", "s5"]);
    expect(video1.find((j) => j.target === "s5")!.targetKey).toBe(`hallucination|v:${videoIds[1]}|s5`);

    const [listed] = await listLabelSets(prisma, await projectAccess(prisma, viewer, projectId, "project.view"));
    expect(listed).toMatchObject({
      id: labelSetId,
      judgments: 95,
      reviewerIds: [labelReviewer],
      importedBy: { id: owner.userId },
    });

    // Agreement: the label set is an annotator with its name, marked as a label set, beside the reviewer.
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, viewer, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId }),
    );
    expect(report.reviewers.map((r) => [r.id, r.label, r.labelSet ?? null])).toEqual([
      [reviewer.userId, expect.any(String), null],
      [labelReviewer, "T2VHaluBench authors", { id: labelSetId, name: "T2VHaluBench authors", annotator: null }],
    ]);
    const vsJudge = report.humanVsJudge.reviewers.find((r) => r.reviewerId === labelReviewer)!;
    // Its 4 verdicts against the judge's (yes, yes, yes, no): all agree.
    expect(vsJudge.labelSet).toMatchObject({ id: labelSetId });
    expect(vsJudge.native.verdict!.n).toBe(4);
    // Its s1 presence labels (present in videos 0, 2, 4) against the judge's s1 of 3 everywhere (absent at t = 5):
    // 3 misses and 2 agreements, binarised beside the verdicts (tp 3, tn 1).
    expect(vsJudge.native.presence!.n).toBe(5);
    expect(vsJudge.binary.confusion).toMatchObject({ tp: 3, tn: 1 + 2, fp: 0, fn: 3 });
    // The consensus is the live reviewers': only video 3's verdict (the reviewer's 1 against the judge's no).
    expect(report.humanVsJudge.consensus.native.verdict!.n).toBe(1);
    expect(report.humanVsJudge.consensus.binary.confusion).toMatchObject({ tp: 0, tn: 0, fp: 0, fn: 1 });

    // Review state counts live reviewers only: video 0 has only label-set judgments.
    const unreviewed = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ runId, review: "unreviewed" }),
    );
    expect(unreviewed.videos.map((v) => v.id).sort()).toEqual([0, 1, 2, 4].map((i) => videoIds[i]!).sort());
    const listedVideo = (
      await browseVideos(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        videoListQuerySchema(builtInCatalogue()).parse({ runId }),
      )
    ).videos.find((v) => v.id === videoIds[0])!;
    expect(listedVideo.review).toMatchObject({ reviewers: 0, disagreement: false });
    const humanYes = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ runId, humanVerdict: "yes" }),
    );
    expect(humanYes.videos.map((v) => v.id)).toEqual([videoIds[3]]);

    await expect(
      importT2vHaluBench(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), input()),
    ).rejects.toThrow(ConflictError);
    await expect(projectAccess(prisma, reviewer, projectId, "videos.import")).rejects.toThrow(ForbiddenError);
    // A label set is deleted within the access's project: through an access to another project it does not exist.
    const elsewhere = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await expect(
      deleteLabelSet(prisma, await projectAccess(prisma, owner, elsewhere.projectId, "videos.import"), labelSetId),
    ).rejects.toThrow(NotFoundError);
    const before = await prisma.humanJudgment.count({ where: { projectId } });
    expect(
      await deleteLabelSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), labelSetId),
    ).toEqual({ deletedJudgments: 95 });
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(before - 95);
    expect(await prisma.humanJudgment.findMany({ where: { projectId }, select: { reviewerId: true } })).toEqual([
      { reviewerId: reviewer.userId },
    ]);
    await expect(
      deleteLabelSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), labelSetId),
    ).rejects.toThrow(NotFoundError);
  });

  it("maps rows by a mapping column of paths, and skips a file name that several videos share", async () => {
    const byColumn = await importT2vHaluBench(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input({ name: "by path", match: { by: "column", column: "video_path" } }),
    );
    expect(byColumn.plan.matchedVideos).toBe(5);
    expect(byColumn.plan.issues.filter((i) => i.row === 7).map((i) => [i.column, i.cell])).toEqual([
      ["video_path", "Mechanics/none-0.mp4"],
    ]);
    await expect(
      importT2vHaluBench(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        input({ name: "no column", match: { by: "column", column: "nope" } }),
      ),
    ).rejects.toThrow(/no mapping column "nope"/);

    await prisma.video.update({ where: { id: videoIds[4]! }, data: { fileName: "1.mp4" } });
    try {
      const shared = await importT2vHaluBench(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        input({ name: "shared" }),
      );
      expect(shared.plan.issues.filter((i) => i.row === 2)).toEqual([
        {
          row: 2,
          column: "Example",
          cell: "1.mp4",
          action: "skipped",
          message: "2 videos of the project have this file name: use a mapping column with their paths",
        },
      ]);
    } finally {
      await prisma.video.update({ where: { id: videoIds[4]! }, data: { fileName: "5.mp4" } });
    }
  });

  it("is never shown to a reviewer working a blind queue, and only owners import", async () => {
    await expect(projectAccess(prisma, reviewer, projectId, "videos.import")).rejects.toThrow(ForbiddenError);
    const imported = await importT2vHaluBench(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input({ name: "visible", dryRun: false }),
    );
    const labelReviewer = `labelset:${imported.labelSet!.id}`;
    expect(
      (
        await videoReviews(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), videoIds[0]!)
      ).judgments.some((j) => j.reviewer.id === labelReviewer),
    ).toBe(true);
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 1, createdById: owner.userId },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });
    expect(
      await videoReviews(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), videoIds[0]!),
    ).toMatchObject({ blind: true, judgments: [] });
    await deleteLabelSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), imported.labelSet!.id);
  });
});

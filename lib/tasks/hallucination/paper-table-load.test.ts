import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { NotFoundError, ValidationError } from "../../errors";
import { importT2vHaluBench } from "./t2vhalubench";
import { seedFinishedRun, type SeedScore } from "../../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { STATIC_CATEGORY_IDS, DYNAMIC_CATEGORY_IDS } from "./schemas";
import { calibrationReport } from "./paper-table-load";
import { WithheldError } from "../../visibility/withheld";

async function sheet(rows: (string | number)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet("Sheet1");
  ws.addRow([
    "Example",
    "Is_Hallucination",
    "Is_Prompt_Consistency",
    "Static_Hallucination",
    "Dynamic_Hallucination",
    "model",
  ]);
  for (const row of rows) ws.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Every category scored (0 unless given), over two key frames and one cluster, as a finished run has them. */
function judgeScores(overrides: Record<string, number[]>, inconsistency: number): SeedScore[] {
  const out: SeedScore[] = [];
  for (const scope of [0, 1])
    for (const c of STATIC_CATEGORY_IDS)
      out.push({ stepId: "static_hallucination", scopeIndex: scope, category: c, value: overrides[c]?.[scope] ?? 0 });
  for (const c of DYNAMIC_CATEGORY_IDS)
    out.push({ stepId: "dynamic_hallucination", scopeIndex: 0, category: c, value: overrides[c]?.[0] ?? 0 });
  out.push({ stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: inconsistency });
  return out;
}

describe("calibrationReport", () => {
  let owner: Actor;
  let outsider: Actor;
  let projectId: string;
  let runId: string;
  let labelSetId: string;

  beforeAll(async () => {
    [owner, outsider] = await Promise.all([makeUser(), makeUser()]);
    let videoIds: string[];
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 4,
      keyFrames: 2,
      name: "Paper table",
    }));
    const models = ["Sora", "Sora", "Pika", "Pika"];
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4`, model: models[i] } });
    // Labels: 1: hallucination, s1; 2: hallucination, inconsistent, d2; 3: none; 4: hallucination, s3.
    const file = await sheet([
      ["1.mp4", 1, 1, "s1", "-", "Sora"],
      ["2.mp4", 1, 0, "-", "d2", "Sora"],
      ["3.mp4", 0, 1, "-", "-", "Pika"],
      ["4.mp4", 1, 1, "s3", "-", "Pika"],
    ]);
    const imported = await importT2vHaluBench(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file,
      fileName: "labels.xlsx",
      name: "Authors",
      match: { by: "file_name" },
      dryRun: false,
    });
    labelSetId = imported.labelSet!.id;
    // The judge: 1: s1 7 on one key frame; 2: d2 4, I 8; 3: nothing; 4: s1 6. Verdicts: yes, yes, no, no.
    const scores = [
      judgeScores({ s1: [2, 7] }, 1),
      judgeScores({ s1: [3, 0], d2: [4] }, 8),
      judgeScores({}, 0),
      judgeScores({ s1: [6, 0] }, 2),
    ];
    ({ runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: (v) => scores[v]!,
      outcome: (v) => ({ verdict: v < 2, overall: v < 2 ? 40 : 80 }),
    }));
  });

  it("reads the label set and the run into the paper's table, worked by hand", async () => {
    const report = await calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      labelSetId,
      runId,
      iterations: 200,
    });
    expect(report).toMatchObject({
      threshold: 5,
      videos: 4,
      labelledNotJudged: 0,
      labelSet: { name: "Authors", annotator: null },
    });
    const [pika, sora, overall] = report.table.groups;
    expect([pika!.model, sora!.model, overall!.model]).toEqual(["Pika", "Sora", null]);
    const cell = (target: string) => overall!.cells[target]!;
    // Verdict: labels 1 1 0 1, judge 1 1 0 0: tp 2, fn 1, tn 1. κ: pₒ 3/4, pₑ 3/4·1/2 + 1/4·1/2 = 1/2, κ 1/2.
    expect(cell("verdict").counts).toEqual({ tp: 2, fp: 0, fn: 1, tn: 1 });
    expect(cell("verdict").values).toMatchObject({ precision: 1, accuracy: 0.75, f1: 0.8 });
    expect(cell("verdict").values.recall).toBeCloseTo(2 / 3, 12);
    expect(cell("verdict").values.kappa).toBeCloseTo(0.5, 12);
    // Prompt consistency: only video 2 is inconsistent, and its I (8) reaches 5.
    expect(cell("prompt").counts).toEqual({ tp: 1, fp: 0, fn: 0, tn: 3 });
    // Static: labelled on 1 (s1) and 4 (s3); the judge's worst static scores reach 5 on 1 (7) and 4 (6).
    expect(cell("static").counts).toEqual({ tp: 2, fp: 0, fn: 0, tn: 2 });
    // s1: labelled only on 1; the judge sees it on 1 and 4.
    expect(cell("s1").counts).toEqual({ tp: 1, fp: 1, fn: 0, tn: 2 });
    expect(cell("s1").values.f1).toBeCloseTo(2 / 3, 12);
    // Dynamic: video 2's d2 scored 4, below 5: missed.
    expect(cell("dynamic").counts).toEqual({ tp: 0, fp: 0, fn: 1, tn: 3 });
    expect(pika!.cells.verdict!.counts).toEqual({ tp: 0, fp: 0, fn: 1, tn: 1 });
    expect(sora!.cells.verdict!.values.accuracy).toBe(1);
  });

  it("moves the presence threshold but not the run's own verdict", async () => {
    const report = await calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      labelSetId,
      runId,
      threshold: 4,
      iterations: 100,
    });
    const overall = report.table.groups.at(-1)!;
    expect(report.threshold).toBe(4);
    expect(overall.cells.dynamic!.counts).toEqual({ tp: 1, fp: 0, fn: 0, tn: 3 });
    expect(overall.cells.verdict!.counts).toEqual({ tp: 2, fp: 0, fn: 1, tn: 1 });
  });

  it("is withheld whole from an owner reviewing a labelled video blind, never a table of the other videos", async () => {
    const video = await prisma.video.findFirstOrThrow({
      where: { projectId, fileName: "1.mp4" },
      select: { id: true },
    });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Paper blind",
        runId,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: video.id, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: owner.userId },
    });
    const withheld = await calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      labelSetId,
      runId,
      iterations: 200,
    }).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('hidden while you review "Paper blind" blind: 1 item left');
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
    expect(
      (
        await calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
          labelSetId,
          runId,
          iterations: 200,
        })
      ).videos,
    ).toBe(4);
  });

  it("refuses outsiders, other projects' ids and annotators the set lacks", async () => {
    await expect(projectAccess(prisma, outsider, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
        labelSetId: "nope",
        runId,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
        labelSetId,
        runId: "nope",
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
        labelSetId,
        runId,
        annotator: "x",
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { importT2vHaluBench } from "../tasks/hallucination/t2vhalubench";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { projectAgreement } from "./load";
import { reportCsv } from "./report-csv";
import { type ExportRow, projectExport } from "./export";
import { agreementQuerySchema, exportQuerySchema } from "./report-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

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

/*
 * A T2VHaluBench label set against a run that scored s1 and s2 at two key frames per video. The judge's
 * presence of a category is its highest score over the key frames.
 *
 *   video  s1 scores → max   s2 scores → max   sheet
 *   1.mp4  2, 7 → 7          1, 0 → 1          s1        (s1 present, s2 absent)
 *   2.mp4  4, 1 → 4          6, 3 → 6          s1, s2
 *   3.mp4  0, 0 → 0          0, 0 → 0          -
 * Only s1 and s2 were scored: the sheet's other 17 categories per video have no judge value and are left out (n = 6).
 * t = 5: judge present for 1.mp4 s1 (tp), 2.mp4 s2 (tp); 2.mp4 s1 (4) fn; the three absent rest tn
 *   → tp 2 fn 1 tn 3; precision 1, recall 2/3, F1 4/5; κ: pe = (2·3 + 4·3)/36 = 1/2, κ = (5/6 − 1/2)/(1/2) = 2/3.
 * t = 2, 3, 4: every label matched (F1 1, κ 1); t = 1: 1.mp4 s2 (1) is a false positive. Best: t = 2.
 */
describe("presence labels of a T2VHaluBench label set against a run's graded scores (database)", () => {
  let owner: Actor;
  let projectId: string;
  let labelSetId: string;

  beforeAll(async () => {
    owner = await makeUser();
    let videoIds: string[];
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 2,
      name: "Presence",
    }));
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4` } });
    const s1 = [
      [2, 7],
      [4, 1],
      [0, 0],
    ];
    const s2 = [
      [1, 0],
      [6, 3],
      [0, 0],
    ];
    await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: (v) =>
        [0, 1].flatMap((k) => [
          { stepId: "static_hallucination" as const, scopeIndex: k, category: "s1", value: s1[v]![k]! },
          { stepId: "static_hallucination" as const, scopeIndex: k, category: "s2", value: s2[v]![k]! },
        ]),
      outcome: (v) => ({ verdict: v < 2, overall: 50 }),
    });
    const imported = await importT2vHaluBench(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: await sheet([
        ["1.mp4", 1, 1, "s1", "-", "Sora"],
        ["2.mp4", 1, 1, "s1, s2", "-", "Sora"],
        ["3.mp4", 0, 1, "-", "-", "Sora"],
      ]),
      fileName: "T2VHaluBench.xlsx",
      name: "T2VHaluBench authors",
      citation: "",
      match: { by: "file_name" },
      dryRun: false,
    });
    labelSetId = imported.labelSet!.id;
  });

  it("compares the label set's presence labels with the judge's derived presence at t and sweeps t = 0..10", async () => {
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({}),
    );
    expect(report.presence).toHaveLength(1);
    const presence = report.presence[0]!;
    expect(presence.threshold).toBe(5);
    const curve = presence.curves.find((c) => c.human === `labelset:${labelSetId}`)!;
    expect(curve.label).toBe("T2VHaluBench authors");
    expect(curve.n).toBe(6);
    expect(curve.chosen).toMatchObject({ threshold: 5, tp: 2, fp: 0, fn: 1, tn: 3, precision: 1 });
    expect(curve.chosen!.recall).toBeCloseTo(2 / 3, 10);
    expect(curve.chosen!.f1).toBeCloseTo(4 / 5, 10);
    expect(curve.chosen!.kappa).toBeCloseTo(2 / 3, 10);
    for (const t of [2, 3, 4])
      expect(curve.points.find((p) => p.threshold === t)).toMatchObject({
        tp: 3,
        fp: 0,
        fn: 0,
        tn: 3,
        f1: 1,
        kappa: 1,
      });
    expect(curve.points.find((p) => p.threshold === 1)).toMatchObject({ tp: 3, fp: 1, fn: 0, tn: 2 });
    expect(curve.best).toMatchObject({ threshold: 2, f1: 1 });
    // The label set is compared with the judge like an annotator: presence targets enter its comparison too.
    const asReviewer = report.humanVsJudge.reviewers.find((r) => r.reviewerId === `labelset:${labelSetId}`)!;
    expect(asReviewer.native.presence!.n).toBe(6);

    const csv = reportCsv(report);
    expect(csv).toContain("presence_sweep,hallucination presence vs T2VHaluBench authors,5,f1,0.8,,,6\r\n");
    expect(csv).toContain("summary,all,hallucination,presence_threshold,5,,,\r\n");
  });

  it("takes the request's t (presenceThreshold) and refuses one outside the graded scale", async () => {
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ presenceThreshold: "4" }),
    );
    expect(report.presence[0]!.threshold).toBe(4);
    expect(report.presence[0]!.curves.find((c) => c.human === `labelset:${labelSetId}`)!.chosen).toMatchObject({
      tp: 3,
      fp: 0,
      fn: 0,
      tn: 3,
    });
    await expect(
      projectAgreement(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        agreementQuerySchema(builtInCatalogue()).parse({ presenceThreshold: "11" }),
      ),
    ).rejects.toThrow(ValidationError);
  });

  it("exports each judged presence target with the judge's presence at the declared t", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl" }),
    );
    const rows = (await new Response(stream).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    const presence = rows.filter((r) => r.target === "presence");
    // 3 videos × the sheet's 20 presence labels (s1–s10, d1–d9, inconsistency); a category the judge never scored has no judge value.
    expect(presence).toHaveLength(3 * 20);
    const byVideo = (path: string, category: string) =>
      presence.find((r) => r.path === path && r.category === category)!;
    const paths = [...new Set(presence.map((r) => r.path))].sort();
    const s1 = paths.map((p) => byVideo(p, "s1"));
    const s2 = paths.map((p) => byVideo(p, "s2"));
    // Judge maxima s1: 7, 4, 0 and s2: 1, 6, 0 at t = 5; the label set's values from the sheet.
    const judged = [...s1, ...s2].map((r) => [r.category, r.judgeValue, r.reviews.map((x) => x.value)]).sort();
    expect(judged).toEqual(
      [
        ["s1", 1, [1]],
        ["s1", 0, [1]],
        ["s1", 0, [0]],
        ["s2", 0, [0]],
        ["s2", 1, [1]],
        ["s2", 0, [0]],
      ].sort(),
    );
    expect(presence.find((r) => r.category === "d1")!.judgeValue).toBeNull();
  });
});

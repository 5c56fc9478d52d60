/**
 * The generic importer's wide files: one row per video (and annotator), one column per criterion of a rubric task,
 * mapped column → criterion, categorical values given by label name. Bad cells are listed with their line and
 * column; a mapping that names a missing column or an undeclared target refuses the whole file.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { rubricTargetId } from "../rubrics/rubric-declaration";
import { createRubricTask } from "../rubrics/rubric-tasks";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { parseWideGenericLabels } from "./generic-labels";
import { importGenericLabels } from "./label-sets";
import { labelSetImportFieldsSchema } from "./label-sets.validation";
import { SPAN_IMPORT_FORMATS } from "../spans/span-files/span-file-formats";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { projectAccess } from "../authz/permissions";

const encode = (text: string) => new TextEncoder().encode(text);

describe("parseWideGenericLabels", () => {
  it("reads one label per mapped column, numbers or label names, and lists bad cells by line and column", () => {
    const csv = [
      "clip,rater,Verdict,S7,Overall,notes",
      "1.mp4,ann,yes,present,80,x",
      "2.mp4,ann,No,absent,,",
      "3.mp4,ann,maybe,1,high,",
      ",ann,1,0,5,",
    ].join("\n");
    const parsed = parseWideGenericLabels(
      csv,
      "wide.csv",
      {
        video: "clip",
        annotator: "rater",
        targets: { Verdict: "verdict", S7: "s7", Overall: "overall" },
      },
      BUILT_IN_DECLARATIONS.tasks,
    );
    expect(parsed.rows.map((r) => [r.line, r.column, r.video, r.annotator, r.target, r.value])).toEqual([
      [2, "Verdict", "1.mp4", "ann", "verdict", 1],
      [2, "S7", "1.mp4", "ann", "s7", 1],
      [2, "Overall", "1.mp4", "ann", "overall", 80],
      [3, "Verdict", "2.mp4", "ann", "verdict", 0],
      [3, "S7", "2.mp4", "ann", "s7", 0],
      [4, "S7", "3.mp4", "ann", "s7", 1],
    ]);
    expect(parsed.issues.map((i) => [i.row, i.column, i.cell, i.message])).toEqual([
      [4, "Verdict", "maybe", "not a number or a label of Hallucination (yes, no)"],
      [4, "Overall", "high", "not a number (Overall is numeric)"],
      [5, "clip", "", "empty"],
    ]);
    expect(parsed.records).toBe(4);
    expect(() =>
      parseWideGenericLabels(
        csv,
        "wide.csv",
        { video: "clip", targets: { Style: "verdict", Missing: "s7" } },
        BUILT_IN_DECLARATIONS.tasks,
      ),
    ).toThrow(/lacks the mapped columns Style, Missing/);
    expect(() =>
      parseWideGenericLabels(
        csv,
        "wide.csv",
        { video: "clip", targets: { Verdict: "nope" } },
        BUILT_IN_DECLARATIONS.tasks,
      ),
    ).toThrow(/The column "Verdict" is mapped to "nope": no task declares a target "nope"/);
    expect(() =>
      parseWideGenericLabels(
        csv,
        "wide.csv",
        { video: "clip", targets: { clip: "verdict" } },
        BUILT_IN_DECLARATIONS.tasks,
      ),
    ).toThrow(/both the video/);
  });
});

describe("the import form's column map", () => {
  it("is JSON of {video, annotator?, item?, targets}, for the generic format only", () => {
    const fields = { format: "generic", name: "Wide" };
    expect(
      labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).parse({
        ...fields,
        columns: JSON.stringify({ video: "clip", targets: { Q: "r1_quality" } }),
      }).columns,
    ).toEqual({
      video: "clip",
      targets: { Q: "r1_quality" },
    });
    expect(labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).parse(fields).columns).toBeUndefined();
    expect(
      labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).safeParse({ ...fields, columns: "{video:" })
        .error?.issues[0]?.message,
    ).toMatch(/columns: not JSON/);
    expect(
      labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).safeParse({
        ...fields,
        columns: JSON.stringify({ video: "clip", targets: {} }),
      }).error?.issues[0]?.message,
    ).toBe("Map at least one column to a target.");
    expect(
      labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).safeParse({
        ...fields,
        columns: JSON.stringify({ video: "clip", targets: { Q: "x" }, extra: 1 }),
      }).success,
    ).toBe(false);
    expect(
      labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).safeParse({
        ...fields,
        format: "vbench",
        columns: JSON.stringify({ video: "clip", targets: { Q: "x" } }),
      }).success,
    ).toBe(false);
  });
});

describe("importing a wide label file of a rubric task's criteria", () => {
  let owner: Actor;
  let projectId: string;
  let videoIds: string[];
  let key: number;
  let pipeline: string;
  const criterion = (id: string) => rubricTargetId(key, id);

  beforeAll(async () => {
    owner = await makeUser();
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 1,
      name: "Wide labels",
    }));
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({
        where: { id },
        data: { fileName: `${i + 1}.mp4`, relativePath: `wide/${i + 1}.mp4` },
      });
    ({ key, pipeline } = await createRubricTask(
      prisma,
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      {
        definition: {
          name: "Wide rubric",
          frames: { mode: "uniform", count: 2 },
          criteria: [
            {
              id: "quality",
              name: "Quality",
              type: "numeric",
              min: 1,
              max: 5,
              step: 1,
              definition: "1 bad … 5 flawless.",
            },
            {
              id: "motion",
              name: "Motion",
              type: "categorical",
              ordered: true,
              labels: [
                { label: "jerky", definition: "Stutters." },
                { label: "smooth", definition: "No stutter." },
              ],
              definition: "How smoothly things move.",
            },
            { id: "watermark", name: "Watermark", type: "boolean", definition: "A watermark is visible." },
          ],
          prompt: "{{frames}}\n{{criteria}}",
        },
      },
    ));
  });

  it("maps each column to its criterion and each label name to its value, listing the bad rows with their line", async () => {
    const csv = [
      "clip,rater,Q,M,W",
      "wide/1.mp4,ann,4,smooth,yes", // 2
      "2.mp4,ann,2,Jerky,no", // 3: by file name; a label name in any case
      "3.mp4,ann,9,shiny,", // 4: off the scale; no such label; no watermark label
      "missing.mp4,ann,3,smooth,no", // 5: no such video
      "1.mp4,bob,5,jerky,false", // 6: true/false for a yes/no criterion
      "1.mp4,ann,3,,", // 7: ann already labelled video 1's quality on line 2
    ].join("\n");
    const columns = {
      video: "clip",
      annotator: "rater",
      targets: { Q: criterion("quality"), M: criterion("motion"), W: criterion("watermark") },
    };
    const input = { file: encode(csv), fileName: "wide.csv", name: "Wide", dryRun: true, columns };
    const dry = await importGenericLabels(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input,
    );
    expect(dry.labelSet).toBeNull();
    expect(dry.plan).toMatchObject({
      rows: 6,
      matchedVideos: 2,
      judgments: {
        [`${pipeline}:${criterion("quality")}`]: 3,
        [`${pipeline}:${criterion("motion")}`]: 3,
        [`${pipeline}:${criterion("watermark")}`]: 3,
      },
      annotators: { ann: 6, bob: 3 },
      headers: ["clip", "rater", "Q", "M", "W"],
    });
    expect(dry.plan.issues.map((i) => [i.row, i.column, i.cell, i.message])).toEqual([
      [4, "M", "shiny", "not a number or a label of Motion (jerky, smooth)"],
      [4, "Q", "9", "Quality: 9 is outside 1–5."],
      // One issue for the row's video, not one per criterion.
      [5, "video", "missing.mp4", expect.stringContaining("no video of the project matches")],
      [7, "Q", criterion("quality"), "line 2 already gives ann's label of this target"],
    ]);

    const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      ...input,
      dryRun: false,
    });
    const id = imported.labelSet!.id;
    expect(imported.labelSet).toMatchObject({ format: "generic", annotators: ["ann", "bob"], judgments: 9 });
    const stored = await prisma.humanJudgment.findMany({
      where: { labelSetId: id },
      select: {
        reviewerId: true,
        videoId: true,
        task: true,
        targetType: true,
        target: true,
        stepId: true,
        value: true,
      },
    });
    const of = (annotator: string, video: number, c: string) =>
      stored.find(
        (j) =>
          j.reviewerId === `labelset:${id}:${annotator}` && j.videoId === videoIds[video] && j.target === criterion(c),
      );
    expect(of("ann", 0, "quality")).toEqual({
      reviewerId: `labelset:${id}:ann`,
      videoId: videoIds[0],
      task: pipeline,
      targetType: "score",
      target: criterion("quality"),
      stepId: "judge",
      value: 4,
    });
    expect([of("ann", 0, "motion")?.value, of("ann", 0, "watermark")?.value]).toEqual([1, 1]);
    expect([of("ann", 1, "quality")?.value, of("ann", 1, "motion")?.value, of("ann", 1, "watermark")?.value]).toEqual([
      2, 0, 0,
    ]);
    expect([of("bob", 0, "quality")?.value, of("bob", 0, "motion")?.value, of("bob", 0, "watermark")?.value]).toEqual([
      5, 0, 0,
    ]);
    expect(stored.filter((j) => j.videoId === videoIds[2])).toEqual([]);
  });

  it("reads JSONL without an annotator column as one annotator, and refuses a map naming a column the CSV lacks or a target no task declares", async () => {
    const jsonl = [
      JSON.stringify({ file: "1.mp4", quality: 3, watermark: true }),
      "{oops",
      JSON.stringify({ file: "2.mp4", quality: "5", watermark: "No" }),
    ].join("\n");
    const columns = { video: "file", targets: { quality: criterion("quality"), watermark: criterion("watermark") } };
    const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: encode(jsonl),
      fileName: "wide.jsonl",
      name: "Wide JSONL",
      dryRun: false,
      columns,
    });
    expect(imported.plan.issues.map((i) => [i.row, i.message])).toEqual([[2, "not a JSON object"]]);
    expect(imported.plan).toMatchObject({ rows: 3, annotators: {} });
    expect(imported.labelSet).toMatchObject({ annotators: [], judgments: 4 });
    const stored = await prisma.humanJudgment.findMany({
      where: { labelSetId: imported.labelSet!.id },
      orderBy: [{ videoId: "asc" }, { target: "asc" }],
      select: { reviewerId: true, videoId: true, target: true, value: true },
    });
    expect(new Set(stored.map((j) => j.reviewerId))).toEqual(new Set([`labelset:${imported.labelSet!.id}`]));
    expect(stored.map((j) => [j.videoId, j.target, j.value])).toEqual(
      [
        [videoIds[0], criterion("quality"), 3],
        [videoIds[0], criterion("watermark"), 1],
        [videoIds[1], criterion("quality"), 5],
        [videoIds[1], criterion("watermark"), 0],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1]))),
    );

    const csv = encode("clip,Q\n1.mp4,3\n");
    await expect(
      importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
        file: csv,
        fileName: "w.csv",
        name: "Bad map",
        dryRun: true,
        columns: { video: "clip", targets: { Quality: criterion("quality") } },
      }),
    ).rejects.toThrow(/lacks the mapped column Quality \(its columns: clip, Q\)/);
    await expect(
      importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
        file: csv,
        fileName: "w.csv",
        name: "Bad map",
        dryRun: true,
        columns: { video: "clip", targets: { Q: "r999999_quality" } },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

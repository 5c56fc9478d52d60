import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { parseGenericLabels, resolveGenericTarget } from "./generic-labels";
import { deleteLabelSet, importGenericLabels, listLabelSets } from "./label-sets";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

const encode = (text: string) => new TextEncoder().encode(text);

describe("resolveGenericTarget", () => {
  it("names any declared target or reviewed metric, qualified by its task where needed", () => {
    expect(resolveGenericTarget("verdict", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      kind: "metric",
      id: "verdict",
      task: { id: "hallucination" },
    });
    expect(resolveGenericTarget("s7", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({ kind: "presence", id: "s7" });
    expect(resolveGenericTarget("inconsistency", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      kind: "presence",
      id: "inconsistency",
    });
    expect(resolveGenericTarget("correctness", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      kind: "score",
      id: "correctness",
      task: { id: "qa", subject: "question" },
    });
    expect(resolveGenericTarget("qa", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({ kind: "score", id: "correctness" });
    expect(resolveGenericTarget("caption_style:style", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      kind: "score",
      id: "style",
      task: { id: "caption_style" },
    });
    expect(resolveGenericTarget("caption_style", BUILT_IN_DECLARATIONS.tasks)).toEqual({
      error: "the task caption_style has several targets: write caption_style:style or caption_style:style_raw",
    });
    expect(resolveGenericTarget("nope", BUILT_IN_DECLARATIONS.tasks)).toEqual({
      error: 'no task declares a target "nope"',
    });
    expect(resolveGenericTarget("qa:s7", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      error: expect.stringContaining('the task qa declares no target "s7"'),
    });
  });
});

describe("parseGenericLabels", () => {
  it("reads JSONL and lists unreadable lines with their line number", () => {
    const parsed = parseGenericLabels(
      '{"video":"1.mp4","annotator":"a","target":"verdict","value":1}\n\nnot json\n{"video":"2.mp4","annotator":"a","target":"s1","value":"0","item":null}\n{"video":["x"],"annotator":"a","target":"s1","value":0}\n',
      "labels.jsonl",
    );
    expect(parsed.rows).toEqual([
      { line: 1, video: "1.mp4", annotator: "a", target: "verdict", value: 1, item: "" },
      { line: 4, video: "2.mp4", annotator: "a", target: "s1", value: 0, item: "" },
    ]);
    expect(parsed.issues.map((i) => [i.row, i.column, i.message])).toEqual([
      [3, "", "not a JSON object"],
      [5, "video", "must be a string or a number"],
    ]);
  });

  it("refuses a CSV without the required columns", () => {
    expect(() => parseGenericLabels("video,target,value\n1.mp4,verdict,1\n", "labels.csv")).toThrow(
      /lacks the column annotator/,
    );
  });
});

describe("importGenericLabels", () => {
  let owner: Actor;
  let reviewer: Actor;
  let projectId: string;
  let videoIds: string[];

  beforeAll(async () => {
    [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 4,
      keyFrames: 1,
      name: "Generic labels",
    }));
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const names = ["one", "two", "three", "four"];
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({
        where: { id },
        data: { fileName: `${i + 1}.mp4`, relativePath: `Mechanics/${names[i]}-0.mp4` },
      });
  });

  const CSV = [
    "video,annotator,target,value,item",
    "Mechanics/one-0.mp4,alice,verdict,1,", // 2: by path
    "2.mp4,alice,s7,1,", // 3: by file name
    "2.mp4,bob,s7,0,", // 4: another annotator, same target
    "1.mp4,alice,verdict,0,", // 5: alice already labelled video 1's verdict on line 2
    "3.mp4,alice,s7,5,", // 6: a presence label is 0 or 1
    "3.mp4,alice,nope,1,", // 7: no such target
    "missing.mp4,bob,verdict,1,", // 8: no such video
    "3.mp4,bob,overall,75,", // 9: a reviewed metric on its 0–100 scale
    "3.mp4,bob,correctness,1,", // 10: a question's target without the question
    "4.mp4,bob,verdict,x,", // 11: not a number
    "4.mp4,,verdict,1,", // 12: no annotator
    "4.mp4,alice,verdict,1,cap-1", // 13: the verdict belongs to the video, not an item
    "4.mp4,bob,overall,120,", // 14: off the scale
  ].join("\r\n");

  it("dry-runs listing every bad row with its line, imports one annotator per value, and deletes exactly its labels", async () => {
    const input = {
      file: encode(CSV),
      fileName: "labels.csv",
      name: "Round 1",
      citation: "in-house, 2026",
      dryRun: true,
    };
    const dry = await importGenericLabels(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      input,
    );
    expect(dry.labelSet).toBeNull();
    expect(await prisma.labelSet.count({ where: { projectId } })).toBe(0);
    expect(dry.plan).toMatchObject({
      rows: 13,
      matchedVideos: 3,
      judgments: { "hallucination:verdict": 1, "hallucination:s7": 2, "hallucination:overall": 1 },
      annotators: { alice: 2, bob: 2 },
    });
    expect(dry.plan.issues.map((i) => [i.row, i.column, i.message])).toEqual([
      [5, "target", "line 2 already gives alice's label of this target"],
      [6, "value", "s7 is a presence label: 1 (present) or 0 (absent), not 5"],
      [7, "target", 'no task declares a target "nope"'],
      [8, "video", "no video of the project matches this path, file name, or prompt and sample index"],
      [10, "item", "qa:correctness belongs to a question: name it in the item column"],
      [11, "value", "not a number"],
      [12, "annotator", "empty"],
      [13, "item", "verdict is a label of the video, not of an item: leave the item column empty"],
      [14, "value", "Overall: 120 is outside 0–100."],
    ]);
    await expect(projectAccess(prisma, reviewer, projectId, "videos.import")).rejects.toThrow();

    const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      ...input,
      dryRun: false,
    });
    const id = imported.labelSet!.id;
    expect(imported.labelSet).toMatchObject({
      format: "generic",
      fileName: "labels.csv",
      citation: "in-house, 2026",
      annotators: ["alice", "bob"],
      judgments: 4,
    });
    const rows = await prisma.humanJudgment.findMany({
      where: { labelSetId: id },
      orderBy: [{ reviewerId: "asc" }, { target: "asc" }],
      select: { reviewerId: true, videoId: true, targetType: true, target: true, value: true },
    });
    expect(rows).toEqual([
      { reviewerId: `labelset:${id}:alice`, videoId: videoIds[1], targetType: "presence", target: "s7", value: 1 },
      { reviewerId: `labelset:${id}:alice`, videoId: videoIds[0], targetType: "verdict", target: "verdict", value: 1 },
      { reviewerId: `labelset:${id}:bob`, videoId: videoIds[2], targetType: "overall", target: "overall", value: 75 },
      { reviewerId: `labelset:${id}:bob`, videoId: videoIds[1], targetType: "presence", target: "s7", value: 0 },
    ]);
    expect(
      (await listLabelSets(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"))).find(
        (s) => s.id === id,
      )?.reviewerIds,
    ).toEqual([`labelset:${id}:alice`, `labelset:${id}:bob`]);

    expect(await deleteLabelSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), id)).toEqual({
      deletedJudgments: 4,
    });
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
  });

  it("refuses a file with nothing to import, and a file that is not text", async () => {
    await expect(
      importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
        file: encode("video,annotator,target,value\nmissing.mp4,a,verdict,1\n"),
        fileName: "x.csv",
        name: "Empty",
        dryRun: false,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
        file: new Uint8Array([0xff, 0xfe, 0x00]),
        fileName: "x.csv",
        name: "Binary",
        dryRun: true,
      }),
    ).rejects.toThrow(/not UTF-8/);
  });
});

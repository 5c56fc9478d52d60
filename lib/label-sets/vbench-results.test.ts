import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { deleteLabelSet, importVbenchResults } from "./label-sets";
import { parseVbenchResults } from "./vbench-results";

const LONG_PROMPT = `A ${"very ".repeat(40)}long prompt about a ball`;

const RESULTS = {
  subject_consistency: [
    0.95,
    [
      { video_path: "/data/vbench/Sora/A ball falls-0.mp4", video_results: 0.97 },
      { video_path: "/data/vbench/Kling/A ball falls-0.mp4", video_results: 0.91 },
      { video_path: `/elsewhere/${LONG_PROMPT.slice(0, 180)}-2.mp4`, video_results: 0.5 },
      { video_path: "/data/vbench/Sora/Unknown prompt-0.mp4", video_results: 0.4 },
    ],
  ],
  human_anatomy: [
    0.5,
    [
      { video_path: "Sora/A ball falls-0.mp4", video_results: true },
      { video_path: "x.mp4", video_results: { nested: 1 } },
      { nope: 1 },
    ],
  ],
  broken: "not a list",
};

describe("parseVbenchResults", () => {
  it("reads numbers and booleans per video and lists what it skipped", () => {
    const parsed = parseVbenchResults(JSON.stringify(RESULTS));
    expect(parsed.results.map((r) => [r.dimension, r.index, r.value])).toEqual([
      ["subject_consistency", 0, 0.97],
      ["subject_consistency", 1, 0.91],
      ["subject_consistency", 2, 0.5],
      ["subject_consistency", 3, 0.4],
      ["human_anatomy", 0, 1],
    ]);
    expect(parsed.aggregates).toEqual({ subject_consistency: 0.95, human_anatomy: 0.5 });
    expect(parsed.issues).toEqual([
      {
        dimension: "human_anatomy",
        index: 1,
        videoPath: "x.mp4",
        message: "video_results is not a number or a boolean: skipped",
      },
      { dimension: "human_anatomy", index: 2, videoPath: null, message: "no video_path: skipped" },
      {
        dimension: "broken",
        index: null,
        videoPath: null,
        message: "not [<aggregate>, [per-video results]]: the dimension is skipped",
      },
    ]);
    expect(() => parseVbenchResults("{")).toThrow(ValidationError);
    expect(() => parseVbenchResults("[]")).toThrow(/JSON object/);
  });
});

describe("VBench results as a label set (database)", () => {
  let owner: Actor;
  let projectId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await makeUser();
    projectId = (await createProject(prisma, owner, { name: "VBench results" })).id;
    const add = async (
      key: string,
      relativePath: string,
      promptTruncated: string,
      sampleIndex: number,
      model: string,
    ) => {
      const fileName = relativePath.split("/").pop()!;
      const video = await prisma.video.create({
        data: {
          projectId,
          sha256: key.padEnd(64, "0"),
          sizeBytes: BigInt(1),
          fileName,
          relativePath,
          storageKey: `k/${key}`,
          contentType: "video/mp4",
          status: "ready",
          promptTruncated,
          sampleIndex,
          model,
          createdById: owner.userId,
        },
      });
      ids[key] = video.id;
    };
    await add("sora", "Sora/A ball falls-0.mp4", "A ball falls", 0, "Sora");
    await add("kling", "Kling/A ball falls-0.mp4", "A ball falls", 0, "Kling");
    // Imported under another name, but with VBench's prompt and sample index.
    await add(
      "long",
      `Wan/${LONG_PROMPT.slice(0, 180)}-2.mp4`.replace("Wan/A ", "Wan/a-renamed/A "),
      LONG_PROMPT.slice(0, 180),
      2,
      "Wan",
    );
    await prisma.video.update({ where: { id: ids.long! }, data: { fileName: "renamed.mp4" } });
  });

  it("matches by path, then file name, then prompt and index; dry-runs, imports one annotator and deletes exactly its values", async () => {
    const file = new TextEncoder().encode(JSON.stringify(RESULTS));
    const dry = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file,
      fileName: "eval_results.json",
      name: "VBench",
      dryRun: true,
    });
    expect(dry.labelSet).toBeNull();
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
    expect(dry.plan).toMatchObject({
      results: 5,
      matchedVideos: 3,
      judgments: { subject_consistency: 3, human_anatomy: 1 },
    });
    expect(dry.plan.issues.map((i) => [i.dimension, i.index, i.message])).toEqual([
      ["human_anatomy", 1, "video_results is not a number or a boolean: skipped"],
      ["human_anatomy", 2, "no video_path: skipped"],
      ["broken", null, "not [<aggregate>, [per-video results]]: the dimension is skipped"],
      [
        "subject_consistency",
        3,
        "no video of the project matches this path, file name, or prompt and sample index: skipped",
      ],
    ]);

    const imported = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file,
      fileName: "eval_results.json",
      name: "VBench",
      dryRun: false,
    });
    const rows = await prisma.humanJudgment.findMany({
      where: { labelSetId: imported.labelSet!.id },
      select: { videoId: true, target: true, value: true, reviewerId: true, runId: true },
    });
    const byVideo = (key: string, dimension: string) =>
      rows.find((r) => r.videoId === ids[key] && r.target === dimension)?.value;
    expect([
      byVideo("sora", "subject_consistency"),
      byVideo("kling", "subject_consistency"),
      byVideo("long", "subject_consistency"),
      byVideo("sora", "human_anatomy"),
    ]).toEqual([0.97, 0.91, 0.5, 1]);
    expect(new Set(rows.map((r) => r.reviewerId))).toEqual(new Set([`labelset:${imported.labelSet!.id}`]));
    expect(rows.every((r) => r.runId === null)).toBe(true);
    expect(imported.labelSet).toMatchObject({ format: "vbench", judgments: 4 });
    expect(
      await deleteLabelSet(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        imported.labelSet!.id,
      ),
    ).toEqual({ deletedJudgments: 4 });
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
  });
});

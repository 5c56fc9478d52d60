/**
 * A vbench2 run's results on PostgreSQL with the stub LLM (a test tool): dimension scores over the videos that
 * are not -1, the five category means and the total as VBench-2.0's scripts/cal_final_score.py computes them,
 * people's values recomputed from their answers, VBench's own values from an imported results label set, and the
 * eval_results export read back by cal_final_score.py's logic. Every number is worked out by hand in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { importVbenchResults } from "@/lib/label-sets/label-sets";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { reviewScore } from "@/lib/reviews/reviews";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { evalResultsOf, vbench2RunResults } from "./results";
import { vbench2ScoreOf } from "./results-score";
import { stubEndpoint, vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

/**
 * VBench-2.0's scripts/cal_final_score.py, step for step: each results file's keys with "_" replaced by " " (once
 * per underscore: Python's str.replace replaces all), the first element of each entry as the dimension's score, a
 * dimension missing from the files counted 0, each of the five category lists averaged, the five averaged.
 */
function calFinalScore(files: Record<string, [number, unknown[]]>[]): number {
  const CREATIVITY = ["Composition", "Diversity"];
  const COMMONSENSE = ["Instance Preservation", "Motion Rationality"];
  const CONTROLLABILITY = [
    "Camera Motion",
    "Complex Landscape",
    "Complex Plot",
    "Dynamic Attribute",
    "Dynamic Spatial Relationship",
    "Human Interaction",
    "Motion Order Understanding",
  ];
  const HUMAN_FIDELITY = ["Human Anatomy", "Human Clothes", "Human Identity"];
  const PHYSICS = ["Material", "Mechanics", "Multi-View Consistency", "Thermotics"];
  const upload: Record<string, number> = {};
  for (const file of files)
    for (const [key, entry] of Object.entries(file)) upload[key.replaceAll("_", " ")] = entry[0];
  for (const key of [...CREATIVITY, ...COMMONSENSE, ...CONTROLLABILITY, ...HUMAN_FIDELITY, ...PHYSICS])
    upload[key] ??= 0;
  const mean = (keys: string[]) => keys.reduce((sum, key) => sum + upload[key]!, 0) / keys.length;
  return (mean(CREATIVITY) + mean(COMMONSENSE) + mean(CONTROLLABILITY) + mean(HUMAN_FIDELITY) + mean(PHYSICS)) / 5;
}

describe("vbench2 results", () => {
  it("scores, categories and total as VBench computes them; people's values from their answers; VBench's own values beside; eval_results read by cal_final_score", async () => {
    const { projectId, videoIds } = await vbench2Project(prisma, owner, [
      { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[yes] green?"] }, // 1
      { model: "GenA", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[no] wax?", "[yes] melts?"] }, // -1
      { model: "GenB", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[no] green?"] }, // 0
      { model: "GenB", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[yes] wax?", "[yes] melts?"] }, // 1
      { model: "GenA", dimension: "Dynamic_Attribute", prompt: "Leaves turn green", auxiliaryInfo: ["[yes] green?"] }, // 1
      { model: "GenB", dimension: "Dynamic_Attribute", prompt: "Leaves turn green", auxiliaryInfo: ["[no] green?"] }, // 0
    ]);
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    );

    const all = await vbench2RunResults(prisma, projectId, run.id);
    const material = all.dimensions.find((d) => d.dimension === "Material")!;
    // Material: mean(1, 0, 1) over the three videos that are not -1.
    expect(material).toMatchObject({ score: 2 / 3, n: 3, excluded: 1, source: "judge", category: "Physics" });
    expect(material.videos.find((v) => v.videoId === videoIds[1])).toMatchObject({
      value: null,
      excludedReason: expect.stringContaining("-1"),
    });
    expect(material.videos[0]!.questions[0]).toMatchObject({
      question: expect.any(String),
      yes: expect.any(Boolean),
      frames: expect.arrayContaining([0, 78 / 24]),
    });
    expect(all.dimensions.find((d) => d.dimension === "Dynamic_Attribute")).toMatchObject({
      score: 0.5,
      n: 2,
      excluded: 0,
    });
    // Physics (Material, Mechanics, Multi-View, Thermotics) = (2/3)/4; Controllability (7 dimensions) = 0.5/7; others 0.
    expect(all.categories.Physics).toBeCloseTo(2 / 3 / 4, 12);
    expect(all.categories.Controllability).toBeCloseTo(0.5 / 7, 12);
    expect(all.total).toBeCloseTo((2 / 3 / 4 + 0.5 / 7) / 5, 12);

    // One generator's eval_results, read back by cal_final_score.py's logic, gives FrameJury's total for it.
    const genA = await vbench2RunResults(prisma, projectId, run.id, { model: "GenA" });
    const file = evalResultsOf(genA);
    expect(file.Material).toEqual([
      1,
      expect.arrayContaining([
        { video_path: expect.stringMatching(/^GenA\/Material\/Wax melts-0\.mp4$/), video_results: -1 },
      ]),
    ]);
    expect(calFinalScore([file])).toBeCloseTo(genA.total, 12);
    // GenA: Material 1 (its -1 left out), Dynamic_Attribute 1 → (1/4 + 1/7) / 5.
    expect(genA.total).toBeCloseTo((1 / 4 + 1 / 7) / 5, 12);

    // A person answers GenB's "green?" yes where the judge said no: their Material value for that video is 1.
    const score = await prisma.score.findFirstOrThrow({
      where: { runId: run.id, videoId: videoIds[2]!, category: "material:q2" },
    });
    expect(score.value).toBe(0);
    await reviewScore(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), score.id, { value: 1 });
    const reviewed = (await vbench2RunResults(prisma, projectId, run.id)).dimensions.find(
      (d) => d.dimension === "Material",
    )!;
    expect(reviewed.videos.find((v) => v.videoId === videoIds[2])).toMatchObject({ value: 0, humanValue: 1 });
    expect(reviewed).toMatchObject({ humanScore: 1, humanN: 1, judgeVsHumans: { n: 1, agreement: 0 } });

    // VBench's own results: Material for three videos (it found GenB's paint green) and Camera_Motion, which FrameJury does not judge.
    const results = {
      Material: [
        1,
        [0, 2, 3].map((i) => ({
          video_path: `/data/${["GenA/Material/Paint mixes-0.mp4", "", "GenB/Material/Paint mixes-0.mp4", "GenB/Material/Wax melts-0.mp4"][i]}`,
          video_results: 1,
        })),
      ],
      Camera_Motion: [
        0.5,
        [
          { video_path: "GenA/Material/Paint mixes-0.mp4", video_results: 1 },
          { video_path: "GenB/Material/Paint mixes-0.mp4", video_results: 0 },
        ],
      ],
    };
    const imported = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: new TextEncoder().encode(JSON.stringify(results)),
      fileName: "GenA_eval_results.json",
      name: "VBench's own",
      dryRun: false,
    });
    const withVbench = await vbench2RunResults(prisma, projectId, run.id, { labelSetId: imported.labelSet!.id });
    const camera = withVbench.dimensions.find((d) => d.dimension === "Camera_Motion")!;
    expect(camera).toMatchObject({ source: "vbench", score: 0.5, n: 2, vbenchScore: 0.5 });
    // Judge vs VBench on Material: (1,1), (0,1), (1,1): two of three agree.
    expect(withVbench.dimensions.find((d) => d.dimension === "Material")!.judgeVsVbench).toMatchObject({
      n: 3,
      agreement: 2 / 3,
    });
    // Controllability now has Camera_Motion 0.5 too: (0.5 + 0.5) / 7.
    expect(withVbench.categories.Controllability).toBeCloseTo(1 / 7, 12);
    expect(withVbench.total).toBeCloseTo((2 / 3 / 4 + 1 / 7) / 5, 12);
  });

  it("scores people's values with the run's own rule: answers matching the judge's give the judge's scores, -1 videos left out alike", async () => {
    const { projectId, videoIds } = await vbench2Project(prisma, owner, [
      { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[yes] green?"] }, // 1
      { model: "GenA", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[no] wax?", "[yes] melts?"] }, // -1
      { model: "GenB", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[no] green?"] }, // 0
      { model: "GenA", dimension: "Dynamic_Attribute", prompt: "Leaves turn green", auxiliaryInfo: ["[yes] green?"] }, // 1
      { model: "GenB", dimension: "Dynamic_Attribute", prompt: "Leaves turn green", auxiliaryInfo: ["[no] green?"] }, // 0
    ]);
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    );
    // A person answers every question as the judge did.
    for (const score of await prisma.score.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } }))
      await reviewScore(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), score.id, {
        value: score.value,
      });
    const agreed = await vbench2RunResults(prisma, projectId, run.id);
    for (const d of agreed.dimensions) {
      expect(d.humanScore, d.dimension).toBe(d.score);
      expect([d.humanN, d.humanScore], d.dimension).toEqual([
        d.n,
        vbench2ScoreOf(
          d.dimension,
          d.videos.map((v) => ({ value: v.humanValue, excludedReason: v.humanExcludedReason })),
        ),
      ]);
    }
    // Material: mean(1, 0) with the -1 video left out, for the judge and for people alike (a mean over all three would be 1/3).
    expect(agreed.dimensions.find((d) => d.dimension === "Material")).toMatchObject({
      score: 0.5,
      humanScore: 0.5,
      n: 2,
      humanN: 2,
      excluded: 1,
    });
    expect(agreed.humans).toEqual({ categories: agreed.categories, total: agreed.total });

    // People now find GenB's paint green: their Material score is the run's rule over their values, mean(1, 1) = 1.
    const green = await prisma.score.findFirstOrThrow({
      where: { runId: run.id, videoId: videoIds[2]!, category: "material:q2" },
    });
    await reviewScore(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), green.id, {
      value: 1,
      expectedVersion: 1,
    });
    const material = (await vbench2RunResults(prisma, projectId, run.id)).dimensions.find(
      (d) => d.dimension === "Material",
    )!;
    expect(material).toMatchObject({ score: 0.5, humanScore: 1, humanN: 2 });
    expect(material.humanScore).toBe(
      vbench2ScoreOf(
        "Material",
        material.videos.map((v) => ({ value: v.humanValue, excludedReason: v.humanExcludedReason })),
      ),
    );
  });
});

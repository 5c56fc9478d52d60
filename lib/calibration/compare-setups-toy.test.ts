import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import type { RegisteredPipeline } from "../task-modules/pipeline-types";
import { builtInCatalogue, withTasks } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import { insertEndpoint, insertFinishedRun } from "../../testkit/testing/raw-rows";
import { compareSetupsQuerySchema } from "./calibration.validation";
import { compareSetupsReport } from "./compare-setups-load";
import { WithheldError } from "../visibility/withheld";
import { projectAccess } from "../authz/permissions";

/*
 * Comparing judge setups reads which task's runs it compares from the catalogue it is given: a toy task added to the
 * built-in catalogue that gives each video a yes/no verdict is compared with no other edit, its runs' settings named by
 * its module.
 */
const toyTask: TaskDeclaration = {
  id: "toy_shine",
  label: "Toy shine judge",
  subject: "video",
  targets: [
    {
      id: "toy_shine_score",
      label: "Shine",
      definition: "How much the video shines.",
      scale: { kind: "numeric", min: 0, max: 4, step: 1 },
      level: "ordinal",
      higherIsBetter: true,
      scope: "video",
      positive: { op: ">=", threshold: 3, label: "shining" },
    },
  ],
  metrics: [
    {
      id: "toy_shines",
      label: "Shines",
      definition: "Does the video shine?",
      aggregation: "shine ≥ 3",
      reviewed: true,
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "yes" },
          { value: 0, label: "no" },
        ],
      },
      level: "nominal",
      higherIsBetter: false,
      positive: { op: "==", value: 1, label: "shining" },
    },
  ],
  verdict: { metricId: "toy_shines", rule: "Shines when the shine is at least 3." },
  groupings: [],
};

let owner: Actor;
let reviewer: Actor;
let projectId: string;
let videoIds: string[];
const runs: string[] = [];
const toy = withTasks(builtInCatalogue(), {
  module: {
    id: "toy-shine",
    pipelines: [{ id: "toy_shine", task: toyTask } as unknown as RegisteredPipeline],
    setupSettings: (settings) => ({
      aggregation: null,
      verdict: `shine ≥ ${(settings as { threshold?: number } | null)?.threshold ?? "?"}`,
    }),
  },
  declarations: { id: "toy-shine", tasks: [toyTask] },
});

beforeAll(async () => {
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 1,
    name: "Toy setups",
  }));
  // Two runs of the toy task: A says yes on the first two videos, B on the first only.
  for (const [name, threshold, verdicts] of [
    ["a", 2, [1, 1, 0]],
    ["b", 3, [1, 0, 0]],
  ] as const) {
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: `judge-${name}`,
      baseUrl: "http://127.0.0.1:1/v1",
      model: "stub-model",
      createdById: owner.userId,
    });
    const runId = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "toy_shine",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: { name: `judge-${name}`, model: "stub-model" },
    });
    await prisma.judgeRun.update({ where: { id: runId }, data: { settings: { threshold } } });
    await prisma.runMetric.createMany({
      data: videoIds.map((videoId, i) => ({ runId, videoId, metric: "toy_shines", value: verdicts[i]! })),
    });
    // Each video's graded score (the threshold sweep's): 4 where the run says yes, 1 where it says no.
    for (const [i, videoId] of videoIds.entries()) {
      const step = await prisma.stepResult.create({
        data: { runId, videoId, stepId: "shine", scopeIndex: 0, status: "done", templateId: "toy/shine" },
        select: { id: true },
      });
      await prisma.score.create({
        data: {
          runId,
          videoId,
          stepResultId: step.id,
          stepId: "shine",
          scopeIndex: 0,
          category: "toy_shine_score",
          value: verdicts[i] ? 4 : 1,
        },
      });
    }
    runs.push(runId);
  }
  // The reviewer's verdicts: yes, yes, no (run A agrees on all three, B on two).
  for (const [i, videoId] of videoIds.entries()) {
    await insertJudgment(prisma, {
      projectId,
      task: "toy_shine",
      targetType: "toy_shines",
      videoId,
      reviewerId: reviewer.userId,
      value: i < 2 ? 1 : 0,
      catalogue: toy,
    });
  }
});

describe("comparing setups of a toy task of the catalogue", () => {
  it("compares its runs against the reviewers' verdicts on its verdict metric and names their settings through its module", async () => {
    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      compareSetupsQuerySchema.parse({ runIds: runs.join(","), reference: "consensus", iterations: 100 }),
      toy,
    );
    expect(report.runs.map((r) => [r.endpoint, r.verdict, r.aggregation])).toEqual([
      ["judge-a", "shine ≥ 2", null],
      ["judge-b", "shine ≥ 3", null],
    ]);
    expect(report.differs.verdict).toBe(true);
    expect(report.comparison.videoIds).toHaveLength(3);
    expect(report.comparison.runs.map((r) => r.accuracy)).toEqual([1, 2 / 3]);
  });

  it("is withheld whole from a reviewer reviewing a labelled video blind, never compared over the other videos", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Setups blind",
        runId: runs[0]!,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: owner.userId },
    });
    const query = compareSetupsQuerySchema.parse({ runIds: runs.join(","), reference: "consensus", iterations: 100 });
    const withheld = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query,
      toy,
    ).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('hidden while you review "Setups blind" blind: 1 item left');
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
  });

  it("refuses runs of two tasks", async () => {
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "judge-other",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "stub-model",
      createdById: owner.userId,
    });
    const other = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: {},
    });
    const mixed = compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      compareSetupsQuerySchema.parse({ runIds: `${runs[0]},${other}`, reference: "consensus" }),
      toy,
    );
    await expect(mixed).rejects.toThrow(ValidationError);
    await expect(mixed).rejects.toThrow(
      `Setups are compared on runs of one task; run ${other} is a "hallucination" run, run ${runs[0]} a "toy_shine" run.`,
    );
  });
});

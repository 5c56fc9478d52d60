/**
 * Issue 38 §3: aligning a criterion of a rubric task judged per item, on real PostgreSQL with the stub LLM. The
 * labels are one per item (a label set of the criterion's target with the item's id); the alignment's runs judge the
 * labelled items' set, and judge and labels are compared item by item, as a job started from the API's input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { alignRubricJudge, type AlignmentReport } from "../alignment/align-judge";
import { executeAlignment, getAlignment, startAlignment } from "../alignment/alignment-runs";
import { labelSetStore } from "../alignment/label-store";
import { createLabelSet } from "../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { rubricMetricId, rubricTargetId } from "./rubric-declaration";
import type { RubricDefinitionInput } from "./rubric-definition";
import { importRubricItems } from "./rubric-item-sets";
import { createRubricTask } from "./rubric-tasks";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const VIDEOS = 8;
const ITEMS_PER_VIDEO = 2;
const RUBRIC: RubricDefinitionInput = {
  name: "Caption fluency",
  subject: { kind: "item", fields: [{ id: "text", label: "caption" }] },
  frames: { mode: "uniform", count: 4 },
  criteria: [{ id: "fluent", name: "Fluent", type: "boolean", definition: "The caption reads as natural English." }],
  prompt: "The images are {{frames}}\nCaption: {{item.text}}\n\nRate the caption on:\n{{criteria}}",
};
const labelOf = (video: number, item: number) => ((video + item) % 3 === 0 ? 1 : 0);

let stub: StubServer;
let owner: Actor;
let projectId: string;
let task: { id: string; key: number; pipeline: string };
let labelSetId: string;
let endpointId: string;
let itemCount: number;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ({ projectId } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 1,
    uniformFrames: 4,
    name: "Item rubric alignment",
  }));
  const paths = (
    await prisma.video.findMany({
      where: { projectId },
      orderBy: { relativePath: "asc" },
      select: { relativePath: true },
    })
  ).map((v) => v.relativePath);
  task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: RUBRIC,
  });
  const lines = paths.flatMap((path, v) =>
    Array.from({ length: ITEMS_PER_VIDEO }, (_, j) =>
      JSON.stringify({ id: `c${v}-${j}`, video: path, text: `A ball rolls down ramp ${v}, take ${j}.` }),
    ),
  );
  const stored = await importRubricItems(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    task.id,
    { fileName: "captions.jsonl", bytes: new TextEncoder().encode(lines.join("\n")) },
    { name: "Captions" },
  );
  const items = await prisma.item.findMany({
    where: { setId: stored.set.id! },
    select: { id: true, videoId: true, externalId: true },
  });
  itemCount = items.length;
  const target = rubricTargetId(task.key, "fluent");
  const set = await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "Fluency", format: "generic", fileName: "fluency.csv", sha256: "7".repeat(64), citation: "" },
    items.map((item) => {
      const [v, j] = item.externalId.slice(1).split("-").map(Number);
      return {
        target: {
          task: task.pipeline,
          targetType: "score",
          target,
          videoId: item.videoId,
          itemId: item.id,
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: labelOf(v!, j!),
        annotator: null,
      };
    }),
  );
  labelSetId = set.id;
  endpointId = (await createStubEndpoint(prisma, owner, projectId, stub.baseURL)).id;
}, 120_000);
afterAll(async () => stub?.close());

describe("aligning a rubric criterion judged per item", () => {
  it("compares judge and labels item by item, its runs judging the labelled items' set", async () => {
    const labels = labelSetStore(
      prisma,
      { projectId, labelSetId, task: task.pipeline, target: rubricTargetId(task.key, "fluent"), scope: "item" },
      (v) => v === 1,
    );
    expect((await labels.labels(await labels.labelledVideoIds())).size).toBe(itemCount);
    const report = await alignRubricJudge(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines, labels },
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        rubricTaskId: task.id,
        criterionId: "fluent",
        judgeEndpointId: endpointId,
        optimizerEndpointId: endpointId,
        budget: { maxCalls: 1000, maxCostUsd: 10 },
        seed: 3,
        rewrites: 1,
        fewShot: 2,
      },
    );
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    // Every item of a train video is compared, and each with the judge's own value of it.
    expect(baseline.train.n).toBe(report.split.train.length * ITEMS_PER_VIDEO);
    expect(report.heldOut!.baseline.n).toBe(report.split.heldOut.length * ITEMS_PER_VIDEO);
    const metrics = await prisma.runMetric.findMany({
      where: { runId: baseline.trainRunId, metric: rubricMetricId(task.key, "fluent") },
      select: { itemId: true },
    });
    expect(metrics).toHaveLength(report.split.train.length * ITEMS_PER_VIDEO);
    expect(metrics.every((m) => m.itemId !== "")).toBe(true);
    expect(report.skipped).toContain("few-shot: not offered yet for a rubric judged per item");
  }, 300_000);

  it("runs as a job from the API's input (no longer refused for an item subject)", async () => {
    const started = await startAlignment(
      prisma,
      { enqueue: async () => {} },
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      {
        rubricTaskId: task.id,
        criterionId: "fluent",
        labels: { kind: "labelSet", id: labelSetId },
        judgeEndpointId: endpointId,
        optimizerEndpointId: endpointId,
        maxCalls: 1000,
        maxCostUsd: 10,
        heldOutShare: 0.4,
        seed: 1,
        rewrites: 0,
        fewShot: 0,
      },
      builtInCatalogue().pipelines,
    );
    await executeAlignment(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      started.id,
    );
    const done = await getAlignment(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe("done");
    const report = done.report as AlignmentReport;
    expect(report.candidates[0]!.train.n).toBe(report.split.train.length * ITEMS_PER_VIDEO);
    const trainRun = await prisma.judgeRun.findUniqueOrThrow({
      where: { id: report.candidates[0]!.trainRunId },
      select: { items: { select: { itemId: true } } },
    });
    expect(trainRun.items).toHaveLength(report.split.train.length * ITEMS_PER_VIDEO);
  }, 300_000);
});

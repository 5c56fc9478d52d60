/**
 * "What to label next" for a rubric task's run: a rubric declares no verdict of its own, so the plan is made on a
 * criterion, read as yes/no by its positive rule (a per-video criterion) or its presence rule (a per-cluster one),
 * against the humans' labels of the same criterion (here a label set imported with the generic importer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { createQueue } from "../queues/create-queue";
import { importGenericLabels } from "../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { rubricTargetId } from "../rubrics/rubric-declaration";
import type { RubricDefinitionInput } from "../rubrics/rubric-definition";
import { createRubricTask } from "../rubrics/rubric-tasks";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { labelNextChoicesOfRun, labelNextPlan } from "./label-next";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { accessOfRun } from "../../testkit/testing/record-access";

const LOOK: RubricDefinitionInput = {
  name: "Look (label next)",
  frames: { mode: "uniform", count: 2 },
  criteria: [
    {
      id: "quality",
      name: "Quality",
      type: "numeric",
      min: 1,
      max: 5,
      step: 1,
      positiveAtLeast: 4,
      positiveLabel: "good",
      definition: "1 unwatchable … 5 flawless.",
    },
    { id: "watermark", name: "Watermark", type: "boolean", definition: "A watermark is visible." },
  ],
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
};
const DEFECTS: RubricDefinitionInput = {
  name: "Defects (label next)",
  frames: { mode: "each_cluster" },
  criteria: [
    {
      id: "physics",
      name: "Physics",
      type: "numeric",
      min: 0,
      max: 10,
      step: 1,
      higherIsBetter: false,
      aggregation: "max",
      presence: { threshold: 4, absentValue: 0 },
      definition: "Physics broken, 0–10.",
    },
    {
      id: "blur",
      name: "Blur",
      type: "numeric",
      min: 0,
      max: 10,
      step: 1,
      higherIsBetter: false,
      definition: "Blur, 0–10.",
    },
  ],
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
};
const VIDEOS = 8;
/** The lab's labels of the first four videos (in videoIds order). */
const LAB_QUALITY = [5, 1, 4, 2];
const LAB_PRESENT = [1, 0, 0, 1];

let stub: StubServer;
let owner: Actor;
let projectId: string;
let videoIds: string[];
let look: { pipeline: string; key: number; runId: string };
let defects: { pipeline: string; key: number; runId: string };

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 2,
    uniformFrames: 2,
    name: "Label next, rubric",
  }));
  videoIds.sort();
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  const runOf = async (definition: RubricDefinitionInput) => {
    const created = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition,
    });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: created.pipeline, endpointId: endpoint.id },
    );
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).status).toBe("done");
    return { pipeline: created.pipeline, key: created.key, runId: run.id };
  };
  look = await runOf(LOOK);
  defects = await runOf(DEFECTS);
  const videos = await prisma.video.findMany({
    where: { id: { in: videoIds } },
    select: { id: true, relativePath: true },
  });
  const pathOf = new Map(videos.map((v) => [v.id, v.relativePath]));
  const rows = ["video,annotator,target,value"];
  LAB_QUALITY.forEach((value, i) =>
    rows.push(`"${pathOf.get(videoIds[i]!)}",lab,${rubricTargetId(look.key, "quality")},${value}`),
  );
  LAB_PRESENT.forEach((value, i) =>
    rows.push(`"${pathOf.get(videoIds[i]!)}",lab,${rubricTargetId(defects.key, "physics")},${value}`),
  );
  const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
    file: new TextEncoder().encode(rows.join("\n") + "\n"),
    fileName: "lab.csv",
    name: "Lab",
    dryRun: false,
  });
  expect(imported.plan.issues).toEqual([]);
});
afterAll(async () => stub?.close());

describe("what to label next for a rubric task's run, on a criterion", () => {
  it("plans a per-video criterion by its positive rule against the humans' labels, proposing only unlabelled videos", async () => {
    const quality = rubricTargetId(look.key, "quality");
    const judge = new Map(
      (await prisma.score.findMany({ where: { runId: look.runId, category: quality } })).map((s) => [
        s.videoId,
        s.value,
      ]),
    );
    expect(judge.size).toBe(VIDEOS);
    const plan = await labelNextPlan(prisma, owner, projectId, look.runId, {
      budget: "3",
      strata: "2",
      criterion: quality,
    });
    expect(plan).toMatchObject({
      eligible: VIDEOS,
      excluded: 0,
      criterion: quality,
      scoreMetric: { id: quality, label: "Quality" },
      verdictMetric: { id: quality, label: "Quality good" },
    });
    // By hand: "good" is 4 or more, for the judge and for the lab.
    const agreeing = LAB_QUALITY.filter((value, i) => judge.get(videoIds[i]!)! >= 4 === value >= 4).length;
    expect(plan.strata.reduce((n, s) => n + s.labelled, 0)).toBe(LAB_QUALITY.length);
    expect(plan.strata.reduce((n, s) => n + s.agreeing, 0)).toBe(agreeing);
    expect(plan.current.estimate).toBeGreaterThan(0);
    expect(plan.videos).toHaveLength(3);
    const labelled = new Set(videoIds.slice(0, LAB_QUALITY.length));
    for (const video of plan.videos) expect(labelled.has(video.id)).toBe(false);
    // The ranked list is reproducible.
    expect(
      (await labelNextPlan(prisma, owner, projectId, look.runId, { budget: 3, strata: 2, criterion: quality })).videos,
    ).toEqual(plan.videos);
    // A criterion nobody labelled: every video is still eligible, none labelled.
    const watermark = await labelNextPlan(prisma, owner, projectId, look.runId, {
      budget: 2,
      criterion: rubricTargetId(look.key, "watermark"),
    });
    expect(watermark).toMatchObject({ eligible: VIDEOS, verdictMetric: { label: "Watermark yes" } });
    expect(watermark.strata.reduce((n, s) => n + s.labelled, 0)).toBe(0);
    // The proposal becomes a queue of that criterion's scores, of exactly those videos in that order.
    expect(plan.queue).toEqual({ scope: "scores", categories: [quality], mode: "full" });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Label next: quality",
      runId: look.runId,
      ...plan.queue,
      videoIds: plan.videos.map((v) => v.id),
      chosenBy: "what to label next",
    });
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId: queue.id }, orderBy: { position: "asc" } });
    expect(items.map((i) => i.videoId)).toEqual(plan.videos.map((v) => v.id));
    expect(queue).toMatchObject({ itemCount: 3, scope: "scores", categories: [quality], mode: "full" });
  });

  it("plans a per-cluster criterion by its presence rule (highest cluster score ≥ 4), the default when it is the only one", async () => {
    const physics = rubricTargetId(defects.key, "physics");
    const highest = new Map<string, number>();
    for (const s of await prisma.score.findMany({ where: { runId: defects.runId, category: physics } }))
      highest.set(s.videoId, Math.max(highest.get(s.videoId) ?? -Infinity, s.value));
    const plan = await labelNextPlan(prisma, owner, projectId, defects.runId, { budget: 2 });
    expect(plan).toMatchObject({
      eligible: VIDEOS,
      criterion: physics,
      verdictMetric: { id: physics, label: "Physics present" },
      scoreMetric: { label: "highest Physics" },
    });
    const agreeing = LAB_PRESENT.filter((value, i) => (highest.get(videoIds[i]!)! >= 4 ? 1 : 0) === value).length;
    expect(plan.strata.reduce((n, s) => n + s.agreeing, 0)).toBe(agreeing);
    expect(plan.strata.reduce((n, s) => n + s.labelled, 0)).toBe(LAB_PRESENT.length);
    expect(Math.min(...plan.strata.map((s) => s.scoreMin))).toBe(Math.min(...highest.values()));
    expect(plan.queue).toEqual({ scope: "scores", categories: [physics], mode: "presence" });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Label next: physics",
      runId: defects.runId,
      ...plan.queue,
      videoIds: plan.videos.map((v) => v.id),
    });
    expect(queue).toMatchObject({ itemCount: 2, mode: "presence" });
  });

  it("takes only a criterion the task declares per video (or with a presence rule), and names the choices", async () => {
    await expect(labelNextPlan(prisma, owner, projectId, look.runId, { budget: 2 })).rejects.toThrow(
      new RegExp(
        `name the criterion to plan on \\(criterion=\\), one of ${rubricTargetId(look.key, "quality")} \\(Quality\\)`,
      ),
    );
    await expect(
      labelNextPlan(prisma, owner, projectId, defects.runId, { criterion: rubricTargetId(defects.key, "blur") }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      labelNextPlan(prisma, owner, projectId, look.runId, { criterion: rubricTargetId(defects.key, "physics") }),
    ).rejects.toThrow(/has no criterion/);
    await expect(labelNextPlan(prisma, owner, projectId, look.runId, { criterion: "no such; drop" })).rejects.toThrow(
      /Not a criterion id/,
    );
    expect(await labelNextChoicesOfRun(prisma, projectId, look.runId)).toEqual({
      verdict: false,
      criteria: [
        { id: rubricTargetId(look.key, "quality"), label: "Quality" },
        { id: rubricTargetId(look.key, "watermark"), label: "Watermark" },
      ],
    });
    expect(await labelNextChoicesOfRun(prisma, "another-project", look.runId)).toEqual({
      verdict: false,
      criteria: [],
    });
  });
});

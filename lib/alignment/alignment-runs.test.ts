/**
 * The alignment as a job: an owner starts it (a row and a queued job), the job runs it with progress, saves the
 * chosen judge as a new rubric version linked to the report; a reviewer may read but not start or cancel; a
 * cancelled alignment stops.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createLabelSet } from "../label-sets/label-sets";
import { SIM_FIX_SENTENCE } from "../../testkit/llm-stub/alignment-stub-rule";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { addMember } from "../projects/projects";
import { RUBRIC_STEP } from "../rubrics/rubric-calls";
import { rubricTargetId } from "../rubrics/rubric-declaration";
import type { RubricDefinition } from "../rubrics/rubric-definition";
import { createRubricTask, getRubricTask, listRubricTasks } from "../rubrics/rubric-tasks";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { alignmentPageData } from "./alignment-page";
import { cancelAlignment, executeAlignment, getAlignment, startAlignment } from "./alignment-runs";
import { startAlignmentSchema, type StartAlignmentInput } from "./alignment.validation";
import { judgmentKey } from "../reviews/judgment-key";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
let projectId: string;
let goldTarget: { task: string; target: string; videoIds: string[] };
/** A rubric task's alignment request. */
let body: Extract<StartAlignmentInput, { rubricTaskId: string }>;
const queued: string[] = [];
const queue = { enqueue: async (id: string) => void queued.push(id) };
const jobDeps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines });

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
  const made = await projectWithFramedVideos(prisma, owner, { videoCount: 30, keyFrames: 1, name: "Alignment job" });
  projectId = made.projectId;
  const videoIds = made.videoIds.sort();
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: reviewer.email,
    role: "reviewer",
  });
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({ where: { id }, data: { prompt: `Clip ${i} [sim-truth=${1 + (i % 5)}]` } });
  const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: {
      name: "Defects",
      frames: { mode: "key_frames" },
      criteria: [
        {
          id: "defects",
          name: "Defects",
          type: "numeric",
          min: 1,
          max: 5,
          step: 1,
          positiveAtLeast: 4,
          definition: "How defective, 1 none to 5 severe.",
        },
      ],
      prompt: "{{prompt}} {{frames}}\n{{criteria}}",
    },
  });
  const target = rubricTargetId(task.key, "defects");
  const labelSet = await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "Truth", format: "generic", fileName: "t.csv", sha256: "0".repeat(64), citation: "" },
    videoIds.map((videoId, i) => ({
      target: {
        task: task.pipeline,
        targetType: "score",
        target,
        videoId,
        itemId: "",
        stepId: RUBRIC_STEP,
        scopeIndex: 0,
        frameSetId: "",
      },
      value: 1 + (i % 5),
      annotator: null,
    })),
  );
  goldTarget = { task: task.pipeline, target, videoIds };
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
  body = <typeof body>startAlignmentSchema.parse({
    rubricTaskId: task.id,
    criterionId: "defects",
    labels: { kind: "labelSet", id: labelSet.id },
    judgeEndpointId: endpoint.id,
    optimizerEndpointId: endpoint.id,
    maxCalls: 500,
    maxCostUsd: 1,
  });
}, 120_000);
afterAll(async () => stub?.close());

describe("an alignment job", () => {
  it("runs with progress, saves the chosen judge as a rubric version linked to its report, and the page lists every candidate", async () => {
    const started = await startAlignment(
      prisma,
      queue,
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      body,
      builtInCatalogue().pipelines,
    );
    expect(queued).toContain(started.id);
    await executeAlignment(jobDeps(), started.id);
    const done = await getAlignment(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id);
    expect(done.status).toBe("done");
    expect(done.report!.candidates.length).toBeGreaterThan(1);
    expect(done.savedVersion).toBe(2);
    const saved = await prisma.rubricVersion.findUniqueOrThrow({ where: { id: done.rubricVersionId! } });
    expect((saved.definition as unknown as RubricDefinition).criteria[0]!.definition).toContain(SIM_FIX_SENTENCE);
    const page = await alignmentPageData(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "project.view"),
      started.id,
    );
    expect(page.canManage).toBe(false);
    expect(page.choices).toBeNull();
    expect(page.selected!.report!.candidates.map((c) => c.id)).toEqual(done.report!.candidates.map((c) => c.id));
    // The split itself, by video name: every held-out video under held-out, with its imported path.
    const split = page.selected!.splitVideos!;
    expect(split.heldOut.map((v) => v.id).sort()).toEqual([...done.report!.split.heldOut].sort());
    expect(split.train.map((v) => v.id).sort()).toEqual([...done.report!.split.train].sort());
    const paths = new Map(
      (await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } })).map((v) => [
        v.id,
        v.relativePath,
      ]),
    );
    for (const v of [...split.train, ...split.heldOut]) expect(v.name).toBe(paths.get(v.id));
    // The saved version links back to this report: in the task list's versions and in the task's own versions.
    expect(page.selected!.rubricTaskId).toBe(body.rubricTaskId);
    const listed = (
      await listRubricTasks(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"))
    ).find((t) => t.id === body.rubricTaskId)!;
    expect(listed.versions.map((v) => [v.number, v.alignmentId])).toEqual([
      [2, started.id],
      [1, null],
    ]);
    const task = await getRubricTask(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "project.view"),
      body.rubricTaskId,
    );
    expect(task.versions.find((v) => v.number === 2)!.alignmentId).toBe(started.id);
    expect(task.versions.find((v) => v.number === 1)!.alignmentId).toBeNull();
  }, 120_000);

  it("a reviewer may not start or cancel; a cancelled alignment does not run", async () => {
    await expect(projectAccess(prisma, reviewer, projectId, "rubrics.manage")).rejects.toMatchObject({ status: 403 });
    const started = await startAlignment(
      prisma,
      queue,
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      body,
      builtInCatalogue().pipelines,
    );
    await expect(projectAccess(prisma, reviewer, projectId, "rubrics.manage")).rejects.toMatchObject({ status: 403 });
    await cancelAlignment(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), started.id);
    await executeAlignment(jobDeps(), started.id);
    const row = await getAlignment(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id);
    expect(row.status).toBe("cancelled");
    expect(row.report).toBeNull();
    expect(await prisma.judgeRun.count({ where: { projectId, createdAt: { gte: row.createdAt } } })).toBe(0);
  });

  it("aligns to the project's gold values: refused while there are none, then runs against them", async () => {
    const gold = { ...body, labels: { kind: "gold" as const } };
    await expect(
      startAlignment(
        prisma,
        queue,
        await projectAccess(prisma, owner, projectId, "rubrics.manage"),
        gold,
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/no gold values of this criterion/);
    // Gold on 20 of the 30 videos: the split covers exactly those.
    const goldIds = goldTarget.videoIds.slice(0, 20);
    for (const [i, videoId] of goldIds.entries()) {
      const at = {
        task: goldTarget.task,
        targetType: "score",
        target: goldTarget.target,
        videoId,
        itemId: "",
        stepId: RUBRIC_STEP,
        scopeIndex: 0,
        frameSetId: "",
      };
      await prisma.goldJudgment.create({
        data: { projectId, ...at, targetKey: judgmentKey(at), value: 1 + (i % 5), adjudicatorId: owner.userId },
      });
    }
    const started = await startAlignment(
      prisma,
      queue,
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      gold,
      builtInCatalogue().pipelines,
    );
    await executeAlignment(jobDeps(), started.id);
    const done = await getAlignment(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id);
    expect(done.status).toBe("done");
    expect([...done.report!.split.train, ...done.report!.split.heldOut].sort()).toEqual([...goldIds].sort());
    const page = await alignmentPageData(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      started.id,
    );
    expect(page.selected!.labels).toBe("the project's gold values (adjudicated)");
  }, 120_000);

  it("refuses a label set or endpoint of another project, and a rubric over items without labels of its items", async () => {
    await expect(
      startAlignment(
        prisma,
        queue,
        await projectAccess(prisma, owner, projectId, "rubrics.manage"),
        { ...body, labels: { kind: "labelSet", id: "nope" } },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/No such label set/);
    const items = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: {
        name: "Caption defects",
        subject: { kind: "item", fields: ["text"] },
        frames: { mode: "key_frames" },
        criteria: [
          {
            id: "defects",
            name: "Defects",
            type: "numeric",
            min: 1,
            max: 5,
            step: 1,
            definition: "How defective, 1 none to 5 severe.",
          },
        ],
        prompt: "{{item.text}} {{frames}}\n{{criteria}}",
      },
    });
    // A rubric over items is aligned per item (lib/rubrics/rubric-item-alignment.test.ts): this label set labels none of its items.
    await expect(
      startAlignment(
        prisma,
        queue,
        await projectAccess(prisma, owner, projectId, "rubrics.manage"),
        { ...body, rubricTaskId: items.id },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/too few labelled videos to align \(0\)/);
    await expect(
      startAlignment(
        prisma,
        queue,
        await projectAccess(prisma, owner, projectId, "rubrics.manage"),
        { ...body, optimizerEndpointId: "nope" },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/No such endpoint/);
  });
});

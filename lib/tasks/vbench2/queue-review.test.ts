/**
 * A review queue over a VBench-2.0 run asks each of the video's questions in the judge's words, about the frames the
 * judge was asked with, and refuses a verdict queue (VBench-2.0 has no per-video verdict: a queue of it would ask
 * nothing). Real PostgreSQL, the stub LLM (a test tool) answering by the "[yes]"/"[no]" written into the questions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ValidationError } from "@/lib/errors";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { createQueue } from "@/lib/queues/create-queue";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { nextItem } from "@/lib/queues/next-item";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { stubEndpoint, vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
let projectId: string;
let runId: string;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ({ projectId } = await vbench2Project(prisma, owner, [
    {
      model: "GenA",
      dimension: "Material",
      prompt: "Paint mixes",
      auxiliaryInfo: ["[yes] Do the paints mix?", "[no] Is it green?"],
    },
    {
      model: "GenA",
      dimension: "Dynamic_Spatial_Relationship",
      prompt: "A cat jumps onto a box",
      auxiliaryInfo: ["[yes] Is the cat beside the box?", "[yes] Is the cat on the box?"],
    },
  ]));
  const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
  const run = await createRun(
    { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
  );
  runId = run.id;
});
afterAll(() => stub.close());

describe("reviewing VBench-2.0 answers in a queue", () => {
  it("asks each question in the judge's words, numbered, about the frames it was asked with", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Questions",
      filter: {},
      runId,
      scope: "scores",
      blind: true,
    });
    const items = [];
    for (let taken = 0; taken < 2; taken++) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id);
      items.push(
        await getQueueItem(prisma, await queueAccess(prisma, owner, queue.id, "scores.review"), queue.id, itemId!),
      );
      await prisma.reviewQueueAssignment.updateMany({
        where: { itemId: itemId!, reviewerId: owner.userId },
        data: { status: "done" },
      });
    }
    const material = items.find((item) => item.video.dimensions.includes("Material"))!;
    const spatial = items.find((item) => item.video.dimensions.includes("Dynamic_Spatial_Relationship"))!;
    expect(material.targets.map((t) => [t.category, t.label, t.question?.text])).toEqual([
      ["material:q1", "Material question 1: [yes] Do the paints mix?", "[yes] Do the paints mix?"],
      ["material:q2", "Material question 2: [no] Is it green?", "[no] Is it green?"],
    ]);
    // Material's questions are asked with VBench's 64 frames: every frame of the run's frame set.
    const frameIndexes = material.video.frames.map((f) => f.index);
    expect(frameIndexes).toHaveLength(64);
    expect(material.targets[0]!.frameIndexes).toEqual(frameIndexes);
    expect(material.targets[0]!.question).toEqual({ text: "[yes] Do the paints mix?", framesNote: null });

    const frames = spatial.video.frames.map((f) => f.index);
    // Question 1 is asked of the first half of the frames, question 2 of the last frame alone.
    expect(spatial.targets.map((t) => t.question?.text)).toEqual([
      "[yes] Is the cat beside the box?",
      "[yes] Is the cat on the box?",
    ]);
    expect(spatial.targets[0]!.frameIndexes).toEqual(frames.slice(0, 32));
    expect(spatial.targets[1]!.frameIndexes).toEqual([frames.at(-1)]);
  });

  it("refuses a verdict queue of a VBench-2.0 run with a 400 that says to choose its questions, and creates nothing", async () => {
    const before = await prisma.reviewQueue.count({ where: { projectId } });
    const refused = createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Verdicts",
      filter: {},
      runId,
      scope: "verdict",
    });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(/no per-video verdict.*scores/);
    expect(await prisma.reviewQueue.count({ where: { projectId } })).toBe(before);
  });
});

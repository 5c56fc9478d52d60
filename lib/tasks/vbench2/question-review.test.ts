/**
 * People check the judge's yes/no answers to VBench-2.0's questions: a review queue of one dimension's questions,
 * blind, hands out each video's questions of that dimension only with the judge's answers withheld; the reviewer's
 * answers are stored as judgments of the questions, and the results recompute the video's value from them.
 * Real PostgreSQL, the stub LLM (a test tool) answering by the "[yes]"/"[no]" written into the questions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { createQueue } from "@/lib/queues/create-queue";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { nextItem } from "@/lib/queues/next-item";
import { submitItem } from "@/lib/queues/submit-item";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { vbench2RunResults } from "./results";
import { WithheldError } from "@/lib/visibility/withheld";
import { visibleVbench2Results } from "./visible-results";
import { stubEndpoint, vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

describe("checking the judge's VBench-2.0 answers", () => {
  it("a blind queue of one dimension's questions; the reviewer's answers recompute the video's value beside the judge's", async () => {
    const { projectId, videoIds } = await vbench2Project(prisma, owner, [
      {
        model: "GenA",
        dimension: "Material",
        prompt: "Paint mixes",
        auxiliaryInfo: ["[yes] Do the paints mix?", "[no] Is it green?"],
      },
      {
        model: "GenA",
        dimension: "Dynamic_Attribute",
        prompt: "Leaves turn green",
        auxiliaryInfo: ["[yes] red first?", "[yes] green last?"],
      },
    ]);
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    );
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });

    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Material questions",
      filter: {},
      runId: run.id,
      scope: "scores",
      categories: ["material_answer"],
      blind: true,
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, reviewer, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.video.id).toBe(videoIds[0]);
    // Only the Material questions, and no judge answer while the reviewer has not submitted.
    expect(item.targets.map((t) => t.category)).toEqual(["material:q1", "material:q2"]);
    expect(JSON.stringify(item.targets)).not.toMatch(/"judge(Value)?":\s*[01]\b/);
    // The results are withheld whole from the reviewer while a video of the run is blind to them.
    await expect(visibleVbench2Results(prisma, reviewer, projectId, run.id)).rejects.toBeInstanceOf(WithheldError);

    // The reviewer finds the paint green: question 2 yes where the judge said no.
    await submitItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: item.targets.map((t) => ({ target: t.key, value: 1 })),
    });
    const results = await vbench2RunResults(prisma, projectId, run.id);
    const reviewed = results.dimensions.find((d) => d.dimension === "Material")!;
    expect(reviewed.videos[0]).toMatchObject({
      value: 0,
      humanValue: 1,
      questions: [
        { yes: true, human: true },
        { yes: false, human: true },
      ],
    });
    expect(reviewed).toMatchObject({ score: 0, humanScore: 1, judgeVsHumans: { n: 2, agreement: 0.5 } });
    // The other dimension was not in the queue: no person's value there.
    expect(results.dimensions.find((d) => d.dimension === "Dynamic_Attribute")).toMatchObject({
      score: 1,
      humanN: 0,
      humanScore: null,
    });
  });
});

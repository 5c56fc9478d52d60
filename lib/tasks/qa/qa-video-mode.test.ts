/**
 * QA in the `video-frames` input mode against the stub LLM: each question's answer is asked with the run's frames as
 * one video part; the text-only baseline and the judge's calls carry no frames at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { importQuestionSet } from "@/lib/tasks/qa/question-set-import";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { questionSetBytes, smallQuestionSet } from "@/testkit/tasks/qa/qa-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

async function endpoint(projectId: string, name: string, model: string) {
  return (
    await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: 0.01,
      pricePer1kOutput: 0.03,
    })
  ).id;
}

describe("QA in video-frames mode", () => {
  it("asks each question with the run's 8 frames as one video part, and the baseline and the judge with none", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      uniformFrames: 8,
    });
    await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
    const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "questions.jsonl",
      bytes: questionSetBytes(smallQuestionSet()),
    });
    const suffix = projectId.slice(-8);
    const model = await endpoint(projectId, "Model (simulated)", `stub-vision-${suffix}`);
    const judge = await endpoint(projectId, "Judge (simulated)", `stub-judge-${suffix}`);
    stub.reset();
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "qa",
        endpointId: model,
        questionSetId: set.set.id,
        inputMode: "video-frames",
        settings: { frames: 8, judgeEndpointId: judge, textOnlyBaseline: true },
      }),
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      steps: { failed: 0 },
    });
    const withFrames = stub.requests.filter((r) => r.videos.length > 0 || r.imageCount > 0);
    // The four questions, each answered once with its video's frames: as a video of 8 JPEGs, never as images.
    expect(withFrames).toHaveLength(smallQuestionSet().length);
    expect(withFrames.map((r) => r.videos)).toEqual(
      withFrames.map(() => [{ form: "jpeg-frames", frames: 8, durationS: null, totalFrames: 8 }]),
    );
    const withoutFrames = stub.requests.filter((r) => r.videos.length === 0 && r.imageCount === 0);
    // The text-only baseline (one a question) and the judge's calls send text alone.
    expect(withoutFrames.length).toBeGreaterThanOrEqual(smallQuestionSet().length);
  });
});

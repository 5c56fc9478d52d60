/**
 * Issue 25: `npm run demo` creates the three example rubric tasks in the demo project and runs each through the
 * app's API. The running app is played here by a request handler that parses the run request as the runs
 * route does and judges it in-process with the stub LLM, so the demo's rubric runs end with scores.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../lib/auth/actor";
import type { SeedingRequest } from "./seeding-client";
import { prisma } from "../../lib/db/prisma";
import { createEndpoint } from "../../lib/judge/endpoints/endpoints";
import { createRunSchema } from "../../lib/judge/runs/run-input.validation";
import { createRun, getRunStatus } from "../../lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "../llm-stub/stub-server";
import { makeUser } from "../testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../testing/judge-deps";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { exampleRubricFiles, rubricLinks, seedDemoRubrics } from "./demo-rubrics";
import { rubricPipelineId } from "../../lib/rubrics/rubric-declaration";
import { catalogFor } from "../../lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";
import { accessOfRun } from "../testing/record-access";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser({ isAdmin: true });
});
afterAll(async () => stub?.close());

describe("the demo's rubric tasks", () => {
  it("are the three example files, created in the demo project, each with a run judged by the stub", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 2,
      uniformFrames: 8,
      name: "Demo rubrics",
    });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "Stub LLM (simulated)",
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
    const requests: string[] = [];
    const api: SeedingRequest = async (route, init = {}) => {
      requests.push(`POST ${route.replace(projectId, ":id")}`);
      // The project's catalogue, as the app's route resolves it: the rubric tasks the demo just created are in it.
      const catalogue = await catalogFor(prisma, projectId);
      const body = createRunSchema(catalogue).parse(init.json);
      return createRun(
        { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: catalogue.pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        body,
      );
    };
    const logged: string[] = [];
    const links = await seedDemoRubrics({
      prisma,
      actor: owner,
      projectId,
      endpointId: endpoint.id,
      api,
      log: (line) => logged.push(line),
      registryAgeMs: 0,
    });

    const tasks = await prisma.rubricTask.findMany({
      where: { projectId },
      orderBy: { key: "asc" },
      select: { key: true, name: true },
    });
    expect(exampleRubricFiles().map((f) => f.fileName)).toEqual([
      "on-screen-text.yaml",
      "physical-plausibility.yaml",
      "prompt-adherence.yaml",
    ]);
    expect(tasks.map((t) => t.name)).toEqual(["On-screen text artefacts", "Physical plausibility", "Prompt adherence"]);
    expect(requests).toEqual([
      "POST /api/v1/projects/:id/runs",
      "POST /api/v1/projects/:id/runs",
      "POST /api/v1/projects/:id/runs",
    ]);
    for (const task of tasks) {
      const run = await prisma.judgeRun.findFirstOrThrow({
        where: { projectId, pipeline: rubricPipelineId(task.key) },
      });
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).status).toBe("done");
      const scored = await prisma.score.groupBy({ by: ["videoId"], where: { runId: run.id } });
      expect(scored.map((s) => s.videoId).sort()).toEqual([...videoIds].sort());
    }
    expect(logged.filter((line) => line.startsWith("created the rubric task"))).toHaveLength(3);
    const adherence = tasks.find((t) => t.name === "Prompt adherence")!;
    const adherenceRun = await prisma.judgeRun.findFirstOrThrow({
      where: { projectId, pipeline: rubricPipelineId(adherence.key) },
      select: { id: true },
    });
    expect(links).toEqual([
      {
        label: "a rubric task's run (example rubrics, simulated)",
        path: `/projects/${projectId}/videos?runId=${adherenceRun.id}`,
      },
    ]);
    // A later start of the demo prints the same page.
    expect(await rubricLinks({ prisma, projectId })).toEqual(links);
  });
});

/**
 * The demo's construction project is meant to show every part of the funnel: its step annotations carry the
 * stub's marker words in steps that questions name. Run here with the stub, the filters remove questions and
 * some question is never transformed (a demo whose funnel keeps everything would show nothing).
 */
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { loadCandidateViews } from "@/lib/tasks/construction/candidate-views";
import { createCandidatesFromRun } from "@/lib/tasks/construction/candidates";
import { filterFunnel } from "@/lib/tasks/construction/filter-funnel";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { importStepAnnotations } from "@/lib/tasks/construction/step-annotation-sets";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { demoStepAnnotations } from "./demo-seed";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
const inlineQueue = inlineJudgeQueue(testJudgeDeps());

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

it(
  "the demo's annotations make a funnel in which the blind, hallucination and unspecific filters remove questions and some question never transforms",
  { timeout: 180_000 },
  async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1 });
    const names = [0, 1, 2].map((v) => `A ball rolls down a ramp number ${v}-0.mp4`) as [string, string, string];
    const set = await importStepAnnotations(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { fileName: "demo-steps.jsonl", bytes: new TextEncoder().encode(demoStepAnnotations(names)) },
      {},
    );
    const endpointId = (
      await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "Stub",
        baseUrl: stub.baseURL,
        model: `stub-demo-${projectId.slice(-8)}`,
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 8,
        requestsPerMinute: null,
        timeoutSeconds: 60,
        structuredOutput: true,
        pricePer1kInput: null,
        pricePer1kOutput: null,
      })
    ).id;
    const start = async (input: Record<string, unknown>) =>
      createRun(
        { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(builtInCatalogue()).parse(input),
      );
    const generated = await start({ pipeline: "qa_generate", endpointId, clipSetId: set.set.id });
    const { setId } = await createCandidatesFromRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      generated.id,
    );
    await start({ pipeline: "qa_construct", endpointId, candidateSetId: setId });

    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      setId,
    );
    expect(views.length).toBeGreaterThan(10);
    const stages = Object.fromEntries(filterFunnel(views).map((s) => [s.id, s]));
    expect(stages.blind!.removed).toBeGreaterThan(0);
    expect(stages.hallucination!.removed).toBeGreaterThan(0);
    expect(stages.unspecific!.removed).toBeGreaterThan(0);
    expect(views.filter((v) => v.transform?.state === "could_not_transform").length).toBeGreaterThan(0);
    expect(views.filter((v) => v.transform?.state === "transformed").length).toBeGreaterThan(0);
    expect(path.basename(views[0]!.payload.video)).toMatch(/^A ball rolls down a ramp number \d-0\.mp4$/);
  },
);

/**
 * The vbench2 task end to end on PostgreSQL with the stub LLM (a test tool) answering yes/no by rule: "[yes]" and
 * "[no]" written into the auxiliary_info questions decide the stub's answers (lib/tasks/vbench2/stub-rules.ts), and
 * queued answers stand in for the VLM where a question is VBench's own. Every number below is worked out by hand
 * from VBench-2.0's code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createEndpoint } from "@/lib/judge/endpoints";
import { createRunSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { createRun, getRunStatus } from "@/lib/judge/runs";
import { startStubLlm, type StubServer } from "@/lib/llm-stub/stub-server";
import { makeUser } from "@/lib/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/lib/testing/judge-deps";
import { vbench2Project, type Vbench2VideoSpec } from "./vbench2-fixtures";
import type { Vbench2VideoSummary } from "./pipeline";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const start = (projectId: string, input: Record<string, unknown>) => createRun({ prisma, queue: inlineQueue, pipelines: PIPELINES }, owner, projectId, createRunSchema.parse(input));

async function endpoint(projectId: string, name: string, model: string) {
  return (
    await createEndpoint(prisma, owner, projectId, {
      name,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: false,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    })
  ).id;
}

async function judged(videos: Vbench2VideoSpec[], settings: Record<string, unknown> = {}) {
  const { projectId, videoIds } = await vbench2Project(prisma, owner, videos);
  const suffix = projectId.slice(-8);
  const vlm = await endpoint(projectId, "VLM", `stub-vision-${suffix}`);
  const run = await start(projectId, { pipeline: "vbench2", endpointId: vlm, settings });
  const status = await getRunStatus(prisma, owner, run.id);
  const rows = await prisma.runVideo.findMany({ where: { runId: run.id }, select: { videoId: true, summary: true } });
  const summaries = videoIds.map((id) => rows.find((r) => r.videoId === id)?.summary as unknown as Vbench2VideoSummary);
  return { projectId, videoIds, run, status, summaries };
}

describe("vbench2 runs", () => {
  it("Material: question 1 gates (no gives -1), question 2 decides; every question is one call with the 64 frames first", async () => {
    const { status, summaries, run } = await judged([
      { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] Do the paints mix? (yes or no)", "[yes] Is it green? (yes or no)"] },
      { model: "GenA", dimension: "Material", prompt: "Ice melts", auxiliaryInfo: ["[yes] Is there ice? (yes or no)", "[no] Does it melt? (yes or no)"] },
      { model: "GenA", dimension: "Material", prompt: "Wood burns", auxiliaryInfo: ["[no] Is there wood? (yes or no)", "[yes] Does it burn? (yes or no)"] },
      { model: "GenA", dimension: "Material", prompt: "One question", auxiliaryInfo: ["[no] Does it bend? (yes or no)"] },
    ]);
    expect(status).toMatchObject({ status: "done", steps: { failed: 0, parse_failed: 0 } });
    expect(summaries.map((s) => [s.dimensions.Material!.value, s.dimensions.Material!.excludedReason !== null])).toEqual([
      [1, false],
      [0, false],
      [null, true],
      [0, false],
    ]);
    const calls = await prisma.llmCall.findMany({ where: { runId: run.id }, orderBy: { createdAt: "asc" } });
    expect(calls).toHaveLength(7);
    const first = calls.find((c) => (c.request as { text: string }).text.endsWith("Do the paints mix? (yes or no)"))!;
    const request = first.request as { text: string; frameIds: string[] };
    expect(request.frameIds).toHaveLength(64);
    // 79 frames at 24 fps: 3.29 s; indices linspace(0, 78, 64) → 0, 1, 2, 3, 4, 6, …, 78.
    expect(request.text).toMatch(
      /^The video lasts for 3\.29 seconds, and 64 frames are uniformly sampled from it\. These frames are located at 0\.00s,0\.04s,0\.08s,0\.12s,0\.17s,0\.25s,.*,3\.25s\. Please answer yes or no only for the following questions\n\[yes\] Do the paints mix\? \(yes or no\)$/,
    );
  });
});

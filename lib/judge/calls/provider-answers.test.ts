import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { costLabel, tokensLabel } from "../../../components/judge/run-progress";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";

import { createRun, getRunStatus } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

/**
 * Answers in the shapes real OpenAI-compatible servers give and the stub did not: reasoning before the
 * answer, content as parts, content null, vLLM's error body, no usage. The real engine against the real
 * stub over HTTP.
 */

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const deps = testJudgeDeps();
const queue = inlineJudgeQueue(deps);

/** A project of one video with two key frames and an endpoint per model name (the hallucination rules ignore the model, the cache does not). */
async function setup(models: string[]) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  const endpointIds: string[] = [];
  for (const model of models) {
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: model,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: 0.01,
      pricePer1kOutput: 0.03,
    });
    endpointIds.push(endpoint.id);
  }
  return { projectId, videoId: videoIds[0]!, endpointIds };
}
const judge = async (projectId: string, endpointId: string) =>
  createRun(
    { prisma, queue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
    },
  );
const scoresOf = async (runId: string) =>
  (
    await prisma.score.findMany({
      where: { runId },
      orderBy: [{ stepId: "asc" }, { scopeIndex: "asc" }, { category: "asc" }],
    })
  ).map((s) => `${s.stepId}[${s.scopeIndex}].${s.category}=${s.value}`);
const always = 1_000_000;

describe("answers with the model's reasoning before them", () => {
  it(
    "stores the answer after </think>, not the draft inside it, and keeps the reasoning on the call",
    { timeout: 120_000 },
    async () => {
      const { projectId, endpointIds } = await setup(["stub-think", "stub-plain"]);
      stub.addFault({ fault: { kind: "think" }, times: always });
      const thinking = await judge(projectId, endpointIds[0]!);
      stub.reset();
      const plain = await judge(projectId, endpointIds[1]!);

      expect(
        (await getRunStatus(prisma, await accessOfRun(prisma, owner, thinking.id), thinking.id)).steps,
      ).toMatchObject({ total: 10, done: 10 });
      const scores = await scoresOf(thinking.id);
      expect(scores.length).toBeGreaterThan(0);
      // The same values as the answers without thinking; the drafts (other values) were not taken.
      expect(scores).toEqual(await scoresOf(plain.id));
      const calls = await prisma.llmCall.findMany({ where: { runId: thinking.id } });
      expect(calls).toHaveLength(10);
      for (const call of calls) {
        expect(call.reasoning).toMatch(/^Let me draft it first\./);
        expect(call.responseText).not.toContain("<think>");
      }
      // Knowledge graphs that flow into later prompts are the answers too: the dynamic KG prompts are the same in both runs.
      const prompts = async (runId: string) =>
        (
          await prisma.llmCall.findMany({
            where: { runId, stepResult: { stepId: "dynamic_kg" } },
            orderBy: { createdAt: "asc" },
          })
        )
          .map((c) => (c.request as { text: string }).text)
          .sort();
      expect(await prompts(thinking.id)).toEqual(await prompts(plain.id));
    },
  );

  it(
    "a <think> never closed leaves no answer: the step fails to parse instead of storing the draft",
    { timeout: 120_000 },
    async () => {
      const { projectId, endpointIds } = await setup(["stub-think-open"]);
      stub.addFault({ fault: { kind: "think", unterminated: true }, times: always });
      const run = await judge(projectId, endpointIds[0]!);
      const kg = await prisma.stepResult.findFirstOrThrow({
        where: { runId: run.id, stepId: "static_kg", scopeIndex: 0 },
      });
      expect(kg.status).toBe("parse_failed");
      expect(kg.error).toContain("only the model's reasoning");
      expect(await prisma.score.count({ where: { runId: run.id } })).toBe(0);
    },
  );
});

describe("content as an array of text parts, or null", () => {
  it("joins the text parts: every step is done", { timeout: 120_000 }, async () => {
    const { projectId, endpointIds } = await setup(["stub-parts"]);
    stub.addFault({ fault: { kind: "content_parts" }, times: always });
    const run = await judge(projectId, endpointIds[0]!);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status.steps).toMatchObject({ total: 10, done: 10, failed: 0, parse_failed: 0, skipped: 0 });
    expect(stub.requests).toHaveLength(10);
  });

  it("content null is a clear parse error", { timeout: 120_000 }, async () => {
    const { projectId, endpointIds } = await setup(["stub-null"]);
    stub.addFault({ fault: { kind: "null_content" }, times: always });
    const run = await judge(projectId, endpointIds[0]!);
    const kg = await prisma.stepResult.findFirstOrThrow({
      where: { runId: run.id, stepId: "static_kg", scopeIndex: 0 },
    });
    expect(kg.status).toBe("parse_failed");
    expect(kg.error).toContain("no content (`content` was null)");
  });
});

describe("vLLM's error answers", () => {
  it(
    "keeps vLLM's own message for too many images in the step error and the excerpt, and names --limit-mm-per-prompt",
    { timeout: 120_000 },
    async () => {
      const { projectId, endpointIds } = await setup(["stub-vllm"]);
      stub.addFault({ fault: { kind: "image_limit", limit: 1 }, times: always });
      const run = await judge(projectId, endpointIds[0]!);
      // A key frame's static KG sends one image; a cluster's dynamic KG three.
      expect(
        (await prisma.stepResult.findFirstOrThrow({ where: { runId: run.id, stepId: "static_kg", scopeIndex: 0 } }))
          .status,
      ).toBe("done");
      const dynamic = await prisma.stepResult.findFirstOrThrow({
        where: { runId: run.id, stepId: "dynamic_kg", scopeIndex: 0 },
        include: { calls: true },
      });
      expect(dynamic.status).toBe("failed");
      expect(dynamic.error).toContain("The endpoint refused the request (400).");
      expect(dynamic.error).toContain("At most 1 image(s) may be provided in one request.");
      expect(dynamic.error).toContain(`--limit-mm-per-prompt '{"image": K}'`);
      expect(dynamic.calls[0]!.errorExcerpt).toContain("At most 1 image(s) may be provided in one request.");
    },
  );

  it("names --max-model-len for a context-length error", { timeout: 120_000 }, async () => {
    const { projectId, endpointIds } = await setup(["stub-vllm-context"]);
    const message =
      "This model's maximum context length is 4096 tokens. However, you requested 5210 tokens (5000 in the messages, 210 in the completion).";
    stub.addFault({ fault: { kind: "vllm_error", status: 400, message }, times: always });
    const run = await judge(projectId, endpointIds[0]!);
    const kg = await prisma.stepResult.findFirstOrThrow({
      where: { runId: run.id, stepId: "static_kg", scopeIndex: 0 },
    });
    expect(kg.status).toBe("failed");
    expect(kg.error).toContain("maximum context length is 4096 tokens");
    expect(kg.error).toContain("--max-model-len");
  });
});

describe("answers without usage", () => {
  it("make the run's tokens and cost unknown, never 0", { timeout: 120_000 }, async () => {
    const { projectId, endpointIds } = await setup(["stub-no-usage"]);
    stub.addFault({ fault: { kind: "no_usage" }, times: always });
    const run = await judge(projectId, endpointIds[0]!);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status.steps.done).toBe(10);
    expect(status.calls).toMatchObject({ total: 10, withoutUsage: 10 });
    expect(status.tokens.prompt).toBeNull();
    expect(status.tokens.completion).toBeNull();
    expect(status.costUsd).toBeNull();
    expect(costLabel(status)).toBe("unknown (10 calls without usage)");
    expect(tokensLabel(status)).toBe("unknown (10 calls without usage)");
  });

  it("some calls without usage: the cost is at least what the others cost", { timeout: 120_000 }, async () => {
    const { projectId, endpointIds } = await setup(["stub-some-usage"]);
    // The two static KGs answer without usage; the other eight with it.
    stub.addFault({ fault: { kind: "no_usage" }, match: "static", times: 2 });
    const run = await judge(projectId, endpointIds[0]!);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status.calls.withoutUsage).toBeGreaterThan(0);
    expect(status.calls.withoutUsage).toBeLessThan(10);
    expect(status.costUsd).toBeNull();
    const known = await prisma.llmCall.aggregate({
      where: { runId: run.id, usageKnown: true },
      _sum: { costUsd: true },
    });
    expect(status.costUsdAtLeast).toBeCloseTo(known._sum.costUsd!, 10);
    expect(status.costUsdAtLeast).toBeGreaterThan(0);
    expect(costLabel(status)).toBe(
      `≥ $${status.costUsdAtLeast.toFixed(4)} (${status.calls.withoutUsage} calls without usage)`,
    );
  });
});

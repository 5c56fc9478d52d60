import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";

import { testEndpoint } from "./endpoint-test";
import { createEndpoint } from "./endpoints";
import { largerMaxTokens } from "../engine/recovery";
import { attributionHeaders, openAiCompatibleClient } from "../calls/llm-client";
import { createRun, getRunStatus } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun, accessOfEndpoint } from "../../../testkit/testing/record-access";

/**
 * Endpoints that differ from the stub's defaults, each reproduced by a stub mode (testkit/llm-stub/stub-server.ts),
 * and what the real engine makes of them over HTTP: probed limits used (tiling, JSON mode), reasoning in a
 * field of its own, empty choices, answers cut off, Azure's dialect, servers that reject `detail`, Gemini's,
 * Ollama's and OpenRouter's error shapes. (Reasoning in `<think>`, content as parts or null, vLLM's error
 * body and answers without usage: lib/judge/calls/provider-answers.test.ts.)
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
const always = 1_000_000;

type EndpointOptions = {
  baseUrl?: string;
  apiKey?: string | null;
  maxTokens?: number | null;
  apiVersion?: string | null;
  sendImageDetail?: boolean;
};

async function setup(model: string, options: EndpointOptions = {}) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  return { projectId, videoId: videoIds[0]!, endpointId: await addEndpoint(projectId, model, options) };
}

async function addEndpoint(projectId: string, model: string, options: EndpointOptions = {}) {
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: model,
    baseUrl: options.baseUrl ?? stub.baseURL,
    model,
    apiKey: options.apiKey ?? null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: 0.01,
    pricePer1kOutput: 0.03,
    maxTokens: options.maxTokens ?? null,
    apiVersion: options.apiVersion ?? null,
    sendImageDetail: options.sendImageDetail ?? true,
  });
  return endpoint.id;
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
const stepOf = (runId: string, stepId: string, scopeIndex = 0) =>
  prisma.stepResult.findFirstOrThrow({
    where: { runId, stepId, scopeIndex },
    include: { calls: { orderBy: { createdAt: "asc" } } },
  });
const scoresOf = async (runId: string) =>
  (
    await prisma.score.findMany({
      where: { runId },
      orderBy: [{ stepId: "asc" }, { scopeIndex: "asc" }, { category: "asc" }],
    })
  ).map((s) => `${s.stepId}[${s.scopeIndex}].${s.category}=${s.value}`);

describe("an endpoint that takes one image per request", () => {
  it(
    "once probed, gets each cluster's frames tiled into one image the prompt describes, and the run finishes",
    { timeout: 180_000 },
    async () => {
      const { projectId, endpointId } = await setup("stub-images-per-request-1");
      expect(
        (await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, endpointId), endpointId)).capabilities,
      ).toMatchObject({ maxImages: 1 });
      stub.reset();
      const run = await judge(projectId, endpointId);
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
        total: 10,
        done: 10,
        failed: 0,
      });
      expect(stub.requests).toHaveLength(10);
      expect(stub.requests.every((r) => r.imageCount === 1 && r.status === 200)).toBe(true);
      // The three frames of a cluster went as one 2×2 grid, in their order, and the prompt says so.
      const dynamic = await stepOf(run.id, "dynamic_kg");
      const request = dynamic.calls[0]!.request as { text: string; frameIds: string[] };
      expect(request.frameIds).toHaveLength(3);
      expect(request.text).toContain("the 3 frames are tiled into the one image below, in a 2×2 grid");
      // 2 dynamic KGs and 2 dynamic hallucinations (3 frames each), the summary and the inconsistency (the 2 key frames).
      expect(stub.requests.filter((r) => r.text.includes("tiled into the one image")).length).toBe(6);
      // One-frame steps are sent as before.
      expect((await stepOf(run.id, "static_kg")).calls[0]!.request).not.toHaveProperty(
        "text",
        expect.stringContaining("tiled"),
      );
    },
  );

  it(
    "never probed, behaves as before: the multi-frame steps fail with vLLM's words and the setting to change",
    { timeout: 120_000 },
    async () => {
      const { projectId, endpointId } = await setup("stub-images-per-request-1");
      const run = await judge(projectId, endpointId);
      const dynamic = await stepOf(run.id, "dynamic_kg");
      expect(dynamic.status).toBe("failed");
      expect(dynamic.error).toContain("At most 1 image(s) may be provided in one request.");
      expect(dynamic.error).toContain("--limit-mm-per-prompt");
    },
  );
});

describe("JSON mode from the probe", () => {
  it(
    "asks a json_object-only server for json_object, and one without response_format for none",
    { timeout: 180_000 },
    async () => {
      for (const [model, expected] of [
        ["stub-json-object-only", { type: "json_object" }],
        ["stub-no-response-format", null],
      ] as const) {
        const { projectId, endpointId } = await setup(model);
        await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, endpointId), endpointId);
        const run = await judge(projectId, endpointId);
        expect(
          (await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps,
          model,
        ).toMatchObject({ total: 10, done: 10 });
        const formats = (await prisma.llmCall.findMany({ where: { runId: run.id } })).map(
          (c) => (c.request as { responseFormat: unknown }).responseFormat,
        );
        expect(
          formats.every((f) => JSON.stringify(f) === JSON.stringify(expected)),
          model,
        ).toBe(true);
      }
    },
  );
});

describe("reasoning in reasoning_content", () => {
  it(
    "is kept on the call and never parsed: the scores are those of the plain answers",
    { timeout: 180_000 },
    async () => {
      const thinking = await setup("stub-reasoning-field");
      stub.addFault({ fault: { kind: "reasoning_field" }, times: always });
      const run = await judge(thinking.projectId, thinking.endpointId);
      stub.reset();
      // The same video through a second endpoint (another model name, so nothing comes from the cache) without reasoning.
      const plainRun = await judge(thinking.projectId, await addEndpoint(thinking.projectId, "stub-reasoning-plain"));
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
        total: 10,
        done: 10,
      });
      const calls = await prisma.llmCall.findMany({ where: { runId: run.id } });
      expect(calls).toHaveLength(10);
      for (const call of calls) {
        expect(call.reasoning).toMatch(/^Let me draft it first\./);
        expect(call.responseText).not.toContain("Let me draft");
      }
      // The drafts (other values) were not taken: the scores are those of the answers without reasoning.
      expect((await scoresOf(run.id)).length).toBeGreaterThan(0);
      expect(await scoresOf(run.id)).toEqual(await scoresOf(plainRun.id));
    },
  );
});

describe("answers with no choice, or a refusal with content null", () => {
  it("an empty choice list fails the step in plain words after the retries", { timeout: 120_000 }, async () => {
    const { projectId, endpointId } = await setup("stub-empty-choices");
    stub.addFault({ fault: { kind: "empty_choices" }, match: "Identify objects in the foreground", times: always });
    const run = await judge(projectId, endpointId);
    const kg = await stepOf(run.id, "static_kg");
    expect(kg.status).toBe("failed");
    expect(kg.error).toContain("The endpoint answered without any choice (an empty `choices` list).");
  });

  it(
    "a refusal (content null, refusal set) is a parse failure naming the refusal, after its one repair",
    { timeout: 120_000 },
    async () => {
      const { projectId, endpointId } = await setup("stub-refusal");
      stub.addFault({ fault: { kind: "refusal" }, match: "Identify objects in the foreground", times: always });
      const run = await judge(projectId, endpointId);
      const kg = await stepOf(run.id, "static_kg");
      expect(kg.status).toBe("parse_failed");
      expect(kg.error).toMatch(/refus/i);
      expect(kg.calls.map((c) => c.isRepair)).toEqual([false, true]);
    },
  );
});

describe("an answer cut off at the token limit", () => {
  it("is asked again once with a larger max_tokens, and that answer counts", { timeout: 120_000 }, async () => {
    const { projectId, endpointId } = await setup("stub-cut-off", { maxTokens: 4096 });
    // The server cuts answers at 5 tokens unless the request asks for more.
    stub.addFault({ fault: { kind: "max_tokens", tokens: 5 }, times: always });
    const run = await judge(projectId, endpointId);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
      total: 10,
      done: 10,
    });
    const kg = await stepOf(run.id, "static_kg");
    expect(kg.calls.map((c) => [c.finishReason, (c.request as { maxTokens?: number }).maxTokens ?? null])).toEqual([
      ["length", null],
      ["stop", 4096],
    ]);
  });

  it("cut off again, fails the step with the number of tokens it was cut at", { timeout: 120_000 }, async () => {
    const { projectId, endpointId } = await setup("stub-cut-off-twice", { maxTokens: 16 });
    // The static hallucination step's answer (ten categories) is always longer than 16 tokens; a knowledge graph's
    // answer may be shorter (its length follows the frames), so the cut is asked of that step alone.
    stub.addFault({ fault: { kind: "max_tokens", tokens: 5 }, match: "static hallucinations", times: always });
    const run = await judge(projectId, endpointId);
    const step = await stepOf(run.id, "static_hallucination");
    expect(step.status).toBe("failed");
    expect(step.error).toContain(
      'Answer cut off at 16 tokens (finish_reason "length"), also when asked again with max_tokens 16.',
    );
    expect(step.error).toContain("max answer tokens (now 16)");
    expect(step.calls).toHaveLength(2);
  });

  it("asks for twice the cut without a setting, and never for less than was cut", () => {
    expect(largerMaxTokens(null, 300)).toBe(1024);
    expect(largerMaxTokens(null, 3000)).toBe(6000);
    expect(largerMaxTokens(null, 20_000)).toBeNull();
    expect(largerMaxTokens(2048, 300)).toBe(2048);
    expect(largerMaxTokens(256, 300)).toBeNull();
  });
});

describe("Azure OpenAI", () => {
  it("calls the deployment URL with api-version and the key in api-key", { timeout: 120_000 }, async () => {
    const { projectId, endpointId } = await setup("my-gpt-4o-deployment", {
      baseUrl: `${stub.url}/openai`,
      apiKey: "azure-key-0123456789",
      apiVersion: "2024-10-21",
    });
    const run = await judge(projectId, endpointId);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
      total: 10,
      done: 10,
    });
    expect(stub.requests.length).toBe(10);
    for (const request of stub.requests) {
      expect(request.path).toBe("/openai/deployments/my-gpt-4o-deployment/chat/completions?api-version=2024-10-21");
      expect(request.headers).toMatchObject({ apiKey: "azure-key-0123456789", authorization: false });
    }
  });

  it("without api-version, Azure's 404 is a plain step error", { timeout: 120_000 }, async () => {
    const { projectId, endpointId } = await setup("my-gpt-4o-deployment", {
      baseUrl: `${stub.url}/openai/deployments/my-gpt-4o-deployment`,
      apiKey: "azure-key-0123456789",
    });
    const run = await judge(projectId, endpointId);
    const kg = await stepOf(run.id, "static_kg");
    expect(kg.status).toBe("failed");
    expect(kg.error).toContain("The endpoint refused the request (404).");
  });
});

describe("servers that reject the image detail field (Gemini's error shape)", () => {
  it(
    "with detail sent, the step error quotes Gemini's list-wrapped message; with the option off, the run finishes",
    { timeout: 180_000 },
    async () => {
      const sent = await setup("stub-gemini-detail");
      stub.addFault({ fault: { kind: "rejects_detail" }, times: always });
      const failing = await judge(sent.projectId, sent.endpointId);
      const kg = await stepOf(failing.id, "static_kg");
      expect(kg.status).toBe("failed");
      expect(kg.error).toContain('Unknown name "detail"');

      const omitted = await setup("stub-gemini-no-detail", { sendImageDetail: false });
      const run = await judge(omitted.projectId, omitted.endpointId);
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
        total: 10,
        done: 10,
      });
      expect(stub.requests.filter((r) => r.model === "stub-gemini-no-detail").every((r) => !r.imageDetail)).toBe(true);
    },
  );
});

describe("error shapes of Gemini, Ollama and OpenRouter", () => {
  it("Gemini's and Ollama's 4xx bodies give their own words in the step error", { timeout: 180_000 }, async () => {
    for (const [provider, message] of [
      ["gemini", "API key not valid. Please pass a valid API key."],
      ["ollama", 'model "qwen2.5vl:7b" not found, try pulling it first'],
    ] as const) {
      const { projectId, endpointId } = await setup(`stub-${provider}-error`);
      stub.addFault({
        fault: { kind: "provider_error", provider, status: 400, message },
        match: "Identify objects in the foreground",
        times: always,
      });
      const run = await judge(projectId, endpointId);
      const kg = await stepOf(run.id, "static_kg");
      expect(kg.status, provider).toBe("failed");
      expect(kg.error, provider).toContain("The endpoint refused the request (400).");
      expect(kg.error, provider).toContain(message);
      stub.reset();
    }
  });

  it(
    "OpenRouter's error inside a 200: a 5xx code is retried like a 5xx, a 4xx code fails the step with its words",
    { timeout: 180_000 },
    async () => {
      const { projectId, endpointId } = await setup("stub-openrouter");
      stub.addFault({
        fault: { kind: "provider_error", provider: "openrouter", status: 502, message: "Upstream provider error" },
        match: "Identify objects in the foreground",
        times: 1,
      });
      stub.addFault({
        fault: {
          kind: "provider_error",
          provider: "openrouter",
          status: 400,
          message: "This endpoint's maximum context length is 8192 tokens",
        },
        match: "static hallucinations",
        times: always,
      });
      const run = await judge(projectId, endpointId);
      // Two key frames: the one 502 reaches whichever static_kg step asks first; that one is retried, and both finish.
      const kgs = await prisma.stepResult.findMany({
        where: { runId: run.id, stepId: "static_kg" },
        include: { calls: true },
      });
      expect(kgs.map((kg) => kg.status)).toEqual(["done", "done"]);
      expect(kgs.flatMap((kg) => kg.calls).reduce((sum, call) => sum + call.retries, 0)).toBe(1);
      const hallucination = await stepOf(run.id, "static_hallucination");
      expect(hallucination.status).toBe("failed");
      expect(hallucination.error).toContain("The endpoint refused the request (400, reported inside a 200 answer).");
      expect(hallucination.error).toContain("maximum context length is 8192 tokens");
    },
  );

  it("sends OpenRouter's attribution headers to openrouter.ai only", async () => {
    expect(attributionHeaders("https://openrouter.ai/api/v1", "https://framejury.example.org")).toEqual({
      "X-OpenRouter-Title": "FrameJury",
      "X-Title": "FrameJury",
      "HTTP-Referer": "https://framejury.example.org",
    });
    expect(attributionHeaders("https://openrouter.ai/api/v1", null)).toEqual({
      "X-OpenRouter-Title": "FrameJury",
      "X-Title": "FrameJury",
    });
    expect(attributionHeaders("https://api.openai.com/v1", "https://framejury.example.org")).toBeUndefined();
    // Through the client: the headers reach the request.
    const seen: Headers[] = [];
    const fakeFetch: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers));
      return Response.json({
        choices: [{ message: { content: "ok" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      });
    };
    await openAiCompatibleClient({ baseURL: "https://openrouter.ai/api/v1", apiKey: "k", fetch: fakeFetch }).complete(
      { model: "m", text: "hi", images: [] },
      { timeoutMs: 5000 },
    );
    await openAiCompatibleClient({ baseURL: "https://api.openai.com/v1", apiKey: "k", fetch: fakeFetch }).complete(
      { model: "m", text: "hi", images: [] },
      { timeoutMs: 5000 },
    );
    expect(seen[0]!.get("x-title")).toBe("FrameJury");
    expect(seen[1]!.get("x-title")).toBeNull();
    // The key that ties an error body to its call stays in the process: no provider sees it.
    for (const headers of seen)
      expect([...headers.keys()].filter((name) => name.startsWith("x-framejury"))).toEqual([]);
  });
});

/**
 * The cost before a run against what the run then cost: a dry run's estimate (POST …/runs with dryRun) of a
 * hallucination run and of a VBench-2.0 run on the stub LLM names exactly the calls the run makes, and its input
 * tokens land within 10% of the stub's reported usage; the started run keeps the same estimate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { vbench2Project, stubEndpoint } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { createRunSchema } from "./run-input.validation";
import { createRun, dryRun } from "./runs";
import type { RunEstimate } from "./cost-estimate";
import { DEFAULT_OUTPUT_TOKENS } from "./cost-estimate";
import { ValidationError } from "../../errors";
import { estimatePlannedRun } from "./cost-estimate-load";
import { fileTemplateSource } from "../prompts/template-source";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(async () => stub?.close());

const deps = () => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
});
const parse = (body: unknown) => createRunSchema(builtInCatalogue()).parse(body);

/** The run's paid calls and their reported usage. */
async function usageOf(runId: string) {
  const calls = await prisma.llmCall.findMany({
    where: { runId, cached: false },
    select: { promptTokens: true, completionTokens: true, costUsd: true },
  });
  return {
    calls: calls.length,
    prompt: calls.reduce((s, c) => s + c.promptTokens, 0),
    completion: calls.reduce((s, c) => s + c.completionTokens, 0),
    cost: calls.reduce((s, c) => s + c.costUsd, 0),
  };
}

async function dryThenRun(projectId: string, body: Record<string, unknown>) {
  const dry = (await dryRun(
    deps(),
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    parse({ ...body, dryRun: true }),
  )) as {
    dryRun: true;
    estimate: RunEstimate | null;
    estimateError: string | null;
  };
  expect(dry.estimateError).toBeNull();
  // A dry run starts nothing.
  expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  const run = (await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), parse(body))) as {
    id: string;
  };
  const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id }, select: { estimate: true } });
  return { estimate: dry.estimate!, stored: stored.estimate as unknown as RunEstimate, actual: await usageOf(run.id) };
}

describe("the cost before a run", () => {
  it("names a hallucination run's calls and its input tokens within 10% of the stub's usage", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 2 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision", {
      pricePer1kInput: 0.5,
      pricePer1kOutput: 1.5,
    });
    const { estimate, stored, actual } = await dryThenRun(projectId, {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    });
    // 3 videos × (2 static KGs + 2 dynamic KGs + summary + inconsistency + 2 static + 2 dynamic hallucinations).
    expect(estimate.calls).toBe(30);
    expect(actual.calls).toBe(estimate.calls);
    expect(estimate.steps.find((s) => s.stepId === "dynamic_kg")).toMatchObject({ calls: 6, images: 18 });
    expect(estimate.rule.source).toBe("stub");
    expect(estimate.inputTokens / actual.prompt).toBeGreaterThan(0.9);
    expect(estimate.inputTokens / actual.prompt).toBeLessThan(1.1);
    // No history yet: each step's answer length read from its answer schema, and the answers' real length within
    // the range printed beside it; priced at the endpoint's prices.
    expect(new Set(estimate.steps.map((s) => s.outputFrom))).toEqual(new Set(["schema"]));
    expect(estimate.outputTokens).not.toBe(30 * DEFAULT_OUTPUT_TOKENS);
    expect(actual.completion).toBeGreaterThanOrEqual(estimate.outputTokensRange[0]);
    expect(actual.completion).toBeLessThanOrEqual(estimate.outputTokensRange[1]);
    expect(estimate.costUsd).toBeCloseTo((estimate.inputTokens / 1000) * 0.5 + (estimate.outputTokens / 1000) * 1.5, 9);
    expect(actual.cost).toBeGreaterThanOrEqual(estimate.costUsdRange![0]);
    expect(actual.cost).toBeLessThanOrEqual(estimate.costUsdRange![1]);
    expect(stored).toEqual(estimate);
  }, 120_000);

  it("reads answer lengths from the endpoint's earlier calls of each step", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const body = { pipeline: "hallucination", endpointId: endpoint.id };
    await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), parse(body));
    const dry = (await dryRun(
      deps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, dryRun: true }),
    )) as {
      estimate: RunEstimate;
    };
    const answered = await prisma.llmCall.findMany({
      where: { run: { projectId }, cached: false, stepResult: { stepId: "video_summary" } },
      select: { completionTokens: true },
    });
    const summary = dry.estimate.steps.find((s) => s.stepId === "video_summary")!;
    expect(summary.outputFrom).toBe("history");
    expect(summary.outputTokens).toBe(answered[0]!.completionTokens);
    expect(dry.estimate.costUsd).toBeNull();
  }, 120_000);

  it("estimates a video-frames run of the hallucination task within 10% of the stub's usage", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const { estimate, actual } = await dryThenRun(projectId, {
      pipeline: "hallucination",
      endpointId: endpoint.id,
      inputMode: "video-frames",
    });
    expect(estimate.inputMode).toBe("video-frames");
    // Clusters go as video parts (3 frames each), the one-frame static steps as pictures.
    expect(estimate.steps.find((s) => s.stepId === "dynamic_kg")).toMatchObject({ videoFrames: 12, images: 0 });
    expect(actual.calls).toBe(estimate.calls);
    expect(estimate.inputTokens / actual.prompt).toBeGreaterThan(0.9);
    expect(estimate.inputTokens / actual.prompt).toBeLessThan(1.1);
  }, 120_000);

  it("names a VBench-2.0 run's calls and its input tokens within 10% of the stub's usage", async () => {
    const { projectId } = await vbench2Project(prisma, owner, [
      { model: "GenA", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[yes] wax?", "[yes] melts?"] },
      { model: "GenB", dimension: "Material", prompt: "Ice melts", auxiliaryInfo: ["[yes] ice?", "[yes] melts?"] },
    ]);
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const { estimate, actual } = await dryThenRun(projectId, { pipeline: "vbench2", endpointId: vlm });
    expect(estimate.calls).toBeGreaterThan(0);
    expect(actual.calls).toBe(estimate.calls);
    expect(estimate.images).toBeGreaterThanOrEqual(64);
    expect(estimate.inputTokens / actual.prompt).toBeGreaterThan(0.9);
    expect(estimate.inputTokens / actual.prompt).toBeLessThan(1.1);
  }, 120_000);

  it("estimates a large run from an even sample of its videos, scaled to the run and saying so", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const sets = await prisma.frameSet.findMany({
      where: { videoId: { in: videoIds } },
      select: { id: true, videoId: true },
    });
    const run = {
      projectId,
      pipeline: builtInCatalogue().pipelines.hallucination!,
      settings: {},
      endpoint: row,
      roleEndpoints: [],
      inputMode: "images" as const,
      batch: false,
      templates: fileTemplateSource(),
      videos: videoIds.map((id) => ({ id, frameSetId: sets.find((s) => s.videoId === id)!.id })),
      items: [],
    };
    const whole = await estimatePlannedRun(prisma, run);
    const sampled = await estimatePlannedRun(prisma, { ...run, sampleVideos: 2 });
    expect(whole.sampledVideos).toBeUndefined();
    expect(sampled.sampledVideos).toBe(2);
    // The videos are alike: the scaled sample names the same calls and pictures.
    expect(sampled.calls).toBe(whole.calls);
    expect(sampled.images).toBe(whole.images);
    expect(sampled.inputTokens / whole.inputTokens).toBeCloseTo(1, 1);
  });

  it("refuses a dry run of an ensemble, and never starts a run asked as a dry run; saves nothing", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const body = { pipeline: "hallucination", endpointId: endpoint.id, dryRun: true };
    const ensemble = { kind: "samples", samples: 3, temperature: 0.7 };
    await expect(
      dryRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), parse({ ...body, ensemble })),
    ).rejects.toThrow(ValidationError);
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), parse(body)),
    ).rejects.toThrow(ValidationError);
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  });
});

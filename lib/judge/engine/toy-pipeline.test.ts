/**
 * The engine knows no pipeline: a toy pipeline that judges items (an item-scoped LLM step, a computed step
 * depending on it, scores that read their input, per-item metrics, a uniform frame set) runs on PostgreSQL
 * against the stub LLM like the hallucination pipeline does.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";

import { createRun, getRunStatus } from "../runs/runs";
import type { TemplateSource } from "../prompts/template-source";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { declarationProblems } from "../../../testkit/testing/declaration-problems";
import type { PipelineDefinition, RegisteredPipeline, StepInput } from "../../task-modules/pipeline-types";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { provideCataloguesWith } from "../../../testkit/testing/provide-catalogues";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

const TOY_TEMPLATE = "Toy judge. Say anything about this item: {{text}}";

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

const count = { kind: "numeric", min: 0, max: 1000, step: 1 } as const;
const toyTask: TaskDeclaration = {
  id: "toy_items",
  label: "Toy item judge",
  subject: "caption",
  targets: [
    {
      id: "words",
      label: "Words",
      definition: "The item's word count, read from the step's input.",
      scale: count,
      level: "ratio",
      higherIsBetter: true,
      scope: "item",
      positive: { op: ">=", threshold: 1, label: "has words" },
    },
    {
      id: "answered",
      label: "Answered",
      definition: "The LLM answered.",
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "yes" },
          { value: 0, label: "no" },
        ],
      },
      level: "nominal",
      higherIsBetter: true,
      scope: "item",
      positive: { op: "==", value: 1, label: "answered" },
    },
    {
      id: "doubled",
      label: "Doubled",
      definition: "Twice the word count, computed.",
      scale: count,
      level: "ratio",
      higherIsBetter: true,
      scope: "item",
      positive: { op: ">=", threshold: 1, label: "has words" },
    },
  ],
  metrics: [
    {
      id: "word_count",
      label: "Word count",
      definition: "The item's words.",
      aggregation: "The words score.",
      scale: count,
      level: "ratio",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 1, label: "has words" },
    },
  ],
  groupings: [],
};

const toyPipeline: PipelineDefinition = {
  id: "toy_items",
  label: "Toy item judge",
  task: toyTask,
  metricValues: () => ({}),
  frames: (settings) => ({ mode: "uniform", count: (settings as { frames?: number }).frames ?? 2 }),
  items: {
    kind: "toy",
    excludeReason: (item) => ((item.payload as { text: string }).text === "skip me" ? "the toy skips this one" : null),
  },
  steps: [
    {
      id: "describe",
      label: "Describe the item",
      scope: "item",
      templateId: "toy/describe",
      // The stub's fallback answer to a prompt it has no rule for.
      schema: z.object({ answer: z.string() }),
      responseFormat: { type: "json_object" },
      dependsOn: () => [],
      input: (scopeIndex, context): StepInput => {
        const text = (context.items[scopeIndex]!.payload as { text: string }).text;
        return { values: { text }, frames: context.frames, data: { words: countWords(text) } };
      },
      scores: (output, input) => [
        { category: "words", value: (input.data as { words: number }).words },
        { category: "answered", value: (output as { answer: string }).answer === "stub" ? 1 : 0 },
      ],
    },
    {
      id: "double",
      label: "Double the word count",
      scope: "item",
      templateId: "computed/toy-double",
      schema: z.object({ doubled: z.number() }),
      dependsOn: (scopeIndex) => [{ stepId: "describe", scopeIndex }],
      input: (scopeIndex, context) => ({ values: {}, frames: [], data: { item: context.items[scopeIndex]!.id } }),
      compute: (input, context, outputs) => {
        const scopeIndex = context.items.findIndex((item) => item.id === (input.data as { item: string }).item);
        const described = outputs.get("describe", scopeIndex) as { answer: string };
        return {
          doubled: 2 * countWords((context.items[scopeIndex]!.payload as { text: string }).text),
          answer: described.answer,
        };
      },
      scores: (output) => [{ category: "doubled", value: (output as { doubled: number }).doubled }],
    },
  ],
  summarize: (scores, context) => ({
    items: context.items.map((item, scopeIndex) => ({
      itemId: item.id,
      words: scores.find((s) => s.scopeIndex === scopeIndex && s.category === "words")?.value ?? null,
      doubled: scores.find((s) => s.scopeIndex === scopeIndex && s.category === "doubled")?.value ?? null,
    })),
  }),
  itemMetrics: (summary) =>
    (summary as { items: { itemId: string; words: number | null }[] }).items.map((item) => ({
      itemId: item.itemId,
      values: { word_count: item.words },
    })),
};

const templates: TemplateSource = {
  get: (id) => {
    if (id !== "toy/describe") throw new Error(`no template ${id}`);
    return {
      hash: createHash("sha256").update(TOY_TEMPLATE).digest("hex"),
      render: (values) => TOY_TEMPLATE.replace("{{text}}", values.text!),
    };
  },
};

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

// The engine finds the toy pipeline in its project's catalogue, as it finds a project's own task's.
provideCataloguesWith({ module: { id: "toy_items", pipelines: [toyPipeline as RegisteredPipeline] } });
const deps = testJudgeDeps({ templates });
const inlineQueue = inlineJudgeQueue(deps);

describe("a toy item pipeline on the engine", () => {
  it("judges each item with an LLM step and a computed step, scores from the input, on the uniform frame set, and reports videos without one", async () => {
    // Three videos; only the first two have a uniform frame set of 2 frames.
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 1,
      uniformFrames: 2,
      uniformVideos: 2,
    });
    const set = await prisma.itemSet.create({
      data: {
        projectId,
        kind: "toy_set",
        name: "toys",
        fileName: "toys.jsonl",
        sha256: "0".repeat(64),
        itemCount: 5,
        importedById: owner.userId,
      },
    });
    const texts: [number, string, string][] = [
      [0, "b", "two words"],
      [0, "a", "one two three four"],
      [1, "c", "a single item here now five"],
      [1, "d", "skip me"],
      [2, "e", "no frames for this video"],
    ];
    for (const [v, externalId, text] of texts) {
      await prisma.item.create({
        data: {
          projectId,
          setId: set.id,
          videoId: videoIds[v]!,
          externalId,
          kind: "toy",
          group: "g",
          payload: { text },
        },
      });
    }
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
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

    const created = await createRun(
      { prisma, queue: inlineQueue, pipelines: { toy_items: toyPipeline } },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "toy_items" as "hallucination",
        endpointId: endpoint.id,
        itemSetId: set.id,
      },
    );
    expect(created).toMatchObject({
      videos: 2,
      items: 3,
      excludedItems: 1,
      withoutFrames: [{ id: videoIds[2] }],
      withoutFramesCount: 1,
    });

    // Each item has a stable position among its video's items, fixed at creation.
    const runItems = await prisma.runItem.findMany({
      where: { runId: created.id },
      orderBy: [{ videoId: "asc" }, { position: "asc" }],
      include: { item: { select: { externalId: true } } },
    });
    expect(runItems.map((r) => [r.videoId, r.position, r.item.externalId]).sort()).toEqual(
      [
        [videoIds[0], 0, "a"],
        [videoIds[0], 1, "b"],
        [videoIds[1], 0, "c"],
      ].sort(),
    );

    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, created.id), created.id);
    expect(status).toMatchObject({ status: "done", steps: { total: 6, done: 6 }, calls: { total: 3 } });
    // The LLM saw the uniform set's 2 frames, not the key-frame set's 1.
    expect(stub.requests.map((r) => r.imageCount)).toEqual([2, 2, 2]);

    const steps = await prisma.stepResult.findMany({
      where: { runId: created.id },
      include: { calls: true, scores: true },
    });
    for (const runItem of runItems) {
      const describe = steps.find((s) => s.stepId === "describe" && s.itemId === runItem.itemId)!;
      const double = steps.find((s) => s.stepId === "double" && s.itemId === runItem.itemId)!;
      expect(describe.scopeIndex).toBe(runItem.position);
      expect(describe.calls).toHaveLength(1);
      // A computed step: recorded like the others, without a call or a template hash.
      expect(double).toMatchObject({
        status: "done",
        templateId: "computed/toy-double",
        templateHash: null,
        scopeIndex: runItem.position,
      });
      expect(double.calls).toHaveLength(0);
      const text = texts.find(([, externalId]) => externalId === runItem.item.externalId)![2];
      expect(double.output).toEqual({ doubled: 2 * countWords(text), answer: "stub" });
      // Scores carry the item, and the word count came from the step's input.
      expect(describe.scores.map((s) => [s.itemId, s.category, s.value]).sort()).toEqual(
        [
          [runItem.itemId, "answered", 1],
          [runItem.itemId, "words", countWords(text)],
        ].sort(),
      );
      expect(double.scores.map((s) => [s.itemId, s.category, s.value])).toEqual([
        [runItem.itemId, "doubled", 2 * countWords(text)],
      ]);
    }
    const summary = (await prisma.runVideo.findFirstOrThrow({ where: { runId: created.id, videoId: videoIds[0] } }))
      .summary as { items: { itemId: string; words: number; doubled: number }[] };
    expect(summary.items.map((i) => [i.words, i.doubled])).toEqual([
      [4, 8],
      [2, 4],
    ]);
    // The per-item metrics are run_metric rows keyed by the item; none for the video itself.
    expect(declarationProblems(toyTask)).toEqual([]);
    const metrics = await prisma.runMetric.findMany({
      where: { runId: created.id, videoId: videoIds[0] },
      orderBy: { value: "desc" },
    });
    expect(metrics.map((m) => [m.itemId, m.metric, m.value])).toEqual(
      summary.items.map((i) => [i.itemId, "word_count", i.words]),
    );
  });

  it("refuses an item run without its set, and one whose videos all lack the frame set, naming them", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const set = await prisma.itemSet.create({
      data: {
        projectId,
        kind: "toy_set",
        name: "toys",
        fileName: "toys.jsonl",
        sha256: "0".repeat(64),
        itemCount: 1,
        importedById: owner.userId,
      },
    });
    await prisma.item.create({
      data: {
        projectId,
        setId: set.id,
        videoId: videoIds[0]!,
        externalId: "x",
        kind: "toy",
        group: "g",
        payload: { text: "hello" },
      },
    });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const start = async (input: { itemSetId?: string }) =>
      createRun(
        { prisma, queue: { enqueue: async () => {} }, pipelines: { toy_items: toyPipeline } },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "toy_items" as "hallucination",
          endpointId: endpoint.id,
          ...input,
        },
      );
    await expect(start({})).rejects.toThrow(/name the set with itemSetId/);
    await expect(start({ itemSetId: set.id })).rejects.toThrow(
      new RegExp(
        `No video with a uniform frame set of 2 frames matches\\. Extract them first \\(1 video\\) on the Extract pending page \\(/projects/${projectId}/pending\\?uniform=2&videos=all\\) for: Mechanics/A ball rolls down a ramp number 0-0\\.mp4\\.$`,
      ),
    );
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  });
});

describe("frame-set requirements", () => {
  it("give a key-frame pipeline the latest key-frame set, never a newer uniform one, and report videos with none", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 2,
      uniformFrames: 8,
    });
    // A third video with only a uniform frame set: nothing a key-frame pipeline can use.
    const third = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, uniformFrames: 8 });
    await prisma.video.update({ where: { id: third.videoIds[0]! }, data: { projectId, sha256: "f".repeat(64) } });
    await prisma.frameSet.deleteMany({ where: { videoId: third.videoIds[0]!, mode: "density-peaks" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });

    const run = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    expect(run).toMatchObject({ videos: 2, withoutFrames: [{ id: third.videoIds[0] }], withoutFramesCount: 1 });
    const used = await prisma.runVideo.findMany({
      where: { runId: run.id },
      select: { videoId: true, frameSetId: true },
    });
    for (const videoId of videoIds) {
      const keyFrameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId, mode: "density-peaks" } });
      expect(used.find((row) => row.videoId === videoId)!.frameSetId).toBe(keyFrameSet.id);
    }
  });
});

describe("cache salts and frame sets of any mode", () => {
  const sameStep = (id: string, after: string | null, cacheSalt: string | undefined) => ({
    id,
    label: id,
    scope: "video" as const,
    templateId: "toy/describe",
    schema: z.object({ answer: z.string() }),
    responseFormat: { type: "json_object" },
    dependsOn: () => (after ? [{ stepId: after, scopeIndex: 0 }] : []),
    // The same prompt for every step, no frames: only the salt tells them apart.
    input: (): StepInput => ({ values: { text: "the same prompt" }, frames: [], ...(cacheSalt ? { cacheSalt } : {}) }),
  });
  const saltTask: TaskDeclaration = { ...toyTask, id: "toy_salts", targets: [], metrics: [] };
  const saltPipeline: PipelineDefinition = {
    id: "toy_salts",
    label: "Toy salts",
    task: saltTask,
    metricValues: () => ({}),
    frames: () => ({ mode: "any" }),
    steps: [
      sameStep("salted_1", null, "attempt-1"),
      sameStep("salted_2", "salted_1", "attempt-2"),
      sameStep("plain_1", "salted_2", undefined),
      sameStep("plain_2", "plain_1", undefined),
    ],
    summarize: () => ({}),
  };

  it("asks anew for equal prompts with different salts, answers equal unsalted prompts from the cache, and uses the latest frame set of any mode", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      uniformFrames: 4,
    });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: `stub-salts-${projectId.slice(-8)}`,
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
    provideCataloguesWith(
      { module: { id: "toy_items", pipelines: [toyPipeline as RegisteredPipeline] } },
      { module: { id: "toy_salts", pipelines: [saltPipeline as RegisteredPipeline] } },
    );
    const saltDeps = testJudgeDeps({ templates });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(saltDeps), pipelines: { toy_salts: saltPipeline } },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "toy_salts" as "hallucination",
        endpointId: endpoint.id,
      },
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
    });
    const steps = await prisma.stepResult.findMany({ where: { runId: run.id }, include: { calls: true } });
    const cached = Object.fromEntries(steps.map((s) => [s.stepId, s.calls.map((c) => c.cached)]));
    expect(cached).toEqual({ salted_1: [false], salted_2: [false], plain_1: [false], plain_2: [true] });
    // The request is the prompt alone: the salt goes into the cache key only.
    expect(new Set(steps.map((s) => (s.calls[0]!.request as { text: string }).text)).size).toBe(1);
    const latest = await prisma.frameSet.findFirstOrThrow({
      where: { videoId: videoIds[0]! },
      orderBy: { createdAt: "desc" },
    });
    expect((await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id } })).frameSetId).toBe(latest.id);
  });
});

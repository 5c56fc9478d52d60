/**
 * A rubric criterion that localises: the prompt numbers the call's frames with their times, the answer names the
 * frames where it fails (repaired when only written loosely, refused with the reason when not frames of the call),
 * and a run keeps consecutive named frames as its spans of the criterion, against the stub LLM.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { parseStructuredOutput } from "../judge/calls/parse-llm-output";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { frameTimesFromTimestamps } from "../frames/frame-times";
import type { JudgeSpanInput, SampledFrame } from "../task-modules/judge-span-types";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { rubricProblems, type RubricDefinition, type RubricDefinitionInput } from "./rubric-definition";
import { rubricJudgeSpans } from "./rubric-judge-spans";
import { rubricPromptValues, rubricScopeInput } from "./rubric-pipeline";
import { answerJsonSchema, answerSchema, renderRubricPrompt } from "./rubric-prompt";
import { createRubricTask } from "./rubric-tasks";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const input = (frames: RubricDefinitionInput["frames"], localize = true): RubricDefinitionInput => ({
  name: "Where it breaks",
  frames,
  criteria: [
    { id: "defect", name: "Defect", type: "boolean", definition: "Something is broken.", localize },
    { id: "quality", name: "Quality", type: "numeric", min: 0, max: 10, step: 1, definition: "Overall, 0–10." },
  ],
  prompt: "The images are {{frames}}\n\nJudge them on:\n{{criteria}}",
});
const parsed = (frames: RubricDefinitionInput["frames"], localize = true): RubricDefinition => {
  const { definition, problems } = rubricProblems(input(frames, localize));
  expect(problems).toEqual([]);
  return definition!;
};

// Four sampled frames, 0.5 s apart.
const sampled: SampledFrame[] = [0, 1, 2, 3].map((i) => ({
  index: i,
  timestampS: i * 0.5,
  isKeyFrame: true,
  cluster: null,
}));

// 25 fps, 50 frames: sampled frame n (0.5 s apart) is video frame 12.5 × (n - 1), rounded down.
const times = frameTimesFromTimestamps(Array.from({ length: 50 }, (_, i) => i * 0.04))!;

describe("a criterion's localize", () => {
  it("is allowed where a call sees several frames, and refused where each key frame is its own call", () => {
    parsed({ mode: "uniform", count: 4 });
    parsed({ mode: "each_cluster" });
    expect(rubricProblems(input({ mode: "each_key_frame" })).problems).toEqual([
      { path: "criteria.0.localize", message: expect.stringContaining("localize needs several frames per call") },
    ]);
    const named = input({ mode: "uniform", count: 4 });
    named.criteria[0]!.id = "frames";
    expect(rubricProblems(named).problems.map((p) => p.path)).toEqual(["criteria.0.id"]);
  });

  it("numbers the call's frames with their times in the prompt, and asks for the frames where it fails", () => {
    const definition = parsed({ mode: "uniform", count: 4 });
    const scope = rubricScopeInput(definition, 0, {
      prompt: "A cup",
      frames: sampled as never,
      keyFrames: [],
      clusters: [],
    });
    const prompt = renderRubricPrompt(definition, rubricPromptValues(scope.values));
    expect(prompt).toContain(
      "The attached frames, numbered in the order attached: Frame 1 (t = 0.00 s); Frame 2 (t = 0.50 s); Frame 3 (t = 1.00 s); Frame 4 (t = 1.50 s).",
    );
    expect(prompt).toContain(
      '- "frames": an object giving, for each of "defect", the numbers of the frames where it fails',
    );
    expect(prompt).toContain('"frameCount":4');
    const schema = answerJsonSchema(definition) as { json_schema: { schema: { properties: Record<string, unknown> } } };
    expect(schema.json_schema.schema.properties.frames).toMatchObject({ required: ["defect"] });

    // A definition that does not localise asks as it did: no numbered frames, no "frames" key.
    const plain = parsed({ mode: "uniform", count: 4 }, false);
    const plainScope = rubricScopeInput(plain, 0, {
      prompt: "A cup",
      frames: sampled as never,
      keyFrames: [],
      clusters: [],
    });
    const plainPrompt = renderRubricPrompt(plain, rubricPromptValues(plainScope.values));
    expect(plainPrompt).not.toContain("Frame 1 (t =");
    expect(plainPrompt).not.toContain('"frames"');
  });

  it("reads loosely written frames (numeric strings, repeats, any order) and refuses what are not the call's frames", () => {
    const schema = answerSchema(parsed({ mode: "uniform", count: 4 }), 4);
    const read = (answer: unknown) => parseStructuredOutput(JSON.stringify(answer), schema);
    expect(read({ defect: true, quality: 3, frames: { defect: ["3", 2, 2, 1] } })).toMatchObject({
      ok: true,
      value: { values: { defect: 1, quality: 3 }, frames: { defect: [1, 2, 3] } },
    });
    expect(read({ defect: false, quality: 3, frames: { defect: [] } })).toMatchObject({
      ok: true,
      value: { frames: { defect: [] } },
    });
    const refused = (answer: unknown) => {
      const outcome = read(answer);
      expect(outcome.ok).toBe(false);
      return (outcome as { error: string }).error;
    };
    expect(refused({ defect: true, quality: 3 })).toMatch(/give "frames"/);
    expect(refused({ defect: true, quality: 3, frames: {} })).toMatch(/frames where defect fails/);
    expect(refused({ defect: true, quality: 3, frames: { defect: 2 } })).toMatch(/frames where defect fails/);
    expect(refused({ defect: true, quality: 3, frames: { defect: [5] } })).toMatch(
      /5 is not one of the frames \(1–4\)/,
    );
    expect(refused({ defect: true, quality: 3, frames: { defect: [0] } })).toMatch(/0 is not one of the frames/);
    expect(refused({ defect: true, quality: 3, frames: { defect: ["two"] } })).toMatch(/"two" is not a frame number/);
    expect(refused({ defect: true, quality: 3, frames: { defect: [1.5] } })).toMatch(/1.5 is not a frame number/);
  });
});

describe("a localising rubric's judge spans", () => {
  const spanInput = (outputs: unknown[], context: Partial<JudgeSpanInput["context"]> = {}): JudgeSpanInput => ({
    scores: [],
    context: { keyFrames: [], clusters: [], frames: sampled, items: [], ...context },
    settings: null,
    outputs: { get: (stepId, scope) => (stepId === "judge" ? outputs[scope] : undefined) },
    times,
  });

  it("turns consecutive named frames into one span, first to last, and keeps the rest apart", () => {
    const definition = parsed({ mode: "uniform", count: 4 });
    const spans = rubricJudgeSpans(7, definition, spanInput([{ frames: { defect: [1, 2, 4] } }]));
    expect(spans).toEqual([
      {
        label: "r7_defect",
        itemId: "",
        startFrame: 0,
        endFrame: 12,
        note: "Defect fails on frames 1–2 of the judge's call",
      },
      {
        label: "r7_defect",
        itemId: "",
        startFrame: 37,
        endFrame: 37,
        note: "Defect fails on frame 4 of the judge's call",
      },
    ]);
    // Stored answers read defensively: numbers outside the call, non-lists and other criteria give nothing.
    expect(rubricJudgeSpans(7, definition, spanInput([{ frames: { defect: [0, 9, "2"], quality: [1] } }]))).toEqual([]);
    expect(rubricJudgeSpans(7, definition, spanInput([{ frames: { defect: "1" } }]))).toEqual([]);
    expect(rubricJudgeSpans(7, definition, spanInput([null]))).toEqual([]);
  });

  it("maps each cluster's numbers to its own frames and merges one criterion's spans that touch", () => {
    const definition = parsed({ mode: "each_cluster" });
    const clusters = [sampled.slice(0, 2), sampled.slice(2, 4)];
    const spans = rubricJudgeSpans(
      7,
      definition,
      spanInput([{ frames: { defect: [2] } }, { frames: { defect: [1] } }], { clusters }),
    );
    // Cluster 1's frame 2 is 0.5 s (frame 12), cluster 2's frame 1 is 1.0 s (frame 25): apart.
    expect(spans.map((s) => [s.startFrame, s.endFrame])).toEqual([
      [12, 12],
      [25, 25],
    ]);
    const touching = rubricJudgeSpans(
      7,
      definition,
      spanInput([{ frames: { defect: [1, 2] } }, { frames: { defect: [1, 2] } }], {
        clusters: [sampled.slice(0, 2), sampled.slice(1, 3)],
      }),
    );
    // Overlapping clusters (frames 1–2 and 2–3) name frames 0–12 and 12–25: one span.
    expect(touching.map((s) => [s.startFrame, s.endFrame])).toEqual([[0, 25]]);
  });
});

describe("a localising item rubric's judge spans", () => {
  it("names each item's spans with the item", () => {
    const { definition } = rubricProblems({
      ...input({ mode: "uniform", count: 4 }),
      subject: { kind: "item", fields: ["text"] },
      prompt: "{{frames}} {{item.text}} {{criteria}}",
    });
    const spans = rubricJudgeSpans(7, definition!, {
      scores: [],
      context: { keyFrames: [], clusters: [], frames: sampled, items: [{ id: "item-a" }, { id: "item-b" }] },
      settings: null,
      outputs: { get: (_, scope) => ({ frames: { defect: scope === 1 ? [3] : [] } }) },
      times,
    });
    expect(spans).toEqual([
      {
        label: "r7_defect",
        itemId: "item-b",
        startFrame: 25,
        endFrame: 25,
        note: "Defect fails on frame 3 of the judge's call",
      },
    ]);
  });
});

describe("a localising rubric's run against the stub LLM", () => {
  let stub: StubServer;
  let owner: Actor;
  beforeAll(async () => {
    stub = await startStubLlm();
    owner = await makeUser();
  });
  afterAll(() => stub.close());

  it("keeps the frames the stub names as the run's spans of the criterion", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 4,
      keyFrames: 2,
      uniformFrames: 4,
    });
    for (const videoId of videoIds)
      await prisma.videoFrameTimes.create({
        data: { videoId, timesS: [...times.timesS], endS: times.endS, variable: false },
      });
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
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: input({ mode: "uniform", count: 4 }),
    });
    const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
    const run = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: task.pipeline,
      endpointId: endpoint.id,
    });
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).steps).toMatchObject({
      total: videoIds.length,
      done: videoIds.length,
    });

    const answers = await prisma.stepResult.findMany({
      where: { runId: run.id },
      select: { videoId: true, output: true },
    });
    const expected = answers.flatMap(({ videoId, output }) => {
      const named = (output as { frames: { defect: number[] } }).frames.defect;
      expect(named.every((n) => n >= 1 && n <= 4)).toBe(true);
      // Each answer's frames are one run of consecutive frames (the stub's), so one span from its first to its last.
      return named.length === 0
        ? []
        : [{ videoId, frames: [Math.floor(12.5 * (named[0]! - 1)), Math.floor(12.5 * (named.at(-1)! - 1))] }];
    });
    const spans = await prisma.span.findMany({ where: { runId: run.id } });
    expect(
      spans
        .map((s) => ({ videoId: s.videoId, frames: [s.startFrame, s.endFrame] }))
        .sort((a, b) => a.videoId.localeCompare(b.videoId)),
    ).toEqual(expected.sort((a, b) => a.videoId.localeCompare(b.videoId)));
    expect(new Set(spans.map((s) => `${s.task} ${s.label} ${s.authorKind} ${s.authorId}`))).toEqual(
      new Set(spans.length ? [`${task.pipeline} r${task.key}_defect judge run:${run.id}`] : []),
    );
  });
});

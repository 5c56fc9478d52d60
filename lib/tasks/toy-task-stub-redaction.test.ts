/**
 * A task is its folder: a toy task in a catalogue of the test's own (its module and its declarations, and its
 * kit's stub rule handed to the stub) has its prompts answered by the stub LLM with its own rule, through a run on the engine,
 * and its run results redacted for a blind reviewer by its own redactResult. No edit to testkit/llm-stub or
 * lib/visibility, and no list there names it.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import type { PipelineDefinition, RegisteredPipeline } from "../task-modules/pipeline-types";
import type { TemplateSource } from "../judge/prompts/template-source";
import { createRun, getRunStatus } from "../judge/runs/runs";
import type { StubRule } from "../../testkit/llm-stub/stub-rule";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { defaultStubRules } from "../../testkit/llm-stub/stub-rules";
import { TASK_KITS } from "../../testkit/task-kits";
import { addMember } from "../projects/projects";
import { nextItem } from "../queues/next-item";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { provideCataloguesWith } from "../../testkit/testing/provide-catalogues";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { redactResultsFor, withheldResult } from "../visibility/judge-visibility";

import type { TaskDeclaration } from "../task-modules/task-declaration";
import { builtInCatalogue, type ProjectTask, withTasks } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const TOY_TEMPLATE = "Toy colour judge. Name the colour of this video in one word.";

const toyTask: TaskDeclaration = {
  id: "toy_colour",
  label: "Toy colour judge",
  subject: "video",
  targets: [
    {
      id: "toy_bright",
      label: "Bright",
      definition: "The judge finds the video bright.",
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "yes" },
          { value: 0, label: "no" },
        ],
      },
      level: "nominal",
      higherIsBetter: true,
      scope: "video",
      positive: { op: "==", value: 1, label: "bright" },
    },
  ],
  metrics: [],
  groupings: [],
};

const toyPipeline: PipelineDefinition = {
  id: "toy_colour",
  label: "Toy colour judge",
  task: toyTask,
  steps: [
    {
      id: "colour",
      label: "Name the colour",
      scope: "video",
      templateId: "toy/colour",
      schema: z.object({ colour: z.string(), bright: z.boolean() }),
      responseFormat: { type: "json_object" },
      dependsOn: () => [],
      input: (_scopeIndex, context) => ({ values: {}, frames: context.frames }),
      scores: (output) => [{ category: "toy_bright", value: (output as { bright: boolean }).bright ? 1 : 0 }],
    },
  ],
  summarize: (scores) => ({ bright: scores.find((s) => s.category === "toy_bright")?.value ?? null }),
  metricValues: () => ({}),
};

/** The toy's own stub rule: the only thing that can answer its prompt with a colour. */
const toyRule: StubRule = {
  name: "toy-colour",
  match: /^Toy colour judge\./,
  respond: (context) => JSON.stringify({ colour: ["teal", "amber"][context.pick(2, "colour")], bright: true }),
};

/** A toy run result as the toy's own read would return it. */
interface ToyResult {
  video: { id: string };
  colour: string | null;
  bright: boolean | null;
}

const templates: TemplateSource = {
  get: (id) => {
    if (id !== "toy/colour") throw new Error(`no template ${id}`);
    return { hash: createHash("sha256").update(TOY_TEMPLATE).digest("hex"), render: () => TOY_TEMPLATE };
  },
};

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
/** The toy's own redaction, which its reads hand to lib/visibility as a task's visible-*-results do. */
const redactToy = (result: ToyResult) => ({ ...result, colour: null, bright: null });
/** The built-in catalogue with the toy task added: createRun is handed its pipelines, as a route hands its request's. */
const toyEntry: ProjectTask = {
  module: {
    id: "toy-colour",
    pipelines: [toyPipeline as RegisteredPipeline],
    redactResult: (result) => redactToy(result as ToyResult),
  },
  declarations: { id: "toy-colour", tasks: [toyTask] },
};
const toy = withTasks(builtInCatalogue(), toyEntry);
// The engine finds the toy task in its project's catalogue, as it finds a project's own task.
provideCataloguesWith(toyEntry);

beforeAll(async () => {
  stub = await startStubLlm({ rules: defaultStubRules([...TASK_KITS, { id: "toy-colour", stubRules: [toyRule] }]) });
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
});
afterAll(async () => {
  await stub.close();
});

describe("a toy task of a catalogue of the test's own", () => {
  it("is judged through the stub by its own rule, and a blind reviewer gets its results through its own redaction", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      name: "Toy task",
    });
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
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
    const deps = testJudgeDeps({ templates });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(deps), pipelines: toy.pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "toy_colour" as "hallucination",
        endpointId: endpoint.id,
      },
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      calls: { total: 2 },
    });
    // The stub answered with the toy's rule, not its fallback ({"answer":"stub"}, which the toy's schema refuses).
    expect(stub.requests.map((request) => request.rule)).toEqual(["toy-colour", "toy-colour"]);
    const steps = await prisma.stepResult.findMany({ where: { runId: run.id }, orderBy: { videoId: "asc" } });
    const results: ToyResult[] = steps.map((step) => ({
      video: { id: step.videoId },
      ...(step.output as { colour: string; bright: boolean }),
    }));
    expect(results.map((r) => r.bright)).toEqual([true, true]);
    expect(results.every((r) => r.colour === "teal" || r.colour === "amber")).toBe(true);

    // A blind queue over the first video, whose item the reviewer holds.
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Blind",
        runId: run.id,
        scope: "verdict",
        blind: true,
        reviewersPerItem: 1,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 } });
    expect(
      (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
    ).not.toBeNull();

    const seen = await redactResultsFor(prisma, reviewer.userId, redactToy, results, (r) => r.video.id);
    const byVideo = Object.fromEntries(seen.map((r) => [r.video.id, r]));
    expect(byVideo[videoIds[0]!]).toEqual({ video: { id: videoIds[0] }, colour: null, bright: null, blind: true });
    expect(byVideo[videoIds[1]!]).toMatchObject({
      colour: results.find((r) => r.video.id === videoIds[1])!.colour,
      bright: true,
      blind: false,
    });
    const ownerView = await redactResultsFor(prisma, owner.userId, redactToy, results, (r) => r.video.id);
    expect(ownerView.every((r) => !r.blind && r.bright === true)).toBe(true);
    expect(withheldResult(redactToy, results[0]!)).toMatchObject({ colour: null, bright: null });
  });
});

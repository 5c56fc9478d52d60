/**
 * QA runs end to end on PostgreSQL with the stub LLM (a test tool), against values worked out by hand from
 * the stub's rules (lib/tasks/qa/stub-rules.ts) and the small question set (testkit/tasks/qa/qa-fixtures.ts):
 * a model that sees picks the option sharing the most words with the question (right on q1 and q3, wrong on
 * q2), and the open question's restated answer shares enough words with its reference to be judged right.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import type { QaDecision } from "./qa-pipeline";
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
beforeEach(() => stub.reset());

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const start = async (projectId: string, input: Record<string, unknown>) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse(input),
  );

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

/**
 * Two videos of 128×96 whose uniform frames are 64×48: a quarter of their area, as the default resize plans.
 * Model names are new per project: judge prompts carry no frames, so the response cache would otherwise
 * answer one test's judge calls from another's.
 */
async function qaProject(lines: unknown[] = smallQuestionSet()) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
  });
  await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
  const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
    fileName: "questions.jsonl",
    bytes: questionSetBytes(lines),
  });
  const suffix = projectId.slice(-8);
  return {
    projectId,
    videoIds,
    setId: set.set.id!,
    model: await endpoint(projectId, "Model (simulated)", `stub-vision-${suffix}`),
    judge: await endpoint(projectId, "Judge (simulated)", `stub-judge-${suffix}`),
  };
}

async function decisions(runId: string, stepId = "decide") {
  // Calls in the order they were made (a repair follows its first call, possibly in the same millisecond).
  const steps = await prisma.stepResult.findMany({
    where: { runId, stepId },
    include: { calls: { orderBy: [{ createdAt: "asc" }, { isRepair: "asc" }] } },
  });
  const items = await prisma.item.findMany({
    where: { id: { in: steps.map((s) => s.itemId) } },
    select: { id: true, externalId: true },
  });
  const external = new Map(items.map((i) => [i.id, i.externalId]));
  return Object.fromEntries(
    steps.map((s) => [
      external.get(s.itemId)!,
      { status: s.status, output: s.output as unknown as QaDecision | null, error: s.error, calls: s.calls },
    ]),
  );
}

describe("QA runs", () => {
  it("answers every question with the run's frames, reads letters itself, asks the judge endpoint only for open and letterless answers, and stores every call", async () => {
    const { projectId, setId, model, judge } = await qaProject();
    const run = await start(projectId, {
      pipeline: "qa",
      endpointId: model,
      questionSetId: setId,
      settings: { frames: 8, judgeEndpointId: judge, textOnlyBaseline: true },
    });
    expect(run).toMatchObject({ videos: 2, items: 4, withoutFramesCount: 0 });
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status).toMatchObject({
      status: "done",
      pipeline: "qa",
      simulated: true,
      steps: { failed: 0, parse_failed: 0, skipped: 0 },
    });

    const decided = await decisions(run.id);
    expect(
      Object.fromEntries(Object.entries(decided).map(([q, d]) => [q, [d.output?.outcome, d.output?.decidedBy]])),
    ).toEqual({
      q1: ["correct", "letter"],
      q2: ["wrong", "letter"],
      q3: ["correct", "letter"],
      q4: ["correct", "judge"],
    });
    expect(decided.q2!.output).toMatchObject({
      letter: "B",
      judgement: null,
      reason: expect.stringMatching(/B( with its text)?; the correct option is C\.$/),
    });
    // A letter read by FrameJury makes no call; the open question's judge call goes to the judge endpoint.
    expect(decided.q1!.calls).toHaveLength(0);
    expect(decided.q4!.calls.map((c) => c.model)).toEqual([expect.stringMatching(/^stub-judge-/)]);
    expect((decided.q4!.calls[0]!.request as { text: string }).text).toContain(
      "   - Correct Answer: The ball rolls down the ramp.\n   - Student’s Answer: From the frames:",
    );
    expect(decided.q4!.output).toMatchObject({ judgement: "Yes", reason: expect.stringContaining("Simulated") });

    // The answers: the evaluated model's endpoint, the 8 frames with the text, the raw answer, tokens and cost.
    const answers = await prisma.stepResult.findMany({
      where: { runId: run.id, stepId: "answer" },
      include: { calls: true },
    });
    expect(answers).toHaveLength(4);
    for (const answer of answers) {
      expect(answer.status).toBe("done");
      const [call] = answer.calls;
      expect(call).toMatchObject({ model: expect.stringMatching(/^stub-vision-/), cached: false, httpStatus: 200 });
      expect((call!.request as { frameIds: string[] }).frameIds).toHaveLength(8);
      expect(call!.promptTokens).toBeGreaterThan(8 * 255);
      expect(call!.costUsd).toBeGreaterThan(0);
      expect((answer.output as { text: string }).text).toBe(call!.responseText);
      expect(answer.templateId).toMatch(/^qa\/answer-(mc|open)$/);
    }
    // The text-only baseline: no frames, seed 004's blind prompts.
    const blind = await prisma.stepResult.findMany({
      where: { runId: run.id, stepId: "text_only_answer" },
      include: { calls: true },
    });
    expect(blind.map((s) => (s.calls[0]!.request as { frameIds: string[] }).frameIds.length)).toEqual([0, 0, 0, 0]);
    expect(blind.map((s) => s.templateId).sort()).toEqual([
      "qa/text-only-mc",
      "qa/text-only-mc",
      "qa/text-only-mc",
      "qa/text-only-open",
    ]);

    // The correctness target and the per-question metrics.
    const scores = await prisma.score.findMany({
      where: { runId: run.id },
      select: { category: true, value: true, itemId: true },
    });
    expect(scores.map((s) => s.category)).toEqual(["correctness", "correctness", "correctness", "correctness"]);
    expect(scores.reduce((sum, s) => sum + s.value, 0)).toBe(3);
    const metrics = await prisma.runMetric.findMany({ where: { runId: run.id, metric: "correct" } });
    expect(metrics.map((m) => m.value).sort()).toEqual([0, 1, 1, 1]);
    expect(await prisma.runMetric.count({ where: { runId: run.id, metric: "correct_without_video" } })).toBe(4);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).endpointSnapshot).toMatchObject({
      model: expect.stringMatching(/^stub-vision-/),
      roles: { judge: { id: judge, model: expect.stringMatching(/^stub-judge-/) } },
    });

    // An identical second run makes no call: every answer and judgement comes from the cache.
    const again = await start(projectId, {
      pipeline: "qa",
      endpointId: model,
      questionSetId: setId,
      settings: { frames: 8, judgeEndpointId: judge, textOnlyBaseline: true },
    });
    const calls = await prisma.llmCall.findMany({ where: { runId: again.id } });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.cached)).toBe(true);
    expect(
      Object.values(await decisions(again.id))
        .map((d) => d.output?.outcome)
        .sort(),
    ).toEqual(["correct", "correct", "correct", "wrong"]);
  });

  it("asks the judge when the answer names two letters, and without a judge endpoint the run's own endpoint judges", async () => {
    const { projectId, setId, model } = await qaProject(smallQuestionSet().slice(0, 1));
    stub.addFault({
      fault: { kind: "content", content: "It is A or B." },
      match: "Answer with the option’s letter",
      times: 1,
    });
    const run = await start(projectId, { pipeline: "qa", endpointId: model, questionSetId: setId });
    const decided = await decisions(run.id);
    expect(decided.q1!.output).toMatchObject({
      outcome: "wrong",
      decidedBy: "judge",
      letter: null,
      judgement: "No",
      extraction: "the answer names several options (A, B)",
    });
    expect(decided.q1!.calls.map((c) => c.model)).toEqual([expect.stringMatching(/^stub-vision-/)]);
    expect((decided.q1!.calls[0]!.request as { text: string }).text).toContain(
      "   - Student’s Answer: It is A or B.\n",
    );
  });

  it("asks the judge when the answer lists options one per line (issue 38: it used to be read as the first line's letter)", async () => {
    const { projectId, setId, model } = await qaProject(smallQuestionSet().slice(0, 1));
    const listed = "A. The ball rolls down the ramp.\nB. It flies away.";
    stub.addFault({ fault: { kind: "content", content: listed }, match: "Answer with the option’s letter", times: 1 });
    const run = await start(projectId, { pipeline: "qa", endpointId: model, questionSetId: setId });
    const decided = await decisions(run.id);
    expect(decided.q1!.output).toMatchObject({
      outcome: "wrong",
      decidedBy: "judge",
      letter: null,
      extraction: "the answer lists options (A, B), each on its own line with its letter, and chooses none",
    });
    expect(decided.q1!.calls).toHaveLength(1);
    expect((decided.q1!.calls[0]!.request as { text: string }).text).toContain(`   - Student’s Answer: ${listed}\n`);
  });

  it("keeps deciding through the judge's faults: a 429 is retried, prose is read, a truncated answer gets its one repair", async () => {
    const { projectId, setId, model, judge } = await qaProject(
      smallQuestionSet()
        .filter((q) => q.format === "open")
        .concat(
          { ...smallQuestionSet()[3]!, id: "q5", question: "Where does the ball stop on the ramp?" },
          { ...smallQuestionSet()[3]!, id: "q6", question: "How does the ball move on the ramp?" },
        ),
    );
    stub.addFault({
      fault: { kind: "status", status: 429, retryAfter: 0 },
      match: "Question: What does the ball do on the ramp?",
      times: 1,
    });
    stub.addFault({ fault: { kind: "prose" }, match: "Question: Where does the ball stop on the ramp?", times: 1 });
    stub.addFault({ fault: { kind: "truncated" }, match: "Question: How does the ball move on the ramp?", times: 1 });
    const run = await start(projectId, {
      pipeline: "qa",
      endpointId: model,
      questionSetId: setId,
      settings: { judgeEndpointId: judge },
    });
    const decided = await decisions(run.id);
    for (const q of ["q4", "q5", "q6"]) expect(decided[q]!.status, q).toBe("done");
    expect(decided.q4!.calls.map((c) => [c.httpStatus, c.isRepair])).toEqual([[200, false]]);
    expect(stub.requests.filter((r) => r.fault === "status")).toHaveLength(1);
    expect(decided.q5!.calls.map((c) => c.isRepair)).toEqual([false]);
    expect(decided.q6!.calls.map((c) => [c.finishReason, c.isRepair])).toEqual([
      ["length", false],
      ["stop", true],
    ]);
    expect(Object.values(decided).every((d) => d.output!.decidedBy === "judge")).toBe(true);
  });

  it("ends a question unanswerable, with the reason, when the judge cannot be read after its repair or the model cannot be reached", async () => {
    const { projectId, setId, model, judge } = await qaProject(smallQuestionSet().slice(2, 4));
    // q3's answer: the endpoint fails every retry. q4's judge: no JSON twice.
    stub.addFault({
      fault: { kind: "status", status: 500 },
      match: "Question:What happens after the ball stops?",
      times: 5,
    });
    stub.addFault({
      fault: { kind: "content", content: "Sure, it looks right to me." },
      match: "carefully check whether the student",
      times: 2,
    });
    const run = await start(projectId, {
      pipeline: "qa",
      endpointId: model,
      questionSetId: setId,
      settings: { judgeEndpointId: judge },
    });
    const decided = await decisions(run.id);
    expect(decided.q3).toMatchObject({
      status: "skipped",
      output: null,
      error: expect.stringContaining("answer[0] ended failed"),
    });
    expect(decided.q4).toMatchObject({
      status: "parse_failed",
      output: null,
      error: expect.stringContaining("Repair:"),
    });
    const summaries = await prisma.runVideo.findMany({ where: { runId: run.id }, select: { summary: true } });
    expect(
      summaries.flatMap((s) => (s.summary as { items: { outcome: string }[] }).items.map((i) => i.outcome)),
    ).toEqual(["unanswerable", "unanswerable"]);
    // Nothing is defaulted: no score and no correct/wrong metric for either.
    expect(await prisma.score.count({ where: { runId: run.id } })).toBe(0);
    expect(await prisma.runMetric.count({ where: { runId: run.id, metric: "correct" } })).toBe(0);
  });

  it("uses only uniform frame sets of the planned size, and says which videos lack one", async () => {
    const { projectId, videoIds, setId, model } = await qaProject();
    // The second video is 1280×720: a quarter of its area is 640×360, and its 64×48 frames do not fit.
    await prisma.video.update({ where: { id: videoIds[1]! }, data: { width: 1280, height: 720 } });
    const quarter = await start(projectId, { pipeline: "qa", endpointId: model, questionSetId: setId });
    expect(quarter).toMatchObject({ videos: 1, items: 2, withoutFramesCount: 1, withoutFrames: [{ id: videoIds[1] }] });
    // Its set was extracted with a longest side of 768: a run asking for that takes both videos.
    const longest = await start(projectId, {
      pipeline: "qa",
      endpointId: model,
      questionSetId: setId,
      settings: { resize: { mode: "longest_side", px: 768 } },
    });
    expect(longest).toMatchObject({ videos: 2, items: 4, withoutFramesCount: 0 });
    await expect(
      start(projectId, { pipeline: "qa", endpointId: model, questionSetId: setId, settings: { frames: 16 } }),
    ).rejects.toThrow(/a uniform frame set of 16 frames at a quarter of the video's area/);
    await expect(
      start(projectId, { pipeline: "qa", endpointId: model, questionSetId: setId, settings: { frames: 12 } }),
    ).rejects.toThrow(/frames must be 8 or 16/);
    await expect(
      start(projectId, {
        pipeline: "qa",
        endpointId: model,
        questionSetId: setId,
        settings: { judgeEndpointId: "nope" },
      }),
    ).rejects.toThrow(/No such endpoint in this project for the judge/);
    await expect(start(projectId, { pipeline: "qa", endpointId: model })).rejects.toThrow(/questionSetId/);
  });
});

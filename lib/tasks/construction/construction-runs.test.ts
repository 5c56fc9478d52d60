/**
 * Seed 004's construction end to end on PostgreSQL with the stub LLM: a step annotation set of three clips,
 * a qa_generate run, its candidates, a qa_construct run (categorise, the four filters, the multiple-choice
 * transformation), a curator's restore and the run that continues it. Expected results are worked out here
 * from the stub's rules (lib/tasks/construction/stub-rules.ts): marker words in the steps a question names.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { restoreCandidate } from "@/lib/tasks/construction/candidate-restores";
import { loadCandidateViews, type CandidateView } from "@/lib/tasks/construction/candidate-views";
import { candidateSetDetail, constructionQuerySchema } from "@/lib/tasks/construction/construction-overview";
import { createCandidatesFromRun } from "@/lib/tasks/construction/candidates";
import { filterFunnel, type FilterId } from "@/lib/tasks/construction/filter-funnel";
import { importStepAnnotations } from "@/lib/tasks/construction/step-annotation-sets";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { NotFoundError } from "@/lib/errors";
import { addMember, createProject } from "@/lib/projects/projects";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const start = async (projectId: string, input: Record<string, unknown>) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse(input),
  );
const bytes = (records: unknown[]) => new TextEncoder().encode(records.map((r) => JSON.stringify(r)).join("\n"));
const fileName = (v: number) => `A ball rolls down a ramp number ${v}-0.mp4`;

/** Four steps per clip, no word shared between steps; marker words pick the faults. */
const STEPS = [
  ["clean out the face", "apply tissue using water", "cover the obvious cheeks", "put plaster under neck"],
  ["slice unicorn bread", "spread tricky margarine", "melt stubborn cheddar", "serve warm plate"],
  ["knead vague dough", "roll twin sheets", "fold garbled edges", "bake golden crust"],
];
const TIMES = [
  [35, 48],
  [48, 60],
  [60, 72],
  [72, 77],
] as const;
const ANNOTATIONS = [
  { video: fileName(0), theme: "Make a Plaster Mask", duration: 103, dataset: "hirest" },
  { video: fileName(1), theme: "Grilled cheese", duration: 90, dataset: "youcook2" },
  { video: fileName(2), theme: "Bake a pie", duration: 80, dataset: "generic" },
].map((a, v) => ({ ...a, steps: STEPS[v]!.map((text, i) => ({ start: TIMES[i]![0], end: TIMES[i]![1], text })) }));

const has = (text: string, word: string) => new RegExp(`\\b${word}\\b`, "i").test(text);

/** What the stub's rules make of a question: the filter that removes it, else how it transforms. */
function expectedOf(question: string): {
  removedBy: FilterId | null;
  transform: "attempt 1" | "attempt 2" | "could_not_transform" | null;
} {
  const removedBy = has(question, "obvious")
    ? "blind"
    : has(question, "unicorn")
      ? "hallucination"
      : has(question, "tricky")
        ? "tricky"
        : has(question, "vague")
          ? "unspecific"
          : null;
  if (removedBy) return { removedBy, transform: null };
  return {
    removedBy: null,
    transform: has(question, "stubborn") ? "could_not_transform" : has(question, "twin") ? "attempt 2" : "attempt 1",
  };
}

const shape = (view: CandidateView) => ({
  removedBy: view.fate.state === "removed" ? view.fate.by : null,
  transform:
    view.transform === null
      ? null
      : view.transform.state === "transformed"
        ? `attempt ${view.transform.attempt}`
        : view.transform.state,
});

let projectId: string;
let clipSetId: string;
let model: string;
let checker: string;
let endpointOf: (name: string, modelName: string) => Promise<string>;
let suffix: string;
let candidateSetId: string;
let firstConstructRunId: string;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1 });
  projectId = project.projectId;
  const set = await importStepAnnotations(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { fileName: "steps.jsonl", bytes: bytes(ANNOTATIONS) },
    { name: "Kitchen steps" },
  );
  clipSetId = set.set.id!;
  // Model names new per project: construction prompts carry no frames, so the cache would otherwise answer from another test run.
  suffix = projectId.slice(-8);
  const endpoint = async (name: string, modelName: string) =>
    (
      await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name,
        baseUrl: stub.baseURL,
        model: modelName,
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
  model = await endpoint("Constructor (simulated)", `stub-constructor-${suffix}`);
  checker = await endpoint("Checker (simulated)", `stub-checker-${suffix}`);
  endpointOf = endpoint;
});
afterAll(() => stub.close());

describe("Q&A construction runs", () => {
  it("generates coarse and fine pairs per clip with the clip's family template, filled as the seed formats it, and makes candidates with provenance when it ends, once", async () => {
    const run = await start(projectId, { pipeline: "qa_generate", endpointId: model, clipSetId });
    expect(run).toMatchObject({ videos: 3, items: 3 });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      steps: { failed: 0, parse_failed: 0 },
    });

    const steps = await prisma.stepResult.findMany({ where: { runId: run.id }, include: { calls: true } });
    expect(steps.map((s) => s.templateId).sort()).toEqual([
      "construction/generate-generic-coarse",
      "construction/generate-generic-fine",
      "construction/generate-hirest-coarse",
      "construction/generate-hirest-fine",
      "construction/generate-youcook2-coarse",
      "construction/generate-youcook2-fine",
    ]);
    // No frame goes with any construction call.
    expect(
      steps.flatMap((s) => s.calls).every((c) => (c.request as { frameIds: string[] }).frameIds.length === 0),
    ).toBe(true);

    // Table 4 filled by hand: the template's text with the clip's info as the seed's worked example prints it.
    const template = fs.readFileSync(
      path.join(process.cwd(), "prompts/construction/generate-hirest-coarse.md"),
      "utf8",
    );
    const body = template.slice(template.indexOf("\n---\n", 4) + "\n---\n".length).replace(/\n$/, "");
    const videoInfo = [
      "   - video_info:",
      "      - video theme: Make a Plaster Mask",
      "      - duration: 103.0s",
      "      - key action within specific time intervals:",
      "        - 35s ∼ 48s : clean out the face",
      "        - 48s ∼ 60s : apply tissue using water",
      "        - 60s ∼ 72s : cover the obvious cheeks",
      "        - 72s ∼ 77s : put plaster under neck",
    ].join("\n");
    const hirestCoarse = steps.find((s) => s.templateId === "construction/generate-hirest-coarse")!;
    expect((hirestCoarse.calls[0]!.request as { text: string }).text.trim()).toBe(
      body.replace("{{video_info}}", videoInfo).trim(),
    );
    // Seed 004's tables separate the system message from the prompt: the first paragraph went in the system role.
    const systemMessage = body.slice(0, body.indexOf("\n\n"));
    const received = stub.requests.filter(
      (r) => r.text.includes("Make a Plaster Mask") && r.text.startsWith(systemMessage),
    );
    expect(received.length).toBeGreaterThan(0);
    for (const request of received) expect(request.roles).toEqual(["system", "user"]);
    expect(received[0]!.text).toBe(
      `${systemMessage}\n${body.slice(body.indexOf("\n\n") + 2).replace("{{video_info}}", videoInfo)}`,
    );

    // The run's end made the candidate set; asking again (the API) returns it and makes nothing.
    const auto = await prisma.itemSet.findFirstOrThrow({
      where: { projectId, kind: "qa_candidates" },
      select: { id: true, itemCount: true, importedById: true },
    });
    expect(auto).toMatchObject({ itemCount: 18, importedById: owner.userId });
    const made = await createCandidatesFromRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      run.id,
    );
    expect(made).toEqual({ setId: auto.id, count: 18, existed: true, failedSteps: 0 });
    expect(
      await createCandidatesFromRun(prisma, await projectAccess(prisma, owner, projectId, "runs.manage"), run.id),
    ).toEqual(made);
    expect(await prisma.itemSet.count({ where: { projectId, kind: "qa_candidates" } })).toBe(1);
    expect(await prisma.item.count({ where: { setId: auto.id } })).toBe(18);
    candidateSetId = made.setId;

    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      candidateSetId,
    );
    expect(views).toHaveLength(18);
    const first = views.find((v) => v.externalId === `${fileName(0)}#0-coarse-1`)!;
    expect(first.payload).toMatchObject({
      video: expect.stringContaining(fileName(0)),
      dataset: "hirest",
      granularity: "coarse",
      question: "What happens after clean out the face?",
      answer: "apply tissue using water",
      provenance: {
        generationRunId: run.id,
        stepId: "generate_coarse",
        templateId: "construction/generate-hirest-coarse",
        templateHash: hirestCoarse.templateHash,
        endpointId: model,
        endpointModel: expect.stringMatching(/^stub-constructor-/),
        stepResultId: hirestCoarse.id,
        callId: hirestCoarse.calls[0]!.id,
        pairIndex: 0,
      },
    });
    expect(first).toMatchObject({
      category: null,
      decisions: {},
      fate: { state: "pending", at: "blind" },
      transform: null,
      attempts: 0,
    });
    const items = await prisma.item.findMany({
      where: { setId: candidateSetId },
      select: { kind: true, group: true, videoId: true },
    });
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(["qa_candidate"]));
    expect(items.filter((i) => i.group === "youcook2")).toHaveLength(6);
  });

  it("categorises, filters in the seed's order and transforms: the funnel and the outcomes are what the stub's rules predict", async () => {
    // A 429 on one construction call: retried as everywhere else.
    stub.addFault({
      fault: { kind: "status", status: 429, retryAfter: 0 },
      match: "identify any poorly-designed video questions",
      times: 1,
    });
    const run = await start(projectId, {
      pipeline: "qa_construct",
      endpointId: model,
      candidateSetId,
      settings: { checkerEndpointId: checker },
    });
    firstConstructRunId = run.id;
    expect(run).toMatchObject({ items: 18 });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      steps: { failed: 0, parse_failed: 0, skipped: 0 },
    });
    expect(stub.requests.filter((r) => r.fault === "status")).toHaveLength(1);

    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      candidateSetId,
    );
    for (const view of views) expect(shape(view), view.payload.question).toEqual(expectedOf(view.payload.question));

    // The funnel, worked out from the rules.
    const expected = views.map((v) => expectedOf(v.payload.question));
    const removedBy = (filter: FilterId) => expected.filter((e) => e.removedBy === filter).length;
    const funnel = filterFunnel(views);
    expect(funnel.map((s) => [s.id, s.kept, s.removed, s.pending])).toEqual([
      ["generated", 18, 0, 0],
      ["blind", 18 - removedBy("blind"), removedBy("blind"), 0],
      ["hallucination", 18 - removedBy("blind") - removedBy("hallucination"), removedBy("hallucination"), 0],
      ["tricky", 18 - removedBy("blind") - removedBy("hallucination") - removedBy("tricky"), removedBy("tricky"), 0],
      ["unspecific", expected.filter((e) => e.removedBy === null).length, removedBy("unspecific"), 0],
    ]);
    // Every marker showed up, so every rule was exercised.
    expect([removedBy("blind"), removedBy("hallucination"), removedBy("tricky"), removedBy("unspecific")]).toEqual([
      2, 1, 2, 1,
    ]);
    expect(funnel[4]!.keptByDataset).toEqual({ hirest: 4, youcook2: 3, generic: 5 });
    expect(views.every((v) => v.category !== null)).toBe(true);
    expect(views.find((v) => v.payload.question === "What happens after clean out the face?")!.category).toBe(
      "Future Step Prediction",
    );

    // A removed candidate makes no later call: its later steps are settled with the reason.
    const blind = views.find((v) => v.fate.state === "removed" && v.fate.by === "blind")!;
    const blindSteps = await prisma.stepResult.findMany({
      where: { runId: run.id, itemId: blind.itemId },
      include: { _count: { select: { calls: true } } },
    });
    expect(
      blindSteps
        .filter((s) => s._count.calls > 0)
        .map((s) => s.stepId)
        .sort(),
    ).toEqual(["blind_answer", "blind_check", "categorise"]);
    expect(blindSteps.find((s) => s.stepId === "filter_hallucination")!.output).toEqual({
      skipped: "skipped: removed by blind",
    });
    expect(blindSteps.find((s) => s.stepId === "wrong_six_1")!.output).toEqual({
      skipped: "skipped: removed by blind",
    });
    // The answering and checking steps go to the checker endpoint; no call carries frames.
    const calls = await prisma.llmCall.findMany({
      where: { runId: run.id },
      include: { stepResult: { select: { stepId: true } } },
    });
    expect(
      new Set(calls.filter((c) => c.stepResult.stepId === "blind_check").map((c) => c.model.replace(/-[^-]+$/, ""))),
    ).toEqual(new Set(["stub-checker"]));
    expect(
      new Set(
        calls.filter((c) => c.stepResult.stepId === "filter_hallucination").map((c) => c.model.replace(/-[^-]+$/, "")),
      ),
    ).toEqual(new Set(["stub-constructor"]));
    expect(calls.every((c) => (c.request as { frameIds: string[] }).frameIds.length === 0)).toBe(true);

    // Malformed JSON ("garbled"): the engine's one repair request fixes it.
    const garbled = views.filter((v) => /garbled/.test(v.payload.question));
    expect(garbled.length).toBeGreaterThan(0);
    for (const view of garbled) {
      const step = await prisma.stepResult.findFirstOrThrow({
        where: { runId: run.id, itemId: view.itemId, stepId: "categorise" },
        include: { calls: { orderBy: [{ createdAt: "asc" }, { isRepair: "asc" }] } },
      });
      expect(step.status).toBe("done");
      expect(step.calls.map((c) => c.isRepair)).toEqual([false, true]);
    }
  });

  it("gives up after ten attempts with 40 calls under distinct cache keys, and retries an attempt whose four had a duplicate", async () => {
    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      candidateSetId,
    );
    const stubborn = views.filter((v) => /stubborn/.test(v.payload.question));
    expect(stubborn).toHaveLength(2);
    for (const view of stubborn) {
      expect(view.attempts).toBe(10);
      expect(view.transform).toMatchObject({
        state: "could_not_transform",
        attempts: 10,
        lastReason: expect.stringMatching(/^picked [A-E] instead of [A-E] with the video/),
      });
      const steps = await prisma.stepResult.findMany({
        where: { runId: firstConstructRunId, itemId: view.itemId, stepId: { startsWith: "w" } },
        include: { calls: true },
      });
      const attemptCalls = steps
        .filter((s) => /^(wrong_six|wrong_four|without_video|with_video)_\d+$/.test(s.stepId))
        .flatMap((s) => s.calls);
      expect(attemptCalls).toHaveLength(40);
      // Ten equal prompts per step kind, every one asked: the salts kept the cache from answering attempt 1's again.
      expect(attemptCalls.every((c) => !c.cached)).toBe(true);
      const sixPrompts = steps
        .filter((s) => s.stepId.startsWith("wrong_six_"))
        .map((s) => (s.calls[0]!.request as { text: string }).text);
      expect(new Set(sixPrompts).size).toBe(1);
    }
    const twins = views.filter((v) => /twin/.test(v.payload.question));
    expect(twins).toHaveLength(2);
    for (const view of twins) {
      expect(view.transform).toMatchObject({ state: "transformed", attempt: 2 });
      const four = await prisma.stepResult.findFirstOrThrow({
        where: { runId: firstConstructRunId, itemId: view.itemId, stepId: "without_video_1" },
      });
      expect(four.output).toEqual({ skipped: "not needed: two of the four wrong answers are the same" });
      const third = await prisma.stepResult.findFirstOrThrow({
        where: { runId: firstConstructRunId, itemId: view.itemId, stepId: "wrong_six_3" },
      });
      expect(third.output).toEqual({ skipped: "not needed: attempt 2 passed" });
    }
    const plain = views.find((v) => v.payload.question === "What happens after clean out the face?")!;
    expect(plain.transform).toMatchObject({
      state: "transformed",
      attempt: 1,
      wrong: DISTRACTORS("apply tissue using water"),
    });
  });

  it("restores a blind-removed candidate: a new run continues it, its earlier calls from the cache, its later filters and transformation called", async () => {
    const before = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      candidateSetId,
    );
    const removed = before.find((v) => v.fate.state === "removed" && v.fate.by === "blind")!;
    const kept = before.find((v) => v.fate.state === "kept")!;
    await expect(
      restoreCandidate(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), kept.itemId, {
        filter: "blind",
        reason: "nothing to undo",
      }),
    ).rejects.toThrow(/No filter removed this candidate/);
    await expect(
      restoreCandidate(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), removed.itemId, {
        filter: "tricky",
        reason: "wrong filter",
      }),
    ).rejects.toThrow(/The blind filter removed this candidate/);
    // Through an access to another project, even the owner's own, the candidate is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    await expect(
      restoreCandidate(prisma, await projectAccess(prisma, owner, elsewhere.id, "scores.review"), removed.itemId, {
        filter: "blind",
        reason: "another project's access",
      }),
    ).rejects.toThrow("No such candidate question.");
    const viewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: viewer.email,
      role: "viewer",
    });
    await expect(projectAccess(prisma, viewer, projectId, "scores.review")).rejects.toThrow();
    const reviewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
    await restoreCandidate(prisma, await projectAccess(prisma, reviewer, projectId, "scores.review"), removed.itemId, {
      filter: "blind",
      reason: "The answer is not guessable in practice.",
    });
    expect(
      await prisma.qaCandidateRestore.findMany({
        where: { itemId: removed.itemId },
        select: { filter: true, restoredById: true },
      }),
    ).toEqual([{ filter: "blind", restoredById: reviewer.userId }]);

    const restoredView = (
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId)
    ).find((v) => v.itemId === removed.itemId)!;
    expect(restoredView).toMatchObject({
      restoredFrom: "blind",
      fate: { state: "pending", at: "hallucination" },
      decisions: { blind: { removed: true } },
    });
    expect(filterFunnel([restoredView])[1]).toMatchObject({ kept: 1, removed: 0 });

    const run = await start(projectId, {
      pipeline: "qa_construct",
      endpointId: model,
      candidateSetId,
      settings: { checkerEndpointId: checker },
    });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).settings).toMatchObject({
      restored: { [removed.itemId]: ["blind"] },
    });
    const after = (
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId)
    ).find((v) => v.itemId === removed.itemId)!;
    expect(after).toMatchObject({
      restoredFrom: "blind",
      fate: { state: "kept" },
      transform: { state: "transformed", attempt: 1 },
    });

    const calls = await prisma.llmCall.findMany({
      where: { runId: run.id, stepResult: { itemId: removed.itemId } },
      include: { stepResult: { select: { stepId: true } } },
    });
    const byStep = Object.fromEntries(calls.map((c) => [c.stepResult.stepId, c.cached]));
    expect(byStep).toMatchObject({
      categorise: true,
      blind_answer: true,
      blind_check: true,
      filter_hallucination: false,
      tricky_answer: false,
      tricky_check: false,
      filter_unspecific: false,
      wrong_six_1: false,
      with_video_1: false,
    });
    // Every other candidate's calls come from the cache.
    const others = await prisma.llmCall.findMany({
      where: { runId: run.id, stepResult: { itemId: { not: removed.itemId } } },
      select: { cached: true },
    });
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((c) => c.cached)).toBe(true);
  });

  it("shuffles the checks' options per candidate and attempt: the correct letter varies, is recorded with each check, and a re-run renders the same prompts", async () => {
    const checks = await prisma.stepResult.findMany({
      where: { runId: firstConstructRunId, stepId: { startsWith: "with_video_" }, status: "done" },
      include: { calls: true },
    });
    const asked = checks.filter((s) => s.calls.length > 0);
    expect(asked.length).toBeGreaterThan(5);
    // One checker: the steps are the ones a single checker always had.
    expect(
      await prisma.stepResult.count({
        where: { runId: firstConstructRunId, OR: [{ stepId: { endsWith: "_c2" } }, { stepId: { endsWith: "_c3" } }] },
      }),
    ).toBe(0);
    const letters = new Set<string>();
    for (const step of asked) {
      const output = step.output as { Best_option: string; options: Record<string, string>; correctLetter: string };
      letters.add(output.correctLetter);
      const text = (step.calls[0]!.request as { text: string }).text;
      // The prompt lists the recorded options in their letters' order, and the reference answer sits at the recorded letter.
      expect(text).toContain(
        Object.entries(output.options)
          .map(([letter, option]) => `      ${letter}. ${option}`)
          .join("\n"),
      );
      const view = (
        await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId)
      ).find((v) => v.itemId === step.itemId)!;
      expect(output.options[output.correctLetter]).toBe(view.payload.answer);
      // The stub's Table 32 picks the reference answer wherever it is (or a distractor for "stubborn"): the decision follows the shuffle.
      if (!/stubborn/.test(view.payload.question))
        expect(output.Best_option.startsWith(`${output.correctLetter}. `)).toBe(true);
    }
    expect(letters.size).toBeGreaterThan(1);
    // The same question and attempt get the same order in both checks.
    const without = await prisma.stepResult.findMany({
      where: { runId: firstConstructRunId, stepId: { startsWith: "without_video_" }, status: "done" },
    });
    for (const step of asked) {
      const twin = without.find(
        (w) => w.itemId === step.itemId && w.stepId === step.stepId.replace("with_video_", "without_video_"),
      )!;
      expect((twin.output as { options: unknown }).options).toEqual((step.output as { options: unknown }).options);
    }
  });

  it("asks up to three checkers per check and fails an attempt when more than half find the answer without the video", async () => {
    const knowingA = await endpointOf("Knowing checker A (simulated)", `stub-knowing-a-${suffix}`);
    const knowingB = await endpointOf("Knowing checker B (simulated)", `stub-knowing-b-${suffix}`);
    const checkerB = await endpointOf("Checker B (simulated)", `stub-checker-b-${suffix}`);
    const bad = (checkerEndpointIds: string[]) =>
      start(projectId, {
        pipeline: "qa_construct",
        endpointId: model,
        candidateSetId,
        settings: { checkerEndpointIds },
      });
    await expect(bad([checker, knowingA, knowingB, checkerB])).rejects.toThrow(/At most 3 checking endpoints/);
    await expect(bad([checker, checker])).rejects.toThrow(/must be different endpoints/);
    await expect(bad([checker, "no-such-endpoint"])).rejects.toThrow(/No such endpoint in this project/);

    const video0 = (
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId)
    ).filter((v) => v.payload.video.includes(fileName(0)));
    const videoId = video0[0]!.videoId;
    const plainKept = (views: CandidateView[]) =>
      views.filter(
        (v) => v.videoId === videoId && v.fate.state === "kept" && !/stubborn|twin/.test(v.payload.question),
      );

    // One knowing checker of three: the attempt passes, each checker asked once per check.
    const passing = await start(projectId, {
      pipeline: "qa_construct",
      endpointId: model,
      candidateSetId,
      videoIds: [videoId],
      settings: { checkerEndpointIds: [knowingA, checker, checkerB] },
    });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, passing.id), passing.id)).toMatchObject({
      status: "done",
      steps: { failed: 0, parse_failed: 0 },
    });
    const afterPassing = plainKept(
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId),
    );
    expect(afterPassing.length).toBeGreaterThan(0);
    for (const view of afterPassing) {
      expect(view.transform).toMatchObject({ state: "transformed", attempt: 1 });
      const checks = (
        view.transform as { checks: { correctLetter: string; withoutVideo: string[]; withVideo: string[] } }
      ).checks;
      expect(checks.withoutVideo).toHaveLength(3);
      expect(checks.withoutVideo.filter((l) => l === checks.correctLetter)).toHaveLength(1);
      expect(checks.withVideo).toEqual([checks.correctLetter, checks.correctLetter, checks.correctLetter]);
      const calls = await prisma.llmCall.findMany({
        where: {
          runId: passing.id,
          stepResult: {
            itemId: view.itemId,
            stepId: { in: ["without_video_1", "without_video_1_c2", "without_video_1_c3"] },
          },
        },
        include: { stepResult: { select: { stepId: true } } },
      });
      expect(Object.fromEntries(calls.map((c) => [c.stepResult.stepId, c.model.replace(`-${suffix}`, "")]))).toEqual({
        without_video_1: "stub-knowing-a",
        without_video_1_c2: "stub-checker",
        without_video_1_c3: "stub-checker-b",
      });
    }

    // The construction page shows every checker's pick where it shows the outcome.
    const detail = await candidateSetDetail(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      candidateSetId,
      constructionQuerySchema.parse({}),
    );
    for (const view of afterPassing) {
      const checks = (view.transform as { checks: { correctLetter: string; withoutVideo: string[] } }).checks;
      expect(detail.rows.find((r) => r.itemId === view.itemId)!.checks).toBe(
        `correct ${checks.correctLetter} · without the video ${checks.withoutVideo.join(", ")} · with the annotations ${Array(3).fill(checks.correctLetter).join(", ")}`,
      );
    }

    // Two knowing checkers of three: more than half find the answer without the video on every attempt.
    const failing = await start(projectId, {
      pipeline: "qa_construct",
      endpointId: model,
      candidateSetId,
      videoIds: [videoId],
      settings: { checkerEndpointIds: [knowingA, knowingB, checker] },
    });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, failing.id), failing.id)).toMatchObject({
      status: "done",
      steps: { failed: 0, parse_failed: 0 },
    });
    const afterFailing = plainKept(
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), candidateSetId),
    );
    for (const view of afterFailing) {
      expect(view.attempts).toBe(10);
      expect(view.transform).toMatchObject({
        state: "could_not_transform",
        lastReason: expect.stringMatching(
          /^2 of 3 checkers \([A-E], [A-E], [A-E]\) picked the correct option [A-E] without the video/,
        ),
      });
      const withVideo = await prisma.stepResult.findMany({
        where: {
          runId: failing.id,
          itemId: view.itemId,
          stepId: { in: ["with_video_1", "with_video_1_c2", "with_video_1_c3"] },
        },
        orderBy: { stepId: "asc" },
      });
      expect(withVideo.map((s) => [s.stepId, s.output])).toEqual(
        ["with_video_1", "with_video_1_c2", "with_video_1_c3"].map((id) => [
          id,
          { skipped: "not needed: 2 of 3 checkers picked the correct option without the video" },
        ]),
      );
    }
  });

  it("makes no candidates from a failed generation step and counts it, and refuses runs of other pipelines and unfinished ones", async () => {
    // Another model, so nothing comes from the cache; the HiREST clip's two calls fail on every retry.
    stub.addFault({ fault: { kind: "status", status: 500 }, match: "Make a Plaster Mask", times: 10 });
    const run = await start(projectId, { pipeline: "qa_generate", endpointId: checker, clipSetId });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      steps: { failed: 2 },
    });
    const made = await createCandidatesFromRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      run.id,
    );
    expect(made).toMatchObject({ count: 12, failedSteps: 2, existed: true });
    const items = await prisma.item.findMany({ where: { setId: made.setId }, select: { group: true } });
    expect(items.some((i) => i.group === "hirest")).toBe(false);
    await expect(
      createCandidatesFromRun(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        firstConstructRunId,
      ),
    ).rejects.toThrow(/is a qa_construct run/);
    const queued = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "qa_generate", endpointId: model, clipSetId }),
    );
    await expect(
      createCandidatesFromRun(prisma, await projectAccess(prisma, owner, projectId, "runs.manage"), queued.id),
    ).rejects.toThrow(/has not finished yet/);
    const outsider = await makeUser();
    await expect(projectAccess(prisma, outsider, projectId, "runs.manage")).rejects.toBeInstanceOf(NotFoundError);
    // Through an access to another project, even the owner's own, the run is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "runs.manage");
    await expect(createCandidatesFromRun(prisma, there, run.id)).rejects.toThrow(/No such run/);
  });
});

/** The stub's first four distractors (Table 29's twists, Table 30's first four). */
function DISTRACTORS(answer: string) {
  return ["only halfway", "twice over", "in reverse", "far too early"].map((twist) => `${answer} — ${twist}`);
}

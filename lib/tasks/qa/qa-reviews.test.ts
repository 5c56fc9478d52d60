import type { AnswerView } from "@/components/tasks/qa/answer-under-review";
/**
 * Reviewing QA answers on PostgreSQL with real QA runs against the stub LLM (a test tool): a reviewer's
 * judgment is about one run's answer (two models' answers to a question are two judgments), keeps the
 * judge's decision, has history, 409s, accept and withdraw; agreement compares it with that run only and
 * breaks down by the question's category and format and by the run's model, with numbers counted by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { projectAgreement } from "@/lib/agreement/load";
import { agreementQuerySchema } from "@/lib/agreement/report-filter";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ValidationError } from "@/lib/errors";
import { importQuestionSet } from "@/lib/tasks/qa/question-set-import";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { createQueue } from "@/lib/queues/create-queue";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { nextItem } from "@/lib/queues/next-item";
import { submitItem } from "@/lib/queues/submit-item";
import { ReviewConflictError, reviewScore, videoReviews, withdrawJudgment } from "@/lib/reviews/reviews";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { questionSetBytes } from "@/testkit/tasks/qa/qa-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

type QueueItemPayload = Awaited<ReturnType<typeof getQueueItem>>;

let stub: StubServer;
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
/** Run A: a model that sees; run B: a model that guesses. Both judged by the same judge endpoint. */
let runA: string;
let runB: string;
const questionIds: Record<string, string> = {};

async function endpoint(name: string, model: string) {
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
      pricePer1kInput: null,
      pricePer1kOutput: null,
    })
  ).id;
}

/** The correctness score a run gave a question (its judge's or its letter's decision). */
const scoreOf = (runId: string, q: string) =>
  prisma.score.findFirstOrThrow({ where: { runId, itemId: questionIds[q]!, category: "correctness" } });

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  let videoIds: string[];
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
  }));
  await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
  for (const who of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: who.userId, role: "reviewer" } });
  const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
    fileName: "questions.jsonl",
    bytes: questionSetBytes(),
  });
  for (const item of await prisma.item.findMany({ where: { setId: set.set.id! } }))
    questionIds[item.externalId] = item.id;
  // Model names new per project: judge prompts carry no frames, so the response cache would otherwise mix tests.
  const suffix = projectId.slice(-8);
  const judge = await endpoint("Judge (simulated)", `stub-judge-${suffix}`);
  const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
  const start = async (model: string) =>
    (
      await createRun(
        deps,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(builtInCatalogue()).parse({
          pipeline: "qa",
          endpointId: await endpoint(model, model),
          questionSetId: set.set.id!,
          settings: { frames: 8, judgeEndpointId: judge },
        }),
      )
    ).id;
  runA = await start(`stub-vision-${suffix}`);
  runB = await start(`stub-guess-${suffix}`);
  // Every answer of both runs was decided (a score each): the reviews below are of those decisions.
  expect(await prisma.score.count({ where: { runId: { in: [runA, runB] }, category: "correctness" } })).toBe(8);
});
afterAll(() => stub.close());

describe("reviewing QA answers", () => {
  it("keys a judgment with the run whose answer it is, keeps the judge's decision, and refuses stale edits", async () => {
    const judgedA = await scoreOf(runA, "q4");
    const judgedB = await scoreOf(runB, "q4");
    expect(judgedA.value).toBe(1); // the seeing model's open answer restates the reference: the judge said Yes

    const first = await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedA.id, {
      value: 0,
      note: "It never says where the ball ends.",
    });
    const other = await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedB.id, {
      value: 1,
    });
    // Two models' answers to one question: two judgments, each keyed with its run.
    expect(first.id).not.toBe(other.id);
    expect(first).toMatchObject({
      task: "qa",
      target: "correctness",
      itemId: questionIds.q4,
      subjectRunId: runA,
      runId: runA,
      judgeValue: 1,
      disagrees: true,
      version: 1,
    });
    expect(first.targetKey).toBe(`qa|v:${judgedA.videoId}|i:${questionIds.q4}|r:${runA}|correctness`);
    expect(other).toMatchObject({
      subjectRunId: runB,
      targetKey: `qa|v:${judgedB.videoId}|i:${questionIds.q4}|r:${runB}|correctness`,
    });
    // The judge's decision is never changed.
    expect((await prisma.score.findUniqueOrThrow({ where: { id: judgedA.id } })).value).toBe(1);

    // Stale or missing versions are 409s; the right version updates and appends to the history.
    await expect(
      reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedA.id, { value: 1 }),
    ).rejects.toBeInstanceOf(ReviewConflictError);
    await expect(
      reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedA.id, {
        value: 1,
        expectedVersion: 7,
      }),
    ).rejects.toMatchObject({
      status: 409,
    });
    const second = await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedA.id, {
      value: 1,
      note: "Reads fine on a second look.",
      expectedVersion: 1,
    });
    expect(second).toMatchObject({ id: first.id, value: 1, version: 2, disagrees: false });
    const history = await prisma.humanJudgmentHistory.findMany({
      where: { judgmentId: first.id },
      orderBy: { version: "asc" },
    });
    expect(
      history.map((h) => [
        h.version,
        (h.before as { value: number } | null)?.value ?? null,
        (h.after as { value: number }).value,
      ]),
    ).toEqual([
      [1, null, 0],
      [2, 0, 1],
    ]);

    // Shown per run: each judgment says which run's answer it is about.
    const shown = await videoReviews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      judgedA.videoId,
      { runId: runA, itemId: questionIds.q4 },
    );
    expect(shown.judgments.map((j) => [j.subjectRunId, j.runId, j.judge?.value ?? null, j.value]).sort()).toEqual(
      [
        [runA, runA, 1, 1],
        [runB, runB, judgedB.value, 1],
      ].sort(),
    );

    // Withdraw and accept-the-judge work as for any judgment.
    await withdrawJudgment(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), other.id, {
      expectedVersion: 1,
    });
    expect((await prisma.humanJudgment.findUniqueOrThrow({ where: { id: other.id } })).withdrawn).toBe(true);
    await expect(
      reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), judgedB.id, {
        value: 1 - judgedB.value,
        acceptedJudge: true,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    const accepted = await reviewScore(
      prisma,
      await projectAccess(prisma, ann, projectId, "scores.review"),
      judgedB.id,
      { value: judgedB.value, acceptedJudge: true },
    );
    expect(accepted).toMatchObject({ id: other.id, acceptedJudge: true, withdrawn: false, version: 3 });
    // Clean up for the agreement test below: these two are Ann's only QA judgments there.
    await withdrawJudgment(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), first.id, {
      expectedVersion: 2,
    });
    await withdrawJudgment(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), accepted.id, {
      expectedVersion: 3,
    });
  });

  it("lets a reviewer override a multiple-choice letter read by FrameJury, without losing it", async () => {
    const letter = await scoreOf(runA, "q1");
    const step = await prisma.stepResult.findUniqueOrThrow({ where: { id: letter.stepResultId } });
    expect(step.output).toMatchObject({ decidedBy: "letter", letter: "A", outcome: "correct" });
    const override = await reviewScore(
      prisma,
      await projectAccess(prisma, bob, projectId, "scores.review"),
      letter.id,
      {
        value: 0,
        reason: "wrong",
        note: "The frames show it rolling up.",
      },
    );
    expect(override).toMatchObject({ subjectRunId: runA, value: 0, judgeValue: 1, disagrees: true });
    expect((await prisma.score.findUniqueOrThrow({ where: { id: letter.id } })).value).toBe(1);
    expect((await prisma.stepResult.findUniqueOrThrow({ where: { id: letter.stepResultId } })).output).toMatchObject({
      decidedBy: "letter",
      letter: "A",
    });
    await withdrawJudgment(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), override.id, {
      expectedVersion: 1,
    });
  });
});

describe("queues over QA answers", () => {
  it("holds the answers the judge decided (or every decided one, by format and category), and refuses the caption scope", async () => {
    // Run A read a letter for q1–q3: only the open q4 went to the judge.
    const judged = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "judged",
      runId: runA,
      scope: "answers",
      filter: {},
    });
    expect(judged.itemCount).toBe(1);
    expect((await prisma.reviewQueueItem.findMany({ where: { queueId: judged.id } })).map((i) => i.itemId)).toEqual([
      questionIds.q4,
    ]);
    const steps = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "steps",
      runId: runA,
      scope: "answers",
      answers: { letters: true, category: "Step Sequencing" },
      filter: {},
    });
    expect(
      (await prisma.reviewQueueItem.findMany({ where: { queueId: steps.id }, orderBy: { position: "asc" } }))
        .map((i) => i.itemId)
        .sort(),
    ).toEqual([questionIds.q1, questionIds.q4].sort());
    const all = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "all",
      runId: runA,
      scope: "answers",
      answers: { letters: true },
      filter: {},
    });
    expect(all.itemCount).toBe(4);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId: runA,
        scope: "answers",
        answers: { format: "mc" },
        filter: {},
      }),
    ).rejects.toThrow(/judge-decided answer .* queue would be empty/);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId: runA,
        scope: "captions",
        filter: {},
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId: runA,
        scope: "verdict",
        filter: {},
      }),
    ).rejects.toThrow(/one answer at a time/);
  });

  it("shows the question and the model's answer, withholds the decision until the blind reviewer submits, and saves against the run's answer", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "blind open answers",
      runId: runA,
      scope: "answers",
      answers: { format: "open" },
      filter: {},
      blind: true,
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, bob, queue.id, "scores.review"), queue.id);
    const item = (await getQueueItem(
      prisma,
      await queueAccess(prisma, bob, queue.id, "scores.review"),
      queue.id,
      itemId!,
    )) as QueueItemPayload & {
      answer: AnswerView | null;
    };
    expect(item.blind).toBe(true);
    expect(item.answer).toMatchObject({
      questionId: questionIds.q4,
      question: "What does the ball do on the ramp?",
      format: "open",
      answer: "The ball rolls down the ramp.",
      model: expect.stringMatching(/^stub-vision-/),
    });
    expect(item.answer!.result.rawAnswer).toEqual(expect.any(String));
    expect(item.answer!.result).toMatchObject({ outcome: null, judgement: null, reason: null, decidedBy: null });
    expect(item.targets.map((t) => [t.category, t.min, t.max])).toEqual([["correctness", 0, 1]]);
    expect(item.targets[0]).not.toHaveProperty("judge");

    await submitItem(prisma, await queueAccess(prisma, bob, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: item.targets[0]!.key, value: 0, note: "Says nothing about where it stops." }],
    });
    const after = (await getQueueItem(
      prisma,
      await queueAccess(prisma, bob, queue.id, "scores.review"),
      queue.id,
      itemId!,
    )) as QueueItemPayload & {
      answer: AnswerView | null;
    };
    expect(after.blind).toBe(false);
    expect(after.targets[0]).toMatchObject({
      judge: 1,
      mine: { value: 0, note: "Says nothing about where it stops.", version: 1 },
    });
    expect(after.answer!.result).toMatchObject({
      outcome: "correct",
      decidedBy: "judge",
      judgement: "Yes",
      reason: expect.any(String),
    });
    const saved = await prisma.humanJudgment.findFirstOrThrow({
      where: { reviewerId: bob.userId, itemId: questionIds.q4, withdrawn: false },
    });
    expect(saved).toMatchObject({ subjectRunId: runA, value: 0, judgeValue: 1, disagrees: true });
  });
});

describe("agreement on QA answers", () => {
  it("compares each judgment with its own run, by category, format and the run's model, and among reviewers", async () => {
    // The judge's values, set for hand counting (the guessing model's answers are drawn by hash).
    const judge: Record<string, Record<string, number>> = {
      [runA]: { q1: 1, q2: 0, q3: 1, q4: 1 },
      [runB]: { q1: 0, q2: 0, q3: 1, q4: 0 },
    };
    const ann_: Record<string, Record<string, number>> = {
      [runA]: { q1: 1, q2: 1, q3: 1, q4: 0 },
      [runB]: { q1: 0, q2: 0, q3: 0, q4: 0 },
    };
    const bob_: Record<string, number> = { q1: 1, q2: 0, q3: 1, q4: 0 }; // run A only
    for (const runId of [runA, runB]) {
      for (const q of ["q1", "q2", "q3", "q4"]) {
        const score = await scoreOf(runId, q);
        await prisma.score.update({ where: { id: score.id }, data: { value: judge[runId]![q]! } });
        const annPrior = await prisma.humanJudgment.findFirst({ where: { reviewerId: ann.userId, scoreId: score.id } });
        await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), score.id, {
          value: ann_[runId]![q]!,
          ...(annPrior ? { expectedVersion: annPrior.version } : {}),
        });
        if (runId === runA) {
          const bobPrior = await prisma.humanJudgment.findFirst({
            where: { reviewerId: bob.userId, scoreId: score.id },
          });
          await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), score.id, {
            value: bob_[q]!,
            ...(bobPrior ? { expectedVersion: bobPrior.version } : {}),
          });
        }
      }
    }
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({}),
    );
    // 8 answers (4 per run), each compared with its own run only: not 16.
    expect(report.summary).toMatchObject({ reviewedItems: 8, judgments: 12, multiReviewedItems: 4, reviewers: 2 });
    const annVsJudge = report.humanVsJudge.reviewers.find((r) => r.reviewerId === ann.userId)!;
    // Ann (truth) against the judge: A (1,1) tp, (1,0) fn, (1,1) tp, (0,1) fp; B (0,0) tn, tn, (0,1) fp, tn.
    expect(annVsJudge.binary.confusion).toEqual({ tp: 2, fp: 2, fn: 1, tn: 3 });
    // po = 5/8; pe = 3/8·4/8 + 5/8·4/8 = 1/2; κ = (5/8 − 1/2)/(1/2) = 1/4.
    expect(annVsJudge.binary.values.kappa).toBeCloseTo(0.25, 10);

    const group = (by: string, key: string) => report.breakdowns[by]!.find((g) => g.key === key)!;
    // By the evaluated model (the run's endpoint model), not the video's generator.
    expect(report.breakdowns.model.map((g) => g.key).sort()).toEqual([
      `stub-guess-${projectId.slice(-8)}`,
      `stub-vision-${projectId.slice(-8)}`,
    ]);
    // Model A: consensus of Ann and Bob (1,1 → 1; 1,0 → tie, left out; 1,1 → 1; 0,0 → 0) against 1, 0, 1, 1: 2 agree of 3.
    expect(group("model", `stub-vision-${projectId.slice(-8)}`)).toMatchObject({
      items: 4,
      judge: { n: 3, values: { accuracy: 2 / 3 } },
    });
    // Model B: Ann 0,0,0,0 against 0,0,1,0: po 3/4, pe 3/4 → κ 0.
    expect(group("model", `stub-guess-${projectId.slice(-8)}`)).toMatchObject({
      items: 4,
      judge: { n: 4, values: { accuracy: 0.75, kappa: 0 } },
    });
    // By the question's category: Step Sequencing holds q1 and q4 of both runs.
    expect(report.breakdowns.category.map((g) => [g.key, g.items])).toEqual(
      expect.arrayContaining([
        ["Step Sequencing", 4],
        ["Object Attribute Recognition", 2],
        ["Future Step Prediction", 2],
      ]),
    );
    // By format: the open question q4 of both runs; consensus A 0 vs judge 1, B 0 vs 0.
    expect(report.groupings.map((g) => g.id)).toEqual(expect.arrayContaining(["format", "granularity"]));
    expect(group("format", "open")).toMatchObject({ items: 2, judge: { n: 2, values: { accuracy: 0.5, kappa: 0 } } });
    expect(group("format", "mc")).toMatchObject({ items: 6 });
    expect(group("granularity", "fine")).toMatchObject({ items: 2 });

    // Among reviewers: Ann 1,1,1,0 and Bob 1,0,1,0 on run A: po 3/4, pe 3/4·2/4 + 1/4·2/4 = 1/2, κ = 1/2.
    expect(report.humanVsHuman.items).toBe(4);
    expect(report.humanVsHuman.pairs).toHaveLength(1);
    expect(report.humanVsHuman.pairs[0]!.binary.values.kappa).toBeCloseTo(0.5, 10);

    // Filtered to one QA run: only its answers.
    const onlyB = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId: runB }),
    );
    expect(onlyB.summary).toMatchObject({ reviewedItems: 4, judgments: 4 });
  });
});

/**
 * QA results through the API on PostgreSQL with the stub LLM (a test tool): two simulated models answer
 * the small question set (testkit/tasks/qa/qa-fixtures.ts) at 8 frames, one also without frames; then the
 * per-question results, the accuracy overview and a question's detail. A model that sees ("stub-vision-…")
 * is right on q1, q3 and q4 and wrong on q2 by the stub's rules; a guessing one ("stub-guess-…") picks by
 * hash, so its numbers are checked against its own per-question results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { importQuestionSet } from "@/lib/tasks/qa/question-set-import";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { addMember } from "@/lib/projects/projects";
import { wilsonInterval } from "@/lib/tasks/qa/wilson-interval";
import { qaRunResultsQuerySchema } from "@/lib/tasks/qa/qa-query";
import { runQaResultExport } from "@/lib/tasks/qa/visible-qa-results";
import { mcnemarTest } from "@/lib/stats/mcnemar";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { questionSetBytes } from "@/testkit/tasks/qa/qa-fixtures";
import { GET as getRunQa } from "./[runId]/qa/route";
import { GET as getAccuracy } from "../projects/[projectId]/qa-accuracy/route";
import { GET as getQuestions } from "../projects/[projectId]/questions/route";
import { GET as getQuestion } from "../questions/[questionId]/route";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";

let stub: StubServer;
let owner: Actor;
let key: string;
let viewerKey: string;
let projectId: string;
let visionRun: string;
let guessRun: string;
let captionRunLike: string;

async function json(
  handler: (request: Request, context: any) => Promise<Response>,
  path: string,
  params: Record<string, string>,
  apiKey = key,
) {
  const response = await handler(apiRequest(path, apiKey), routeContext(params));
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: (response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : null) as any,
  };
}

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  const viewer = await makeUser();
  viewerKey = (await createApiKey(prisma, viewer.userId, "t")).key;
  const project = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
    name: "QA results",
  });
  projectId = project.projectId;
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: viewer.email,
    role: "viewer",
  });
  await prisma.video.updateMany({ where: { id: { in: project.videoIds } }, data: { width: 128, height: 96 } });
  const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
    fileName: "questions.jsonl",
    bytes: questionSetBytes(),
  });
  const endpoint = async (name: string, model: string) =>
    (
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
  const suffix = projectId.slice(-8);
  const [vision, guess, judge] = [
    await endpoint("Vision (simulated)", `stub-vision-${suffix}`),
    await endpoint("Guesser (simulated)", `stub-guess-${suffix}`),
    await endpoint("Judge (simulated)", `stub-judge-${suffix}`),
  ];
  const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
  const start = async (endpointId: string, settings: Record<string, unknown>) =>
    createRun(
      deps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "qa",
        endpointId,
        questionSetId: set.set.id,
        settings: { judgeEndpointId: judge, ...settings },
      }),
    );
  visionRun = (await start(vision, { frames: 8, textOnlyBaseline: true })).id;
  guessRun = (await start(guess, { frames: 8 })).id;
  captionRunLike = (
    await createRun(
      deps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "hallucination", endpointId: vision }),
    )
  ).id;
});
afterAll(() => stub.close());

describe("QA results through the API", () => {
  it("lists a run's questions with the raw answer, the letter or the judge's decision, the outcome and the text-only baseline", async () => {
    const { status, body } = await json(getRunQa, `/api/v1/runs/${visionRun}/qa`, { runId: visionRun });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      run: {
        id: visionRun,
        settings: { frames: 8, textOnlyBaseline: true, resize: { mode: "quarter" } },
        label: expect.stringMatching(/^stub-vision-\w+ · 8 frames$/),
      },
      total: 4,
    });
    const byId = Object.fromEntries(body.questions.map((q: any) => [q.externalId, q]));
    expect(byId.q1.result).toMatchObject({
      status: "done",
      outcome: "correct",
      decidedBy: "letter",
      letter: "A",
      judgement: null,
    });
    expect(byId.q1.result.rawAnswer).toMatch(/A/);
    expect(byId.q2.result).toMatchObject({ outcome: "wrong", letter: "B" });
    expect(byId.q2).toMatchObject({
      format: "mc",
      answer: "C",
      options: { A: "Blue.", B: "The ramp under the ball is green.", C: "Red." },
      category: "Object Attribute Recognition",
      granularity: "fine",
    });
    expect(byId.q4.result).toMatchObject({
      outcome: "correct",
      decidedBy: "judge",
      judgement: "Yes",
      reason: expect.stringContaining("Simulated"),
    });
    for (const q of body.questions) {
      expect(q.textOnly).toMatchObject({ status: "done", outcome: expect.stringMatching(/^(correct|wrong)$/) });
      expect(q.rightWithoutVideo).toBe(q.textOnly.outcome === "correct");
    }

    // Filters are whitelisted and read the stored outcomes.
    const wrong = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?outcome=wrong`, { runId: visionRun });
    expect(wrong.body.questions.map((q: any) => q.externalId)).toEqual(["q2"]);
    const open = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?questionFormat=open`, { runId: visionRun });
    expect(open.body.questions.map((q: any) => q.externalId)).toEqual(["q4"]);
    const fine = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?granularity=fine&questionFormat=mc`, {
      runId: visionRun,
    });
    expect(fine.body.questions.map((q: any) => q.externalId)).toEqual(["q2"]);
    const flagged = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?flag=right_without_video`, { runId: visionRun });
    expect(flagged.body.questions.map((q: any) => q.externalId).sort()).toEqual(
      body.questions
        .filter((q: any) => q.rightWithoutVideo)
        .map((q: any) => q.externalId)
        .sort(),
    );
    const paged = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?pageSize=3&page=2`, { runId: visionRun });
    expect(paged.body).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(paged.body.questions).toHaveLength(1);
    expect((await json(getRunQa, `/api/v1/runs/${visionRun}/qa?sort=outcome`, { runId: visionRun })).status).toBe(400);
    expect(
      (await json(getRunQa, `/api/v1/runs/${guessRun}/qa?flag=right_without_video`, { runId: guessRun })).status,
    ).toBe(400);
    expect(
      (await json(getRunQa, `/api/v1/runs/${captionRunLike}/qa`, { runId: captionRunLike })).body.error.message,
    ).toMatch(/not a QA run/);
  });

  it("exports a run's questions as CSV and JSONL", async () => {
    const csv = await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=csv`, { runId: visionRun });
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="qa-${visionRun}.csv"`);
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(
      /^run_id,model,frames,question_id,external_id,video,question_format,category,granularity,question,options,correct_answer,status,outcome,decided_by,letter,judgement,reason,/,
    );
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes(",q2,"))).toMatch(/,done,wrong,letter,B,,/);
    const rows = (await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=jsonl`, { runId: visionRun })).text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({ runId: visionRun, frames: 8, result: { status: "done" } });
  });

  it("streams the export a page of questions at a time: pages of one give the rows of the whole, in order, and a refusal is the status", async () => {
    const whole = [];
    for await (const page of await runQaResultExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      visionRun,
      qaRunResultsQuerySchema.parse({ format: "csv" }),
    ))
      whole.push(...page.questions);
    const byOne = [];
    for await (const page of await runQaResultExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      visionRun,
      qaRunResultsQuerySchema.parse({ format: "csv" }),
      1,
    )) {
      expect(page.questions).toHaveLength(1);
      byOne.push(...page.questions);
    }
    expect(byOne).toEqual(whole);
    expect(whole).toHaveLength(4);
    // The route's body is read as it is pulled, not built first.
    const response = await getRunQa(
      apiRequest(`/api/v1/runs/${visionRun}/qa?format=jsonl`, key),
      routeContext({ runId: visionRun }),
    );
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect((await response.text()).trimEnd().split("\n")).toHaveLength(4);
    // A filter no run has fails before the download starts: a 400 with its message, not a broken stream.
    expect(
      (await json(getRunQa, `/api/v1/runs/${guessRun}/qa?format=csv&flag=right_without_video`, { runId: guessRun }))
        .status,
    ).toBe(400);
  });

  it("gives accuracy per run, format, category and granularity with Wilson intervals and n, beside the text-only baseline, and McNemar between the runs", async () => {
    // Named in any order, the runs are compared oldest first.
    const { status, body } = await json(
      getAccuracy,
      `/api/v1/projects/${projectId}/qa-accuracy?runId=${guessRun}&runId=${visionRun}`,
      { projectId },
    );
    expect(status).toBe(200);
    expect(body.chosen.map((r: any) => r.id)).toEqual([visionRun, guessRun]);
    const row = (runId: string, breakdown: string, values: Record<string, string | null> = {}) =>
      body.rows.find(
        (r: any) =>
          r.runId === runId && r.breakdown === breakdown && Object.entries(values).every(([k, v]) => r[k] === v),
      );
    const all = row(visionRun, "all");
    expect(all.outcomes).toMatchObject({
      correct: 3,
      wrong: 1,
      unanswerable: 0,
      pending: 0,
      accuracy: { value: 0.75, n: 4 },
    });
    expect(all.outcomes.accuracy.lower).toBeCloseTo(wilsonInterval(3, 4)!.lower, 12);
    expect(row(visionRun, "format", { format: "mc" }).outcomes.accuracy).toMatchObject({ value: 2 / 3, n: 3 });
    expect(row(visionRun, "format", { format: "open" }).outcomes.accuracy).toMatchObject({ value: 1, n: 1, upper: 1 });
    expect(row(visionRun, "granularity", { granularity: "fine" }).outcomes.accuracy).toMatchObject({
      value: 0,
      n: 1,
      lower: 0,
    });
    expect(row(visionRun, "category", { category: "Step Sequencing" }).outcomes.accuracy).toMatchObject({
      value: 1,
      n: 2,
    });
    expect(
      row(visionRun, "format_category_granularity", {
        format: "mc",
        category: "Future Step Prediction",
        granularity: "coarse",
      }).outcomes.correct,
    ).toBe(1);
    // The baseline beside it; the guessing run has none.
    const questions = (await json(getRunQa, `/api/v1/runs/${visionRun}/qa`, { runId: visionRun })).body.questions;
    const blindRight = questions.filter((q: any) => q.textOnly.outcome === "correct").length;
    expect(all.textOnly.accuracy).toMatchObject({ value: blindRight / 4, n: 4 });
    expect(all.rightWithoutVideo).toBe(blindRight);
    expect(row(guessRun, "all").textOnly).toBeNull();

    // McNemar on the questions both runs decided, from the two runs' own per-question outcomes.
    const guessQuestions = (await json(getRunQa, `/api/v1/runs/${guessRun}/qa`, { runId: guessRun })).body.questions;
    const guessRight = new Map(guessQuestions.map((q: any) => [q.questionId, q.result.outcome === "correct"]));
    let b = 0;
    let c = 0;
    for (const q of questions) {
      const other = guessRight.get(q.questionId);
      if (q.result.outcome === "correct" && other === false) b += 1;
      if (q.result.outcome === "wrong" && other === true) c += 1;
    }
    expect(body.comparisons).toEqual([
      expect.objectContaining({
        first: visionRun,
        second: guessRun,
        n: 4,
        b,
        c,
        p: mcnemarTest(b, c).p,
        method: "exact",
      }),
    ]);
    // The heat map: a cell per run and category.
    expect(body.heatmap.categories).toEqual([
      "Future Step Prediction",
      "Object Attribute Recognition",
      "Step Sequencing",
    ]);
    expect(
      body.heatmap.cells
        .filter((cell: any) => cell.runId === visionRun)
        .map((cell: any) => [cell.category, cell.accuracy.value]),
    ).toEqual([
      ["Future Step Prediction", 1],
      ["Object Attribute Recognition", 0],
      ["Step Sequencing", 1],
    ]);
    expect(body.frames).toEqual([]);

    // Without runIds: the latest run of each model at each frame count.
    const defaults = await json(getAccuracy, `/api/v1/projects/${projectId}/qa-accuracy`, { projectId });
    expect(defaults.body.chosen.map((r: any) => r.id).sort()).toEqual([visionRun, guessRun].sort());
    const csv = await json(getAccuracy, `/api/v1/projects/${projectId}/qa-accuracy?runId=${visionRun}&format=csv`, {
      projectId,
    });
    expect(csv.text.split("\r\n")[0]).toBe(
      "run_id,model,frames,breakdown,question_format,category,granularity,correct,wrong,unanswerable,pending,n,accuracy,ci_low,ci_high,text_only_n,text_only_accuracy,text_only_ci_low,text_only_ci_high,right_without_video",
    );
    expect(csv.text.split("\r\n")[1]).toMatch(new RegExp(`^${visionRun},stub-vision-\\w+,8,all,,,,3,1,0,0,4,0\\.75,`));
    expect(
      (await json(getAccuracy, `/api/v1/projects/${projectId}/qa-accuracy?runId=${captionRunLike}`, { projectId }))
        .status,
    ).toBe(404);
  });

  it("shows one question with every run that answered it, the frames each showed the model, for viewers too", async () => {
    const list = await json(
      getQuestions,
      `/api/v1/projects/${projectId}/questions?questionFormat=open`,
      { projectId },
      viewerKey,
    );
    expect(list.status).toBe(200);
    expect(list.body.questions.map((q: any) => [q.externalId, q.answer])).toEqual([
      ["q4", "The ball rolls down the ramp."],
    ]);
    const q2 = (
      await json(getQuestions, `/api/v1/projects/${projectId}/questions?category=Object%20Attribute%20Recognition`, {
        projectId,
      })
    ).body.questions[0];
    const detail = await json(getQuestion, `/api/v1/questions/${q2.id}`, { questionId: q2.id }, viewerKey);
    expect(detail.status).toBe(200);
    expect(detail.body.question).toMatchObject({
      externalId: "q2",
      question: "What colour is the ramp under the ball?",
      answer: "C",
    });
    expect(detail.body.results.map((r: any) => r.run.id).sort()).toEqual([visionRun, guessRun].sort());
    const vision = detail.body.results.find((r: any) => r.run.id === visionRun);
    expect(vision.frameSet).toMatchObject({ mode: "uniform", frameCount: 8 });
    expect(vision.frameSet.frames).toHaveLength(8);
    expect(vision.result).toMatchObject({ outcome: "wrong", letter: "B" });
    expect(vision.textOnly).toMatchObject({ status: "done" });
    const outsider = (await createApiKey(prisma, (await makeUser()).userId, "t")).key;
    expect((await json(getQuestion, `/api/v1/questions/${q2.id}`, { questionId: q2.id }, outsider)).status).toBe(404);
  });

  it("answers 409 withheld for the accuracy overview (every format) and a run's CSV/JSONL while the caller holds a blind queue's answer, 200 for a viewer", async () => {
    const videoId = (
      await prisma.runVideo.findFirstOrThrow({ where: { runId: visionRun }, orderBy: { videoId: "asc" } })
    ).videoId;
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Blind answers",
        runId: visionRun,
        scope: "answers",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: owner.userId },
    });
    try {
      const refusals = [
        await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=csv`, { runId: visionRun }),
        await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=jsonl`, { runId: visionRun }),
        ...(await Promise.all(
          ["json", "csv", "jsonl"].map((format) =>
            json(getAccuracy, `/api/v1/projects/${projectId}/qa-accuracy?runId=${visionRun}&format=${format}`, {
              projectId,
            }),
          ),
        )),
      ];
      for (const refused of refusals) {
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({
          code: "withheld",
          details: { withheld: { queues: [{ id: queue.id, name: "Blind answers", itemsLeft: 1 }], blindVideos: 1 } },
        });
        expect(refused.body.error.message).toContain('hidden while you review "Blind answers" blind: 1 item left');
      }
      // The JSON list still answers, each blind question marked; the viewer gets everything whole.
      expect((await json(getRunQa, `/api/v1/runs/${visionRun}/qa`, { runId: visionRun })).status).toBe(200);
      expect(
        (await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=csv`, { runId: visionRun }, viewerKey)).status,
      ).toBe(200);
      expect(
        (
          await json(
            getAccuracy,
            `/api/v1/projects/${projectId}/qa-accuracy?runId=${visionRun}&format=csv`,
            { projectId },
            viewerKey,
          )
        ).status,
      ).toBe(200);
    } finally {
      await prisma.reviewQueue.delete({ where: { id: queue.id } });
    }
    expect((await json(getRunQa, `/api/v1/runs/${visionRun}/qa?format=csv`, { runId: visionRun })).status).toBe(200);
  });
});

/**
 * Caption judging end to end on PostgreSQL with the stub LLM: a reference set and two models' outputs,
 * both caption judges, the per-caption results and the leaderboard, checked against values worked out
 * by hand from the stub's rules (lib/tasks/captions/stub-rules.ts):
 * - style: 3 when the output's word count is within ±10% of the reference's, else 2 (even for brief and
 *   detail, whose cap is 1: the stub breaks the rule on purpose);
 * - content: a key point is hit when it shares a content word (4+ letters, not a stop word) with the caption.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { importModelOutputs, importReferenceSet } from "@/lib/tasks/captions/caption-set-import";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { deleteItemSet } from "@/lib/items/item-sets";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { jsonlBytes, fixtureVideoName } from "@/testkit/testing/item-files";
import { referenceLine, smallReferenceSet } from "@/testkit/tasks/captions/caption-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as getRunCaptions } from "./[runId]/captions/route";
import { GET as getLeaderboard } from "../projects/[projectId]/caption-leaderboard/route";
import { GET as getCompare } from "../projects/[projectId]/compare/route";
import { GET as listVideos } from "../projects/[projectId]/videos/route";
import { GET as getVideoScores } from "../videos/[videoId]/scores/route";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";
import { accessOfRun } from "@/testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
let key: string;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const inlineQueue = inlineJudgeQueue(testJudgeDeps());

const file = (fileName: string, bytes: Uint8Array) => ({ fileName, bytes });

async function captionProject(options: { uniformFrames?: number } = {}) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: options.uniformFrames ?? 8,
  });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  return { projectId, videoIds, endpointId: endpoint.id };
}

const start = async (projectId: string, input: Record<string, unknown>) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse(input),
  );

async function getJson(
  handler: (request: Request, context: any) => Promise<Response>,
  path: string,
  params: Record<string, string>,
) {
  const response = await handler(apiRequest(path, key), routeContext(params));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("caption judging", () => {
  it("judges two models' captions for style and content and ranks them by hand-checked numbers", async () => {
    const { projectId, endpointId } = await captionProject();
    const reference = await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file("ref.jsonl", jsonlBytes(...smallReferenceSet())),
    );
    const setId = reference.set.id!;
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      setId,
      file(
        "alpha.jsonl",
        jsonlBytes(
          // brief: 10 words against the reference's 13 (−23.1%): the stub says 2, the ±10% rule caps it at 1.
          { id: 1, output: "A red ball rolls down a wooden ramp and stops." },
          // detail: 28 words against 29, one sentence: the stub says 3, no rule fails.
          {
            id: 2,
            output:
              "A small red rubber ball starts at the top of a long wooden ramp, rolls steadily downward past a blue marker, and comes to rest on the floor.",
          },
          // poem: 6 words against 12: the stub says 2; no length rule covers poems.
          { id: 3, output: "Ball goes down,\nball is round." },
          // action: shares "rolls"/"ramp" with key point 1 only: 1 of 3.
          { id: 4, output: "A red sphere rolls down the ramp." },
        ),
      ),
      { model: "alpha" },
    );
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      setId,
      file(
        "beta.jsonl",
        jsonlBytes(
          // brief: 12 words against 13 (−7.7%): 3, no rule fails.
          { id: 1, output: "A red ball rolls down a wooden ramp and stops at last." },
          // detail: 30 words against 29 (+3.4%), but three sentences where the instruction allows two: the stub says 3, capped at 1.
          {
            id: 2,
            output:
              "A small red rubber ball starts at the top of a long wooden ramp. It rolls steadily downward past a blue marker. It comes to rest on the grey floor.",
          },
          // action: every key point shares a word with it: 3 of 3.
          { id: 4, output: "A hand pushes the ball, which rolls down the ramp and stops on the floor." },
        ),
      ),
      { model: "beta" },
    );

    const style = await start(projectId, { pipeline: "caption_style", endpointId, captionSetId: setId });
    // The two action captions belong to the key-point check, not the rubric.
    expect(style).toMatchObject({ videos: 2, items: 5, excludedItems: 2, withoutFrames: [] });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, style.id), style.id)).toMatchObject({
      status: "done",
      steps: { total: 10, done: 10 },
      calls: { total: 5 },
    });
    // Each call carried the video's 8 uniform frames; the length rules made none.
    expect(stub.requests.map((r) => [r.rule, r.imageCount])).toEqual(Array(5).fill(["caption-rubric", 8]));

    stub.reset();
    stub.addFault({
      fault: {
        kind: "content",
        content:
          '{"key_points": [{"key_point": "the ball rolls down the ramp", "score": 1, "reason": "x"}], "total": 1}',
      },
      match: "Decide, for each key point",
      times: 1,
    });
    const content = await start(projectId, {
      pipeline: "caption_content",
      endpointId,
      captionSetId: setId,
      models: ["alpha", "beta"],
    });
    expect(content).toMatchObject({ videos: 1, items: 2, excludedItems: 5 });
    const contentStatus = await getRunStatus(prisma, await accessOfRun(prisma, owner, content.id), content.id);
    // One answer had one entry for three key points: the engine's one repair fixed it.
    expect(contentStatus).toMatchObject({
      status: "done",
      steps: { total: 2, done: 2 },
      calls: { total: 3, repairs: 1 },
    });
    const repaired = await prisma.llmCall.findFirstOrThrow({ where: { runId: content.id, isRepair: true } });
    expect((repaired.request as { followUp: { correction: string } }).followUp.correction).toMatch(
      /exactly 3, one per key point/,
    );

    // Per caption: counts, each rule, raw and counted scores, the flags and the reasons.
    const styleCaptions = await getJson(getRunCaptions, `/api/v1/runs/${style.id}/captions?model=beta&type=detail`, {
      runId: style.id,
    });
    expect(styleCaptions.status).toBe(200);
    const [betaDetail] = JSON.parse(styleCaptions.text).captions;
    expect(betaDetail).toMatchObject({
      model: "beta",
      captionType: "detail",
      instruction: "Describe the video as a detail caption.",
      style: {
        status: "done",
        rawScore: 3,
        reason: "Simulated judgment from the stub LLM: the output has 30 words, the reference 29.",
        counts: { outputWords: 30, referenceWords: 29, outputSentences: 3, deviation: 1 / 29 },
        cap: 1,
        scoreAfterRules: 1,
        countedScore: 1,
        counted: "after_rules",
        flags: { lengthViolation: true, judgeBrokeRule: true },
      },
    });
    // The same numbers are the caption's run_metric rows (keyed by the caption, none for the video).
    const metricRows = await prisma.runMetric.findMany({
      where: { runId: style.id, itemId: betaDetail.captionId },
      orderBy: { metric: "asc" },
    });
    expect(metricRows.map((m) => [m.metric, m.value])).toEqual([
      ["judge_broke_rule", 1],
      ["length_violation", 1],
      ["style_score", 1],
    ]);
    expect(await prisma.runMetric.count({ where: { runId: style.id, itemId: "" } })).toBe(0);
    expect(betaDetail.style.rules).toEqual([
      expect.objectContaining({ id: "brief_detail_10pct", applies: true, passed: true }),
      expect.objectContaining({
        id: "instruction_restriction",
        applies: true,
        passed: false,
        detail: expect.stringMatching(/3 sentences/),
      }),
    ]);
    const contentCaptions = JSON.parse(
      (await getJson(getRunCaptions, `/api/v1/runs/${content.id}/captions?model=alpha`, { runId: content.id })).text,
    ).captions;
    expect(contentCaptions[0].content).toMatchObject({
      status: "done",
      hit: 1,
      total: 3,
      keyPoints: [
        { index: 1, keyPoint: "the ball rolls down the ramp", score: 1 },
        { index: 2, keyPoint: "the ball stops on the floor", score: 0 },
        { index: 3, keyPoint: "a hand pushes the ball", score: 0 },
      ],
    });
    expect(contentCaptions[0].content.coverage).toBeCloseTo(1 / 3, 10);
    const stored = await prisma.score.findMany({
      where: { runId: content.id, itemId: contentCaptions[0].captionId },
      orderBy: { category: "asc" },
    });
    expect(stored.map((s) => [s.category, s.value])).toEqual([
      ["kp:1", 1],
      ["kp:2", 0],
      ["kp:3", 0],
    ]);

    const board = await getJson(
      getLeaderboard,
      `/api/v1/projects/${projectId}/caption-leaderboard?runId=${style.id}&runId=${content.id}`,
      { projectId },
    );
    expect(board.status).toBe(200);
    const rows = JSON.parse(board.text).rows as {
      model: string;
      captionType: string | null;
      styleScore: any;
      contentCoverage: any;
      lengthViolationRate: any;
    }[];
    const summary = rows.map((r) => [
      r.model,
      r.captionType,
      r.styleScore?.value ?? null,
      r.styleScore?.n ?? 0,
      r.contentCoverage?.value ?? null,
      r.lengthViolationRate?.value ?? null,
    ]);
    expect(summary).toEqual([
      ["alpha", "action", null, 0, 1 / 3, null],
      ["alpha", "brief", 1, 1, null, 1],
      ["alpha", "detail", 3, 1, null, 0],
      ["alpha", "poem", 2, 1, null, 0],
      ["alpha", null, 2, 3, 1 / 3, 1 / 3],
      ["beta", "action", null, 0, 1, null],
      ["beta", "brief", 3, 1, null, 0],
      ["beta", "detail", 1, 1, null, 1],
      ["beta", null, 2, 2, 1, 1 / 2],
    ]);
    const alphaOverall = rows.find((r) => r.model === "alpha" && r.captionType === null)!;
    expect(alphaOverall.styleScore.ci.lower).toBeLessThanOrEqual(2);
    expect(alphaOverall.styleScore.ci.upper).toBeGreaterThanOrEqual(2);

    // Exports of both, CSV and JSONL.
    const csv = await getJson(
      getLeaderboard,
      `/api/v1/projects/${projectId}/caption-leaderboard?runId=${style.id}&runId=${content.id}&format=csv`,
      { projectId },
    );
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="caption-leaderboard-.*\.csv"/);
    expect(csv.text.split("\r\n")[0]).toBe("model,caption_type,metric,value,ci_low,ci_high,n");
    expect(csv.text).toContain("beta,detail,length_violation_rate,1,");
    const jsonlText = (
      await getJson(getRunCaptions, `/api/v1/runs/${style.id}/captions?format=jsonl`, { runId: style.id })
    ).text;
    const lines = jsonlText
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(5);
    expect(
      lines
        .filter((line) => line.style.flags.judgeBrokeRule)
        .map((line) => [line.model, line.captionType])
        .sort(),
    ).toEqual([
      ["alpha", "brief"],
      ["beta", "detail"],
    ]);
    const captionCsv = (
      await getJson(getRunCaptions, `/api/v1/runs/${style.id}/captions?format=csv&model=alpha&type=brief`, {
        runId: style.id,
      })
    ).text.split("\r\n");
    expect(captionCsv).toHaveLength(3);
    const header = captionCsv[0]!.split(",");
    const cells = captionCsv[1]!.split(",");
    const cell = (name: string) => cells[header.indexOf(name)];
    expect([
      cell("output_words"),
      cell("reference_words"),
      cell("rule_brief_detail_10pct"),
      cell("judge_score"),
      cell("score_after_rules"),
      cell("judge_broke_rule"),
    ]).toEqual(["10", "13", "fail", "2", "1", "1"]);

    // The judge's own score counts when the run says so (the same answers, from the cache).
    stub.reset();
    const judgeCounts = await start(projectId, {
      pipeline: "caption_style",
      endpointId,
      captionSetId: setId,
      models: ["alpha"],
      settings: { countedScore: "judge" },
    });
    expect(stub.requests).toHaveLength(0);
    const judgeBoard = JSON.parse(
      (
        await getJson(getLeaderboard, `/api/v1/projects/${projectId}/caption-leaderboard?runId=${judgeCounts.id}`, {
          projectId,
        })
      ).text,
    ).rows;
    expect(judgeBoard.map((r: any) => [r.captionType, r.styleScore.value])).toEqual([
      ["brief", 2],
      ["detail", 3],
      ["poem", 2],
      [null, 7 / 3],
    ]);

    // A judged set cannot be deleted from under its results.
    const alphaSet = await prisma.itemSet.findFirstOrThrow({ where: { projectId, model: "alpha" } });
    await expect(
      deleteItemSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), alphaSet.id),
    ).rejects.toThrow(/Judge runs judged items/);
  });

  it("marks a key-point answer that fails its repair too as parse_failed, with no scores", async () => {
    const { projectId, endpointId } = await captionProject({ uniformFrames: 4 });
    const reference = await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file(
        "ref.jsonl",
        jsonlBytes(referenceLine("k1", fixtureVideoName(0), "event", { keyPoints: ["a ball rolls", "a ramp tilts"] })),
      ),
    );
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      reference.set.id!,
      file("gamma.csv", new TextEncoder().encode("id,output\nk1,A ball rolls.\n")),
      { model: "gamma" },
    );
    const wrongTotal =
      '{"key_points": [{"key_point": "a ball rolls", "score": 1, "reason": "x"}, {"key_point": "a ramp tilts", "score": 0, "reason": "y"}], "total": 2}';
    stub.addFault({ fault: { kind: "content", content: wrongTotal }, match: "Decide, for each key point", times: 2 });
    const run = await start(projectId, {
      pipeline: "caption_content",
      endpointId,
      captionSetId: reference.set.id,
      settings: { frames: 4 },
    });
    const step = await prisma.stepResult.findFirstOrThrow({
      where: { runId: run.id },
      include: { scores: true, calls: { orderBy: { createdAt: "asc" } } },
    });
    expect(step.status).toBe("parse_failed");
    expect(step.error).toMatch(/total: is 2, but the scores add up to 1/);
    expect(step.scores).toEqual([]);
    expect(step.calls.map((c) => c.isRepair)).toEqual([false, true]);
    expect(stub.requests.map((r) => r.imageCount)).toEqual([4, 4]);
    const results = JSON.parse(
      (await getJson(getRunCaptions, `/api/v1/runs/${run.id}/captions`, { runId: run.id })).text,
    ).captions;
    expect(results[0].content).toMatchObject({
      status: "parse_failed",
      hit: null,
      coverage: null,
      keyPoints: [{ score: null }, { score: null }],
    });
  });

  it("refuses what cannot be judged: no caption set, an unknown model, a run of another task", async () => {
    const { projectId, endpointId } = await captionProject({ uniformFrames: 8 });
    const reference = await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file("ref.jsonl", jsonlBytes(...smallReferenceSet())),
    );
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      reference.set.id!,
      file("a.jsonl", jsonlBytes({ id: 1, output: "A ball." })),
      { model: "alpha" },
    );
    await expect(start(projectId, { pipeline: "caption_style", endpointId })).rejects.toThrow(/captionSetId/);
    await expect(
      start(projectId, { pipeline: "caption_style", endpointId, captionSetId: reference.set.id, models: ["omega"] }),
    ).rejects.toThrow(/No caption of omega/);
    await expect(
      start(projectId, {
        pipeline: "caption_style",
        endpointId,
        captionSetId: reference.set.id,
        settings: { countedScore: "best" },
      }),
    ).rejects.toThrow();
    const hallucination = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "hallucination", endpointId }),
    );
    const answer = await getJson(getRunCaptions, `/api/v1/runs/${hallucination.id}/captions`, {
      runId: hallucination.id,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error.message).toMatch(/not a caption run/);
  });

  it("never makes a caption run the latest run of the video list, the video page or the compare page", async () => {
    const { projectId, videoIds, endpointId } = await captionProject();
    const hallucination = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "hallucination", endpointId }),
    );
    // The default view is the latest finished run: the hallucination run has finished (queued nowhere, marked done).
    await prisma.judgeRun.update({ where: { id: hallucination.id }, data: { status: "done" } });
    const reference = await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file("ref.jsonl", jsonlBytes(...smallReferenceSet())),
    );
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      reference.set.id!,
      file("a.jsonl", jsonlBytes({ id: 1, output: "A ball." }, { id: 2, output: "A red ball." })),
      { model: "alpha" },
    );
    const captions = await start(projectId, { pipeline: "caption_style", endpointId, captionSetId: reference.set.id });
    expect((await prisma.judgeRun.findFirstOrThrow({ where: { projectId }, orderBy: { createdAt: "desc" } })).id).toBe(
      captions.id,
    );

    const list = JSON.parse((await getJson(listVideos, `/api/v1/projects/${projectId}/videos`, { projectId })).text);
    expect(list.run.id).toBe(hallucination.id);
    const scores = JSON.parse(
      (await getJson(getVideoScores, `/api/v1/videos/${videoIds[0]}/scores`, { videoId: videoIds[0]! })).text,
    );
    expect(scores.run.id).toBe(hallucination.id);
    const compare = JSON.parse(
      (await getJson(getCompare, `/api/v1/projects/${projectId}/compare?videoId=${videoIds[0]}`, { projectId })).text,
    );
    expect(compare.samples.find((sample: any) => sample.id === videoIds[0]).judge.runId).toBe(hallucination.id);
    // Named explicitly, the caption run's own steps are there.
    const named = JSON.parse(
      (
        await getJson(getVideoScores, `/api/v1/videos/${videoIds[0]}/scores?runId=${captions.id}`, {
          videoId: videoIds[0]!,
        })
      ).text,
    );
    expect(named.run.id).toBe(captions.id);
  });
});

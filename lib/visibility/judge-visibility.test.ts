/**
 * Every payload that carries the judge's values for a video, read by a reviewer who holds an unsubmitted
 * claim on that video in a blind queue (redacted) and by a member who does not (whole), on PostgreSQL with
 * real runs against the stub LLM: a hallucination run and both caption runs over the same two videos.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { projectExport, type ExportRow } from "../agreement/export";
import { exportQuerySchema } from "../agreement/report-filter";
import { importModelOutputs, importReferenceSet } from "../tasks/captions/caption-set-import";
import { inspectRunVideo } from "../judge/calls/call-inspector";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRunSchema } from "../judge/runs/run-input.validation";

import { projectCaptionLeaderboard } from "../tasks/captions/caption-overview";
import { captionListQuerySchema, captionResultsQuerySchema } from "../tasks/captions/caption-query";
import { CAPTION_RESULTS_CSV_HEADER, captionResultsCsvRows } from "../tasks/captions/caption-results-export";
import type { CaptionRunResult } from "../tasks/captions/caption-run-results";
import { runOverview } from "../judge/runs/run-overview";
import { createRun, videoScores } from "../judge/runs/runs";
import { videoRuns } from "../judge/runs/video-runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { reviewScore, videoReviews } from "../reviews/reviews";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { fixtureVideoName, jsonlBytes } from "../../testkit/testing/item-files";
import { referenceLine } from "../../testkit/tasks/captions/caption-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { compareSamples } from "../videos/compare-samples";
import { videoListQuerySchema } from "../videos/video-filter";
import {
  captionDetail,
  projectCaptionOverview,
  projectCaptionLeaderboard as visibleCaptionLeaderboard,
  runCaptionResultExport,
  runCaptionResults,
} from "../tasks/captions/visible-caption-results";
import { blindVideoIdsFor, judgeValueSteps, redactInspectedStepsFor, withheldSteps } from "./judge-visibility";
import { WithheldError } from "./withheld";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { accessOfVideo } from "../../testkit/testing/record-access";

/** The CSV export of `captions`, header and rows. */
function captionResultsCsv(runId: string, captions: readonly CaptionRunResult[]): string {
  return CAPTION_RESULTS_CSV_HEADER + captionResultsCsvRows(runId, captions);
}

let stub: StubServer;
let owner: Actor;
/** Holds video 0 blind. */
let ann: Actor;
/** A reviewer with no claim, who also judged video 0. */
let bob: Actor;
let projectId: string;
let blindVideo: string;
let openVideo: string;
let hallucinationRun: string;
let styleRun: string;
let contentRun: string;

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const BRIEF = "A red ball rolls down a wooden ramp and stops at the bottom.";
const KEY_POINTS = ["the ball rolls down the ramp", "the ball stops on the floor", "a hand pushes the ball"];

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
    name: "Visibility",
  });
  projectId = project.projectId;
  [blindVideo, openVideo] = project.videoIds as [string, string];
  for (const reviewer of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });

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
  // Per video a brief caption the stub's judge scores 2 and the length rule caps to 1 (flagged), and an action caption with key points.
  const references = [0, 1].flatMap((v) => [
    referenceLine(`brief-${v}`, fixtureVideoName(v), "brief", { reference: BRIEF }),
    referenceLine(`action-${v}`, fixtureVideoName(v), "action", { keyPoints: KEY_POINTS }),
  ]);
  const setId = (
    await importReferenceSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "ref.jsonl",
      bytes: jsonlBytes(...references),
    })
  ).set.id!;
  const outputs = [0, 1].flatMap((v) => [
    { id: `brief-${v}`, output: "A red ball rolls down a wooden ramp and stops." },
    { id: `action-${v}`, output: "A red sphere rolls down the ramp." },
  ]);
  await importModelOutputs(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    setId,
    { fileName: "alpha.jsonl", bytes: jsonlBytes(...outputs) },
    { model: "alpha" },
  );
  const start = async (input: Record<string, unknown>) =>
    createRun(
      { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ endpointId: endpoint.id, ...input }),
    );
  hallucinationRun = (await start({ pipeline: "hallucination" })).id;
  styleRun = (await start({ pipeline: "caption_style", captionSetId: setId })).id;
  contentRun = (await start({ pipeline: "caption_content", captionSetId: setId })).id;

  // Bob judges a score of the blind video; then Ann claims that video in a blind queue.
  const score = await prisma.score.findFirstOrThrow({ where: { runId: hallucinationRun, videoId: blindVideo } });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), score.id, {
    value: score.value === 10 ? 0 : 10,
    note: "bob's note",
  });
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name: "Blind",
      runId: hallucinationRun,
      scope: "verdict",
      blind: true,
      itemCount: 1,
      createdById: owner.userId,
    },
  });
  const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: blindVideo, position: 0 } });
  await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId: ann.userId } });
}, 120_000);
afterAll(() => stub.close());

/** The task's declared scoring steps, as the registry holds them. */
const scoringSteps = (pipeline: string) =>
  new Set(BUILT_IN_DECLARATIONS.tasks.find((t) => t.id === pipeline)!.metricSteps);

it("the blind reviewer holds exactly the claimed video blind, and nobody else holds any", async () => {
  expect([...(await blindVideoIdsFor(prisma, ann.userId))]).toEqual([blindVideo]);
  expect([...(await blindVideoIdsFor(prisma, bob.userId))]).toEqual([]);
});

describe("video scores (GET /videos/:id/scores)", () => {
  it("withhold the summary, scores and the declared scoring steps' outputs; other steps stay", async () => {
    const whole = await videoScores(prisma, await accessOfVideo(prisma, bob, blindVideo), blindVideo, hallucinationRun);
    const hidden = await videoScores(
      prisma,
      await accessOfVideo(prisma, ann, blindVideo),
      blindVideo,
      hallucinationRun,
    );
    expect(whole.blind).toBe(false);
    expect(whole.summary).not.toBeNull();
    expect(whole.steps.flatMap((s) => s.scores).length).toBeGreaterThan(0);
    expect(hidden).toMatchObject({ blind: true, summary: null });
    expect(hidden.steps.map((s) => s.stepId)).toEqual(whole.steps.map((s) => s.stepId));
    const scoring = scoringSteps("hallucination");
    for (const [i, step] of hidden.steps.entries()) {
      expect(step.scores).toEqual([]);
      if (scoring.has(step.stepId)) expect(step.output, step.stepId).toBeNull();
      else expect(step.output, step.stepId).toEqual(whole.steps[i]!.output);
    }
    expect(hidden.steps.some((s) => !scoring.has(s.stepId) && s.output !== null)).toBe(true);
    // The other video is not blind to her.
    expect(
      (await videoScores(prisma, await accessOfVideo(prisma, ann, openVideo), openVideo, hallucinationRun)).blind,
    ).toBe(false);
  });

  it("of a caption run withhold the caption tasks' declared scoring steps", async () => {
    for (const runId of [styleRun, contentRun]) {
      const whole = await videoScores(prisma, await accessOfVideo(prisma, bob, blindVideo), blindVideo, runId);
      const hidden = await videoScores(prisma, await accessOfVideo(prisma, ann, blindVideo), blindVideo, runId);
      const pipeline = whole.run!.pipeline;
      expect(
        whole.steps.filter((s) => scoringSteps(pipeline).has(s.stepId) && s.output !== null).length,
        pipeline,
      ).toBeGreaterThan(0);
      expect(hidden.blind).toBe(true);
      for (const step of hidden.steps)
        if (scoringSteps(pipeline).has(step.stepId)) expect(step.output, `${pipeline} ${step.stepId}`).toBeNull();
    }
  });
});

describe("video reviews (GET /videos/:id/reviews)", () => {
  it("keep only the blind reviewer's own judgments, without the judge's values", async () => {
    const whole = await videoReviews(prisma, await projectAccess(prisma, bob, projectId, "project.view"), blindVideo);
    expect(whole.blind).toBe(false);
    expect(whole.judgments.map((j) => [j.reviewer.id, j.note])).toEqual([[bob.userId, "bob's note"]]);
    expect(whole.judgments[0]!.judge).not.toBeNull();
    expect(
      await videoReviews(prisma, await projectAccess(prisma, ann, projectId, "project.view"), blindVideo),
    ).toMatchObject({ blind: true, judgments: [] });
  });
});

describe("the run page", () => {
  it("blanks the blind video's summary and keeps the others", async () => {
    const whole = await runOverview(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      hallucinationRun,
    );
    const hidden = await runOverview(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      hallucinationRun,
    );
    expect(whole.videos.map((v) => [v.videoId, v.blind, v.summary !== null])).toEqual([
      [blindVideo, false, true],
      [openVideo, false, true],
    ]);
    expect(hidden.videos.map((v) => [v.videoId, v.blind, v.summary !== null])).toEqual([
      [blindVideo, true, false],
      [openVideo, false, true],
    ]);
    expect(hidden.metrics.map((m) => m.id)).toEqual(whole.metrics.map((m) => m.id));
  });
});

describe("the call inspector", () => {
  it("withholds the scoring steps' outputs, errors and calls (raw answers) and keeps the other steps whole", async () => {
    const whole = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      hallucinationRun,
      blindVideo,
    );
    const hidden = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      hallucinationRun,
      blindVideo,
    );
    const scoring = scoringSteps("hallucination");
    expect(whole.blind).toBe(false);
    const scoringAnswers = whole.steps
      .filter((s) => scoring.has(s.stepId))
      .flatMap((s) => s.calls.map((c) => c.responseText));
    expect(scoringAnswers.length).toBeGreaterThan(0);
    expect(hidden.blind).toBe(true);
    expect(hidden.steps.map((s) => [s.id, s.status])).toEqual(whole.steps.map((s) => [s.id, s.status]));
    for (const [i, step] of hidden.steps.entries()) {
      if (scoring.has(step.stepId))
        expect(step, step.stepId).toMatchObject({ output: null, rawText: null, error: null, scores: [], calls: [] });
      else expect(step, step.stepId).toEqual(whole.steps[i]);
    }
    const text = JSON.stringify(hidden);
    for (const answer of scoringAnswers) expect(text).not.toContain(JSON.stringify(answer));
    expect(text).toContain(JSON.stringify(whole.steps.find((s) => !scoring.has(s.stepId))!.calls[0]!.responseText));
  });

  it("of a caption run withholds the caption tasks' declared scoring steps", async () => {
    const whole = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      styleRun,
      blindVideo,
    );
    const hidden = await inspectRunVideo(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      styleRun,
      blindVideo,
    );
    expect(whole.steps.some((s) => s.stepId === "style_judge" && s.calls.some((c) => c.responseText))).toBe(true);
    for (const step of hidden.steps) expect(step, step.stepId).toMatchObject({ output: null, calls: [], scores: [] });
  });
});

describe("the video page's runs", () => {
  it("carry no metric of the blind video", async () => {
    const whole = await videoRuns(prisma, await accessOfVideo(prisma, bob, blindVideo), blindVideo);
    const hidden = await videoRuns(prisma, await accessOfVideo(prisma, ann, blindVideo), blindVideo);
    const hallucination = (rows: typeof whole) => rows.find((r) => r.id === hallucinationRun)!;
    expect(hallucination(whole).blind).toBe(false);
    expect(Object.values(hallucination(whole).scores).some((v) => v !== null)).toBe(true);
    expect(hallucination(whole).overall).not.toBeNull();
    expect(hidden.map((r) => r.id)).toEqual(whole.map((r) => r.id));
    for (const row of hidden) {
      expect(row.blind).toBe(true);
      expect(Object.values(row.scores).every((v) => v === null)).toBe(true);
      expect([row.overall, row.verdict]).toEqual([null, null]);
    }
  });
});

describe("the compare page", () => {
  it("shows neither the judge's outcome nor the reviewers' consensus of the blind video", async () => {
    const whole = await compareSamples(prisma, await projectAccess(prisma, bob, projectId, "project.view"), {
      videoId: blindVideo,
    });
    const hidden = await compareSamples(prisma, await projectAccess(prisma, ann, projectId, "project.view"), {
      videoId: blindVideo,
    });
    expect(whole.samples.map((s) => [s.id, s.blind, s.judge?.overall ?? null])).toEqual([
      [blindVideo, false, expect.any(Number)],
    ]);
    expect(hidden.samples.map((s) => [s.id, s.blind, s.judge, s.reviewers])).toEqual([
      [blindVideo, true, null, { verdict: null, count: 0 }],
    ]);
    expect(
      (
        await compareSamples(prisma, await projectAccess(prisma, ann, projectId, "project.view"), {
          videoId: openVideo,
        })
      ).samples[0],
    ).toMatchObject({
      blind: false,
      judge: { runId: hallucinationRun },
    });
  });
});

describe("the video list", () => {
  it("shows the blind video without scores or a disagreement flag", async () => {
    const query = videoListQuerySchema(builtInCatalogue()).parse({ runId: hallucinationRun });
    const row = async (actor: Actor, videoId: string) =>
      (await browseVideos(prisma, await projectAccess(prisma, actor, projectId, "project.view"), query)).videos.find(
        (v) => v.id === videoId,
      )!;
    const whole = await row(bob, blindVideo);
    expect(whole.blind).toBe(false);
    expect(Object.values(whole.scores ?? {}).some((v) => v !== null)).toBe(true);
    expect(await row(ann, blindVideo)).toMatchObject({ blind: true, scores: null, review: { disagreement: false } });
    expect((await row(ann, openVideo)).scores).not.toBeNull();
  });
});

describe("the exports (agreement scope)", () => {
  it("are whole for everyone else and withheld whole from the blind video's reviewer", async () => {
    const rows = async (actor: Actor) => {
      const { stream } = await projectExport(
        prisma,
        await projectAccess(prisma, actor, projectId, "export.read"),
        exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl", runId: hallucinationRun }),
      );
      const text = await new Response(stream).text();
      return new Set(
        text
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as ExportRow).videoId),
      );
    };
    expect([...(await rows(bob))].sort()).toEqual([blindVideo, openVideo].sort());
    await expect(rows(ann)).rejects.toBeInstanceOf(WithheldError);
  });
});

describe("caption results", () => {
  const briefOf = <C extends { video: { id: string }; captionType: string }>(captions: C[], videoId: string) =>
    captions.find((c) => c.video.id === videoId && c.captionType === "brief")!;
  const actionOf = <C extends { video: { id: string }; captionType: string }>(captions: C[], videoId: string) =>
    captions.find((c) => c.video.id === videoId && c.captionType === "action")!;

  it("on the captions page: the blind video's captions keep their text and lose every judge value", async () => {
    const whole = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      captionListQuerySchema.parse({}),
    );
    const hidden = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      captionListQuerySchema.parse({}),
    );
    expect(whole.total).toBe(4);
    expect(hidden.total).toBe(4);
    expect(whole.captions.every((c) => !c.blind)).toBe(true);
    expect(briefOf(whole.captions, blindVideo).style).toMatchObject({
      rawScore: 2,
      scoreAfterRules: 1,
      flags: { judgeBrokeRule: true },
      reason: expect.any(String),
    });
    expect(actionOf(whole.captions, blindVideo).content).toMatchObject({ hit: 1, total: 3 });

    const brief = briefOf(hidden.captions, blindVideo);
    expect(brief).toMatchObject({ blind: true, output: briefOf(whole.captions, blindVideo).output, reference: BRIEF });
    expect(brief.style).toEqual({
      status: "done",
      error: null,
      rawScore: null,
      reason: null,
      counts: null,
      rules: null,
      cap: null,
      scoreAfterRules: null,
      countedScore: null,
      counted: null,
      flags: null,
    });
    const action = actionOf(hidden.captions, blindVideo);
    expect(action.content).toEqual({
      status: "done",
      error: null,
      hit: null,
      total: 3,
      coverage: null,
      keyPoints: KEY_POINTS.map((keyPoint, i) => ({ index: i + 1, keyPoint, score: null, reason: null })),
    });
    // The other video's captions are whole; the leaderboard (an aggregate) is withheld whole, not computed without the blind video.
    expect(briefOf(hidden.captions, openVideo)).toEqual(briefOf(whole.captions, openVideo));
    expect(whole.leaderboard!.rows.length).toBeGreaterThan(0);
    expect(hidden.leaderboard).toBeNull();
  });

  it("match no flag filter on the blind video, in the list or its total", async () => {
    const flagged = captionListQuerySchema.parse({ flag: "judge_broke_rule" });
    const whole = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      flagged,
    );
    const hidden = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      flagged,
    );
    expect(whole.captions.map((c) => c.video.id).sort()).toEqual([blindVideo, openVideo].sort());
    expect(whole.total).toBe(2);
    expect(hidden.captions.map((c) => c.video.id)).toEqual([openVideo]);
    expect(hidden.total).toBe(1);
    const perRun = captionResultsQuerySchema.parse({ flag: "judge_broke_rule" });
    expect(
      (await runCaptionResults(prisma, await projectAccess(prisma, bob, projectId, "project.view"), styleRun, perRun))
        .total,
    ).toBe(2);
    const hiddenRun = await runCaptionResults(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      styleRun,
      perRun,
    );
    expect([hiddenRun.total, hiddenRun.captions.map((c) => c.video.id)]).toEqual([1, [openVideo]]);
  });

  it("in the per-run API and its exports", async () => {
    for (const runId of [styleRun, contentRun]) {
      const whole = await runCaptionResults(
        prisma,
        await projectAccess(prisma, bob, projectId, "project.view"),
        runId,
        captionResultsQuerySchema.parse({}),
      );
      const hidden = await runCaptionResults(
        prisma,
        await projectAccess(prisma, ann, projectId, "project.view"),
        runId,
        captionResultsQuerySchema.parse({}),
      );
      expect(hidden.total).toBe(whole.total);
      for (const caption of hidden.captions) {
        const same = whole.captions.find((c) => c.captionId === caption.captionId)!;
        if (caption.video.id === openVideo) expect(caption).toEqual(same);
        else expect(caption.blind).toBe(true);
      }
      // The CSV export: the blind caption's row has no reason, and the open one's is unchanged.
      const csvRows = async (actor: Actor) => {
        const { captions } = await runCaptionResults(
          prisma,
          await projectAccess(prisma, actor, projectId, "project.view"),
          runId,
          captionResultsQuerySchema.parse({ format: "csv" }),
        );
        const lines = captionResultsCsv(runId, captions).trimEnd().split("\n");
        return (captionId: string) => lines.find((line) => line.startsWith(`${runId},${captionId},`))!;
      };
      const [hiddenRow, wholeRow] = [await csvRows(ann), await csvRows(bob)];
      for (const caption of whole.captions) {
        // Up to a quote: a key point's reason sits in the CSV as JSON, with its quotes escaped.
        const reason = (caption.style?.reason ?? caption.content!.keyPoints.find((kp) => kp.reason)!.reason!).split(
          '"',
        )[0]!;
        expect(reason.length).toBeGreaterThan(10);
        expect(wholeRow(caption.captionId)).toContain(reason);
        if (caption.video.id === blindVideo) expect(hiddenRow(caption.captionId)).not.toContain(reason);
        else expect(hiddenRow(caption.captionId)).toEqual(wholeRow(caption.captionId));
      }
    }
  });

  it("on a caption's page", async () => {
    const caption = await prisma.item.findFirstOrThrow({
      where: { projectId, kind: "caption", videoId: blindVideo, group: "brief" },
    });
    const whole = await captionDetail(prisma, await projectAccess(prisma, bob, projectId, "project.view"), caption.id);
    const hidden = await captionDetail(prisma, await projectAccess(prisma, ann, projectId, "project.view"), caption.id);
    expect(whole.blind).toBe(false);
    expect(whole.results[0]!.result.style).toMatchObject({ rawScore: 2, cap: 1 });
    expect(hidden.blind).toBe(true);
    expect(hidden.results.map((r) => r.run.id)).toEqual(whole.results.map((r) => r.run.id));
    expect(hidden.results[0]!.result.style).toMatchObject({ rawScore: null, cap: null, reason: null, flags: null });
    expect(hidden.frameSet).toEqual(whole.frameSet);
    const open = await prisma.item.findFirstOrThrow({
      where: { projectId, kind: "caption", videoId: openVideo, group: "brief" },
    });
    expect(await captionDetail(prisma, await projectAccess(prisma, ann, projectId, "project.view"), open.id)).toEqual(
      await captionDetail(prisma, await projectAccess(prisma, bob, projectId, "project.view"), open.id),
    );
  });

  it("exports (CSV and JSONL) whole or withheld: 409 withheld for the blind reviewer, whole for a viewer, the viewer's once submitted", async () => {
    const viewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const exported = async (actor: Actor, runId: string) => {
      const captions = [];
      for await (const page of await runCaptionResultExport(
        prisma,
        await projectAccess(prisma, actor, projectId, "export.read"),
        runId,
        captionResultsQuerySchema.parse({ format: "csv" }),
      ))
        captions.push(...page.captions);
      return captionResultsCsv(runId, captions);
    };
    const assignment = await prisma.reviewQueueAssignment.findFirstOrThrow({ where: { reviewerId: ann.userId } });
    for (const runId of [styleRun, contentRun]) {
      const refused = await exported(ann, runId).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(WithheldError);
      expect(refused).toMatchObject({
        status: 409,
        code: "withheld",
        details: { withheld: { queues: [{ name: "Blind", itemsLeft: 1 }], blindVideos: 1 } },
      });
      expect((refused as WithheldError).message).toContain(
        'The caption results export is hidden while you review "Blind" blind: 1 item left',
      );
      // The viewer's file is whole: a row for each of the run's captions (both videos), none of them blind.
      const whole = await exported(viewer, runId);
      const { captions } = await runCaptionResults(
        prisma,
        await projectAccess(prisma, viewer, projectId, "project.view"),
        runId,
        captionResultsQuerySchema.parse({ format: "csv" }),
      );
      expect(new Set(captions.map((c) => c.video.id))).toEqual(new Set([blindVideo, openVideo]));
      expect(captions.some((c) => c.blind)).toBe(false);
      expect(whole).toEqual(captionResultsCsv(runId, captions));
      expect(await exported(bob, runId)).toEqual(whole);
    }
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: assignment.itemId, reviewerId: ann.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    try {
      for (const runId of [styleRun, contentRun])
        expect(await exported(ann, runId)).toEqual(await exported(viewer, runId));
    } finally {
      await prisma.reviewQueueAssignment.update({
        where: { itemId_reviewerId: { itemId: assignment.itemId, reviewerId: ann.userId } },
        data: { status: "claimed", doneAt: null },
      });
    }
  });

  it("withhold the leaderboard whole (an aggregate): 409 for the blind reviewer and none on her page, whole for everyone else, the same once she submits", async () => {
    const query = { runId: [styleRun, contentRun], format: "json" as const };
    const whole = await projectCaptionLeaderboard(
      prisma,
      await projectAccess(prisma, bob, projectId, "project.view"),
      query,
    );
    expect(whole.rows.length).toBeGreaterThan(0);
    expect(
      await visibleCaptionLeaderboard(prisma, await projectAccess(prisma, bob, projectId, "project.view"), query),
    ).toEqual(whole);
    const refused = await visibleCaptionLeaderboard(
      prisma,
      await projectAccess(prisma, ann, projectId, "project.view"),
      query,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WithheldError);
    expect(refused).toMatchObject({
      status: 409,
      code: "withheld",
      details: { withheld: { queues: [{ name: "Blind", itemsLeft: 1 }], blindVideos: 1 } },
    });
    expect((refused as WithheldError).message).toContain(
      'The caption leaderboard is hidden while you review "Blind" blind: 1 item left',
    );
    const page = captionListQuerySchema.parse({});
    expect(
      await projectCaptionOverview(prisma, await projectAccess(prisma, ann, projectId, "project.view"), page),
    ).toMatchObject({
      leaderboard: null,
      leaderboardWithheld: { queues: [{ name: "Blind", itemsLeft: 1 }], blindVideos: 1 },
    });
    expect(
      await projectCaptionOverview(prisma, await projectAccess(prisma, bob, projectId, "project.view"), page),
    ).toMatchObject({
      leaderboard: whole,
      leaderboardWithheld: null,
    });
    const assignment = await prisma.reviewQueueAssignment.findFirstOrThrow({ where: { reviewerId: ann.userId } });
    const where = { itemId_reviewerId: { itemId: assignment.itemId, reviewerId: ann.userId } };
    await prisma.reviewQueueAssignment.update({ where, data: { status: "done", doneAt: new Date() } });
    try {
      expect(
        await visibleCaptionLeaderboard(prisma, await projectAccess(prisma, ann, projectId, "project.view"), query),
      ).toEqual(whole);
      expect(
        await projectCaptionOverview(prisma, await projectAccess(prisma, ann, projectId, "project.view"), page),
      ).toMatchObject({
        leaderboard: whole,
        leaderboardWithheld: null,
      });
    } finally {
      await prisma.reviewQueueAssignment.update({ where, data: { status: "claimed", doneAt: null } });
    }
  });
});

describe("a task's declared scoring steps decide what is withheld", () => {
  // A task registered only here: one scoring step and one descriptive step.
  const TOY_TASK: TaskDeclaration = {
    id: "toy_visibility",
    label: "Toy",
    subject: "video",
    targets: [],
    metrics: [],
    groupings: [],
    metricSteps: ["toy_score"],
  };
  const steps = [
    {
      stepId: "toy_describe",
      output: { text: "a ball" },
      scores: [],
      error: null,
      calls: [{ responseText: "a ball" }],
    },
    {
      stepId: "toy_score",
      output: { score: 3.25 },
      scores: [{ category: "toy", value: 3.25 }],
      error: "3.25 is not allowed",
      calls: [{ responseText: '{"score": 3.25}' }],
    },
  ];

  it("withholds exactly the declared steps' outputs, errors and calls", () => {
    expect(withheldSteps(steps, judgeValueSteps("toy_visibility", [TOY_TASK]))).toEqual([
      { ...steps[0], scores: [] },
      { stepId: "toy_score", output: null, scores: [], error: null, calls: [] },
    ]);
  });

  it("withholds every step of a pipeline no task declares, or of a task that names no scoring step", () => {
    const everything = steps.map((s) => ({ stepId: s.stepId, output: null, scores: [], error: null, calls: [] }));
    expect(withheldSteps(steps, judgeValueSteps("no_such_pipeline", [TOY_TASK]))).toEqual(everything);
    expect(withheldSteps(steps, judgeValueSteps("toy_visibility", [{ ...TOY_TASK, metricSteps: undefined }]))).toEqual(
      everything,
    );
  });

  it("applies to the blind reviewer's video only", async () => {
    const forAnn = await redactInspectedStepsFor(prisma, ann.userId, blindVideo, "toy_visibility", steps, [TOY_TASK]);
    expect(forAnn.blind).toBe(true);
    expect(forAnn.steps.map((s) => s.output)).toEqual([{ text: "a ball" }, null]);
    expect(await redactInspectedStepsFor(prisma, bob.userId, blindVideo, "toy_visibility", steps, [TOY_TASK])).toEqual({
      blind: false,
      steps,
    });
    expect(await redactInspectedStepsFor(prisma, ann.userId, openVideo, "toy_visibility", steps, [TOY_TASK])).toEqual({
      blind: false,
      steps,
    });
  });
});

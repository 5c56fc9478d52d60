/**
 * Issue 38 §3: aligning a video-QA item target on its own (qa's "correctness", one label per question), on real
 * PostgreSQL with the stub LLM. Every question is open, so the judge decides each answer: the stub's answer restates
 * the question, and its judge says "Yes" when the answer shares at least half of the reference's words. The labels
 * say the opposite on some questions, so the split has disagreements the optimizer is shown, and the rewritten
 * template is the open questions' judge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { alignableTargets, alignBuiltinJudge } from "../../alignment/align-builtin";
import { labelSetStore } from "../../alignment/label-store";
import { createLabelSet } from "../../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { fixtureVideoName } from "../../../testkit/testing/item-files";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";

import { questionSetBytes } from "../../../testkit/tasks/qa/qa-fixtures";
import { importQuestionSet } from "./question-set-import";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const VIDEOS = 10;
// The judge finds the even questions' answers right (their reference shares the question's words), the odd ones wrong.
const judgedRight = (v: number) => v % 2 === 0;
// The labels agree with the judge except on questions 2 and 3: the disagreements.
const labelledRight = (v: number) => (v === 2 || v === 3 ? !judgedRight(v) : judgedRight(v));

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub?.close());

describe("aligning a video-QA item target", () => {
  it("is offered per item, with the open questions' judge template rewritten", () => {
    expect(
      alignableTargets(builtInCatalogue().pipelines, "qa").find((t) => t.target.id === "correctness"),
    ).toMatchObject({
      kind: "score",
      scope: "item",
      valueStep: "decide",
      steps: [{ stepId: "decide", templateId: "qa/judge-open" }],
    });
  });

  it("compares the judge's decisions and the labels question by question, and shows the optimizer the disagreements", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: VIDEOS,
      keyFrames: 1,
      uniformFrames: 8,
      name: "QA alignment",
    });
    // Frames at a quarter of the video's area, as the default resize plans for QA runs.
    await prisma.video.updateMany({ where: { projectId }, data: { width: 128, height: 96 } });
    const lines = Array.from({ length: VIDEOS }, (_, v) => ({
      id: `q${v}`,
      video: fixtureVideoName(v),
      question: `What does the ball do on ramp ${v}?`,
      format: "open" as const,
      answer: judgedRight(v)
        ? `The ball does roll down ramp ${v}.`
        : "A purple elephant dances quietly elsewhere tonight.",
    }));
    await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "questions.jsonl",
      bytes: questionSetBytes(lines),
    });
    const questions = await prisma.item.findMany({
      where: { projectId, kind: "question" },
      select: { id: true, videoId: true, externalId: true },
    });
    expect(questions).toHaveLength(VIDEOS);
    const labelSet = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { name: "Correct answers", format: "generic", fileName: "correct.csv", sha256: "6".repeat(64), citation: "" },
      questions.map((q) => ({
        target: {
          task: "qa",
          targetType: "score",
          target: "correctness",
          videoId: q.videoId,
          itemId: q.id,
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: labelledRight(Number(q.externalId.slice(1))) ? 1 : 0,
        annotator: null,
      })),
    );
    const store = labelSetStore(
      prisma,
      { projectId, labelSetId: labelSet.id, task: "qa", target: "correctness", scope: "item" },
      (v) => v === 1,
    );
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const report = await alignBuiltinJudge(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines, labels: store },
      await projectAccess(prisma, owner, projectId, "prompts.manage"),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "qa",
        targetId: "correctness",
        judgeEndpointId: endpoint.id,
        optimizerEndpointId: endpoint.id,
        budget: { maxCalls: 1000, maxCostUsd: 10 },
        seed: 4,
        rewrites: 1,
      },
    );
    expect(report).toMatchObject({ templateId: "qa/judge-open", stepId: "decide", targetKind: "score" });
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    expect(baseline.train.n).toBe(report.split.train.length);
    expect(report.heldOut!.baseline.n).toBe(report.split.heldOut.length);
    // The judge's stored decisions, per question, are what was compared: every train question has one, and they
    // match the stub's rule (right where the reference shares the question's words).
    const scores = await prisma.score.findMany({
      where: { runId: baseline.trainRunId, stepId: "decide", category: "correctness" },
      select: { itemId: true, value: true },
    });
    const byItem = new Map(scores.map((s) => [s.itemId, s.value]));
    const train = questions.filter((q) => report.split.train.includes(q.videoId));
    expect(train.map((q) => byItem.get(q.id))).toEqual(
      train.map((q) => (judgedRight(Number(q.externalId.slice(1))) ? 1 : 0)),
    );
    // Questions 2 and 3 are labelled against the judge: where one is on train, κ falls below 1 and the optimizer is shown it.
    const mislabelledOnTrain = train.some((q) => ["q2", "q3"].includes(q.externalId));
    expect(baseline.train.kappa === 1).toBe(!mislabelledOnTrain);
    expect(report.skipped.some((s) => s.includes("no train disagreements"))).toBe(!mislabelledOnTrain);
  }, 300_000);
});

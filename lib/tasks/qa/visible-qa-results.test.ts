/**
 * QA results through the blind policy: a reviewer who reviews a video in a blind queue sees its questions and
 * the model's raw answers, never the decisions (outcome, letter, judgement, reason), and outcome filters
 * neither list nor count its questions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { NotFoundError } from "../../errors";
import { importQuestionSet } from "./question-set-import";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { addMember, createProject } from "../../projects/projects";
import { nextItem } from "../../queues/next-item";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { questionSetBytes } from "../../../testkit/tasks/qa/qa-fixtures";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { createRunSchema } from "../../judge/runs/run-input.validation";
import { createRun } from "../../judge/runs/runs";

import { WithheldError } from "../../visibility/withheld";
import { qaRunResultsQuerySchema } from "./qa-query";
import { qaResultsCsvRows } from "./qa-results-export";
import {
  projectQaOverview,
  qaPageOverview,
  questionDetail,
  runQaResultExport,
  runQaResults,
} from "./visible-qa-results";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
let viewer: Actor;
let runId: string;
let queueId: string;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, reviewer, viewer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
    name: "Blind QA",
  });
  videoIds = project.videoIds;
  projectId = project.projectId;
  await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
  await addMember(prisma, await projectAccess(prisma, owner, project.projectId, "members.manage"), {
    projectId: project.projectId,
    email: reviewer.email,
    role: "reviewer",
  });
  await addMember(prisma, await projectAccess(prisma, owner, project.projectId, "members.manage"), {
    projectId: project.projectId,
    email: viewer.email,
    role: "viewer",
  });
  const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, project.projectId, "videos.import"), {
    fileName: "q.jsonl",
    bytes: questionSetBytes(),
  });
  const endpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, project.projectId, "endpoints.manage"),
    {
      name: "stub",
      baseUrl: stub.baseURL,
      model: `stub-vision-${project.projectId.slice(-8)}`,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    },
  );
  const run = await createRun(
    { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, project.projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse({
      pipeline: "qa",
      endpointId: endpoint.id,
      questionSetId: set.set.id,
      settings: { textOnlyBaseline: true },
    }),
  );
  runId = run.id;
  // A blind queue over the first video (q1, q2), whose item the reviewer holds.
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId: project.projectId,
      name: "Blind",
      runId,
      scope: "verdict",
      blind: true,
      reviewersPerItem: 1,
      itemCount: 1,
      createdById: owner.userId,
    },
  });
  queueId = queue.id;
  await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 } });
  expect(
    (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
  ).not.toBeNull();
}, 120_000);
afterAll(() => stub.close());

describe("QA results for a blind reviewer", () => {
  it("withhold the decisions on the blind video's questions and keep the others whole", async () => {
    const seen = await runQaResults(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), runId, {
      page: 1,
      pageSize: 50,
      format: "json",
    });
    const byId = Object.fromEntries(seen.questions.map((q) => [q.externalId, q]));
    for (const id of ["q1", "q2"]) {
      expect(byId[id]).toMatchObject({
        blind: true,
        result: { status: "done", outcome: null, letter: null, judgement: null, reason: null, decidedBy: null },
        textOnly: { outcome: null },
        rightWithoutVideo: false,
      });
      expect(byId[id]!.result.rawAnswer).not.toBeNull();
    }
    expect(byId.q3).toMatchObject({ blind: false, result: { outcome: "correct", decidedBy: "letter" } });
    const ownerView = await runQaResults(prisma, await projectAccess(prisma, owner, projectId, "project.view"), runId, {
      page: 1,
      pageSize: 50,
      format: "json",
    });
    expect(ownerView.questions.find((q) => q.externalId === "q2")).toMatchObject({
      blind: false,
      result: { outcome: "wrong", letter: "B" },
    });
  });

  it("leave the blind video's questions out of outcome filters, and their count", async () => {
    const wrong = await runQaResults(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), runId, {
      outcome: "wrong",
      page: 1,
      pageSize: 50,
      format: "json",
    });
    expect(wrong).toMatchObject({ total: 0, questions: [] });
    const right = await runQaResults(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), runId, {
      outcome: "correct",
      page: 1,
      pageSize: 1,
      format: "json",
    });
    // q1 (blind) and q3, q4 are correct: the reviewer's total counts q3 and q4 only.
    expect(right.total).toBe(2);
    expect(right.questions.every((q) => !q.blind)).toBe(true);
  });

  it("withhold them on the question's page", async () => {
    const q2 = await prisma.item.findFirstOrThrow({
      where: { externalId: "q2", runItems: { some: { runId } } },
      select: { id: true },
    });
    const blind = await questionDetail(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), q2.id);
    expect(blind.blind).toBe(true);
    expect(blind.results[0]).toMatchObject({ result: { outcome: null, letter: null }, rightWithoutVideo: false });
    const ownerView = await projectAccess(prisma, owner, projectId, "project.view");
    expect((await questionDetail(prisma, ownerView, q2.id)).results[0]).toMatchObject({
      result: { outcome: "wrong", letter: "B" },
    });
    // Through an access to another project, even the owner's own, the question is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "project.view");
    await expect(questionDetail(prisma, there, q2.id)).rejects.toBeInstanceOf(NotFoundError);
    // So is the run, its list and its export.
    await expect(runQaResults(prisma, there, runId, { page: 1, pageSize: 50, format: "json" })).rejects.toThrow(
      "No such run.",
    );
    const exportThere = await projectAccess(prisma, owner, elsewhere.id, "export.read");
    await expect(
      runQaResultExport(prisma, exportThere, runId, qaRunResultsQuerySchema.parse({ format: "csv" })),
    ).rejects.toThrow("No such run.");
  });
});

describe("the QA results export (CSV and JSONL)", () => {
  /** The export's CSV as the route writes it. */
  const exported = async (actor: Actor, query: Record<string, string> = {}) => {
    let csv = "";
    for await (const { run, questions } of await runQaResultExport(
      prisma,
      await projectAccess(prisma, actor, projectId, "export.read"),
      runId,
      qaRunResultsQuerySchema.parse({ format: "csv", ...query }),
    ))
      csv += qaResultsCsvRows(run, questions);
    return csv;
  };

  it("is withheld whole (409 withheld, naming the queue) from the reviewer holding a blind item, whole for a viewer, and the viewer's once submitted", async () => {
    for (const query of [{}, { outcome: "correct" }] as Record<string, string>[]) {
      const refused = await exported(reviewer, query).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(WithheldError);
      expect(refused).toMatchObject({
        status: 409,
        code: "withheld",
        details: { withheld: { queues: [{ id: queueId, name: "Blind", itemsLeft: 1 }], blindVideos: 1 } },
      });
      expect((refused as WithheldError).message).toContain(
        'The QA results export is hidden while you review "Blind" blind: 1 item left',
      );
    }
    // The viewer's file has every question decided, the blind video's too (q1 correct, q2 wrong).
    const whole = await exported(viewer);
    const { run, questions } = await qaResultsWhole();
    expect(questions.map((q) => q.externalId).sort()).toEqual(["q1", "q2", "q3", "q4"]);
    expect(whole).toEqual(qaResultsCsvRows(run, questions));
    expect(await exported(owner)).toEqual(whole);
    const item = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId } });
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    try {
      expect(await exported(reviewer)).toEqual(whole);
      expect(await exported(reviewer, { outcome: "correct" })).toEqual(await exported(viewer, { outcome: "correct" }));
    } finally {
      await prisma.reviewQueueAssignment.update({
        where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
        data: { status: "claimed", doneAt: null },
      });
    }
  });

  /** The run's questions as the viewer's list reads them (no one blind). */
  async function qaResultsWhole() {
    const answer = await runQaResults(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), runId, {
      page: 1,
      pageSize: 50,
      format: "csv",
    });
    expect(answer.questions.some((q) => q.blind)).toBe(false);
    expect(answer.questions.find((q) => q.externalId === "q2")).toMatchObject({
      result: { outcome: "wrong", letter: "B" },
    });
    return answer;
  }
});

describe("the QA accuracy overview (an aggregate)", () => {
  const query = { runId: [] as string[], format: "json" as const };

  it("is withheld whole from the reviewer holding a blind item (409, and the page gets no number), whole for a viewer, and the viewer's once submitted", async () => {
    const refused = await projectQaOverview(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "project.view"),
      query,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WithheldError);
    expect(refused).toMatchObject({
      status: 409,
      code: "withheld",
      details: { withheld: { queues: [{ id: queueId, name: "Blind", itemsLeft: 1 }], blindVideos: 1 } },
    });
    expect((refused as WithheldError).message).toContain(
      'The QA accuracy overview is hidden while you review "Blind" blind: 1 item left',
    );
    const whole = await projectQaOverview(
      prisma,
      await projectAccess(prisma, viewer, projectId, "project.view"),
      query,
    );
    // Every question decided counts: q1, q3, q4 correct and q2 wrong.
    expect(whole.rows.find((row) => row.breakdown === "all")).toMatchObject({ outcomes: { correct: 3, wrong: 1 } });
    expect(
      await projectQaOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), query),
    ).toEqual(whole);
    // The page keeps the runs to choose from and has no aggregate to show.
    const page = await qaPageOverview(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), query);
    expect(page.withheld).toMatchObject({ queues: [{ id: queueId, itemsLeft: 1 }], blindVideos: 1 });
    expect(page.overview).toEqual({
      ...whole,
      rows: [],
      heatmap: { categories: [], cells: [] },
      comparisons: [],
      frames: [],
    });
    expect(await qaPageOverview(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), query)).toEqual(
      { overview: whole, withheld: null },
    );
    const item = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId } });
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    try {
      expect(
        await projectQaOverview(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), query),
      ).toEqual(whole);
      expect(
        await qaPageOverview(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"), query),
      ).toEqual({ overview: whole, withheld: null });
    } finally {
      await prisma.reviewQueueAssignment.update({
        where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
        data: { status: "claimed", doneAt: null },
      });
    }
  });
});

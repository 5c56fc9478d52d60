/**
 * Harness outputs as external QA runs, on PostgreSQL: an lmms-eval log_samples file and a VLMEvalKit
 * prediction file (testkit/tasks/qa/harness-fixtures/, written from the harnesses' formats) for the small
 * question set (testkit/tasks/qa/qa-fixtures.ts). By hand: lmms-eval answers q1 A (right), q2 "C. Red." (right),
 * q3 "The answer is A." (wrong); VLMEvalKit answers q1 A (right), q2 "B. The ramp…" (wrong), q3 B (right).
 * MVBench (doc.video with its extension, doc.candidates, the answer as the right candidate's text) answers
 * q1 "(A) The ball…" (right), q2 "B" (wrong), q3 "(B) The ball stops…" (right); EgoSchema (doc.video_idx,
 * doc.option "A. …", the answer as the option's index) answers q1 "A" (right), q2 "B." (wrong), q3 "…is C."
 * (q3 has no option C: no letter); ActivityNet-QA (open-ended: doc.video_name, doc.answer) answers q4.
 */
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { importQuestionSet } from "@/lib/tasks/qa/question-set-import";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { questionSetBytes } from "@/testkit/tasks/qa/qa-fixtures";
import { projectQaOverview } from "@/lib/tasks/qa/qa-overview";
import { runQaResults } from "@/lib/tasks/qa/qa-run-questions";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectAgreement } from "@/lib/agreement/load";
import { agreementQuerySchema } from "@/lib/agreement/report-filter";
import { createQueue } from "@/lib/queues/create-queue";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { nextItem } from "@/lib/queues/next-item";
import { submitItem } from "@/lib/queues/submit-item";
import { ValidationError } from "@/lib/errors";
import { importHarnessRun } from "./harness-import";
import type { QaDecision } from "./qa-pipeline";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { accessOfRun } from "../../../testkit/testing/record-access";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(__dirname, "../../../testkit/tasks/qa/harness-fixtures", name)));
const LMMS = fixture("samples_videomme_2026-11-23T12-00-00.jsonl");
const VLM = fixture("Qwen2-VL-7B_Video-MME.tsv");
const MVBENCH = fixture("samples_mvbench_action_sequence_2026-11-23T12-00-00.jsonl");
const EGOSCHEMA = fixture("samples_egoschema_subset_2026-11-23T12-00-00.jsonl");
const ACTIVITYNET_QA = fixture("samples_activitynetqa_2026-11-23T12-00-00.jsonl");

let owner: Actor;
let stub: StubServer;
beforeAll(async () => {
  owner = await makeUser();
  stub = await startStubLlm();
});
afterAll(() => stub.close());

async function stubEndpoint(projectId: string, name: string, model: string) {
  return (
    await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    })
  ).id;
}

async function qaProject() {
  const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, uniformFrames: 8 });
  const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
    fileName: "questions.jsonl",
    bytes: questionSetBytes(),
  });
  return { projectId, setId: set.set.id! };
}

describe("importing harness outputs as external QA runs", () => {
  it("reads an lmms-eval file and a VLMEvalKit file for one set: accuracy per run and McNemar between them", async () => {
    const { projectId, setId } = await qaProject();
    const lmms = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "llava-video-7b", dryRun: false },
      LMMS,
    );
    expect(lmms).toMatchObject({ ok: true, rows: 3, decided: { correct: 2, wrong: 1, undecided: 0 } });
    const vlm = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "vlmevalkit", model: "Qwen2-VL-7B", dryRun: false },
      VLM,
    );
    expect(vlm).toMatchObject({ ok: true, rows: 3, decided: { correct: 2, wrong: 1, undecided: 0 } });

    const overview = await projectQaOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      runId: [lmms.runId!, vlm.runId!],
      format: "json",
    });
    const overall = (runId: string) => overview.rows.find((r) => r.runId === runId && r.breakdown === "all")!.outcomes;
    expect(overall(lmms.runId!)).toMatchObject({ correct: 2, wrong: 1, unanswerable: 0, pending: 0 });
    expect(overall(vlm.runId!)).toMatchObject({ correct: 2, wrong: 1, unanswerable: 0, pending: 0 });
    expect(overview.chosen.map((r) => r.label).sort()).toEqual([
      "Qwen2-VL-7B · external (vlmevalkit)",
      "llava-video-7b · external (lmms-eval)",
    ]);
    expect(overview.comparisons).toHaveLength(1);
    const comparison = overview.comparisons[0]!;
    // q2: lmms-eval right, VLMEvalKit wrong; q3 the other way round.
    const lmmsOnlyRight = comparison.first === lmms.runId ? comparison.b : comparison.c;
    const vlmOnlyRight = comparison.first === lmms.runId ? comparison.c : comparison.b;
    expect({ n: comparison.n, lmmsOnlyRight, vlmOnlyRight, p: comparison.p }).toEqual({
      n: 3,
      lmmsOnlyRight: 1,
      vlmOnlyRight: 1,
      p: 1,
    });

    // The raw predictions are kept per answer, with the letter FrameJury read.
    const results = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      vlm.runId!,
      { format: "json", page: 1, pageSize: 50 } as never,
    );
    const q2 = results.questions.find((q) => q.externalId === "q2")!;
    expect(q2.result).toMatchObject({
      rawAnswer: "B. The ramp under the ball is green.",
      outcome: "wrong",
      decidedBy: "letter",
      letter: "B",
    });
    // Decided answers carry the correctness score that reviews, queues and agreement read.
    const scores = await prisma.score.findMany({
      where: { runId: vlm.runId!, category: "correctness" },
      select: { itemId: true, value: true },
    });
    const external = new Map(
      (
        await prisma.item.findMany({
          where: { id: { in: scores.map((s) => s.itemId) } },
          select: { id: true, externalId: true },
        })
      ).map((i) => [i.id, i.externalId]),
    );
    expect(Object.fromEntries(scores.map((s) => [external.get(s.itemId), s.value]))).toEqual({ q1: 1, q2: 0, q3: 1 });
    // q4 (open) is in neither file: it is not part of the runs.
    expect(results.questions.map((q) => q.externalId).sort()).toEqual(["q1", "q2", "q3"]);
  });

  it("a dry run lists every row it cannot read with its line, and stores nothing", async () => {
    const { projectId, setId } = await qaProject();
    const lines = new TextDecoder().decode(LMMS).trimEnd().split("\n");
    const bad = [
      lines[0]!,
      lines[1]!.replace("A ball rolls down a ramp number 0-0", "Some other clip"),
      "{not json",
      JSON.stringify({
        doc_id: 9,
        doc: { videoID: "A ball rolls down a ramp number 1-0", question: "What happens after the ball stops?" },
        target: "B",
      }),
    ].join("\n");
    const runsBefore = await prisma.judgeRun.count({ where: { projectId } });
    const answer = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "m", dryRun: true },
      new TextEncoder().encode(bad),
    );
    expect(answer.ok).toBe(false);
    expect(answer.errors).toEqual([
      { line: 2, message: 'unknown video "Some other clip": no question of the set is about it' },
      { line: 3, message: "not a JSON object (lmms-eval writes one sample per line)" },
      { line: 4, message: "no prediction: neither filtered_resps nor resps holds the model's answer" },
    ]);
    // Not a dry run: the same file is refused whole.
    const refused = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "m", dryRun: false },
      new TextEncoder().encode(bad),
    );
    expect(refused).toMatchObject({ ok: false, runId: null });
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(runsBefore);
  });

  it("reads VLMEvalKit's .xlsx prediction file (the TSV's columns in a worksheet); a bad row is listed with its sheet row", async () => {
    const { projectId, setId } = await qaProject();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Sheet1");
    sheet.addRow(["index", "video", "question", "A", "B", "C", "D", "answer", "category", "prediction"]);
    sheet.addRow([
      "q1",
      "A ball rolls down a ramp number 0-0",
      "Where does the ball roll?",
      "The ball rolls down the ramp.",
      "It flies away.",
      "It melts.",
      null,
      "A",
      "Step Sequencing",
      "A",
    ]);
    sheet.addRow([
      "q2",
      "A ball rolls down a ramp number 0-0",
      "What colour is the ramp under the ball?",
      "Blue.",
      "The ramp under the ball is green.",
      "Red.",
      null,
      "C",
      "Attribute",
      "C. Red.",
    ]);
    // A number in the index column, as pandas writes it: matched by video and question text all the same.
    sheet.addRow([
      3,
      "A ball rolls down a ramp number 1-0",
      "What happens after the ball stops?",
      "Nothing moves.",
      "The ball stops and a hand picks the ball up.",
      null,
      null,
      "B",
      "Future",
      "A",
    ]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const imported = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "vlmevalkit", model: "InternVL2-8B", dryRun: false },
      bytes,
    );
    expect(imported).toMatchObject({ ok: true, rows: 3, decided: { correct: 2, wrong: 1, undecided: 0 } });
    const results = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      imported.runId!,
      {
        format: "json",
        page: 1,
        pageSize: 50,
      } as never,
    );
    expect(results.questions.find((q) => q.externalId === "q2")!.result).toMatchObject({
      rawAnswer: "C. Red.",
      outcome: "correct",
      letter: "C",
    });

    sheet.addRow([
      "q9",
      "A ball rolls down a ramp number 1-0",
      "What happens after the ball stops?",
      "Nothing moves.",
      "Up.",
      null,
      null,
      "B",
      "Future",
      null,
    ]);
    const bad = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "vlmevalkit", model: "InternVL2-8B", dryRun: true },
      new Uint8Array(await workbook.xlsx.writeBuffer()),
    );
    expect(bad.errors).toEqual([{ line: 5, message: "no prediction: the prediction cell is empty" }]);
  });

  it("reads lmms-eval's MVBench, EgoSchema-style and open-ended (ActivityNet-QA) samples as their docs lay them out", async () => {
    const { projectId, setId } = await qaProject();
    const mvbench = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "VideoChat2", dryRun: false },
      MVBENCH,
    );
    expect(mvbench).toMatchObject({ ok: true, errors: [], rows: 3, decided: { correct: 2, wrong: 1, undecided: 0 } });
    const ego = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "LLaVA-NeXT-Video", dryRun: false },
      EGOSCHEMA,
    );
    expect(ego).toMatchObject({ ok: true, errors: [], rows: 3, decided: { correct: 1, wrong: 1, undecided: 1 } });
    const open = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "Video-LLaVA", dryRun: false },
      ACTIVITYNET_QA,
    );
    expect(open).toMatchObject({ ok: true, errors: [], rows: 1, decided: { correct: 0, wrong: 0, undecided: 1 } });

    const mv = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      mvbench.runId!,
      { format: "json", page: 1, pageSize: 50 } as never,
    );
    expect(mv.questions.find((q) => q.externalId === "q3")!.result).toMatchObject({
      rawAnswer: "(B) The ball stops and a hand picks the ball up.",
      outcome: "correct",
      letter: "B",
    });
    const eg = await runQaResults(prisma, await projectAccess(prisma, owner, projectId, "project.view"), ego.runId!, {
      format: "json",
      page: 1,
      pageSize: 50,
    } as never);
    expect(eg.questions.find((q) => q.externalId === "q3")!.result).toMatchObject({
      rawAnswer: "I think the answer is C.",
      outcome: "unanswerable",
    });
    const op = await runQaResults(prisma, await projectAccess(prisma, owner, projectId, "project.view"), open.runId!, {
      format: "json",
      page: 1,
      pageSize: 50,
    } as never);
    expect(op.questions.map((q) => [q.externalId, q.result?.rawAnswer])).toEqual([["q4", "It rolls down the ramp."]]);
  });

  it("creates the questions no question of the set matches when asked (on the project's video by name), else lists them", async () => {
    const { projectId, setId } = await qaProject();
    const tsv = (...rows: string[][]) =>
      new TextEncoder().encode(
        [["index", "video", "question", "A", "B", "C", "answer", "prediction"], ...rows]
          .map((r) => r.join("\t"))
          .join("\n"),
      );
    const known = [
      "q1",
      "A ball rolls down a ramp number 0-0",
      "Where does the ball roll?",
      "The ball rolls down the ramp.",
      "It flies away.",
      "It melts.",
      "A",
      "A",
    ];
    // A new multiple-choice question named by the video's path, and a new open one (no options) by its name.
    const newMc = [
      "q1",
      "Mechanics/A ball rolls down a ramp number 1-0.mp4",
      "How many balls are there?",
      "One.",
      "Two.",
      "Three.",
      "A",
      "A. One.",
    ];
    const newOpen = [
      "n2",
      "A ball rolls down a ramp number 1-0.mp4",
      "What colour is the ball?",
      "",
      "",
      "",
      "Red.",
      "It is red.",
    ];
    const elsewhere = ["n3", "A cat sleeps", "Does the cat move?", "Yes.", "No.", "", "B", "B"];
    const noAnswer = ["n4", "A ball rolls down a ramp number 0-0", "Is it sunny?", "Yes.", "No.", "", "", "A"];
    const fields = { questionSetId: setId, format: "vlmevalkit" as const, model: "m", dryRun: true };

    const plain = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      fields,
      tsv(known, newMc, newOpen),
    );
    expect(plain.errors).toEqual([
      {
        line: 3,
        message:
          'no question of the set matches "How many balls are there?" on Mechanics/A ball rolls down a ramp number 1-0.mp4',
      },
      {
        line: 4,
        message: 'no question of the set matches "What colour is the ball?" on A ball rolls down a ramp number 1-0.mp4',
      },
    ]);
    const checked = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...fields, createQuestions: true },
      tsv(known, newMc, newOpen, elsewhere, noAnswer, newOpen),
    );
    expect(checked.errors).toEqual([
      {
        line: 5,
        message:
          'unknown video "A cat sleeps": no video of the project has this name, so its question cannot be created',
      },
      { line: 6, message: "cannot create the question: the row gives no correct option (answer)" },
      { line: 7, message: "answers the same question as line 4" },
    ]);
    expect(await prisma.item.count({ where: { setId } })).toBe(4);

    const imported = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...fields, dryRun: false, createQuestions: true },
      tsv(known, newMc, newOpen),
    );
    expect(imported).toMatchObject({ ok: true, rows: 3, created: 2, decided: { correct: 2, wrong: 0, undecided: 1 } });
    const items = await prisma.item.findMany({
      where: { setId },
      select: { externalId: true, payload: true, video: { select: { relativePath: true } } },
      orderBy: { externalId: "asc" },
    });
    expect(items.map((i) => i.externalId)).toEqual(["n2", "q1", "q1-line-3", "q2", "q3", "q4"]);
    expect((await prisma.itemSet.findUniqueOrThrow({ where: { id: setId } })).itemCount).toBe(6);
    // q1 was taken by the set's own q1: the new question's id says its line.
    const byId = new Map(items.map((i) => [i.externalId, i]));
    expect(byId.get("q1-line-3")).toMatchObject({
      video: { relativePath: "Mechanics/A ball rolls down a ramp number 1-0.mp4" },
      payload: {
        question: "How many balls are there?",
        format: "mc",
        options: { A: "One.", B: "Two.", C: "Three." },
        answer: "A",
      },
    });
    expect(byId.get("n2")).toMatchObject({
      payload: { question: "What colour is the ball?", format: "open", options: null, answer: "Red." },
    });
    const results = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      imported.runId!,
      {
        format: "json",
        page: 1,
        pageSize: 50,
      } as never,
    );
    expect(results.questions.map((q) => [q.externalId, q.result?.outcome]).sort()).toEqual([
      ["n2", "unanswerable"],
      ["q1", "correct"],
      ["q1-line-3", "correct"],
    ]);
  });

  it("reads the TSV as pandas writes it (QUOTE_ALL and QUOTE_MINIMAL): a multi-line question with a tab and quotes is one cell", async () => {
    // Written by Python's csv writer, which pandas' to_csv(sep="\t") uses: VLMEvalKit's dump() asks for QUOTE_ALL.
    const question = 'Watch the whole clip.\nHow many "balls"\tare on the ramp?';
    for (const name of ["quote-all_Video-MME.tsv", "quote-minimal_Video-MME.tsv"]) {
      const { projectId, setId } = await qaProject();
      const fields = { questionSetId: setId, format: "vlmevalkit" as const, model: "m", createQuestions: true };
      const dry = await importHarnessRun(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { ...fields, dryRun: true },
        fixture(name),
      );
      expect(dry, name).toMatchObject({ rows: 3, errors: [] });
      const imported = await importHarnessRun(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { ...fields, dryRun: false },
        fixture(name),
      );
      expect(imported, name).toMatchObject({ ok: true, rows: 3, created: 2 });
      const created = await prisma.item.findFirstOrThrow({
        where: { setId, externalId: "n2" },
        select: { payload: true },
      });
      expect(created.payload, name).toMatchObject({
        question,
        options: { A: "One.", B: "Two.", C: "Three." },
        answer: "A",
      });
      const results = await runQaResults(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        imported.runId!,
        {
          format: "json",
          page: 1,
          pageSize: 50,
        } as never,
      );
      expect(results.questions.find((q) => q.externalId === "n2")?.result?.rawAnswer, name).toBe(
        'A. One "ball".\nOnly one.',
      );
    }
  });

  it("a TSV whose quoted cell is never closed is refused with the line it starts on", async () => {
    const { projectId, setId } = await qaProject();
    const broken = new TextEncoder().encode(
      'index\tvideo\tquestion\tprediction\nq1\tA ball rolls down a ramp number 0-0\t"Where does\nthe ball roll?\tA\n',
    );
    const result = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "vlmevalkit", model: "m", dryRun: true },
      broken,
    );
    expect(result.errors).toEqual([
      { line: 2, message: 'not a readable TSV file: a quoted field is never closed (missing ")' },
    ]);
  });

  it("judges the open and letterless answers with a judge endpoint, as a job with progress, exactly as an own run's judge step", async () => {
    const { projectId, setId } = await qaProject();
    const judgeModel = `stub-judge-${projectId.slice(-8)}`; // new per project: the response cache answers nothing from elsewhere
    const judge = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "Judge (simulated)",
      baseUrl: stub.baseURL,
      model: judgeModel,
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
    const queued: { runId: string; videoId: string }[] = [];
    const holding = { enqueue: async (jobs: { runId: string; videoId: string }[]) => void queued.push(...jobs) };
    const fields = {
      questionSetId: setId,
      format: "lmms-eval" as const,
      model: "LLaVA-NeXT-Video",
      dryRun: false,
      judgeEndpointId: judge.id,
    };
    // EgoSchema's q3 ("I think the answer is C.": no option C) goes to the option judge; the letters stay FrameJury's.
    const ego = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      fields,
      EGOSCHEMA,
      holding,
    );
    expect(ego).toMatchObject({ ok: true, rows: 3, decided: { correct: 1, wrong: 1, undecided: 1 }, judging: 1 });
    // Until the job runs, the run is queued with its progress: 5 of 6 steps done.
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, ego.runId!), ego.runId!)).toMatchObject({
      status: "queued",
    });
    expect(await prisma.stepResult.count({ where: { runId: ego.runId!, status: "done" } })).toBe(5);
    expect(queued).toEqual([{ runId: ego.runId!, videoId: expect.any(String) }]);
    await inlineJudgeQueue(testJudgeDeps()).enqueue(queued);
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, ego.runId!), ego.runId!)).toMatchObject({
      status: "done",
      steps: { failed: 0, parse_failed: 0, skipped: 0 },
    });

    // The open ActivityNet-QA answer goes to the answer-consistency judge; judged inline here.
    const open = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      fields,
      ACTIVITYNET_QA,
      inlineJudgeQueue(testJudgeDeps()),
    );
    expect(open).toMatchObject({ ok: true, judging: 1 });
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, open.runId!), open.runId!)).toMatchObject({
      status: "done",
    });

    const decide = async (runId: string) => {
      const steps = await prisma.stepResult.findMany({ where: { runId, stepId: "decide" }, include: { calls: true } });
      const ids = new Map(
        (
          await prisma.item.findMany({
            where: { id: { in: steps.map((s) => s.itemId) } },
            select: { id: true, externalId: true },
          })
        ).map((i) => [i.id, i.externalId]),
      );
      return Object.fromEntries(
        steps.map((s) => [
          ids.get(s.itemId)!,
          { output: s.output as unknown as QaDecision, calls: s.calls.map((c) => c.model), templateId: s.templateId },
        ]),
      );
    };
    const egoDecided = await decide(ego.runId!);
    expect(egoDecided.q3).toMatchObject({
      output: { outcome: "wrong", decidedBy: "judge", judgement: "No" },
      calls: [judgeModel],
      templateId: "qa/judge-option",
    });
    expect(egoDecided.q1).toMatchObject({ output: { outcome: "correct", decidedBy: "letter" }, calls: [] });
    const openDecided = await decide(open.runId!);
    expect(openDecided.q4).toMatchObject({
      output: { outcome: "correct", decidedBy: "judge", judgement: "Yes" },
      calls: [judgeModel],
      templateId: "qa/judge-open",
    });

    // Accuracy now covers them: nothing unanswerable, and the judged answers carry the correctness score.
    const overview = await projectQaOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      runId: [ego.runId!, open.runId!],
      format: "json",
    });
    const overall = (runId: string) => overview.rows.find((r) => r.runId === runId && r.breakdown === "all")!.outcomes;
    expect(overall(ego.runId!)).toMatchObject({ correct: 1, wrong: 2, unanswerable: 0, pending: 0 });
    expect(overall(open.runId!)).toMatchObject({ correct: 1, wrong: 0, unanswerable: 0, pending: 0 });
    expect(await prisma.score.count({ where: { runId: ego.runId!, category: "correctness" } })).toBe(3);
    expect(await prisma.runMetric.count({ where: { runId: ego.runId!, metric: "correct" } })).toBe(3);
  });

  it("compares an external run with a text-only run (an external one marked text-only) as an own run's baseline", async () => {
    const { projectId, setId } = await qaProject();
    const fields = { questionSetId: setId, dryRun: false };
    // The blind run (VLMEvalKit, no frames): q1 A (right), q2 B (wrong), q3 B (right).
    const blind = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...fields, format: "vlmevalkit", model: "Qwen2-VL-7B (no video)", textOnly: true },
      VLM,
    );
    const plain = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...fields, format: "lmms-eval", model: "plain" },
      MVBENCH,
    );
    // Only a text-only run can be a baseline.
    await expect(
      importHarnessRun(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { ...fields, format: "lmms-eval", model: "m", baselineRunId: plain.runId! },
        LMMS,
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    // lmms-eval with the video: q1 right, q2 right, q3 wrong; its baseline q1, q3 right.
    const withVideo = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...fields, format: "lmms-eval", model: "llava-video-7b", baselineRunId: blind.runId! },
      LMMS,
    );
    expect(withVideo).toMatchObject({ ok: true, rows: 3 });

    const overview = await projectQaOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      runId: [blind.runId!, withVideo.runId!],
      format: "json",
    });
    expect(overview.chosen.find((r) => r.id === blind.runId)!.label).toBe(
      "Qwen2-VL-7B (no video) · external (vlmevalkit, text-only)",
    );
    const all = overview.rows.find((r) => r.runId === withVideo.runId && r.breakdown === "all")!;
    expect(all.outcomes).toMatchObject({ correct: 2, wrong: 1 });
    expect(all.textOnly).toMatchObject({ correct: 2, wrong: 1, unanswerable: 0, pending: 0 });
    expect(all.rightWithoutVideo).toBe(2);
    // Per question, as for an own run's baseline: the flag filter and the text-only answer.
    const results = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      withVideo.runId!,
      {
        format: "json",
        page: 1,
        pageSize: 50,
      } as never,
    );
    const q2 = results.questions.find((q) => q.externalId === "q2")!;
    expect(q2).toMatchObject({
      result: { outcome: "correct" },
      textOnly: { outcome: "wrong", rawAnswer: "B. The ramp under the ball is green.", letter: "B" },
      rightWithoutVideo: false,
    });
    const flagged = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      withVideo.runId!,
      {
        format: "json",
        page: 1,
        pageSize: 50,
        flag: "right_without_video",
      } as never,
    );
    expect(flagged.questions.map((q) => q.externalId).sort()).toEqual(["q1", "q3"]);
  });

  it("a review queue and the agreement report work over an external run's answers", async () => {
    const { projectId, setId } = await qaProject();
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const run = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "vlmevalkit", model: "Qwen2-VL-7B", dryRun: false },
      VLM,
    );
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "external answers",
      runId: run.runId!,
      scope: "answers",
      answers: { letters: true },
      filter: {},
    });
    const seen: Record<string, string> = {};
    // The reviewer calls every letter right except q2's (the model said B; C is right, so the letter's 0 stands).
    for (let i = 0; i < 3; i++) {
      const { itemId } = await nextItem(
        prisma,
        await queueAccess(prisma, reviewer, queue.id, "scores.review"),
        queue.id,
      );
      expect(itemId).toEqual(expect.any(String));
      const item = (await getQueueItem(
        prisma,
        await queueAccess(prisma, reviewer, queue.id, "scores.review"),
        queue.id,
        itemId!,
      )) as Awaited<ReturnType<typeof getQueueItem>> & {
        answer: { question: string; result: { rawAnswer: string } } | null;
      };
      seen[item.answer!.question] = item.answer!.result.rawAnswer;
      const value = item.answer!.question.startsWith("What happens") ? 0 : 1;
      await submitItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: [{ target: item.targets[0]!.key, value }],
      });
    }
    expect(seen["What colour is the ramp under the ball?"]).toBe("B. The ramp under the ball is green.");
    expect(
      (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
    ).toBeNull();
    const judgments = await prisma.humanJudgment.findMany({ where: { reviewerId: reviewer.userId, withdrawn: false } });
    expect(judgments.map((j) => j.subjectRunId)).toEqual([run.runId, run.runId, run.runId]);

    // The letters' scores: q1 1, q2 0, q3 1; the reviewer 1, 1, 0 (disagrees on q2 and q3).
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId: run.runId! }),
    );
    expect(report.summary).toMatchObject({ reviewedItems: 3, judgments: 3, reviewers: 1 });
    const vsJudge = report.humanVsJudge.reviewers.find((r) => r.reviewerId === reviewer.userId)!;
    expect(vsJudge.binary.confusion).toEqual({ tp: 1, fp: 1, fn: 1, tn: 0 });
    expect(report.breakdowns.model.map((g) => g.key)).toEqual(["Qwen2-VL-7B"]);
  });

  it("takes an own run's text-only baseline as an external run's baseline", async () => {
    const { projectId, setId } = await qaProject();
    // 128×96 videos: their 64×48 uniform frames are the quarter an own QA run plans.
    await prisma.video.updateMany({ where: { projectId }, data: { width: 128, height: 96 } });
    const suffix = projectId.slice(-8);
    const model = await stubEndpoint(projectId, "Model (simulated)", `stub-vision-${suffix}`);
    const judge = await stubEndpoint(projectId, "Judge (simulated)", `stub-judge-${suffix}`);
    const own = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "qa",
        endpointId: model,
        questionSetId: setId,
        settings: { frames: 8, judgeEndpointId: judge, textOnlyBaseline: true },
      }),
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, own.id), own.id)).toMatchObject({
      status: "done",
    });
    const external = await importHarnessRun(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { questionSetId: setId, format: "lmms-eval", model: "llava-video-7b", dryRun: false, baselineRunId: own.id },
      LMMS,
    );
    const ownResults = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      own.id,
      { format: "json", page: 1, pageSize: 50 } as never,
    );
    const externalResults = await runQaResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      external.runId!,
      {
        format: "json",
        page: 1,
        pageSize: 50,
      } as never,
    );
    // The external run answers q1–q3; each carries the own run's blind answer and decision to the same question.
    const blind = (results: typeof ownResults) =>
      Object.fromEntries(
        results.questions.map((q) => [q.externalId, [q.textOnly?.outcome, q.textOnly?.rawAnswer, q.rightWithoutVideo]]),
      );
    const ownBlind = blind(ownResults);
    expect(blind(externalResults)).toEqual({ q1: ownBlind.q1, q2: ownBlind.q2, q3: ownBlind.q3 });
    expect(ownBlind.q1![0]).toMatch(/^(correct|wrong)$/);
    const overview = await projectQaOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      runId: [external.runId!],
      format: "json",
    });
    const all = overview.rows.find((r) => r.runId === external.runId && r.breakdown === "all")!;
    expect(all.rightWithoutVideo).toBe(["q1", "q2", "q3"].filter((q) => ownBlind[q]![2]).length);
  });
});

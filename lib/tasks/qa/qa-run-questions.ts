/**
 * What a QA run found, per question: the question, its options and correct answer, the model's raw answer, the
 * letter FrameJury read or the judge's decision with its reason, the outcome, and the text-only baseline's.
 *
 * Every question of a run ends correct, wrong or unanswerable (no decision could be made: the model's call
 * failed, or the judge's call failed or could not be read after its repair), each with its reason; while
 * the run goes on, a question not decided yet has no outcome.
 */
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import { requireExportRoleFor } from "../../export/run-downloads";
import { rowPages } from "../../export/text-stream";
import { publicStepError } from "../../judge/calls/call-inspector";
import type { RawAnswer } from "../../task-modules/pipeline-types";
import type { QaOutcome } from "./accuracy";
import type { QaDecision, QaSettings } from "./qa-pipeline";
import type { QaRunResultsQuery } from "./qa-query";
import { QA_PIPELINE, qaRunOf, runSelect, summaryOf } from "./qa-run-summary";
import type { QuestionPayload } from "./question-set-import";

export interface QaAnswerResult {
  status: StepStatus | "pending";
  outcome: QaOutcome | null;
  /** Why the outcome: the letter's or the judge's reason, or what failed. */
  reason: string | null;
  decidedBy: "letter" | "judge" | null;
  letter: string | null;
  judgement: "Yes" | "No" | null;
  /** Multiple choice decided by the judge: why no single letter could be read. */
  extraction: string | null;
  rawAnswer: string | null;
  finishReason: string | null;
}

export interface QaQuestionResult {
  questionId: string;
  externalId: string;
  video: { id: string; relativePath: string };
  question: string;
  format: "mc" | "open";
  options: Record<string, string> | null;
  /** The correct letter (mc) or the reference answer (open). */
  answer: string;
  category: string | null;
  granularity: string | null;
  result: QaAnswerResult;
  /** The text-only baseline's, when the run has one. */
  textOnly: QaAnswerResult | null;
  rightWithoutVideo: boolean;
}

type StepRow = { itemId: string; stepId: string; status: StepStatus; output: unknown; error: string | null };

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** One answer's result from its two steps (answer, decide), or the text-only pair. */
function answerResult(answerStep: StepRow | undefined, decideStep: StepRow | undefined): QaAnswerResult {
  const raw = answerStep?.status === "done" ? (answerStep.output as RawAnswer) : null;
  const decision = decideStep?.status === "done" ? (decideStep.output as QaDecision) : null;
  const base = { rawAnswer: raw ? raw.text || raw.refusal || "" : null, finishReason: raw?.finishReason ?? null };
  if (decision) {
    return {
      ...base,
      status: "done",
      outcome: decision.outcome,
      reason: decision.reason,
      decidedBy: decision.decidedBy,
      letter: decision.letter,
      judgement: decision.judgement,
      extraction: decision.extraction,
    };
  }
  const none = { decidedBy: null, letter: null, judgement: null, extraction: null };
  const open = [answerStep, decideStep].find((s) => !s || s.status === "pending" || s.status === "running");
  if (open !== undefined) return { ...base, ...none, status: "pending", outcome: null, reason: null };
  // Every step has ended and there is no decision: say what stopped it.
  let reason: string;
  if (answerStep!.status !== "done") {
    reason =
      answerStep!.status === "cancelled"
        ? "the run was cancelled before the model answered"
        : `the model's call ${answerStep!.status === "failed" ? "failed" : `ended ${answerStep!.status}`}: ${publicStepError(answerStep!.status, answerStep!.error) ?? "no answer"}`;
  } else if (decideStep!.status === "parse_failed") {
    reason = `the judge's answer could not be read, even after one repair request: ${decideStep!.error ?? ""}`;
  } else if (decideStep!.status === "failed") {
    reason = `the judge's call failed: ${publicStepError("failed", decideStep!.error) ?? ""}`;
  } else {
    reason =
      decideStep!.status === "cancelled"
        ? "the run was cancelled before the answer was decided"
        : `the decision ended ${decideStep!.status}: ${decideStep!.error ?? ""}`;
  }
  return {
    ...base,
    ...none,
    status: answerStep!.status !== "done" ? answerStep!.status : decideStep!.status,
    outcome: "unanswerable",
    reason: capitalised(reason.trim()),
  };
}

export interface QuestionFilter {
  outcome?: QaOutcome | "pending";
  questionFormat?: "mc" | "open";
  category?: string;
  granularity?: "coarse" | "fine";
  videoId?: string;
  flag?: "right_without_video";
  /** Only these questions. */
  itemIds?: string[];
}

/**
 * Which of the run's questions match `filter`. The outcome and flag filters read their question ids here, once: the
 * run's per-question metrics (run_metric) or, for unanswerable and pending, the questions without a decision.
 */
async function runQuestionsWhere(
  prisma: PrismaClient,
  run: { id: string; settings: QaSettings },
  filter: QuestionFilter,
): Promise<Prisma.RunItemWhereInput> {
  if (filter.flag && !run.settings.textOnlyBaseline)
    throw new ValidationError(
      `Run ${run.id} has no text-only baseline, so no question was answered without the video.`,
    );
  let onlyIds = filter.itemIds ?? null;
  const restrict = (ids: string[]) => {
    onlyIds = onlyIds ? onlyIds.filter((id) => ids.includes(id)) : ids;
  };
  if (filter.flag)
    restrict(
      (
        await prisma.runMetric.findMany({
          where: { runId: run.id, metric: "correct_without_video", value: 1 },
          select: { itemId: true },
        })
      ).map((m) => m.itemId),
    );
  if (filter.outcome === "correct" || filter.outcome === "wrong") {
    restrict(
      (
        await prisma.runMetric.findMany({
          where: { runId: run.id, metric: "correct", value: filter.outcome === "correct" ? 1 : 0 },
          select: { itemId: true },
        })
      ).map((m) => m.itemId),
    );
  } else if (filter.outcome) {
    // Without a decision: ended (unanswerable) or not ended yet (pending).
    const undecided = await prisma.stepResult.findMany({
      where: {
        runId: run.id,
        stepId: "decide",
        status:
          filter.outcome === "pending"
            ? { in: ["pending", "running"] }
            : { in: ["failed", "parse_failed", "skipped", "cancelled"] },
      },
      select: { itemId: true },
    });
    restrict(undecided.map((s) => s.itemId));
  }
  return {
    runId: run.id,
    ...(onlyIds ? { itemId: { in: onlyIds } } : {}),
    item: {
      ...(filter.videoId ? { videoId: filter.videoId } : {}),
      ...(filter.category !== undefined ? { group: filter.category === "(none)" ? "" : filter.category } : {}),
      ...(filter.questionFormat ? { payload: { path: ["format"], equals: filter.questionFormat } } : {}),
      ...(filter.granularity ? { AND: [{ payload: { path: ["granularity"], equals: filter.granularity } }] } : {}),
    },
  };
}

/** The questions `where` picks, in the list's order: `rows` of them (skip, take), or all. */
async function readRunQuestions(
  prisma: PrismaClient,
  run: { id: string; settings: QaSettings },
  where: Prisma.RunItemWhereInput,
  rows: { skip: number; take: number } | null,
): Promise<QaQuestionResult[]> {
  const runItems = await prisma.runItem.findMany({
    where,
    orderBy: [{ item: { video: { relativePath: "asc" } } }, { item: { externalId: "asc" } }, { itemId: "asc" }],
    ...(rows ?? {}),
    select: {
      item: {
        select: { id: true, externalId: true, payload: true, video: { select: { id: true, relativePath: true } } },
      },
    },
  });
  const itemIds = runItems.map((r) => r.item.id);
  const steps: StepRow[] = [];
  // In slices: an export of 5,000 questions reads 20,000 step rows.
  for (let i = 0; i < itemIds.length; i += 2000) {
    steps.push(
      ...(await prisma.stepResult.findMany({
        where: { runId: run.id, itemId: { in: itemIds.slice(i, i + 2000) } },
        select: { itemId: true, stepId: true, status: true, output: true, error: true },
      })),
    );
  }
  const byItem = new Map<string, Map<string, StepRow>>();
  for (const step of steps) {
    const own = byItem.get(step.itemId) ?? new Map<string, StepRow>();
    own.set(step.stepId, step);
    byItem.set(step.itemId, own);
  }
  return runItems.map(({ item }) => {
    const payload = item.payload as unknown as QuestionPayload;
    const own = byItem.get(item.id) ?? new Map<string, StepRow>();
    const textOnly = run.settings.textOnlyBaseline
      ? answerResult(own.get("text_only_answer"), own.get("text_only_decide"))
      : null;
    return {
      questionId: item.id,
      externalId: item.externalId,
      video: item.video,
      question: payload.question,
      format: payload.format,
      options: payload.options,
      answer: payload.answer,
      category: payload.category,
      granularity: payload.granularity,
      result: answerResult(own.get("answer"), own.get("decide")),
      textOnly,
      rightWithoutVideo: textOnly?.outcome === "correct",
    };
  });
}

/** Every question of the run matching `filter`, with its results. */
export async function runQuestionsMatching(
  prisma: PrismaClient,
  run: { id: string; settings: QaSettings },
  filter: QuestionFilter,
): Promise<QaQuestionResult[]> {
  return readRunQuestions(prisma, run, await runQuestionsWhere(prisma, run, filter), null);
}

/** A run's questions: the query's page for JSON, every question for CSV and JSONL. */
export async function runQaResults(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: QaRunResultsQuery,
) {
  requireExportRoleFor(access, query.format);
  const run = await qaRunOf(prisma, access, runId);
  const where = await runQuestionsWhere(prisma, run, query);
  const rows = query.format === "json" ? { skip: (query.page - 1) * query.pageSize, take: query.pageSize } : null;
  const [total, questions] = await Promise.all([
    prisma.runItem.count({ where }),
    readRunQuestions(prisma, run, where, rows),
  ]);
  const { projectId: _projectId, ...summary } = run;
  return { run: summary, total, page: query.page, pageSize: query.pageSize, questions };
}

/**
 * The CSV and JSONL exports' questions, `pageSize` at a time (at least one, maybe empty): the access check,
 * the filter's reads and the count run once, each page reads only its own rows.
 */
export async function* runQaResultSlices(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  runId: string,
  query: QaRunResultsQuery,
  pageSize: number,
) {
  const run = await qaRunOf(prisma, access, runId);
  const where = await runQuestionsWhere(prisma, run, query);
  const total = await prisma.runItem.count({ where });
  const { projectId: _projectId, ...summary } = run;
  yield* rowPages(total, pageSize, async (page) => ({
    run: summary,
    questions: await readRunQuestions(prisma, run, where, page),
  }));
}

/**
 * One run's answer to one question, with the question, for a review queue's item. No access check (the
 * queue checked it) and unredacted: the caller withholds the decision while the reviewer is blind.
 */
export async function runAnswer(prisma: PrismaClient, runId: string, questionId: string) {
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!run || run.pipeline !== QA_PIPELINE) return null;
  const summary = summaryOf(run);
  const [question] = await runQuestionsMatching(prisma, summary, { itemIds: [questionId] });
  if (!question) return null;
  const { result, textOnly: _textOnly, rightWithoutVideo: _right, ...asked } = question;
  return { model: summary.model, ...asked, result };
}

/**
 * What QA runs found: per question (the question, its options and correct answer, the model's raw answer,
 * the letter FrameJury read or the judge's decision with its reason, the outcome, and the text-only
 * baseline's), and over runs the accuracy table with Wilson intervals, the model × category heat map, the
 * 8-against-16-frames comparison and McNemar's test between runs (lib/tasks/qa/accuracy.ts). JSON, CSV and JSONL.
 *
 * Every question of a run ends correct, wrong or unanswerable (no decision could be made: the model's call
 * failed, or the judge's call failed or could not be read after its repair), each with its reason; while
 * the run goes on, a question not decided yet has no outcome.
 */
import { z } from "zod";
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { requireProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { csvRow } from "../../export/csv";
import { jsonLines, rowPages } from "../../export/text-stream";
import type { QuestionPayload } from "./question-set-import";
import {
  accuracyRows,
  pairwiseComparisons,
  type AccuracyRow,
  type QaOutcome,
  type QaOutcomeRow,
  type RunComparison,
} from "./accuracy";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../../validation/nul-bytes";
import { publicStepError } from "../../judge/call-inspector";
import type { RawAnswer } from "../../judge/engine/pipeline";
import { type QaDecision, qaSettingsSchema, type QaSettings } from "./qa-pipeline";

export const QA_PIPELINE = "qa";
const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.");
const exportFormat = z.enum(["json", "csv", "jsonl"]).default("json");
const textFilter = (max: number) => z.string().trim().min(1).max(max).refine(noNulBytes, NUL_BYTE_MESSAGE);

/** The question list's whitelisted filter (`questionFormat`, since `format` names the export format). */
export const qaQuestionFilterSchema = z.object({
  outcome: z.enum(["correct", "wrong", "unanswerable", "pending"]).optional(),
  questionFormat: z.enum(["mc", "open"]).optional(),
  category: textFilter(100).optional(),
  granularity: z.enum(["coarse", "fine"]).optional(),
  videoId: idSchema.optional(),
  /** Questions the text-only baseline answered right: their score may come from language priors. */
  flag: z.enum(["right_without_video"]).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

export const qaRunResultsQuerySchema = qaQuestionFilterSchema.extend({ format: exportFormat }).strict();
export type QaRunResultsQuery = z.output<typeof qaRunResultsQuerySchema>;

export const qaAccuracyQuerySchema = z
  .object({
    /** The runs to compare; none: the latest run of each model at each frame count. */
    runId: z.array(idSchema).max(20, "at most 20 runs").default([]),
    format: exportFormat,
  })
  .strict();

export interface QaRunSummary {
  id: string;
  status: string;
  simulated: boolean;
  createdAt: Date;
  /** The evaluated model (the endpoint's model when the run started) and the endpoint's name. */
  model: string;
  endpointName: string;
  /** The judge's model, when another endpoint judged. */
  judgeModel: string | null;
  settings: QaSettings;
  /** "model · 8 frames" (with the resize when it is not the seed's quarter, and the baseline). */
  label: string;
  /** Its answers were given without the video: an external run imported as text-only (harness-import.ts). */
  textOnly: boolean;
}

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

function snapshotOf(run: { endpointSnapshot: unknown; endpoint: { name: string; model: string } }) {
  const snapshot = (run.endpointSnapshot ?? {}) as {
    name?: unknown;
    model?: unknown;
    roles?: { judge?: { model?: unknown } };
  };
  return {
    model: typeof snapshot.model === "string" ? snapshot.model : run.endpoint.model,
    endpointName: typeof snapshot.name === "string" ? snapshot.name : run.endpoint.name,
    judgeModel: typeof snapshot.roles?.judge?.model === "string" ? snapshot.roles.judge.model : null,
  };
}

function runLabel(model: string, settings: QaSettings): string {
  const resize = settings.resize.mode === "quarter" ? "" : ` · ${settings.resize.px} px`;
  return `${model} · ${settings.frames} frames${resize}`;
}

const runSelect = {
  id: true,
  projectId: true,
  pipeline: true,
  status: true,
  simulated: true,
  createdAt: true,
  settings: true,
  endpointSnapshot: true,
  endpoint: { select: { name: true, model: true } },
} as const;

function summaryOf(run: {
  id: string;
  status: string;
  simulated: boolean;
  createdAt: Date;
  settings: unknown;
  endpointSnapshot: unknown;
  endpoint: { name: string; model: string };
}): QaRunSummary {
  const settings = qaSettingsSchema.parse(run.settings ?? {});
  const names = snapshotOf(run);
  // An imported harness run (harness-import.ts) saw no FrameJury frames: its label names its source instead.
  const external = (run.endpointSnapshot as { external?: { source?: unknown; textOnly?: unknown } } | null)?.external;
  const label = external
    ? `${names.model} · external (${String(external.source)}${external.textOnly === true ? ", text-only" : ""})`
    : runLabel(names.model, settings);
  return {
    id: run.id,
    status: run.status,
    simulated: run.simulated,
    createdAt: run.createdAt,
    ...names,
    settings,
    label,
    textOnly: external?.textOnly === true,
  };
}

async function qaRunOf(prisma: PrismaClient, actor: Actor, runId: string, action: "project.view" | "export.read") {
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!run) throw new NotFoundError("No such run.");
  await requireProjectAccess(prisma, actor, run.projectId, action).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such run.") : error;
  });
  if (run.pipeline !== QA_PIPELINE) throw new ValidationError(`Run ${run.id} is a ${run.pipeline} run, not a QA run.`);
  return { projectId: run.projectId, ...summaryOf(run) };
}

/** The project's QA runs, newest first. */
export async function projectQaRuns(prisma: PrismaClient, actor: Actor, projectId: string): Promise<QaRunSummary[]> {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: QA_PIPELINE },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: runSelect,
  });
  return runs.map(summaryOf);
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

interface QuestionFilter {
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
async function runQuestionsMatching(
  prisma: PrismaClient,
  run: { id: string; settings: QaSettings },
  filter: QuestionFilter,
): Promise<QaQuestionResult[]> {
  return readRunQuestions(prisma, run, await runQuestionsWhere(prisma, run, filter), null);
}

/** A run's questions: the query's page for JSON, every question for CSV and JSONL. */
export async function runQaResults(prisma: PrismaClient, actor: Actor, runId: string, query: QaRunResultsQuery) {
  const run = await qaRunOf(prisma, actor, runId, query.format === "json" ? "project.view" : "export.read");
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
  actor: Actor,
  runId: string,
  query: QaRunResultsQuery,
  pageSize: number,
) {
  const run = await qaRunOf(prisma, actor, runId, "export.read");
  const where = await runQuestionsWhere(prisma, run, query);
  const total = await prisma.runItem.count({ where });
  const { projectId: _projectId, ...summary } = run;
  yield* rowPages(total, pageSize, async (page) => ({
    run: summary,
    questions: await readRunQuestions(prisma, run, where, page),
  }));
}

const QUESTION_CSV_COLUMNS = [
  "run_id",
  "model",
  "frames",
  "question_id",
  "external_id",
  "video",
  "question_format",
  "category",
  "granularity",
  "question",
  "options",
  "correct_answer",
  "status",
  "outcome",
  "decided_by",
  "letter",
  "judgement",
  "reason",
  "no_letter_because",
  "raw_answer",
  "finish_reason",
  "text_only_outcome",
  "text_only_decided_by",
  "text_only_letter",
  "text_only_reason",
  "text_only_raw_answer",
  "right_without_video",
] as const;

export const QA_RESULTS_CSV_HEADER = csvRow(QUESTION_CSV_COLUMNS);

/** The CSV export's rows of `questions` (after QA_RESULTS_CSV_HEADER). */
export function qaResultsCsvRows(run: QaRunSummary, questions: readonly QaQuestionResult[]): string {
  let text = "";
  for (const q of questions) {
    const r = q.result;
    const t = q.textOnly;
    text += csvRow([
      run.id,
      run.model,
      run.settings.frames,
      q.questionId,
      q.externalId,
      q.video.relativePath,
      q.format,
      q.category,
      q.granularity,
      q.question,
      q.options ? JSON.stringify(q.options) : null,
      q.answer,
      r.status,
      r.outcome ?? "pending",
      r.decidedBy,
      r.letter,
      r.judgement,
      r.reason,
      r.extraction,
      r.rawAnswer,
      r.finishReason,
      t?.outcome ?? (t ? "pending" : null),
      t?.decidedBy,
      t?.letter,
      t?.reason,
      t?.rawAnswer,
      t ? Number(q.rightWithoutVideo) : null,
    ]);
  }
  return text;
}

/** A JSONL export's line of a question. */
export const qaResultJsonLine = (run: QaRunSummary, question: QaQuestionResult) => ({
  runId: run.id,
  model: run.model,
  frames: run.settings.frames,
  ...question,
});

/**
 * The runs an overview compares, oldest first however they were named: those named, else the latest run of
 * each model at each frame count and resize.
 */
function chooseRuns(runs: readonly QaRunSummary[], runIds: readonly string[]): QaRunSummary[] {
  if (runIds.length) {
    for (const id of runIds)
      if (!runs.some((r) => r.id === id)) throw new NotFoundError(`No such QA run in this project: ${id}.`);
    // `runs` is newest first.
    return runs.filter((r) => runIds.includes(r.id)).reverse();
  }
  const seen = new Set<string>();
  const chosen: QaRunSummary[] = [];
  for (const run of runs) {
    if (seen.has(run.label)) continue;
    seen.add(run.label);
    chosen.push(run);
  }
  return chosen.reverse();
}

export interface QaOverview {
  runs: QaRunSummary[];
  /** The runs compared, oldest first. */
  chosen: QaRunSummary[];
  rows: AccuracyRow[];
  /** Model (run) × category: each cell's accuracy with its interval and n. */
  heatmap: {
    categories: (string | null)[];
    cells: { runId: string; category: string | null; accuracy: AccuracyRow["outcomes"]["accuracy"] }[];
  };
  /** McNemar's test for every two compared runs, on the questions both decided. */
  comparisons: RunComparison[];
  /** Models run at more than one frame count: each count's overall accuracy and the test between them. */
  frames: {
    model: string;
    runs: { runId: string; frames: number; accuracy: AccuracyRow["outcomes"]["accuracy"] }[];
    comparison: RunComparison | null;
  }[];
}

/** The accuracy overview of the project's QA runs (every member; CSV and JSONL need export.read). */
export async function projectQaOverview(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: z.output<typeof qaAccuracyQuerySchema>,
): Promise<QaOverview> {
  await requireProjectAccess(prisma, actor, projectId, query.format === "json" ? "project.view" : "export.read");
  const runs = await projectQaRuns(prisma, actor, projectId);
  const chosen = chooseRuns(runs, query.runId);
  const outcomes: QaOutcomeRow[] = [];
  for (const run of chosen) {
    for (const q of await runQuestionsMatching(prisma, run, {})) {
      outcomes.push({
        runId: run.id,
        questionId: q.questionId,
        format: q.format,
        category: q.category,
        granularity: q.granularity,
        outcome: q.result.outcome,
        ...(q.textOnly ? { textOnly: q.textOnly.outcome } : {}),
      });
    }
  }
  const ids = chosen.map((r) => r.id);
  const rows = accuracyRows(outcomes, ids);
  const comparisons = pairwiseComparisons(outcomes, ids);
  const categoryRows = rows.filter((r) => r.breakdown === "category");
  const categories = [...new Set(categoryRows.map((r) => r.category))].sort((a, b) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  const overall = (runId: string) => rows.find((r) => r.runId === runId && r.breakdown === "all")!.outcomes.accuracy;
  const byModel = new Map<string, QaRunSummary[]>();
  for (const run of chosen) byModel.set(run.model, [...(byModel.get(run.model) ?? []), run]);
  const frames = [...byModel]
    .filter(([, modelRuns]) => new Set(modelRuns.map((r) => r.settings.frames)).size > 1)
    .map(([model, modelRuns]) => {
      const eight = modelRuns.find((r) => r.settings.frames === 8);
      const sixteen = modelRuns.find((r) => r.settings.frames === 16);
      const comparison =
        eight && sixteen
          ? (comparisons.find(
              (c) =>
                (c.first === eight.id && c.second === sixteen.id) || (c.first === sixteen.id && c.second === eight.id),
            ) ?? null)
          : null;
      return {
        model,
        runs: modelRuns
          .map((r) => ({ runId: r.id, frames: r.settings.frames, accuracy: overall(r.id) }))
          .sort((a, b) => a.frames - b.frames),
        comparison,
      };
    });
  return {
    runs,
    chosen,
    rows,
    heatmap: {
      categories,
      cells: categoryRows.map((r) => ({ runId: r.runId, category: r.category, accuracy: r.outcomes.accuracy })),
    },
    comparisons,
    frames,
  };
}

const ACCURACY_CSV_COLUMNS = [
  "run_id",
  "model",
  "frames",
  "breakdown",
  "question_format",
  "category",
  "granularity",
  "correct",
  "wrong",
  "unanswerable",
  "pending",
  "n",
  "accuracy",
  "ci_low",
  "ci_high",
  "text_only_n",
  "text_only_accuracy",
  "text_only_ci_low",
  "text_only_ci_high",
  "right_without_video",
] as const;

export function qaAccuracyCsv(overview: QaOverview): string {
  const runs = new Map(overview.chosen.map((r) => [r.id, r]));
  let text = csvRow(ACCURACY_CSV_COLUMNS);
  for (const row of overview.rows) {
    const run = runs.get(row.runId)!;
    const a = row.outcomes.accuracy;
    const t = row.textOnly?.accuracy ?? null;
    text += csvRow([
      row.runId,
      run.model,
      run.settings.frames,
      row.breakdown,
      row.format,
      row.category,
      row.granularity,
      row.outcomes.correct,
      row.outcomes.wrong,
      row.outcomes.unanswerable,
      row.outcomes.pending,
      a?.n ?? 0,
      a?.value,
      a?.lower,
      a?.upper,
      row.textOnly ? (t?.n ?? 0) : null,
      t?.value,
      t?.lower,
      t?.upper,
      row.textOnly ? row.rightWithoutVideo : null,
    ]);
  }
  return text;
}

/** The accuracy rows as JSONL: one object per row, with its run's model and frame count. */
export function qaAccuracyJsonl(overview: QaOverview): string {
  const runs = new Map(overview.chosen.map((r) => [r.id, r]));
  return jsonLines(
    overview.rows.map((row) => ({
      model: runs.get(row.runId)!.model,
      frames: runs.get(row.runId)!.settings.frames,
      ...row,
    })),
  );
}

/** The project's questions, whitelisted filter, a page at a time. */
export const questionListQuerySchema = qaQuestionFilterSchema
  .pick({ questionFormat: true, category: true, granularity: true, videoId: true, page: true, pageSize: true })
  .extend({ setId: idSchema.optional() })
  .strict();

export async function listQuestions(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: z.output<typeof questionListQuerySchema>,
) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const where = {
    projectId,
    kind: "question",
    ...(query.setId ? { setId: query.setId } : {}),
    ...(query.videoId ? { videoId: query.videoId } : {}),
    ...(query.category !== undefined ? { group: query.category === "(none)" ? "" : query.category } : {}),
    ...(query.questionFormat ? { payload: { path: ["format"], equals: query.questionFormat } } : {}),
    ...(query.granularity ? { AND: [{ payload: { path: ["granularity"], equals: query.granularity } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    prisma.item.count({ where }),
    prisma.item.findMany({
      where,
      orderBy: [{ video: { relativePath: "asc" } }, { externalId: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        setId: true,
        externalId: true,
        payload: true,
        video: { select: { id: true, relativePath: true } },
      },
    }),
  ]);
  return { total, page: query.page, pageSize: query.pageSize, questions: rows.map((row) => questionView(row)) };
}

function questionView(row: {
  id: string;
  setId: string;
  externalId: string;
  payload: unknown;
  video: { id: string; relativePath: string };
}) {
  const p = row.payload as QuestionPayload;
  return {
    id: row.id,
    setId: row.setId,
    externalId: row.externalId,
    video: row.video,
    question: p.question,
    format: p.format,
    options: p.options,
    answer: p.answer,
    category: p.category,
    granularity: p.granularity,
    extra: p.extra,
  };
}

/**
 * One question for its page and `GET /questions/:id`: the question, and every QA run of its project that
 * answered it (newest first) with the frames that run showed the model, both results and the id of the
 * run's correctness score (`scoreId`, what reviewers judge the answer through; null when undecided).
 */
export async function questionDetail(prisma: PrismaClient, actor: Actor, questionId: string) {
  const row = await prisma.item.findUnique({
    where: { id: questionId },
    select: {
      id: true,
      kind: true,
      projectId: true,
      setId: true,
      externalId: true,
      payload: true,
      video: { select: { id: true, relativePath: true } },
    },
  });
  if (!row || row.kind !== "question") throw new NotFoundError("No such question.");
  await requireProjectAccess(prisma, actor, row.projectId, "project.view").catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such question.") : error;
  });
  const runItems = await prisma.runItem.findMany({
    where: { itemId: questionId, run: { pipeline: QA_PIPELINE } },
    orderBy: { run: { createdAt: "desc" } },
    select: { runId: true, videoId: true, run: { select: runSelect } },
  });
  const results = [];
  for (const { run, videoId } of runItems) {
    const summary = summaryOf(run);
    const [result] = await runQuestionsMatching(prisma, summary, { itemIds: [questionId] });
    const runVideo = await prisma.runVideo.findUnique({
      where: { runId_videoId: { runId: run.id, videoId } },
      select: { frameSetId: true },
    });
    const frameSet = runVideo
      ? await prisma.frameSet.findUnique({
          where: { id: runVideo.frameSetId },
          select: {
            id: true,
            mode: true,
            frameCount: true,
            parameters: true,
            frames: {
              orderBy: { index: "asc" },
              select: { id: true, index: true, timestampS: true, width: true, height: true },
            },
          },
        })
      : null;
    // The run's decision as a score (none while pending or when unanswerable): reviewers judge the answer through it.
    const score = await prisma.score.findFirst({
      where: { runId: run.id, itemId: questionId, category: "correctness" },
      select: { id: true },
    });
    if (result)
      results.push({
        run: summary,
        frameSet,
        scoreId: score?.id ?? null,
        result: result.result,
        textOnly: result.textOnly,
        rightWithoutVideo: result.rightWithoutVideo,
      });
  }
  return { projectId: row.projectId, question: questionView(row), results };
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

/** The values the QA page's filters offer: the categories and videos of the project's questions. */
export async function qaFilterOptions(prisma: PrismaClient, actor: Actor, projectId: string) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const [categories, videos, sets] = await Promise.all([
    prisma.item.findMany({
      where: { projectId, kind: "question" },
      distinct: ["group"],
      select: { group: true },
      orderBy: { group: "asc" },
    }),
    prisma.video.findMany({
      where: { projectId, items: { some: { kind: "question" } } },
      select: { id: true, relativePath: true },
      orderBy: { relativePath: "asc" },
      take: 1000,
    }),
    prisma.itemSet.count({ where: { projectId, kind: "questions" } }),
  ]);
  return { categories: categories.map((c) => (c.group === "" ? "(none)" : c.group)), videos, questionSets: sets };
}

/** The QA page's query: the runs compared, the accuracy breakdown shown, and the list of one run's questions. */
export const qaPageQuerySchema = qaQuestionFilterSchema
  .extend({
    runId: z.array(idSchema).max(20, "at most 20 runs").default([]),
    by: z.enum(["all", "format", "category", "granularity", "format_category_granularity"]).default("format"),
    /** The run whose questions are listed; default the first compared run. */
    listRunId: idSchema.optional(),
  })
  .strict();

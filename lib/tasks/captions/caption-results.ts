/**
 * What caption runs found: per caption (the instruction, reference, output, FrameJury's counts and rules,
 * the judge's raw and counted scores and reasons, the key points), and the leaderboard per model × caption
 * type (lib/tasks/captions/caption-leaderboard.ts) over a style run and/or a content run. Both as JSON, CSV and JSONL.
 */
import { z } from "zod";
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { requireProjectAccess } from "../../authz/permissions";
import { type CaptionContentAnswer, type CaptionStyleAnswer } from "./caption-judge-answers";
import { captionLeaderboard, type CaptionResult, type LeaderboardMetric } from "./caption-leaderboard";
import { NotFoundError, ValidationError } from "../../errors";
import { csvRow } from "../../export/csv";
import { rowPages } from "../../export/text-stream";
import type { CaptionPayload, ReferencePayload } from "./caption-items";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../../validation/nul-bytes";
import type { WordCounting } from "./count-words";
import { captionStyleSettingsSchema, type CaptionLengthRulesOutput } from "./caption-style";

export const CAPTION_PIPELINES = ["caption_style", "caption_content"] as const;
type CaptionPipeline = (typeof CAPTION_PIPELINES)[number];

/** The per-caption yes/no metrics (run_metric rows of a style run) a caption list can filter on. */
export const CAPTION_FLAGS = ["judge_broke_rule", "length_violation"] as const;
export type CaptionFlag = (typeof CAPTION_FLAGS)[number];

const formatSchema = z.enum(["json", "csv", "jsonl"]).default("json");

export const captionResultsQuerySchema = z
  .object({
    model: z.string().trim().min(1).max(200).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    type: z.string().trim().min(1).max(100).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    videoId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.")
      .optional(),
    /** Style runs only: captions where a length rule failed, or where the judge scored above the rules' cap. */
    flag: z.enum(CAPTION_FLAGS).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(500).default(50),
    /** csv and jsonl: every caption of the run matching the filter, as an attachment (no pages). */
    format: formatSchema,
  })
  .strict();
export type CaptionResultsQuery = z.output<typeof captionResultsQuerySchema>;

export const captionLeaderboardQuerySchema = z
  .object({
    /** A style run and/or a content run (at most one of each). */
    runId: z
      .array(z.string().min(1).max(64))
      .min(1, "name a caption run with runId")
      .max(2, "at most two runs: one style run and one content run"),
    format: formatSchema,
  })
  .strict();

export interface StyleResult {
  status: StepStatus;
  /** Why the step did not finish (failed, parse_failed, skipped), else null. */
  error: string | null;
  rawScore: number | null;
  reason: string | null;
  counts: {
    counting: WordCounting;
    outputWords: number;
    referenceWords: number;
    outputSentences: number;
    deviation: number | null;
  } | null;
  rules: CaptionLengthRulesOutput["rules"] | null;
  cap: number | null;
  scoreAfterRules: number | null;
  countedScore: number | null;
  counted: CaptionLengthRulesOutput["counted"] | null;
  flags: { lengthViolation: boolean; judgeBrokeRule: boolean } | null;
}

export interface ContentResult {
  status: StepStatus;
  error: string | null;
  keyPoints: { index: number; keyPoint: string; score: 0 | 1 | null; reason: string | null }[];
  hit: number | null;
  total: number;
  coverage: number | null;
}

export interface CaptionRunResult {
  captionId: string;
  externalId: string;
  model: string | null;
  captionType: string;
  video: { id: string; relativePath: string };
  instruction: string;
  reference: string;
  restriction: [string, string];
  output: string;
  style?: StyleResult;
  content?: ContentResult;
}

async function captionRunOf(prisma: PrismaClient, actor: Actor, runId: string, action: "project.view" | "export.read") {
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { id: true, projectId: true, pipeline: true, status: true, simulated: true, settings: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  await requireProjectAccess(prisma, actor, run.projectId, action).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such run.") : error;
  });
  if (!(CAPTION_PIPELINES as readonly string[]).includes(run.pipeline))
    throw new ValidationError(`Run ${run.id} is a ${run.pipeline} run, not a caption run.`);
  return { ...run, pipeline: run.pipeline as CaptionPipeline };
}

type StepRow = { itemId: string; stepId: string; status: StepStatus; output: unknown; error: string | null };

function styleResult(steps: StepRow[]): StyleResult {
  const judge = steps.find((s) => s.stepId === "style_judge");
  const rules = steps.find((s) => s.stepId === "length_rules");
  const answer = judge?.status === "done" ? (judge.output as CaptionStyleAnswer) : null;
  const computed = rules?.status === "done" ? (rules.output as CaptionLengthRulesOutput) : null;
  const unfinished = [judge, rules].find((s) => s && s.status !== "done");
  return {
    status: unfinished?.status ?? (judge ? "done" : "pending"),
    error: unfinished?.error ?? null,
    rawScore: answer?.score ?? null,
    reason: answer?.reason ?? null,
    counts: computed && {
      counting: computed.counting ?? "framejury",
      outputWords: computed.outputWords,
      referenceWords: computed.referenceWords,
      outputSentences: computed.outputSentences,
      deviation: computed.deviation,
    },
    rules: computed?.rules ?? null,
    cap: computed?.cap ?? null,
    scoreAfterRules: computed?.scoreAfterRules ?? null,
    countedScore: computed?.countedScore ?? null,
    counted: computed?.counted ?? null,
    flags: computed && { lengthViolation: computed.cap !== null, judgeBrokeRule: computed.judgeBrokeRule },
  };
}

function contentResult(steps: StepRow[], keyPoints: string[]): ContentResult {
  const step = steps.find((s) => s.stepId === "key_points");
  const answer = step?.status === "done" ? (step.output as CaptionContentAnswer) : null;
  const hit = answer ? answer.keyPoints.reduce((sum, kp) => sum + kp.score, 0) : null;
  return {
    status: step?.status ?? "pending",
    error: step?.error ?? null,
    keyPoints: keyPoints.map((keyPoint, i) => {
      const scored = answer?.keyPoints.find((kp) => kp.index === i + 1);
      return { index: i + 1, keyPoint, score: scored?.score ?? null, reason: scored?.reason ?? null };
    }),
    hit,
    total: keyPoints.length,
    coverage: hit === null || keyPoints.length === 0 ? null : hit / keyPoints.length,
  };
}

interface CaptionFilter {
  model?: string;
  type?: string;
  videoId?: string;
  flag?: CaptionFlag;
  /** Only these captions (a page of another run's list, or one caption). */
  itemIds?: string[];
}

/** Which of the run's captions match `filter` (a flag reads its caption ids here, once). */
async function runCaptionsWhere(
  prisma: PrismaClient,
  run: { id: string; pipeline: CaptionPipeline },
  filter: CaptionFilter,
): Promise<Prisma.RunItemWhereInput> {
  if (filter.flag && run.pipeline !== "caption_style")
    throw new ValidationError(`The ${filter.flag} filter needs a style run; run ${run.id} is a ${run.pipeline} run.`);
  // Flags are the style run's per-caption yes/no metrics, read through their (run, metric, value) index.
  const flagged = filter.flag
    ? (
        await prisma.runMetric.findMany({
          where: { runId: run.id, metric: filter.flag, value: 1 },
          select: { itemId: true },
        })
      ).map((m) => m.itemId)
    : null;
  const onlyIds =
    flagged && filter.itemIds ? flagged.filter((id) => filter.itemIds!.includes(id)) : (flagged ?? filter.itemIds);
  return {
    runId: run.id,
    ...(onlyIds ? { itemId: { in: onlyIds } } : {}),
    item: {
      ...(filter.model ? { model: filter.model } : {}),
      ...(filter.type ? { group: filter.type } : {}),
      ...(filter.videoId ? { videoId: filter.videoId } : {}),
    },
  };
}

/** The captions `where` picks, in the list's order, with their results: `rows` of them (skip, take), or all. */
async function readRunCaptions(
  prisma: PrismaClient,
  run: { id: string; pipeline: CaptionPipeline },
  where: Prisma.RunItemWhereInput,
  rows: { skip: number; take: number } | null,
): Promise<CaptionRunResult[]> {
  const runItems = await prisma.runItem.findMany({
    where,
    orderBy: [
      { item: { video: { relativePath: "asc" } } },
      { item: { group: "asc" } },
      { item: { model: "asc" } },
      { itemId: "asc" },
    ],
    ...(rows ?? {}),
    select: {
      item: {
        select: {
          id: true,
          externalId: true,
          model: true,
          group: true,
          payload: true,
          video: { select: { id: true, relativePath: true } },
          referenceItem: { select: { payload: true } },
        },
      },
    },
  });
  const itemIds = runItems.map((r) => r.item.id);
  const steps = itemIds.length
    ? await prisma.stepResult.findMany({
        where: { runId: run.id, itemId: { in: itemIds } },
        select: { itemId: true, stepId: true, status: true, output: true, error: true },
      })
    : [];
  const stepsByItem = new Map<string, StepRow[]>();
  for (const step of steps) stepsByItem.set(step.itemId, [...(stepsByItem.get(step.itemId) ?? []), step]);
  return runItems.map(({ item }) => {
    const reference = item.referenceItem?.payload as unknown as ReferencePayload;
    const own = stepsByItem.get(item.id) ?? [];
    return {
      captionId: item.id,
      externalId: item.externalId,
      model: item.model,
      captionType: item.group,
      video: item.video,
      instruction: reference.instruction,
      reference: reference.reference,
      restriction: reference.restriction,
      output: (item.payload as unknown as CaptionPayload).output,
      ...(run.pipeline === "caption_style"
        ? { style: styleResult(own) }
        : { content: contentResult(own, reference.keyPoints ?? []) }),
    };
  });
}

/** Every caption of the run matching `filter`, with its results. */
async function runCaptionsMatching(
  prisma: PrismaClient,
  run: { id: string; pipeline: CaptionPipeline },
  filter: CaptionFilter,
): Promise<CaptionRunResult[]> {
  return readRunCaptions(prisma, run, await runCaptionsWhere(prisma, run, filter), null);
}

const runSummary = (run: Awaited<ReturnType<typeof captionRunOf>>) => ({
  id: run.id,
  pipeline: run.pipeline,
  status: run.status,
  simulated: run.simulated,
  settings: run.settings,
});

/** A run's captions: the query's page for JSON, every caption for CSV and JSONL. */
export async function runCaptionResults(prisma: PrismaClient, actor: Actor, runId: string, query: CaptionResultsQuery) {
  const run = await captionRunOf(prisma, actor, runId, query.format === "json" ? "project.view" : "export.read");
  const where = await runCaptionsWhere(prisma, run, query);
  const rows = query.format === "json" ? { skip: (query.page - 1) * query.pageSize, take: query.pageSize } : null;
  const [total, captions] = await Promise.all([
    prisma.runItem.count({ where }),
    readRunCaptions(prisma, run, where, rows),
  ]);
  return { run: runSummary(run), total, page: query.page, pageSize: query.pageSize, captions };
}

/**
 * The CSV and JSONL exports' captions, `pageSize` at a time (at least one, maybe empty): the access check,
 * the flag's read and the count run once, each page reads only its own rows.
 */
export async function* runCaptionResultSlices(
  prisma: PrismaClient,
  actor: Actor,
  runId: string,
  query: CaptionResultsQuery,
  pageSize: number,
) {
  const run = await captionRunOf(prisma, actor, runId, "export.read");
  const where = await runCaptionsWhere(prisma, run, query);
  const total = await prisma.runItem.count({ where });
  yield* rowPages(total, pageSize, async (page) => ({
    run: runSummary(run),
    captions: await readRunCaptions(prisma, run, where, page),
  }));
}

const CAPTION_CSV_COLUMNS = [
  "run_id",
  "caption_id",
  "external_id",
  "video",
  "model",
  "caption_type",
  "status",
  "error",
  "output_words",
  "reference_words",
  "output_sentences",
  "deviation",
  "rule_brief_detail_10pct",
  "rule_instruction_restriction",
  "cap",
  "judge_score",
  "score_after_rules",
  "counted_score",
  "length_violation",
  "judge_broke_rule",
  "reason",
  "key_points_hit",
  "key_points_total",
  "coverage",
  "key_points",
  "instruction",
  "reference",
  "output",
  "word_counting",
] as const;

function ruleCell(rules: CaptionLengthRulesOutput["rules"] | null, id: string) {
  const rule = rules?.find((r) => r.id === id);
  return !rule ? null : !rule.applies ? "n/a" : rule.passed ? "pass" : "fail";
}

export const CAPTION_RESULTS_CSV_HEADER = csvRow(CAPTION_CSV_COLUMNS);

/** The CSV export of `captions`, header and rows. */
export function captionResultsCsv(runId: string, captions: readonly CaptionRunResult[]): string {
  return CAPTION_RESULTS_CSV_HEADER + captionResultsCsvRows(runId, captions);
}

/** The CSV export's rows of `captions` (after CAPTION_RESULTS_CSV_HEADER). */
export function captionResultsCsvRows(runId: string, captions: readonly CaptionRunResult[]): string {
  let text = "";
  for (const c of captions) {
    const s = c.style;
    const k = c.content;
    text += csvRow([
      runId,
      c.captionId,
      c.externalId,
      c.video.relativePath,
      c.model,
      c.captionType,
      (s ?? k)!.status,
      (s ?? k)!.error,
      s?.counts?.outputWords,
      s?.counts?.referenceWords,
      s?.counts?.outputSentences,
      s?.counts?.deviation,
      ruleCell(s?.rules ?? null, "brief_detail_10pct"),
      ruleCell(s?.rules ?? null, "instruction_restriction"),
      s?.cap,
      s?.rawScore,
      s?.scoreAfterRules,
      s?.countedScore,
      s?.flags ? Number(s.flags.lengthViolation) : null,
      s?.flags ? Number(s.flags.judgeBrokeRule) : null,
      s?.reason,
      k?.hit,
      k?.total,
      k?.coverage,
      k ? JSON.stringify(k.keyPoints) : null,
      c.instruction,
      c.reference,
      c.output,
      s?.counts?.counting,
    ]);
  }
  return text;
}

/**
 * The caption leaderboard of a style run and/or a content run of the project: per model × caption type
 * (and per model overall), mean style score, key-point coverage and length-violation rate with bootstrap
 * 95% intervals and n.
 */
export async function projectCaptionLeaderboard(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: z.output<typeof captionLeaderboardQuerySchema>,
) {
  await requireProjectAccess(prisma, actor, projectId, query.format === "json" ? "project.view" : "export.read");
  const runs = [];
  for (const runId of new Set(query.runId)) {
    const run = await captionRunOf(prisma, actor, runId, "project.view");
    if (run.projectId !== projectId) throw new NotFoundError("No such run.");
    runs.push(run);
  }
  const pipelines = runs.map((r) => r.pipeline);
  if (new Set(pipelines).size !== pipelines.length)
    throw new ValidationError("Name at most one style run and one content run.");

  const byCaption = new Map<string, CaptionResult>();
  for (const run of runs) {
    for (const caption of await runCaptionsMatching(prisma, run, {})) {
      const entry = byCaption.get(caption.captionId) ?? {
        model: caption.model ?? "",
        captionType: caption.captionType,
        styleScore: null,
        keyPointsHit: null,
        keyPointsTotal: null,
        lengthViolation: null,
      };
      if (caption.style) {
        entry.styleScore = caption.style.countedScore;
        entry.lengthViolation = caption.style.flags?.lengthViolation ?? null;
      }
      if (caption.content && caption.content.hit !== null) {
        entry.keyPointsHit = caption.content.hit;
        entry.keyPointsTotal = caption.content.total;
      }
      byCaption.set(caption.captionId, entry);
    }
  }
  return {
    runs: runs.map((r) => ({ id: r.id, pipeline: r.pipeline, status: r.status, simulated: r.simulated })),
    rows: captionLeaderboard([...byCaption.values()]),
  };
}

export function leaderboardCsv(rows: ReturnType<typeof captionLeaderboard>): string {
  let text = csvRow(["model", "caption_type", "metric", "value", "ci_low", "ci_high", "n"]);
  const metrics: [string, (row: (typeof rows)[number]) => LeaderboardMetric | null][] = [
    ["style_score", (r) => r.styleScore],
    ["content_coverage", (r) => r.contentCoverage],
    ["length_violation_rate", (r) => r.lengthViolationRate],
  ];
  for (const row of rows) {
    for (const [name, pick] of metrics) {
      const metric = pick(row);
      if (metric)
        text += csvRow([
          row.model,
          row.captionType ?? "(all)",
          name,
          metric.value,
          metric.ci?.lower,
          metric.ci?.upper,
          metric.n,
        ]);
    }
  }
  return text;
}

export interface CaptionRunSummary {
  id: string;
  pipeline: CaptionPipeline;
  status: string;
  simulated: boolean;
  createdAt: Date;
  endpointName: string;
  /** Style runs: how the length rules counted words (the run's `wordCounting` setting); null for content runs. */
  wordCounting: WordCounting | null;
}

/** The project's caption runs, newest first (the captions page picks one style and one content run from them). */
export async function projectCaptionRuns(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
): Promise<CaptionRunSummary[]> {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: { in: [...CAPTION_PIPELINES] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: {
      id: true,
      pipeline: true,
      status: true,
      simulated: true,
      createdAt: true,
      settings: true,
      endpoint: { select: { name: true } },
    },
  });
  return runs.map(({ endpoint, settings, ...run }) => ({
    ...run,
    pipeline: run.pipeline as CaptionPipeline,
    endpointName: endpoint.name,
    wordCounting:
      run.pipeline === "caption_style" ? captionStyleSettingsSchema.parse(settings ?? {}).wordCounting : null,
  }));
}

export const captionListQuerySchema = z
  .object({
    styleRunId: z.string().min(1).max(64).optional(),
    contentRunId: z.string().min(1).max(64).optional(),
    model: captionResultsQuerySchema.shape.model,
    type: captionResultsQuerySchema.shape.type,
    videoId: captionResultsQuerySchema.shape.videoId,
    flag: captionResultsQuerySchema.shape.flag,
    page: captionResultsQuerySchema.shape.page,
    pageSize: captionResultsQuerySchema.shape.pageSize,
  })
  .strict();
export type CaptionListQuery = z.output<typeof captionListQuerySchema>;

/**
 * The captions page: a style run and a content run of the project (default: the latest of each), their
 * leaderboard, and a page of the captions either run judged, with both runs' results side by side.
 */
export async function projectCaptionOverview(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: CaptionListQuery,
) {
  const runs = await projectCaptionRuns(prisma, actor, projectId);
  const pick = (pipeline: CaptionPipeline, id: string | undefined) => {
    if (id === undefined) return runs.find((r) => r.pipeline === pipeline) ?? null;
    const run = runs.find((r) => r.id === id);
    if (!run) throw new NotFoundError("No such caption run in this project.");
    if (run.pipeline !== pipeline)
      throw new ValidationError(`Run ${id} is a ${run.pipeline} run, not a ${pipeline} run.`);
    return run;
  };
  const style = pick("caption_style", query.styleRunId);
  const content = pick("caption_content", query.contentRunId);
  const chosen = [style, content].filter((r): r is CaptionRunSummary => r !== null);
  if (chosen.length === 0)
    return { runs, style, content, leaderboard: null, total: 0, captions: [] as CaptionRunResult[] };
  const leaderboard = await projectCaptionLeaderboard(prisma, actor, projectId, {
    runId: chosen.map((r) => r.id),
    format: "json",
  });

  if (query.flag && !style) throw new ValidationError(`The ${query.flag} filter needs a style run.`);
  // Flags are the style run's per-caption yes/no metrics, read through their (run, metric, value) index.
  const flagged = query.flag
    ? (
        await prisma.runMetric.findMany({
          where: { runId: style!.id, metric: query.flag, value: 1 },
          select: { itemId: true },
        })
      ).map((m) => m.itemId)
    : null;
  const where = {
    projectId,
    kind: "caption",
    runItems: { some: { runId: { in: chosen.map((r) => r.id) } } },
    ...(query.model ? { model: query.model } : {}),
    ...(query.type ? { group: query.type } : {}),
    ...(query.videoId ? { videoId: query.videoId } : {}),
    ...(flagged ? { id: { in: flagged } } : {}),
  };
  const [total, page] = await Promise.all([
    prisma.item.count({ where }),
    prisma.item.findMany({
      where,
      orderBy: [{ video: { relativePath: "asc" } }, { group: "asc" }, { model: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: { id: true },
    }),
  ]);
  const ids = page.map((p) => p.id);
  const merged = new Map<string, CaptionRunResult>();
  for (const run of chosen) {
    if (!ids.length) break;
    for (const result of await runCaptionsMatching(prisma, run, { itemIds: ids }))
      merged.set(result.captionId, { ...merged.get(result.captionId), ...result });
  }
  return { runs, style, content, leaderboard, total, captions: ids.flatMap((id) => merged.get(id) ?? []) };
}

/**
 * One caption for its page: the caption and its reference, every caption run of the project that judged it
 * with its results (newest first), and the frames those runs showed the judge (else the video's latest
 * uniform frame set).
 */
export async function captionDetail(prisma: PrismaClient, actor: Actor, projectId: string, captionId: string) {
  const item = await prisma.item.findFirst({
    where: { id: captionId, projectId, kind: "caption" },
    select: { id: true },
  });
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  if (!item) throw new NotFoundError("No such caption in this project.");
  const runItems = await prisma.runItem.findMany({
    where: { itemId: captionId, run: { projectId, pipeline: { in: [...CAPTION_PIPELINES] } } },
    orderBy: { run: { createdAt: "desc" } },
    select: {
      runId: true,
      videoId: true,
      run: {
        select: {
          id: true,
          pipeline: true,
          status: true,
          simulated: true,
          createdAt: true,
          settings: true,
          endpoint: { select: { name: true } },
        },
      },
    },
  });
  const results = [];
  for (const { run } of runItems) {
    const pipeline = run.pipeline as CaptionPipeline;
    const [result] = await runCaptionsMatching(prisma, { id: run.id, pipeline }, { itemIds: [captionId] });
    // The judge's scores of the caption, for reviewers to give their own values against.
    const scores = await prisma.score.findMany({
      where: { runId: run.id, itemId: captionId },
      select: { id: true, category: true, value: true },
      orderBy: { category: "asc" },
    });
    if (result)
      results.push({
        run: {
          id: run.id,
          pipeline,
          status: run.status,
          simulated: run.simulated,
          createdAt: run.createdAt,
          endpointName: run.endpoint.name,
          settings: run.settings,
        },
        result,
        scores,
      });
  }
  const videoId =
    runItems[0]?.videoId ??
    (await prisma.item.findUniqueOrThrow({ where: { id: captionId }, select: { videoId: true } })).videoId;
  const runFrameSet = runItems.length
    ? await prisma.runVideo.findFirst({ where: { runId: runItems[0]!.runId, videoId }, select: { frameSetId: true } })
    : null;
  const frameSet = runFrameSet
    ? await prisma.frameSet.findUnique({ where: { id: runFrameSet.frameSetId }, select: frameSetSelect })
    : await prisma.frameSet.findFirst({
        where: { videoId, mode: "uniform" },
        orderBy: { createdAt: "desc" },
        select: frameSetSelect,
      });
  return { results, frameSet, videoId };
}

const frameSetSelect = {
  id: true,
  mode: true,
  frameCount: true,
  frames: { orderBy: { index: "asc" }, select: { id: true, index: true, timestampS: true } },
} as const;

/** The values the captions page's filters offer: the models, caption types and videos of the project's captions. */
export async function captionFilterOptions(prisma: PrismaClient, actor: Actor, projectId: string) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const [models, types, videos] = await Promise.all([
    prisma.item.findMany({
      where: { projectId, kind: "caption" },
      distinct: ["model"],
      select: { model: true },
      orderBy: { model: "asc" },
    }),
    prisma.item.findMany({
      where: { projectId, kind: "caption" },
      distinct: ["group"],
      select: { group: true },
      orderBy: { group: "asc" },
    }),
    prisma.video.findMany({
      where: { projectId, items: { some: { kind: "caption" } } },
      select: { id: true, relativePath: true },
      orderBy: { relativePath: "asc" },
      take: 1000,
    }),
  ]);
  return { models: models.flatMap((m) => (m.model ? [m.model] : [])), types: types.map((t) => t.group), videos };
}

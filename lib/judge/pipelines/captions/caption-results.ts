/**
 * What caption runs found: per caption (the instruction, reference, output, FrameJury's counts and rules,
 * the judge's raw and counted scores and reasons, the key points), and the leaderboard per model × caption
 * type (lib/captions/caption-leaderboard.ts) over a style run and/or a content run. Both as JSON, CSV and JSONL.
 */
import { z } from "zod";
import type { PrismaClient, StepStatus } from "../../../generated/prisma/client";
import type { Actor } from "../../../auth/actor";
import { requireProjectAccess } from "../../../authz/permissions";
import { type CaptionContentAnswer, type CaptionStyleAnswer } from "../../../captions/caption-judge-answers";
import { captionLeaderboard, type CaptionResult, type LeaderboardMetric } from "../../../captions/caption-leaderboard";
import { NotFoundError, ValidationError } from "../../../errors";
import { csvRow } from "../../../export/csv";
import type { CaptionPayload, ReferencePayload } from "../../../items/items";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../../../validation/nul-bytes";
import type { CaptionLengthRulesOutput } from "./caption-style";

export const CAPTION_PIPELINES = ["caption_style", "caption_content"] as const;
type CaptionPipeline = (typeof CAPTION_PIPELINES)[number];

const formatSchema = z.enum(["json", "csv", "jsonl"]).default("json");

export const captionResultsQuerySchema = z
  .object({
    model: z.string().trim().min(1).max(200).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    type: z.string().trim().min(1).max(100).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
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
    runId: z.array(z.string().min(1).max(64)).min(1, "name a caption run with runId").max(2, "at most two runs: one style run and one content run"),
    format: formatSchema,
  })
  .strict();

export interface StyleResult {
  status: StepStatus;
  /** Why the step did not finish (failed, parse_failed, skipped), else null. */
  error: string | null;
  rawScore: number | null;
  reason: string | null;
  counts: { outputWords: number; referenceWords: number; outputSentences: number; deviation: number | null } | null;
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
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { id: true, projectId: true, pipeline: true, status: true, simulated: true, settings: true } });
  if (!run) throw new NotFoundError("No such run.");
  await requireProjectAccess(prisma, actor, run.projectId, action).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such run.") : error;
  });
  if (!(CAPTION_PIPELINES as readonly string[]).includes(run.pipeline)) throw new ValidationError(`Run ${run.id} is a ${run.pipeline} run, not a caption run.`);
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
    counts: computed && { outputWords: computed.outputWords, referenceWords: computed.referenceWords, outputSentences: computed.outputSentences, deviation: computed.deviation },
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

/** The run's captions matching the filter, with their results; `page` null: all of them (exports). */
async function loadRunCaptions(prisma: PrismaClient, run: { id: string; pipeline: CaptionPipeline }, filter: { model?: string; type?: string }, page: { page: number; pageSize: number } | null) {
  const where = { runId: run.id, item: { ...(filter.model ? { model: filter.model } : {}), ...(filter.type ? { group: filter.type } : {}) } };
  const [total, runItems] = await Promise.all([
    prisma.runItem.count({ where }),
    prisma.runItem.findMany({
      where,
      orderBy: [{ item: { video: { relativePath: "asc" } } }, { item: { group: "asc" } }, { item: { model: "asc" } }, { itemId: "asc" }],
      ...(page ? { skip: (page.page - 1) * page.pageSize, take: page.pageSize } : {}),
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
    }),
  ]);
  const itemIds = runItems.map((r) => r.item.id);
  const steps = itemIds.length
    ? await prisma.stepResult.findMany({ where: { runId: run.id, itemId: { in: itemIds } }, select: { itemId: true, stepId: true, status: true, output: true, error: true } })
    : [];
  const stepsByItem = new Map<string, StepRow[]>();
  for (const step of steps) stepsByItem.set(step.itemId, [...(stepsByItem.get(step.itemId) ?? []), step]);
  const results: CaptionRunResult[] = runItems.map(({ item }) => {
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
      ...(run.pipeline === "caption_style" ? { style: styleResult(own) } : { content: contentResult(own, reference.keyPoints ?? []) }),
    };
  });
  return { total, results };
}

export async function runCaptionResults(prisma: PrismaClient, actor: Actor, runId: string, query: CaptionResultsQuery) {
  const run = await captionRunOf(prisma, actor, runId, query.format === "json" ? "project.view" : "export.read");
  const { total, results } = await loadRunCaptions(prisma, run, query, query.format === "json" ? query : null);
  return { run: { id: run.id, pipeline: run.pipeline, status: run.status, simulated: run.simulated, settings: run.settings }, total, page: query.page, pageSize: query.pageSize, captions: results };
}

const CAPTION_CSV_COLUMNS = [
  "run_id", "caption_id", "external_id", "video", "model", "caption_type", "status", "error",
  "output_words", "reference_words", "output_sentences", "deviation", "rule_brief_detail_10pct", "rule_instruction_restriction",
  "cap", "judge_score", "score_after_rules", "counted_score", "length_violation", "judge_broke_rule", "reason",
  "key_points_hit", "key_points_total", "coverage", "key_points", "instruction", "reference", "output",
] as const;

function ruleCell(rules: CaptionLengthRulesOutput["rules"] | null, id: string) {
  const rule = rules?.find((r) => r.id === id);
  return !rule ? null : !rule.applies ? "n/a" : rule.passed ? "pass" : "fail";
}

export function captionResultsCsv(runId: string, captions: readonly CaptionRunResult[]): string {
  let text = csvRow(CAPTION_CSV_COLUMNS);
  for (const c of captions) {
    const s = c.style;
    const k = c.content;
    text += csvRow([
      runId, c.captionId, c.externalId, c.video.relativePath, c.model, c.captionType, (s ?? k)!.status, (s ?? k)!.error,
      s?.counts?.outputWords, s?.counts?.referenceWords, s?.counts?.outputSentences, s?.counts?.deviation, ruleCell(s?.rules ?? null, "brief_detail_10pct"), ruleCell(s?.rules ?? null, "instruction_restriction"),
      s?.cap, s?.rawScore, s?.scoreAfterRules, s?.countedScore, s?.flags ? Number(s.flags.lengthViolation) : null, s?.flags ? Number(s.flags.judgeBrokeRule) : null, s?.reason,
      k?.hit, k?.total, k?.coverage, k ? JSON.stringify(k.keyPoints) : null, c.instruction, c.reference, c.output,
    ]);
  }
  return text;
}

export const jsonl = (rows: readonly unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length ? "\n" : "");

/**
 * The caption leaderboard of a style run and/or a content run of the project: per model × caption type
 * (and per model overall), mean style score, key-point coverage and length-violation rate with bootstrap
 * 95% intervals and n.
 */
export async function projectCaptionLeaderboard(prisma: PrismaClient, actor: Actor, projectId: string, query: z.output<typeof captionLeaderboardQuerySchema>) {
  await requireProjectAccess(prisma, actor, projectId, query.format === "json" ? "project.view" : "export.read");
  const runs = [];
  for (const runId of new Set(query.runId)) {
    const run = await captionRunOf(prisma, actor, runId, "project.view");
    if (run.projectId !== projectId) throw new NotFoundError("No such run.");
    runs.push(run);
  }
  const pipelines = runs.map((r) => r.pipeline);
  if (new Set(pipelines).size !== pipelines.length) throw new ValidationError("Name at most one style run and one content run.");

  const byCaption = new Map<string, CaptionResult>();
  for (const run of runs) {
    const { results } = await loadRunCaptions(prisma, run, {}, null);
    for (const caption of results) {
      const entry = byCaption.get(caption.captionId) ?? { model: caption.model ?? "", captionType: caption.captionType, styleScore: null, keyPointsHit: null, keyPointsTotal: null, lengthViolation: null };
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
      if (metric) text += csvRow([row.model, row.captionType ?? "(all)", name, metric.value, metric.ci?.lower, metric.ci?.upper, metric.n]);
    }
  }
  return text;
}

/**
 * What a caption run found, per caption: the instruction, reference, output, FrameJury's counts and rules, the
 * judge's raw and counted scores and reasons, the key points. A page as JSON, or every caption for CSV and JSONL.
 */
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { requireExportRoleFor } from "../../export/run-downloads";
import { rowPages } from "../../export/text-stream";
import type { CaptionPayload, ReferencePayload } from "./caption-items";
import type { CaptionContentAnswer, CaptionStyleAnswer } from "./caption-judge-answers";
import { CAPTION_PIPELINES, type CaptionFlag, type CaptionPipeline, type CaptionResultsQuery } from "./caption-query";
import type { CaptionLengthRulesOutput } from "./caption-style";
import type { WordCounting } from "./count-words";

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

/** A caption run of the access's project; a run of another project is "No such run.", as a missing one. */
export async function captionRunOf(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { id: true, projectId: true, pipeline: true, status: true, simulated: true, settings: true },
  });
  if (!run) throw new NotFoundError("No such run.");
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

export interface CaptionFilter {
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
export async function runCaptionsMatching(
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
export async function runCaptionResults(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: CaptionResultsQuery,
) {
  requireExportRoleFor(access, query.format);
  const run = await captionRunOf(prisma, access, runId);
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
  access: ProjectAccess<"export.read">,
  runId: string,
  query: CaptionResultsQuery,
  pageSize: number,
) {
  const run = await captionRunOf(prisma, access, runId);
  const where = await runCaptionsWhere(prisma, run, query);
  const total = await prisma.runItem.count({ where });
  yield* rowPages(total, pageSize, async (page) => ({
    run: runSummary(run),
    captions: await readRunCaptions(prisma, run, where, page),
  }));
}

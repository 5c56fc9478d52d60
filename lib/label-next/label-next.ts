import { createHash } from "node:crypto";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { NotFoundError, ValidationError } from "../errors";
import { comparableTargets } from "../calibration/compare-setups-load";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { catalogFor } from "../task-modules/task-catalogue";
import {
  binariseValue,
  PRESENCE_TARGET_TYPE,
  type TargetDeclaration,
  type TaskDeclaration,
} from "../task-modules/task-declaration";
import { majorityVerdict, planLabelling, type LabellingPlan } from "./sampling-plan";
import { requireWholeView } from "../visibility/withheld";
import { labelNextQuerySchema, type LabelNextQuery } from "./label-next.validation";
import { spanDisagreementOfRun, type SpanDisagreementRanking } from "./span-disagreement";

/**
 * "What to label next" for a run (see sampling-plan.ts for the method): the run's videos with the
 * judge's verdict (or a chosen criterion read as yes/no: a rubric task's), the score they are stratified
 * by (the task's threshold-swept metric: the overall for hallucination) and the humans' verdict, the
 * majority of every current, independent judgment of it: reviewers' and label sets' alike (withdrawn ones
 * and ones that only accepted the judge's value do not count). Owners plan review queues, so the plan is
 * theirs (`queues.manage`): it shows the judge's scores by stratum and its accuracy, computed from every video of
 * the run, so it is whole or withheld (WithheldError, 409) from an owner who also reviews some of them blind.
 */
export interface LabelNextResult extends LabellingPlan {
  runId: string;
  projectId: string;
  pipeline: string;
  /**
   * The metric the strata cut, and the verdict the accuracy is of: the task's verdict metric, or the chosen
   * criterion (a target) read as yes/no by its positive rule or its presence rule.
   */
  scoreMetric: { id: string; label: string };
  verdictMetric: { id: string; label: string };
  /** The criterion (target id) the plan is for; null when it is the task's own verdict. */
  criterion: string | null;
  /** The review queue that labels the proposal: the verdict, or the criterion's scores (presence first for a presence rule). */
  queue: { scope: "verdict" } | { scope: "scores"; categories: string[]; mode: "full" | "presence" };
  budget: number;
  /** The proposed videos with their paths, in proposal order. */
  videos: { id: string; relativePath: string }[];
  /** Where spans disagree most (./span-disagreement.ts): videos for a localising queue, at most the budget. */
  spans: SpanDisagreementRanking;
}

interface PlanRow {
  videoId: string;
  relativePath: string;
  score: number | null;
  judge: number | null;
  /** The humans' yes/no (1/0) labels. */
  humans: number[];
}

type Basis =
  | { kind: "verdict"; verdict: { id: string; label: string }; score: { id: string; label: string } }
  | {
      kind: "score" | "presence";
      target: TargetDeclaration;
      verdict: { id: string; label: string };
      score: { id: string; label: string };
    };

/**
 * The criteria a task's runs can be planned on besides its own verdict: each per-video target and each target
 * with a presence rule (a rubric task's criteria), read as yes/no.
 */
export function labelNextCriteria(task: TaskDeclaration): { id: string; label: string }[] {
  return comparableTargets(task).filter((c) => !task.metrics.some((m) => m.id === c.id));
}

/**
 * What a run of the project can be planned on (for the page's choice): whether its task has a verdict of its own,
 * and its criteria; nothing for another project's run.
 */
export async function labelNextChoicesOfRun(
  prisma: PrismaClient,
  projectId: string,
  runId: string,
): Promise<{ verdict: boolean; criteria: { id: string; label: string }[] }> {
  const run = await prisma.judgeRun.findFirst({ where: { id: runId, projectId }, select: { pipeline: true } });
  const task = run ? (await catalogFor(prisma, projectId)).findTask(run.pipeline) : null;
  return task && task.subject === "video"
    ? { verdict: !!task.verdict, criteria: labelNextCriteria(task) }
    : { verdict: false, criteria: [] };
}

/** The task's verdict when no criterion is named (and it has one), else the named criterion, whitelisted against the declaration. */
function labelNextBasis(task: TaskDeclaration, criterion: string | undefined): Basis {
  const criteria = labelNextCriteria(task);
  const choices = () =>
    criteria.length ? `one of ${criteria.map((c) => `${c.id} (${c.label})`).join(", ")}` : "it has none";
  if (criterion === undefined) {
    const verdict = task.verdict ? task.metrics.find((m) => m.id === task.verdict!.metricId) : undefined;
    // The headline score reviewers also judge (hallucination: the overall), else any swept numeric metric.
    const swept = task.metrics.filter((m) => m.sweep && m.scale.kind === "numeric");
    const score = swept.find((m) => m.reviewed) ?? swept[0];
    if (verdict && score)
      return {
        kind: "verdict",
        verdict: { id: verdict.id, label: verdict.label },
        score: { id: score.id, label: score.label },
      };
    if (criteria.length !== 1) {
      throw new ValidationError(
        criteria.length
          ? `A ${task.label} run has no yes/no verdict of its own: name the criterion to plan on (criterion=), ${choices()}.`
          : `A ${task.label} run has no yes/no verdict per video with a score to stratify by: there is no accuracy to narrow.`,
      );
    }
    criterion = criteria[0]!.id;
  }
  const target = criteria.some((c) => c.id === criterion) ? task.targets.find((t) => t.id === criterion) : undefined;
  if (!target)
    throw new ValidationError(`The task ${task.label} has no criterion "${criterion}" read per video: ${choices()}.`);
  if (task.presence?.of.includes(target.id)) {
    return {
      kind: "presence",
      target,
      verdict: { id: target.id, label: `${target.label} present` },
      score: { id: target.id, label: `highest ${target.label}` },
    };
  }
  return {
    kind: "score",
    target,
    verdict: { id: target.id, label: `${target.label} ${target.positive.label}` },
    score: { id: target.id, label: target.label },
  };
}

async function verdictRows(
  prisma: PrismaClient,
  run: { id: string; projectId: string; pipeline: string },
  basis: Basis,
): Promise<PlanRow[]> {
  const rows = await prisma.$queryRaw<
    { videoId: string; relativePath: string; score: number | null; judge: number | null; humans: number[] | null }[]
  >`
    SELECT rv."videoId", v."relativePath",
      (SELECT m.value FROM run_metric m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = '' AND m.metric = ${basis.score.id}) AS score,
      (SELECT m.value FROM run_metric m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = '' AND m.metric = ${basis.verdict.id}) AS judge,
      (SELECT array_agg(h.value) FROM human_judgment h
         WHERE h."projectId" = ${run.projectId} AND h."videoId" = rv."videoId" AND h.task = ${run.pipeline} AND h."targetType" = ${basis.verdict.id}
           AND h."itemId" = '' AND NOT h.withdrawn AND NOT h."acceptedJudge") AS humans
    FROM run_video rv JOIN video v ON v.id = rv."videoId"
    WHERE rv."runId" = ${run.id}
    ORDER BY rv."videoId"`;
  return rows.map((r) => ({ ...r, humans: r.humans ?? [] }));
}

/**
 * A criterion's rows. A per-video target: the judge's score of the video (the strata's score) and its yes/no by
 * the target's positive rule, against the humans' values of the same score by that rule. A target with a presence
 * rule: the judge's highest score over the video's scopes, present when it reaches the declared threshold,
 * against the humans' present/absent judgments.
 */
async function criterionRows(
  prisma: PrismaClient,
  run: { id: string; projectId: string; pipeline: string },
  task: TaskDeclaration,
  basis: Basis & { kind: "score" | "presence" },
): Promise<PlanRow[]> {
  const presence = basis.kind === "presence";
  const targetType = presence ? PRESENCE_TARGET_TYPE : SCORE_TARGET_TYPE;
  const ofScope = presence ? Prisma.empty : Prisma.sql`AND s."scopeIndex" = 0`;
  const ofHumanScope = presence ? Prisma.empty : Prisma.sql`AND h."scopeIndex" = 0`;
  const rows = await prisma.$queryRaw<
    { videoId: string; relativePath: string; score: number | null; humans: number[] | null }[]
  >`
    SELECT rv."videoId", v."relativePath",
      (SELECT max(s.value) FROM score s WHERE s."runId" = rv."runId" AND s."videoId" = rv."videoId" AND s."itemId" = '' AND s.category = ${basis.target.id} ${ofScope}) AS score,
      (SELECT array_agg(h.value) FROM human_judgment h
         WHERE h."projectId" = ${run.projectId} AND h."videoId" = rv."videoId" AND h.task = ${run.pipeline} AND h."targetType" = ${targetType}
           AND h.target = ${basis.target.id} AND h."itemId" = '' ${ofHumanScope} AND NOT h.withdrawn AND NOT h."acceptedJudge") AS humans
    FROM run_video rv JOIN video v ON v.id = rv."videoId"
    WHERE rv."runId" = ${run.id}
    ORDER BY rv."videoId"`;
  const threshold = task.presence?.defaultThreshold ?? 0;
  const judgeOf = (score: number): number =>
    presence ? (score >= threshold ? 1 : 0) : binariseValue(basis.target.positive, score);
  const humanOf = (value: number): number => (presence ? value : binariseValue(basis.target.positive, value));
  return rows.map((r) => ({
    videoId: r.videoId,
    relativePath: r.relativePath,
    score: r.score,
    judge: r.score === null ? null : judgeOf(r.score),
    humans: (r.humans ?? []).map(humanOf),
  }));
}

/** The same run gets the same proposal while its labels stay the same. */
function seedOf(runId: string): number {
  return createHash("sha256").update(runId).digest().readUInt32BE(0);
}

/**
 * The label-next plan of a run of `projectId`, a project the caller has checked `queues.manage` in (the route's
 * wrapper, the page's requirePageProjectAccess): a run of another project is "No such run.", as a missing one.
 */
export async function labelNextPlan(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  raw: Partial<Record<keyof LabelNextQuery, unknown>>,
): Promise<LabelNextResult> {
  const query = labelNextQuerySchema.parse(raw);
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { id: true, projectId: true, pipeline: true },
  });
  if (!run || run.projectId !== projectId) throw new NotFoundError("No such run.");
  const task = (await catalogFor(prisma, run.projectId)).findTask(run.pipeline);
  if (!task || task.subject !== "video") {
    throw new ValidationError(
      `A ${task?.label ?? run.pipeline} run has no yes/no verdict per video with a score to stratify by: there is no accuracy to narrow.`,
    );
  }
  const basis = labelNextBasis(task, query.criterion);
  const runVideos = await prisma.runVideo.findMany({ where: { runId }, select: { videoId: true } });
  await requireWholeView(
    prisma,
    actor.userId,
    runVideos.map((v) => v.videoId),
    "What to label next",
  );
  const rows =
    basis.kind === "verdict" ? await verdictRows(prisma, run, basis) : await criterionRows(prisma, run, task, basis);
  const plan = planLabelling(
    rows.map((r) => ({ videoId: r.videoId, score: r.score, judge: r.judge, human: majorityVerdict(r.humans) })),
    { budget: query.budget, strata: query.strata, seed: seedOf(run.id) },
  );
  const paths = new Map(rows.map((r) => [r.videoId, r.relativePath]));
  const spans = await spanDisagreementOfRun(prisma, run, query.budget);
  return {
    ...plan,
    runId: run.id,
    projectId: run.projectId,
    pipeline: run.pipeline,
    scoreMetric: basis.score,
    verdictMetric: basis.verdict,
    criterion: basis.kind === "verdict" ? null : basis.verdict.id,
    queue:
      basis.kind === "verdict"
        ? { scope: "verdict" }
        : { scope: "scores", categories: [basis.target.id], mode: basis.kind === "presence" ? "presence" : "full" },
    budget: query.budget,
    videos: plan.videoIds.map((id) => ({ id, relativePath: paths.get(id)! })),
    spans,
  };
}

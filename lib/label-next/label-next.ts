import { createHash } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { findTask } from "../tasks/registry";
import { majorityVerdict, planLabelling, type LabellingPlan } from "./sampling-plan";
import { labelNextQuerySchema, type LabelNextQuery } from "./label-next.validation";

/**
 * "What to label next" for a run (see sampling-plan.ts for the method): the run's videos with the
 * judge's verdict, the score they are stratified by (the task's threshold-swept metric: the overall
 * for hallucination) and the humans' verdict, the majority of every current, independent judgment of
 * it: reviewers' and label sets' alike (withdrawn ones and ones that only accepted the judge's value
 * do not count). Owners plan review queues, so the plan is theirs (`queues.manage`): it shows the
 * judge's scores by stratum, which a reviewer in a blind queue may not see.
 */
export interface LabelNextResult extends LabellingPlan {
  runId: string;
  projectId: string;
  pipeline: string;
  /** The metric the strata cut, and the verdict metric the accuracy is of. */
  scoreMetric: { id: string; label: string };
  verdictMetric: { id: string; label: string };
  budget: number;
  /** The proposed videos with their paths, in proposal order. */
  videos: { id: string; relativePath: string }[];
}

/** The same run gets the same proposal while its labels stay the same. */
function seedOf(runId: string): number {
  return createHash("sha256").update(runId).digest().readUInt32BE(0);
}

export async function labelNextPlan(prisma: PrismaClient, actor: Actor, runId: string, raw: Partial<Record<keyof LabelNextQuery, unknown>>): Promise<LabelNextResult> {
  const query = labelNextQuerySchema.parse(raw);
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { id: true, projectId: true, pipeline: true } });
  if (!run) throw new NotFoundError("No such run.");
  await requireProjectAccess(prisma, actor, run.projectId, "queues.manage").catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such run.") : error;
  });
  const task = findTask(run.pipeline);
  const verdict = task?.verdict ? task.metrics.find((m) => m.id === task.verdict!.metricId) : undefined;
  // The headline score reviewers also judge (hallucination: the overall), else any swept numeric metric.
  const swept = task?.metrics.filter((m) => m.sweep && m.scale.kind === "numeric") ?? [];
  const score = swept.find((m) => m.reviewed) ?? swept[0];
  if (!task || !verdict || !score || task.subject !== "video") {
    throw new ValidationError(`A ${task?.label ?? run.pipeline} run has no yes/no verdict per video with a score to stratify by: there is no accuracy to narrow.`);
  }
  const rows = await prisma.$queryRaw<{ videoId: string; relativePath: string; score: number | null; judge: number | null; humans: number[] | null }[]>`
    SELECT rv."videoId", v."relativePath",
      (SELECT m.value FROM run_metric m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = '' AND m.metric = ${score.id}) AS score,
      (SELECT m.value FROM run_metric m WHERE m."runId" = rv."runId" AND m."videoId" = rv."videoId" AND m."itemId" = '' AND m.metric = ${verdict.id}) AS judge,
      (SELECT array_agg(h.value) FROM human_judgment h
         WHERE h."projectId" = ${run.projectId} AND h."videoId" = rv."videoId" AND h.task = ${run.pipeline} AND h."targetType" = ${verdict.id}
           AND h."itemId" = '' AND NOT h.withdrawn AND NOT h."acceptedJudge") AS humans
    FROM run_video rv JOIN video v ON v.id = rv."videoId"
    WHERE rv."runId" = ${run.id}
    ORDER BY rv."videoId"`;
  const plan = planLabelling(
    rows.map((r) => ({ videoId: r.videoId, score: r.score, judge: r.judge, human: majorityVerdict(r.humans ?? []) })),
    { budget: query.budget, strata: query.strata, seed: seedOf(run.id) },
  );
  const paths = new Map(rows.map((r) => [r.videoId, r.relativePath]));
  return {
    ...plan,
    runId: run.id,
    projectId: run.projectId,
    pipeline: run.pipeline,
    scoreMetric: { id: score.id, label: score.label },
    verdictMetric: { id: verdict.id, label: verdict.label },
    budget: query.budget,
    videos: plan.videoIds.map((id) => ({ id, relativePath: paths.get(id)! })),
  };
}

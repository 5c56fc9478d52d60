import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import { readRunMetrics } from "../run-records/run-metrics";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import {
  judgePresence,
  scaleBounds,
  type TargetDeclaration,
  type TaskDeclaration,
} from "../task-modules/task-declaration";
import { judgmentDeclaration, SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { judgmentKey, metricTarget, scoreTarget } from "../reviews/judgment-key";
import { itemScoreTargets } from "./item-score-targets";
import { scoreCategoryWhere } from "./score-keys";
import { queueTypeOf } from "./queue-types";
import { questionLabel, scoreQuestionsOf } from "./score-questions";
import type { QueueTarget as Target } from "./queue-type";

export type { QueueTarget as Target } from "./queue-type";

/** The task of a run, from the catalogue given (the request's) or its project's. */
export async function taskOfRun(prisma: PrismaClient, runId: string, given?: TaskCatalogue): Promise<TaskDeclaration> {
  const run = await prisma.judgeRun.findUniqueOrThrow({
    where: { id: runId },
    select: { pipeline: true, projectId: true },
  });
  return (await catalogueOf(prisma, run.projectId, given)).taskOf(run.pipeline);
}

/** Video-level targets first, then by frame (key frame or cluster) and the task's declared order. */
const SCOPE_ORDER: Record<string, number> = { video: 0, item: 0, key_frame: 1, cluster: 2 };
const SCOPE_NOUN: Record<string, string> = { key_frame: "key frame", cluster: "cluster" };

/**
 * What a reviewer judges for one item: the task's verdict metric (and optionally its other reviewed
 * metrics), or each chosen judge score; scales and labels from the task's declaration.
 */
export async function itemTargets(
  prisma: PrismaClient,
  queue: ReviewQueue,
  videoId: string,
  itemId = "",
  knownTask?: TaskDeclaration,
  given?: TaskCatalogue,
): Promise<Target[]> {
  const catalogue = await catalogueOf(prisma, queue.projectId, given);
  const task = knownTask ?? (await taskOfRun(prisma, queue.runId, catalogue));
  // An item queue's targets are its task folder's (lib/queues/queue-type.ts).
  const itemScope = queueTypeOf(catalogue, queue.scope);
  if (itemScope)
    return itemScoreTargets(
      prisma,
      queue,
      task,
      videoId,
      itemId,
      (await itemScope.indexedTexts?.(prisma, itemId)) ?? [],
    );
  if (queue.scope === "verdict") return verdictTargets(prisma, queue, task, videoId);
  return scoreTargets(prisma, queue, task, videoId);
}

/** A verdict queue's targets: the task's reviewed metrics, its verdict first and required, the rest optional. */
async function verdictTargets(
  prisma: PrismaClient,
  queue: ReviewQueue,
  task: TaskDeclaration,
  videoId: string,
): Promise<Target[]> {
  const key = (metric: string) => judgmentKey(metricTarget(task.id, videoId, "", metric));
  const judge = (await readRunMetrics(prisma, queue.runId, [videoId])).get(videoId) ?? {};
  const verdictId = task.verdict?.metricId;
  const reviewed = task.metrics
    .filter((m) => m.reviewed)
    .sort((a, b) => Number(b.id === verdictId) - Number(a.id === verdictId));
  return reviewed.map((m) => {
    const required = m.id === verdictId;
    const { min, max } = scaleBounds(m.scale);
    return {
      key: m.id,
      kind: m.id,
      label: required ? `${m.label} verdict` : `${m.label} score (optional)`,
      required,
      min,
      max,
      category: null,
      stepId: null,
      scopeIndex: null,
      judgeValue: judge[m.id] ?? null,
      declaration: m,
      judgmentKey: key(m.id),
    };
  });
}

/**
 * A score queue's targets: the run's scores of the video in the queue's categories (an "unstable" queue: only
 * those an ensemble's members spread on), video-level first, then by frame and the task's declared order.
 */
async function scoreTargets(
  prisma: PrismaClient,
  queue: ReviewQueue,
  task: TaskDeclaration,
  videoId: string,
): Promise<Target[]> {
  const [allScores, runVideo, unstable, questions] = await Promise.all([
    prisma.score.findMany({
      where: { runId: queue.runId, videoId, ...scoreCategoryWhere(task, queue.categories) },
      select: {
        id: true,
        runId: true,
        videoId: true,
        itemId: true,
        stepId: true,
        scopeIndex: true,
        category: true,
        value: true,
      },
    }),
    prisma.runVideo.findUnique({
      where: { runId_videoId: { runId: queue.runId, videoId } },
      select: { frameSetId: true },
    }),
    // An "unstable" queue asks only for the scores an ensemble's members spread on (lib/ensembles).
    queue.scope === "unstable"
      ? prisma.scoreDispersion.findMany({
          where: { runId: queue.runId, videoId, unstable: true },
          select: { stepId: true, scopeIndex: true, category: true },
        })
      : null,
    scoreQuestionsOf(prisma, task, queue.runId, videoId),
  ]);
  const unstableKeys = unstable ? new Set(unstable.map((d) => `${d.stepId}#${d.scopeIndex}#${d.category}`)) : null;
  const scores = unstableKeys
    ? allScores.filter((s) => unstableKeys.has(`${s.stepId}#${s.scopeIndex}#${s.category}`))
    : allScores;
  const frameSetId = runVideo?.frameSetId ?? "";
  const order = new Map(task.targets.map((t, i) => [t.id, i]));
  const declared = scores.map((s) => ({
    score: s,
    target: judgmentDeclaration(SCORE_TARGET_TYPE, s.category, [task]) as TargetDeclaration,
  }));
  declared.sort(
    (a, b) =>
      (SCOPE_ORDER[a.target.scope] ?? 9) - (SCOPE_ORDER[b.target.scope] ?? 9) ||
      a.score.scopeIndex - b.score.scopeIndex ||
      (order.get(a.score.category) ?? 0) - (order.get(b.score.category) ?? 0),
  );
  return declared.map(({ score: s, target }) => {
    const { min, max } = scaleBounds(target.scale);
    const noun = SCOPE_NOUN[target.scope];
    const question = questions.get(s.category) ?? null;
    return {
      key: s.id,
      kind: SCORE_TARGET_TYPE,
      label: question
        ? questionLabel(target.label, s.category, target.id, question)
        : noun
          ? `${s.category} · ${noun} ${s.scopeIndex + 1}`
          : target.label,
      required: true,
      min,
      max,
      category: s.category,
      stepId: s.stepId,
      scopeIndex: s.scopeIndex,
      judgeValue: s.value,
      declaration: target,
      judgmentKey: judgmentKey(scoreTarget(task.id, s, frameSetId, task)),
      question,
    };
  });
}

/** The categories a presence-first queue asks about: the task's presence targets among the queue's categories (none chosen: all). */
export function presenceCategories(
  task: TaskDeclaration,
  queue: Pick<ReviewQueue, "scope" | "mode" | "categories">,
): TargetDeclaration[] {
  if (queue.scope !== "scores" || queue.mode !== "presence" || !task.presence) return [];
  return task.presence.of
    .filter((id) => queue.categories.length === 0 || queue.categories.includes(id))
    .flatMap((id) => task.targets.find((t) => t.id === id) ?? []);
}

/** The judge's presence of a category from the item's scores of it, at the task's declared threshold. */
export function judgePresenceOf(task: TaskDeclaration, targets: readonly Target[], category: string): 0 | 1 | null {
  const scores = targets.filter((t) => t.category === category && t.judgeValue !== null).map((t) => t.judgeValue!);
  return judgePresence(scores, task.presence!.defaultThreshold);
}

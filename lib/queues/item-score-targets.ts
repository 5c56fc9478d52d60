import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import { scaleBounds, type TargetDeclaration, type TaskDeclaration } from "../task-modules/task-declaration";
import { judgmentDeclaration, SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { judgmentKey, scoreTarget } from "../reviews/judgment-key";
import type { QueueTarget as Target } from "./queue-type";

// Imported by task folders' queue types, so it reads no registry (the registry imports those folders).
/**
 * An item's reviewable scores in the run, in the task's target order (a caption's style score, each key point of
 * its content, a QA answer's correctness). An indexed target (`<id><n>`) is labelled with its number and, when
 * given, the n-th of `indexedTexts` (a caption's key points).
 */
export async function itemScoreTargets(
  prisma: PrismaClient,
  queue: ReviewQueue,
  task: TaskDeclaration,
  videoId: string,
  itemId: string,
  indexedTexts: readonly string[] = [],
): Promise<Target[]> {
  const scores = await prisma.score.findMany({
    where: { runId: queue.runId, videoId, itemId },
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
  });
  const order = new Map(task.targets.map((t, i) => [t.id, i]));
  const indexOf = (category: string) => Number(category.replace(/^\D+/, "")) || 0;
  return scores
    .map((s) => ({ score: s, target: judgmentDeclaration(SCORE_TARGET_TYPE, s.category, [task]) as TargetDeclaration }))
    .filter(({ target }) => target.reviewable !== false)
    .sort(
      (a, b) =>
        (order.get(a.target.id) ?? 0) - (order.get(b.target.id) ?? 0) ||
        indexOf(a.score.category) - indexOf(b.score.category),
    )
    .map(({ score: s, target }) => {
      const { min, max } = scaleBounds(target.scale);
      const indexed = s.category !== target.id;
      const text = indexed ? indexedTexts[indexOf(s.category) - 1] : undefined;
      return {
        key: s.id,
        kind: SCORE_TARGET_TYPE,
        label: indexed ? `${target.label} ${indexOf(s.category)}${text ? `: ${text}` : ""}` : target.label,
        required: true,
        min,
        max,
        category: s.category,
        stepId: s.stepId,
        scopeIndex: s.scopeIndex,
        judgeValue: s.value,
        declaration: target,
        judgmentKey: judgmentKey(scoreTarget(task.id, s, "", task)),
      };
    });
}

import type { PrismaClient } from "../generated/prisma/client";
import { judgmentKey, type JudgmentTarget } from "../reviews/judgment-key";
import { disagreementGapOf } from "../tasks/task-declaration";
import { judgmentDeclaration } from "../reviews/judgment-target";
import { TASKS, taskOf } from "../tasks/registry";

/**
 * Inserts a human judgment row directly (test set-up that needs many of them, or values no run
 * produced), keyed exactly as lib/reviews saves them.
 */
export async function insertJudgment(
  prisma: PrismaClient,
  j: Partial<JudgmentTarget> &
    Pick<JudgmentTarget, "videoId" | "targetType"> & {
      projectId: string;
      reviewerId: string;
      value: number;
      runId?: string | null;
      scoreId?: string | null;
      judgeValue?: number | null;
      disagrees?: boolean;
      /** The target's disagreement gap, for a task not in the registry (default: the registered task's declaration). */
      gap?: number;
    },
) {
  // Default: the first registered task that judges whole videos (TASK_IDS order), so the helper names no task.
  const task = j.task ?? TASKS.find((t) => t.subject === "video")!.id;
  const target: JudgmentTarget = {
    task,
    targetType: j.targetType,
    target: j.target ?? j.targetType,
    videoId: j.videoId,
    itemId: j.itemId ?? "",
    stepId: j.stepId ?? "",
    scopeIndex: j.scopeIndex ?? 0,
    frameSetId: j.frameSetId ?? "",
  };
  const gap =
    j.gap ??
    disagreementGapOf(
      judgmentDeclaration(
        target.targetType,
        target.targetType === "score" || target.targetType === "presence" ? target.target : null,
        [taskOf(task)],
      ),
    );
  return prisma.humanJudgment.create({
    data: {
      projectId: j.projectId,
      ...target,
      targetKey: judgmentKey(target),
      gap,
      reviewerId: j.reviewerId,
      value: j.value,
      runId: j.runId ?? null,
      scoreId: j.scoreId ?? null,
      judgeValue: j.judgeValue ?? null,
      disagrees: j.disagrees ?? false,
    },
  });
}

import type { PrismaClient } from "../../lib/generated/prisma/client";
import { judgmentKey, type JudgmentTarget } from "../../lib/reviews/judgment-key";
import { disagreementGapOf } from "../../lib/task-modules/task-declaration";
import { judgmentDeclaration } from "../../lib/reviews/judgment-target";
import { catalogFor } from "../../lib/task-modules/task-catalogue";
import { BUILT_IN_DECLARATIONS } from "../../lib/tasks/registry";
import type { DeclarationCatalogue } from "../../lib/task-modules/declaration-catalogue";

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
      /** The target's disagreement gap, for a task not in the project's catalogue (default: the task's declaration). */
      gap?: number;
      /** The catalogue the task is in (a test's own, with its toy task); the project's by default. */
      catalogue?: DeclarationCatalogue;
    },
) {
  // Default: the first registered task that judges whole videos (TASK_FOLDER_IDS order), so the helper names no task.
  const task = j.task ?? BUILT_IN_DECLARATIONS.tasks.find((t) => t.subject === "video")!.id;
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
        [(j.catalogue ?? (await catalogFor(prisma, j.projectId))).taskOf(task)],
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

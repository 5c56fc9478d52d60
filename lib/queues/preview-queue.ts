import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { queueRun, queueVideoIds } from "./create-queue";
import { scoreCategoryWhere } from "./score-keys";
import { queueTargetCounts, type QueueTargetCounts } from "./target-counts";
import { previewQueueSchema, type PreviewQueueInput } from "./queues.validation";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";

/**
 * How many videos of the run match the filter: the "new queue" form shows it before creating. For a run judging
 * videos, also how many targets each would ask in a queue of the judge's scores (of `categories`; none: all), with
 * full grading and with presence first (lib/queues/target-counts.ts); null for a run judging items.
 */
export async function previewQueue(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage">,
  raw: PreviewQueueInput,
  given?: TaskCatalogue,
): Promise<{ runId: string; count: number; targets: QueueTargetCounts | null }> {
  const { actor, projectId } = access;
  const catalogue = await catalogueOf(prisma, projectId, given);
  const input = previewQueueSchema(catalogue).parse(raw);
  const run = await queueRun(prisma, catalogue, projectId, input.runId ?? input.filter.runId);
  const { ids } = await queueVideoIds(prisma, catalogue, actor, projectId, run, input);
  const task = run.task;
  if (task.subject !== "video" || task.targets.length === 0) return { runId: run.id, count: ids.length, targets: null };
  // Grouped over the whole run and narrowed here: one query, whatever the number of matching videos.
  const grouped = await prisma.score.groupBy({
    by: ["videoId", "category"],
    where: { runId: run.id, ...scoreCategoryWhere(task, input.categories) },
    _count: { _all: true },
    _max: { value: true },
  });
  const presence = task.presence
    ? {
        categories: task.presence.of.filter((id) => input.categories.length === 0 || input.categories.includes(id)),
        threshold: task.presence.defaultThreshold,
      }
    : null;
  const rows = grouped.map((g) => ({
    videoId: g.videoId,
    category: g.category,
    count: g._count._all,
    max: g._max.value,
  }));
  return { runId: run.id, count: ids.length, targets: queueTargetCounts(ids, rows, presence) };
}

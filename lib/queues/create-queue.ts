import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { someNamed } from "../format/some-named";
import { matchingVideoIds, resolveFilterRun } from "../videos/video-filter-sql";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { queueTypeForSubject, queueTypeOf } from "./queue-types";
import { scoreCategoryWhere } from "./score-keys";
import { localizeProblem } from "./localize";
import type { QueueTypeModule } from "../task-modules/queue-type-module";
import type { ParsedCreateQueueInput } from "./queue-type";
import { createQueueSchema, type CreateQueueInput } from "./queues.validation";

export async function queueRun(
  prisma: PrismaClient,
  catalogue: TaskCatalogue,
  projectId: string,
  runId: string | undefined,
) {
  let run;
  try {
    run = await resolveFilterRun(prisma, catalogue, projectId, runId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ValidationError("No such judge run in this project.");
    throw error;
  }
  if (!run)
    throw new ValidationError(
      "This project has no judge run yet: run a judge, then create a review queue from its results.",
    );
  return run;
}

/** The videos a queue with this filter would hold, in list order; only videos in the run. */
export async function queueVideoIds(
  prisma: PrismaClient,
  catalogue: TaskCatalogue,
  actor: Actor,
  projectId: string,
  run: { id: string; task: TaskDeclaration },
  input: { filter: CreateQueueInput["filter"]; sort?: string; dir?: string },
) {
  const parsed = createQueueSchema(catalogue).pick({ filter: true, sort: true, dir: true }).parse(input);
  const filter = { ...parsed.filter, runId: run.id };
  const ids = await matchingVideoIds(
    prisma,
    filter,
    { projectId, catalogue, runId: run.id, task: run.task, userId: actor.userId },
    parsed.sort,
    parsed.dir,
  );
  return { filter, sort: parsed.sort, dir: parsed.dir, ids };
}

/** A queue of named videos (a what-to-label-next proposal): each must be in the run; the filter is not used. */
async function chosenVideoIds(
  prisma: PrismaClient,
  runId: string,
  input: { videoIds?: string[]; chosenBy?: string; filter: CreateQueueInput["filter"] },
) {
  const ids = [...new Set(input.videoIds ?? [])];
  if (Object.keys(input.filter ?? {}).length > 0)
    throw new ValidationError("Give either a filter or the videos, not both.");
  const inRun = new Set(
    (await prisma.runVideo.findMany({ where: { runId, videoId: { in: ids } }, select: { videoId: true } })).map(
      (r) => r.videoId,
    ),
  );
  const missing = ids.filter((id) => !inRun.has(id));
  if (missing.length) throw new ValidationError(`These videos are not in the judge run: ${someNamed(missing, 10)}.`);
  return {
    filter: { runId, chosen: `${input.chosenBy ?? "chosen videos"} (${ids.length})` },
    sort: "path",
    dir: "asc",
    ids,
  };
}

/**
 * Refuses a queue that does not fit its run's task (presence first without presence targets, a verdict queue of a
 * task without a per-video verdict, an item task's scope, localising without span labels); returns the queue type of
 * an item task, null for a video task.
 */
function queueTypeFittingRun(
  catalogue: TaskCatalogue,
  task: Awaited<ReturnType<typeof queueRun>>["task"],
  input: ReturnType<ReturnType<typeof createQueueSchema>["parse"]>,
) {
  if (input.mode === "presence") {
    if (input.scope !== "scores")
      throw new ValidationError("Presence first applies to a queue of scores: choose the scores, or full grading.");
    if (!task.presence) throw new ValidationError(`${task.label} declares no presence targets: choose full grading.`);
    if (input.categories.length > 0 && !input.categories.some((c) => task.presence!.of.includes(c))) {
      throw new ValidationError(
        "None of the chosen categories has a presence target: choose full grading, or other categories.",
      );
    }
  }
  // A run whose subjects are items (captions, answers) is reviewed in its task folder's item queue type (lib/queues/queue-type.ts).
  const itemScope = task.subject !== "video" ? queueTypeForSubject(catalogue, task.subject) : null;
  if (task.subject !== "video" && !itemScope) throw new ValidationError(`A ${task.label} run has no review queues.`);
  if (input.localize) {
    const problem = localizeProblem(task, input.scope, itemScope?.noun ?? null);
    if (problem) throw new ValidationError(problem);
  }
  if (itemScope && input.scope !== itemScope.id)
    throw new ValidationError(
      `A ${task.label} run is reviewed one ${itemScope.noun} at a time: choose the scope "${itemScope.id}".`,
    );
  if (!itemScope && queueTypeOf(catalogue, input.scope))
    throw new ValidationError(`This run judged videos, not ${input.scope}: choose the verdict or the scores.`);
  // A task without a reviewed per-video metric (VBench-2.0's answers are per question) gives a verdict queue no target.
  if (input.scope === "verdict" && !task.metrics.some((m) => m.reviewed)) {
    throw new ValidationError(
      `A ${task.label} run has no per-video verdict to review: choose its scores (scope "scores"), so reviewers answer what the judge was asked.`,
    );
  }
  return itemScope;
}

/**
 * Owners make a queue from a video-list filter: the matching videos of the run (the named run, the
 * filter's, else the latest), in list order. With scope "scores", only videos with a judge score in
 * the chosen categories. No match is a 400: an empty queue helps nobody.
 */
export async function createQueue(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage">,
  raw: CreateQueueInput,
  given?: TaskCatalogue,
) {
  const { actor, projectId } = access;
  const catalogue = await catalogueOf(prisma, projectId, given);
  const input = createQueueSchema(catalogue).parse(raw);
  if (input.scope === "verdict" && input.categories.length > 0)
    throw new ValidationError("Categories only apply to a queue of scores.");
  const run = await queueRun(prisma, catalogue, projectId, input.runId ?? input.filter.runId);
  const itemScope = queueTypeFittingRun(catalogue, run.task, input);
  const {
    filter,
    sort,
    dir,
    ids: matching,
  } = input.videoIds
    ? await chosenVideoIds(prisma, run.id, input)
    : await queueVideoIds(prisma, catalogue, actor, projectId, run, input);
  if (itemScope)
    return createItemQueue(prisma, actor, projectId, run.id, input, itemScope, { filter, sort, dir }, matching);
  let ids = matching;
  if (input.scope === "unstable") {
    // An ensemble run's scores whose members spread past the target's threshold (lib/ensembles).
    const unstable = await prisma.scoreDispersion.findMany({
      where: { runId: run.id, unstable: true, videoId: { in: ids }, ...scoreCategoryWhere(run.task, input.categories) },
      distinct: ["videoId"],
      select: { videoId: true },
    });
    if (
      ids.length > 0 &&
      unstable.length === 0 &&
      (await prisma.scoreDispersion.count({ where: { runId: run.id } })) === 0
    ) {
      throw new ValidationError(
        "Unstable targets need an ensemble run (samples or a judge panel): this run has one judge answer per score.",
      );
    }
    const withUnstable = new Set(unstable.map((s) => s.videoId));
    ids = ids.filter((id) => withUnstable.has(id));
    if (ids.length === 0 && matching.length > 0)
      throw new ValidationError(
        "None of the matching videos has an unstable score in the chosen categories: the queue would be empty.",
      );
  }
  if (input.scope === "scores" && ids.length > 0) {
    const scored = await prisma.score.findMany({
      where: { runId: run.id, videoId: { in: ids }, ...scoreCategoryWhere(run.task, input.categories) },
      distinct: ["videoId"],
      select: { videoId: true },
    });
    const withScores = new Set(scored.map((s) => s.videoId));
    ids = ids.filter((id) => withScores.has(id));
  }
  if (ids.length === 0) {
    throw new ValidationError(
      matching.length === 0
        ? "No video of that judge run matches this filter: the queue would be empty."
        : "None of the matching videos has a judge score in the chosen categories: the queue would be empty.",
    );
  }
  return prisma.$transaction(
    async (tx) => {
      const queue = await tx.reviewQueue.create({
        data: {
          projectId,
          name: input.name,
          runId: run.id,
          scope: input.scope,
          categories: input.categories,
          mode: input.scope === "scores" ? input.mode : "full",
          filter: { ...filter, sort, dir } as Prisma.InputJsonValue,
          reviewersPerItem: input.reviewersPerItem,
          handOut: input.handOut,
          blind: input.blind,
          localize: input.localize,
          guidelines: input.guidelines,
          itemCount: ids.length,
          createdById: actor.userId,
        },
      });
      for (let start = 0; start < ids.length; start += 5000) {
        await tx.reviewQueueItem.createMany({
          data: ids
            .slice(start, start + 5000)
            .map((videoId, offset) => ({ queueId: queue.id, videoId, position: start + offset })),
        });
      }
      return queue;
    },
    { timeout: 60_000 },
  );
}

/**
 * A queue over a run whose subjects are items: one queue item per item the scope chooses among the matching
 * videos' (in list order, then the run's order within a video).
 */
async function createItemQueue(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  input: ParsedCreateQueueInput,
  scope: QueueTypeModule,
  chosen: { filter: Record<string, unknown>; sort: string; dir: string },
  videoIds: string[],
) {
  const { items, filter } = await scope.items(prisma, runId, input, videoIds);
  return prisma.$transaction(
    async (tx) => {
      const queue = await tx.reviewQueue.create({
        data: {
          projectId,
          name: input.name,
          runId,
          scope: scope.id,
          categories: [],
          filter: { ...chosen.filter, sort: chosen.sort, dir: chosen.dir, ...filter } as Prisma.InputJsonValue,
          reviewersPerItem: input.reviewersPerItem,
          handOut: input.handOut,
          blind: input.blind,
          ...(scope.keepsGuidelines ? { guidelines: input.guidelines } : {}),
          itemCount: items.length,
          createdById: actor.userId,
        },
      });
      for (let start = 0; start < items.length; start += 5000) {
        await tx.reviewQueueItem.createMany({
          data: items.slice(start, start + 5000).map((r, offset) => ({
            queueId: queue.id,
            videoId: r.videoId,
            itemId: r.itemId,
            position: start + offset,
          })),
        });
      }
      return queue;
    },
    { timeout: 60_000 },
  );
}

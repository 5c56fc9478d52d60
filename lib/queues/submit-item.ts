import { Prisma, type PrismaClient, type ReviewQueue } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess, type ProjectAction } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { acceptanceProblem, IMPLIED_BY_ABSENCE, type JudgmentOrigin, prepareOutcomeJudgment, preparePresenceJudgment, prepareScoreJudgment, ReviewConflictError, writeJudgment } from "../reviews/reviews";
import { matchingVideoIds, resolveFilterRun } from "../videos/video-filter-sql";
import { readRunMetrics } from "../judge/run-metrics";
import { taskOf } from "../tasks/registry";
import { judgePresence, scaleBounds, scaleViolation, type TargetDeclaration, type TaskDeclaration } from "../tasks/task-declaration";
import { type JudgedDeclaration, judgmentDeclaration, SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { judgmentKey, metricTarget, presenceTarget, scoreTarget } from "../reviews/judgment-key";
import { presenceKey } from "./presence-keys";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { runAnswer } from "../tasks/qa/qa-results";
import { withheldAnswerResult } from "../tasks/qa/visible-qa-results";
import { assertMayClaim, assigneesOf } from "./queue-states";
import {
  createQueueSchema,
  previewQueueSchema,
  queueGuidelinesSchema,
  submitItemSchema,
  type CreateQueueInput,
  type PresenceJudgment,
  type PreviewQueueInput,
  type QueueMode,
  type QueueScope,
  type SubmitItemInput,
} from "./queues.validation";

/** A claim nobody submitted within this many minutes no longer holds the item's place. */
export const CLAIM_TTL_MINUTES = 30;

const liveSince = Prisma.sql`now() - make_interval(mins => ${CLAIM_TTL_MINUTES})`;

async function queueForActor(prisma: PrismaClient, actor: Actor, queueId: string, action: ProjectAction): Promise<ReviewQueue> {
  const queue = await prisma.reviewQueue.findUnique({ where: { id: queueId } });
  if (!queue) throw new NotFoundError("No such queue.");
  try {
    await requireProjectAccess(prisma, actor, queue.projectId, action);
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError("No such queue.") : error;
  }
  return queue;
}

async function queueRun(prisma: PrismaClient, projectId: string, runId: string | undefined) {
  let run;
  try {
    run = await resolveFilterRun(prisma, projectId, runId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ValidationError("No such judge run in this project.");
    throw error;
  }
  if (!run) throw new ValidationError("This project has no judge run yet: run a judge, then create a review queue from its results.");
  return run;
}

/** The videos a queue with this filter would hold, in list order; only videos in the run. */
async function queueVideoIds(prisma: PrismaClient, actor: Actor, projectId: string, run: { id: string; task: TaskDeclaration }, input: { filter: CreateQueueInput["filter"]; sort?: string; dir?: string }) {
  const parsed = createQueueSchema.pick({ filter: true, sort: true, dir: true }).parse(input);
  const filter = { ...parsed.filter, runId: run.id };
  const ids = await matchingVideoIds(prisma, filter, { projectId, runId: run.id, task: run.task, userId: actor.userId }, parsed.sort, parsed.dir);
  return { filter, sort: parsed.sort, dir: parsed.dir, ids };
}

/** A queue of named videos (a what-to-label-next proposal): each must be in the run; the filter is not used. */
async function chosenVideoIds(prisma: PrismaClient, runId: string, input: { videoIds?: string[]; chosenBy?: string; filter: CreateQueueInput["filter"] }) {
  const ids = [...new Set(input.videoIds ?? [])];
  if (Object.keys(input.filter ?? {}).length > 0) throw new ValidationError("Give either a filter or the videos, not both.");
  const inRun = new Set((await prisma.runVideo.findMany({ where: { runId, videoId: { in: ids } }, select: { videoId: true } })).map((r) => r.videoId));
  const missing = ids.filter((id) => !inRun.has(id));
  if (missing.length) throw new ValidationError(`These videos are not in the judge run: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""}.`);
  return { filter: { runId, chosen: `${input.chosenBy ?? "chosen videos"} (${ids.length})` }, sort: "path", dir: "asc", ids };
}

/** How many videos of the run match the filter: the "new queue" form shows it before creating. */
export async function previewQueue(prisma: PrismaClient, actor: Actor, projectId: string, raw: PreviewQueueInput) {
  await requireProjectAccess(prisma, actor, projectId, "queues.manage");
  const input = previewQueueSchema.parse(raw);
  const run = await queueRun(prisma, projectId, input.runId ?? input.filter.runId);
  const { ids } = await queueVideoIds(prisma, actor, projectId, run, input);
  return { runId: run.id, count: ids.length };
}

/**
 * Owners make a queue from a video-list filter: the matching videos of the run (the named run, the
 * filter's, else the latest), in list order. With scope "scores", only videos with a judge score in
 * the chosen categories. No match is a 400: an empty queue helps nobody.
 */
export async function createQueue(prisma: PrismaClient, actor: Actor, projectId: string, raw: CreateQueueInput) {
  await requireProjectAccess(prisma, actor, projectId, "queues.manage");
  const input = createQueueSchema.parse(raw);
  if (input.scope === "verdict" && input.categories.length > 0) throw new ValidationError("Categories only apply to a queue of scores.");
  const run = await queueRun(prisma, projectId, input.runId ?? input.filter.runId);
  if (input.mode === "presence") {
    if (input.scope !== "scores") throw new ValidationError("Presence first applies to a queue of scores: choose the scores, or full grading.");
    if (!run.task.presence) throw new ValidationError(`${run.task.label} declares no presence targets: choose full grading.`);
    if (input.categories.length > 0 && !input.categories.some((c) => run.task.presence!.of.includes(c))) {
      throw new ValidationError("None of the chosen categories has a presence target: choose full grading, or other categories.");
    }
  }
  const itemSubject = run.task.subject !== "video";
  const itemScope = run.task.subject === "question" ? "answers" : "captions";
  if (itemSubject && input.scope !== itemScope) throw new ValidationError(`A ${run.task.label} run is reviewed one ${run.task.subject === "question" ? "answer" : "caption"} at a time: choose the scope "${itemScope}".`);
  if (!itemSubject && (input.scope === "captions" || input.scope === "answers")) throw new ValidationError(`This run judged videos, not ${input.scope}: choose the verdict or the scores.`);
  const { filter, sort, dir, ids: matching } = input.videoIds ? await chosenVideoIds(prisma, run.id, input) : await queueVideoIds(prisma, actor, projectId, run, input);
  if (itemScope === "answers" && itemSubject) return createAnswerQueue(prisma, actor, projectId, run.id, input, { filter, sort, dir }, matching);
  if (itemSubject) return createCaptionQueue(prisma, actor, projectId, run.id, input, { filter, sort, dir }, matching);
  let ids = matching;
  if (input.scope === "scores" && ids.length > 0) {
    const scored = await prisma.score.findMany({
      where: { runId: run.id, videoId: { in: ids }, ...(input.categories.length ? { category: { in: input.categories } } : {}) },
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
          blind: input.blind,
          guidelines: input.guidelines,
          itemCount: ids.length,
          createdById: actor.userId,
        },
      });
      for (let start = 0; start < ids.length; start += 5000) {
        await tx.reviewQueueItem.createMany({ data: ids.slice(start, start + 5000).map((videoId, offset) => ({ queueId: queue.id, videoId, position: start + offset })) });
      }
      return queue;
    },
    { timeout: 60_000 },
  );
}

/**
 * A queue over a caption run: one item per judged caption of the matching videos (in list order, then
 * the run's order within a video), optionally of one model and caption type.
 */
async function createCaptionQueue(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  input: ReturnType<typeof createQueueSchema.parse>,
  chosen: { filter: Record<string, unknown>; sort: string; dir: string },
  videoIds: string[],
) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const runItems = await prisma.runItem.findMany({
    where: {
      runId,
      videoId: { in: videoIds },
      item: { ...(input.captions.model ? { model: input.captions.model } : {}), ...(input.captions.type ? { group: input.captions.type } : {}) },
    },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only captions the judge scored: an unjudged caption has nothing to compare with.
  const scored = new Set(
    (await prisma.score.findMany({ where: { runId, itemId: { in: runItems.map((r) => r.itemId) } }, distinct: ["itemId"], select: { itemId: true } })).map((s) => s.itemId),
  );
  const items = runItems.filter((r) => scored.has(r.itemId)).sort((a, b) => order.get(a.videoId)! - order.get(b.videoId)! || a.position - b.position);
  if (items.length === 0) throw new ValidationError("No judged caption of that run matches: the queue would be empty.");
  return prisma.$transaction(
    async (tx) => {
      const queue = await tx.reviewQueue.create({
        data: {
          projectId,
          name: input.name,
          runId,
          scope: "captions",
          categories: [],
          filter: { ...chosen.filter, sort: chosen.sort, dir: chosen.dir, ...(input.captions.model ? { captionModel: input.captions.model } : {}), ...(input.captions.type ? { captionType: input.captions.type } : {}) } as Prisma.InputJsonValue,
          reviewersPerItem: input.reviewersPerItem,
          blind: input.blind,
          guidelines: input.guidelines,
          itemCount: items.length,
          createdById: actor.userId,
        },
      });
      for (let start = 0; start < items.length; start += 5000) {
        await tx.reviewQueueItem.createMany({ data: items.slice(start, start + 5000).map((r, offset) => ({ queueId: queue.id, videoId: r.videoId, itemId: r.itemId, position: start + offset })) });
      }
      return queue;
    },
    { timeout: 60_000 },
  );
}

/**
 * A queue over a QA run: one item per answer of the matching videos' questions (in list order, then the run's
 * order within a video) that has a decision, by default only those the judge decided (open answers, and
 * multiple-choice answers with no single letter), optionally of one format and category.
 */
async function createAnswerQueue(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  input: ReturnType<typeof createQueueSchema.parse>,
  chosen: { filter: Record<string, unknown>; sort: string; dir: string },
  videoIds: string[],
) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const { format, category, letters } = input.answers;
  const runItems = await prisma.runItem.findMany({
    where: {
      runId,
      videoId: { in: videoIds },
      item: { ...(category ? { group: category } : {}), ...(format ? { payload: { path: ["format"], equals: format } } : {}) },
    },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only decided answers (a correctness score); unless asked, only those the judge decided.
  const decided = await prisma.runMetric.findMany({
    where: { runId, metric: "judge_decided", itemId: { in: runItems.map((r) => r.itemId) }, ...(letters ? {} : { value: 1 }) },
    select: { itemId: true },
  });
  const scored = new Set((await prisma.score.findMany({ where: { runId, itemId: { in: decided.map((d) => d.itemId) } }, distinct: ["itemId"], select: { itemId: true } })).map((s) => s.itemId));
  const items = runItems.filter((r) => scored.has(r.itemId)).sort((a, b) => order.get(a.videoId)! - order.get(b.videoId)! || a.position - b.position);
  if (items.length === 0) throw new ValidationError(`No ${letters ? "decided" : "judge-decided"} answer of that run matches: the queue would be empty.`);
  return prisma.$transaction(
    async (tx) => {
      const queue = await tx.reviewQueue.create({
        data: {
          projectId,
          name: input.name,
          runId,
          scope: "answers",
          categories: [],
          filter: { ...chosen.filter, sort: chosen.sort, dir: chosen.dir, ...(format ? { questionFormat: format } : {}), ...(category ? { questionCategory: category } : {}), ...(letters ? { letters: 1 } : {}) } as Prisma.InputJsonValue,
          reviewersPerItem: input.reviewersPerItem,
          blind: input.blind,
          itemCount: items.length,
          createdById: actor.userId,
        },
      });
      for (let start = 0; start < items.length; start += 5000) {
        await tx.reviewQueueItem.createMany({ data: items.slice(start, start + 5000).map((r, offset) => ({ queueId: queue.id, videoId: r.videoId, itemId: r.itemId, position: start + offset })) });
      }
      return queue;
    },
    { timeout: 60_000 },
  );
}

interface ReviewerProgress {
  reviewerId: string;
  email: string;
  name: string;
  done: number;
  claimed: number;
}

/** Per queue: items complete (doneCount ≥ N), and per reviewer their submitted and live claimed items. */
async function progressOf(prisma: PrismaClient, queues: Pick<ReviewQueue, "id" | "reviewersPerItem" | "itemCount">[]) {
  const ids = queues.map((q) => q.id);
  if (ids.length === 0) return new Map<string, { items: number; complete: number; reviewers: ReviewerProgress[] }>();
  const complete = await prisma.$queryRaw<{ queueId: string; complete: number }[]>`
    SELECT i."queueId", count(*)::int AS complete
    FROM "review_queue_item" i JOIN "review_queue" q ON q."id" = i."queueId"
    WHERE i."queueId" IN (${Prisma.join(ids)}) AND i."doneCount" >= q."reviewersPerItem"
    GROUP BY i."queueId"`;
  const perReviewer = await prisma.$queryRaw<{ queueId: string; reviewerId: string; done: number; claimed: number }[]>`
    SELECT a."queueId", a."reviewerId",
      count(*) FILTER (WHERE a."status" = 'done')::int AS done,
      count(*) FILTER (WHERE a."status" = 'claimed' AND a."claimedAt" > ${liveSince})::int AS claimed
    FROM "review_queue_assignment" a
    WHERE a."queueId" IN (${Prisma.join(ids)})
    GROUP BY a."queueId", a."reviewerId"`;
  const users = await prisma.user.findMany({ where: { id: { in: [...new Set(perReviewer.map((r) => r.reviewerId))] } }, select: { id: true, email: true, name: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  return new Map(
    queues.map((q) => [
      q.id,
      {
        items: q.itemCount,
        complete: complete.find((c) => c.queueId === q.id)?.complete ?? 0,
        reviewers: perReviewer
          .filter((r) => r.queueId === q.id && (r.done > 0 || r.claimed > 0))
          .map((r) => ({ reviewerId: r.reviewerId, email: byId.get(r.reviewerId)?.email ?? "", name: byId.get(r.reviewerId)?.name ?? "", done: r.done, claimed: r.claimed }))
          .sort((a, b) => b.done - a.done || a.email.localeCompare(b.email)),
      },
    ]),
  );
}

function queueJson(queue: ReviewQueue) {
  return {
    id: queue.id,
    projectId: queue.projectId,
    name: queue.name,
    runId: queue.runId,
    scope: queue.scope as QueueScope,
    mode: queue.mode as QueueMode,
    categories: queue.categories,
    filter: queue.filter as Record<string, string | number>,
    reviewersPerItem: queue.reviewersPerItem,
    blind: queue.blind,
    guidelines: queue.guidelines,
    itemCount: queue.itemCount,
    createdById: queue.createdById,
    createdAt: queue.createdAt,
    archivedAt: queue.archivedAt,
    archived: queue.archivedAt !== null,
  };
}

/** Who the queue is assigned to (emails; empty: every reviewer), whether to the caller, and whether they may claim from it. */
function assignmentOf(queue: ReviewQueue, assignees: { id: string; email: string }[], userId: string) {
  const toMe = assignees.some((a) => a.id === userId);
  return { assignees: assignees.map((a) => a.email), toMe, open: assignees.length === 0 || toMe };
}

/** A project's queues (newest first) with their progress; the archived ones instead with `archived`. */
export async function listQueues(prisma: PrismaClient, actor: Actor, projectId: string, options: { archived?: boolean } = {}) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const queues = await prisma.reviewQueue.findMany({ where: { projectId, archivedAt: options.archived ? { not: null } : null }, orderBy: { createdAt: "desc" } });
  const [progress, assignees] = await Promise.all([progressOf(prisma, queues), assigneesOf(prisma, queues)]);
  return queues.map((q) => {
    const p = progress.get(q.id)!;
    return { ...queueJson(q), progress: p, finished: p.complete >= q.itemCount, assignment: assignmentOf(q, assignees.get(q.id)!, actor.userId) };
  });
}

/** Items, items complete (doneCount ≥ N), and per reviewer their done and claimed counts with emails. */
export async function getQueueProgress(prisma: PrismaClient, actor: Actor, queueId: string) {
  const queue = await queueForActor(prisma, actor, queueId, "project.view");
  return (await progressOf(prisma, [queue])).get(queue.id)!;
}

/** One queue with its progress and the caller's own counts. */
export async function getQueue(prisma: PrismaClient, actor: Actor, queueId: string) {
  const queue = await queueForActor(prisma, actor, queueId, "project.view");
  const [progress, assignees] = await Promise.all([progressOf(prisma, [queue]).then((p) => p.get(queue.id)!), assigneesOf(prisma, [queue]).then((a) => a.get(queue.id)!)]);
  const mine = progress.reviewers.find((r) => r.reviewerId === actor.userId);
  return {
    ...queueJson(queue),
    progress,
    mine: { done: mine?.done ?? 0, claimed: mine?.claimed ?? 0 },
    /** Every item has its N reviewers. */
    finished: progress.complete >= queue.itemCount,
    assignment: assignmentOf(queue, assignees, actor.userId),
  };
}

/** Owners change a queue's guidelines for its reviewers (Markdown; empty: none). */
export async function setQueueGuidelines(prisma: PrismaClient, actor: Actor, queueId: string, raw: unknown) {
  const queue = await queueForActor(prisma, actor, queueId, "queues.manage");
  const { guidelines } = queueGuidelinesSchema.parse(raw);
  return queueJson(await prisma.reviewQueue.update({ where: { id: queue.id }, data: { guidelines } }));
}

/**
 * The caller's next item. Under a per-queue advisory lock, in one transaction: their own open claim
 * if they hold one (a stale one only while the item still has room), else a claim on the first item
 * by (doneCount, position) that they have not had and whose doneCount plus others' live claims is
 * below reviewersPerItem. Claims older than CLAIM_TTL_MINUTES no longer hold a place. Null when
 * nothing is left for them.
 */
export async function nextItem(prisma: PrismaClient, actor: Actor, queueId: string): Promise<{ itemId: string | null }> {
  const queue = await queueForActor(prisma, actor, queueId, "scores.review");
  // Archived (400) or assigned to other reviewers (403): no claim.
  assertMayClaim(queue, actor.userId);
  const me = actor.userId;
  const n = queue.reviewersPerItem;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`review_queue:${queue.id}`}, 0))`;
      const own = await tx.$queryRaw<{ itemId: string; live: boolean; room: boolean }[]>`
        SELECT a."itemId", a."claimedAt" > ${liveSince} AS live,
          i."doneCount" + (SELECT count(*) FROM "review_queue_assignment" o
                           WHERE o."itemId" = a."itemId" AND o."reviewerId" <> ${me} AND o."status" = 'claimed' AND o."claimedAt" > ${liveSince}) < ${n} AS room
        FROM "review_queue_assignment" a JOIN "review_queue_item" i ON i."id" = a."itemId"
        WHERE a."queueId" = ${queue.id} AND a."reviewerId" = ${me} AND a."status" = 'claimed'
        ORDER BY a."claimedAt" ASC, a."itemId" ASC`;
      for (const claim of own) {
        if (claim.live) return { itemId: claim.itemId };
        if (claim.room) {
          await tx.reviewQueueAssignment.update({ where: { itemId_reviewerId: { itemId: claim.itemId, reviewerId: me } }, data: { claimedAt: new Date() } });
          return { itemId: claim.itemId };
        }
        // The item filled up while this claim was stale: let it go.
        await tx.reviewQueueAssignment.delete({ where: { itemId_reviewerId: { itemId: claim.itemId, reviewerId: me } } });
      }
      return { itemId: await claimFreeItem(tx, queue, me) };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}

/**
 * Inside the queue's advisory lock: a claim on the first item by (doneCount, position) that the reviewer has
 * not had and whose doneCount plus others' live claims (claims ahead included) is below reviewersPerItem.
 */
async function claimFreeItem(tx: Prisma.TransactionClient, queue: ReviewQueue, me: string): Promise<string | null> {
  const n = queue.reviewersPerItem;
  const [candidate] = await tx.$queryRaw<{ id: string }[]>`
    SELECT i."id" FROM "review_queue_item" i
    WHERE i."queueId" = ${queue.id}
      AND i."doneCount" < ${n}
      AND NOT EXISTS (SELECT 1 FROM "review_queue_assignment" a WHERE a."itemId" = i."id" AND a."reviewerId" = ${me})
      AND i."doneCount" + (SELECT count(*) FROM "review_queue_assignment" a
                           WHERE a."itemId" = i."id" AND a."status" = 'claimed' AND a."claimedAt" > ${liveSince}) < ${n}
    ORDER BY i."doneCount" ASC, i."position" ASC
    LIMIT 1`;
  if (!candidate) return null;
  await tx.reviewQueueAssignment.create({ data: { itemId: candidate.id, queueId: queue.id, reviewerId: me } });
  return candidate.id;
}

/**
 * Unsubmitted live claims a reviewer may hold in one queue: the item on screen, the two claimed ahead of it (the
 * review screen loads two ahead, so a slow answer does not hold up a fast reviewer), and the item before them
 * whose submission may still be on its way.
 */
export const MAX_OPEN_CLAIMS = 4;

/**
 * Claims ahead: while the reviewer works on `currentItemId`, the item they will get after it, so the review
 * screen can load it (frames included) before Enter. It is an ordinary claim, taken after the current one:
 * it counts toward reviewersPerItem for everyone, expires like any claim, keeps its video blind to them in a
 * blind queue until they submit it, and is what `nextItem` hands them once the current one is submitted.
 * Returns their live claim taken after the current one if they hold one, else a new claim (none when
 * nothing is left, or when they already hold MAX_OPEN_CLAIMS unsubmitted claims).
 */
export async function claimAhead(prisma: PrismaClient, actor: Actor, queueId: string, currentItemId: string): Promise<{ itemId: string | null }> {
  const queue = await queueForActor(prisma, actor, queueId, "scores.review");
  if (queue.archivedAt) throw new ValidationError("This queue is archived.");
  const me = actor.userId;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`review_queue:${queue.id}`}, 0))`;
      const current = await tx.reviewQueueAssignment.findUnique({ where: { itemId_reviewerId: { itemId: currentItemId, reviewerId: me } } });
      if (!current || current.queueId !== queue.id) throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
      const open = await tx.$queryRaw<{ itemId: string; claimedAt: Date }[]>`
        SELECT a."itemId", a."claimedAt" FROM "review_queue_assignment" a
        WHERE a."queueId" = ${queue.id} AND a."reviewerId" = ${me} AND a."status" = 'claimed' AND a."claimedAt" > ${liveSince}
        ORDER BY a."claimedAt" ASC, a."itemId" ASC`;
      // Claims are handed out in (claimedAt, itemId) order: the one after the current item is the one ahead.
      const at = current.claimedAt.getTime();
      const ahead = open.find((claim) => claim.claimedAt.getTime() > at || (claim.claimedAt.getTime() === at && claim.itemId > currentItemId));
      if (ahead) return { itemId: ahead.itemId };
      if (open.length >= MAX_OPEN_CLAIMS) return { itemId: null };
      return { itemId: await claimFreeItem(tx, queue, me) };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}

/**
 * Lets go of one of the reviewer's unsubmitted claims (the review screen releases its claim ahead when the
 * reviewer leaves), so the item's place goes to someone else at once instead of after CLAIM_TTL_MINUTES.
 * Judgments already saved stay. A submitted item is not released.
 */
export async function releaseClaim(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string): Promise<{ released: boolean }> {
  await queueForActor(prisma, actor, queueId, "scores.review");
  const { count } = await prisma.reviewQueueAssignment.deleteMany({ where: { itemId, queueId, reviewerId: actor.userId, status: "claimed" } });
  return { released: count > 0 };
}

/** "score" (a judge score of one of the task's targets), or the id of a reviewed per-video metric. */
export type TargetKind = string;

interface Target {
  key: string;
  kind: TargetKind;
  label: string;
  required: boolean;
  min: number;
  max: number;
  category: string | null;
  stepId: string | null;
  scopeIndex: number | null;
  judgeValue: number | null;
  declaration: JudgedDeclaration;
  /** What the reviewer's judgment is keyed by (lib/reviews/judgment-key.ts), whichever run shows it. */
  judgmentKey: string;
}

async function taskOfRun(prisma: PrismaClient, runId: string): Promise<TaskDeclaration> {
  const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, select: { pipeline: true } });
  return taskOf(run.pipeline);
}

/** Video-level targets first, then by frame (key frame or cluster) and the task's declared order. */
const SCOPE_ORDER: Record<string, number> = { video: 0, item: 0, key_frame: 1, cluster: 2 };
const SCOPE_NOUN: Record<string, string> = { key_frame: "key frame", cluster: "cluster" };

/**
 * What a reviewer judges for one item: the task's verdict metric (and optionally its other reviewed
 * metrics), or each chosen judge score; scales and labels from the task's declaration.
 */
async function itemTargets(prisma: PrismaClient, queue: ReviewQueue, videoId: string, itemId = "", knownTask?: TaskDeclaration): Promise<Target[]> {
  const task = knownTask ?? (await taskOfRun(prisma, queue.runId));
  // A QA answer's one target (its correctness) is read like a caption's scores: the run's scores of the item.
  if (queue.scope === "captions" || queue.scope === "answers") return captionTargets(prisma, queue, task, videoId, itemId);
  if (queue.scope === "verdict") {
    const key = (metric: string) => judgmentKey(metricTarget(task.id, videoId, "", metric));
    const judge = (await readRunMetrics(prisma, queue.runId, [videoId])).get(videoId) ?? {};
    const verdictId = task.verdict?.metricId;
    const reviewed = task.metrics.filter((m) => m.reviewed).sort((a, b) => Number(b.id === verdictId) - Number(a.id === verdictId));
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
  const [scores, runVideo] = await Promise.all([
    prisma.score.findMany({
      where: { runId: queue.runId, videoId, ...(queue.categories.length ? { category: { in: queue.categories } } : {}) },
      select: { id: true, runId: true, videoId: true, itemId: true, stepId: true, scopeIndex: true, category: true, value: true },
    }),
    prisma.runVideo.findUnique({ where: { runId_videoId: { runId: queue.runId, videoId } }, select: { frameSetId: true } }),
  ]);
  const frameSetId = runVideo?.frameSetId ?? "";
  const order = new Map(task.targets.map((t, i) => [t.id, i]));
  const declared = scores.map((s) => ({ score: s, target: judgmentDeclaration(SCORE_TARGET_TYPE, s.category, [task]) as TargetDeclaration }));
  declared.sort(
    (a, b) =>
      (SCOPE_ORDER[a.target.scope] ?? 9) - (SCOPE_ORDER[b.target.scope] ?? 9) ||
      a.score.scopeIndex - b.score.scopeIndex ||
      (order.get(a.score.category) ?? 0) - (order.get(b.score.category) ?? 0),
  );
  return declared.map(({ score: s, target }) => {
    const { min, max } = scaleBounds(target.scale);
    const noun = SCOPE_NOUN[target.scope];
    return {
      key: s.id,
      kind: SCORE_TARGET_TYPE,
      label: noun ? `${s.category} · ${noun} ${s.scopeIndex + 1}` : target.label,
      required: true,
      min,
      max,
      category: s.category,
      stepId: s.stepId,
      scopeIndex: s.scopeIndex,
      judgeValue: s.value,
      declaration: target,
      judgmentKey: judgmentKey(scoreTarget(task.id, s, frameSetId)),
    };
  });
}

/** A caption's reviewable scores in the run: its style score, or each key point (labelled with its text). */
async function captionTargets(prisma: PrismaClient, queue: ReviewQueue, task: TaskDeclaration, videoId: string, itemId: string): Promise<Target[]> {
  const scores = await prisma.score.findMany({
    where: { runId: queue.runId, videoId, itemId },
    select: { id: true, runId: true, videoId: true, itemId: true, stepId: true, scopeIndex: true, category: true, value: true },
  });
  const keyPoints = await captionKeyPoints(prisma, itemId);
  const order = new Map(task.targets.map((t, i) => [t.id, i]));
  const indexOf = (category: string) => Number(category.replace(/^\D+/, "")) || 0;
  return scores
    .map((s) => ({ score: s, target: judgmentDeclaration(SCORE_TARGET_TYPE, s.category, [task]) as TargetDeclaration }))
    .filter(({ target }) => target.reviewable !== false)
    .sort((a, b) => (order.get(a.target.id) ?? 0) - (order.get(b.target.id) ?? 0) || indexOf(a.score.category) - indexOf(b.score.category))
    .map(({ score: s, target }) => {
      const { min, max } = scaleBounds(target.scale);
      const indexed = s.category !== target.id;
      const text = indexed ? keyPoints[indexOf(s.category) - 1] : undefined;
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
        judgmentKey: judgmentKey(scoreTarget(task.id, s, "")),
      };
    });
}

/** The key points of a caption's reference, in order (empty when it has none). */
async function captionKeyPoints(prisma: PrismaClient, itemId: string): Promise<string[]> {
  const item = await prisma.item.findUnique({ where: { id: itemId }, select: { referenceItem: { select: { payload: true } } } });
  const keyPoints = (item?.referenceItem?.payload as { keyPoints?: unknown } | null)?.keyPoints;
  return Array.isArray(keyPoints) ? keyPoints.map(String) : [];
}

/** What a caption queue item shows beside its targets: the caption, its instruction and reference. */
async function captionSubject(prisma: PrismaClient, itemId: string) {
  if (!itemId) return null;
  const item = await prisma.item.findUnique({ where: { id: itemId }, select: { id: true, model: true, group: true, externalId: true, payload: true, referenceItem: { select: { payload: true } } } });
  if (!item) return null;
  const reference = (item.referenceItem?.payload ?? {}) as { instruction?: string; reference?: string; restriction?: [string, string]; keyPoints?: string[] };
  return {
    id: item.id,
    externalId: item.externalId,
    model: item.model,
    captionType: item.group,
    output: String((item.payload as { output?: unknown }).output ?? ""),
    instruction: reference.instruction ?? null,
    reference: reference.reference ?? null,
    restriction: reference.restriction?.[1] ?? null,
    keyPoints: reference.keyPoints ?? [],
  };
}

/** The categories a presence-first queue asks about: the task's presence targets among the queue's categories (none chosen: all). */
function presenceCategories(task: TaskDeclaration, queue: Pick<ReviewQueue, "scope" | "mode" | "categories">): TargetDeclaration[] {
  if (queue.scope !== "scores" || queue.mode !== "presence" || !task.presence) return [];
  return task.presence.of.filter((id) => queue.categories.length === 0 || queue.categories.includes(id)).flatMap((id) => task.targets.find((t) => t.id === id) ?? []);
}

/** The judge's presence of a category from the item's scores of it, at the task's declared threshold. */
function judgePresenceOf(task: TaskDeclaration, targets: readonly Target[], category: string): 0 | 1 | null {
  const scores = targets.filter((t) => t.category === category && t.judgeValue !== null).map((t) => t.judgeValue!);
  return judgePresence(scores, task.presence!.defaultThreshold);
}

async function assignedItem(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string) {
  // The item and the caller's assignment are read beside the permission check (nothing is returned before it passes).
  const [queue, item, assignment] = await Promise.all([
    queueForActor(prisma, actor, queueId, "scores.review"),
    prisma.reviewQueueItem.findFirst({ where: { id: itemId, queueId } }),
    prisma.reviewQueueAssignment.findUnique({ where: { itemId_reviewerId: { itemId, reviewerId: actor.userId } } }),
  ]);
  if (!item) throw new NotFoundError("No such item in this queue.");
  if (!assignment) throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
  return { queue, item, assignment };
}

/**
 * The reviewer's view of one of their items: the video and its frames, the targets with their own
 * current judgments (and versions), and the judge's values only when the queue is not blind or
 * they have submitted the item (more exactly: unless they hold an unsubmitted claim on this video
 * in a blind queue). Previous/next move through their own assignments in the order they took them.
 */
export async function getQueueItem(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string) {
  const { queue, item, assignment } = await assignedItem(prisma, actor, queueId, itemId);
  // Independent reads run together: a "scores" item's targets, history and progress do not wait on each other
  // (profiled: the item is read while the reviewer works on the one before, so its latency is the chain of reads).
  const taskPromise = taskOfRun(prisma, queue.runId);
  const [blindIds, video, runVideo, targets, caption, answer, history, complete, task, project] = await Promise.all([
    blindVideoIdsFor(prisma, actor.userId, [item.videoId]),
    prisma.video.findUniqueOrThrow({ where: { id: item.videoId } }),
    prisma.runVideo.findUnique({ where: { runId_videoId: { runId: queue.runId, videoId: item.videoId } } }),
    taskPromise.then((known) => itemTargets(prisma, queue, item.videoId, item.itemId, known)),
    queue.scope === "answers" ? Promise.resolve(null) : captionSubject(prisma, item.itemId),
    queue.scope === "answers" && item.itemId ? runAnswer(prisma, queue.runId, item.itemId) : Promise.resolve(null),
    prisma.reviewQueueAssignment.findMany({
      where: { queueId, reviewerId: actor.userId },
      orderBy: [{ claimedAt: "asc" }, { itemId: "asc" }],
      select: { itemId: true, status: true },
    }),
    prisma.reviewQueueItem.count({ where: { queueId, doneCount: { gte: queue.reviewersPerItem } } }),
    taskPromise,
    prisma.project.findUniqueOrThrow({ where: { id: queue.projectId }, select: { guidelines: true } }),
  ]);
  const blind = blindIds.has(item.videoId);
  const presence = presenceCategories(task, queue);
  const presenceKeys = new Map(presence.map((c) => [c.id, judgmentKey(presenceTarget(task.id, item.videoId, c.id))]));
  const [frameSet, own, judgeMetrics] = await Promise.all([
    runVideo
      ? prisma.frameSet.findUnique({ where: { id: runVideo.frameSetId }, include: { frames: { orderBy: { index: "asc" } } } })
      : prisma.frameSet.findFirst({ where: { videoId: item.videoId }, orderBy: { createdAt: "desc" }, include: { frames: { orderBy: { index: "asc" } } } }),
    prisma.humanJudgment.findMany({
      where: { reviewerId: actor.userId, withdrawn: false, targetKey: { in: [...targets.map((t) => t.judgmentKey), ...presenceKeys.values()] } },
      select: { targetKey: true, value: true, note: true, reason: true, acceptedJudge: true, version: true, updatedAt: true },
    }),
    runVideo ? readRunMetrics(prisma, queue.runId, [item.videoId]).then((m) => m.get(item.videoId) ?? {}) : Promise.resolve({} as Record<string, number>),
  ]);
  const frames = frameSet?.frames ?? [];
  const keyFrames = frames.filter((f) => f.isKeyFrame);
  const mine = new Map(own.map((j) => [j.targetKey, j]));
  const at = history.findIndex((h) => h.itemId === itemId);
  const progress = { items: queue.itemCount, complete };
  // The pipeline's own stored summary, passed through for the review screen until it reads `metrics`.
  const summary = (runVideo?.summary ?? null) as Record<string, unknown> | null;

  return {
    queue: { id: queue.id, projectId: queue.projectId, name: queue.name, runId: queue.runId, scope: queue.scope as QueueScope, mode: queue.mode as QueueMode, blind: queue.blind, reviewersPerItem: queue.reviewersPerItem, itemCount: queue.itemCount },
    item: { id: item.id, position: item.position },
    /** What the project's and the queue's owners ask of reviewers (Markdown; empty: none). */
    guidelines: { project: project.guidelines, queue: queue.guidelines },
    /** For a caption queue: the caption under review (the judge's values stay in `targets`). */
    caption,
    /**
     * For a QA answer queue: the question, its options and correct answer, the model's raw answer, and the
     * decision (letter or judgement and reason), withheld while blind.
     */
    answer: answer ? (blind ? { ...answer, result: withheldAnswerResult(answer.result) } : answer) : null,
    assignment: { status: assignment.status, claimedAt: assignment.claimedAt, doneAt: assignment.doneAt },
    /** True while the judge's values are withheld from this reviewer (blind queue, not yet submitted). */
    blind,
    video: {
      id: video.id,
      fileName: video.fileName,
      relativePath: video.relativePath,
      prompt: video.prompt,
      dimensions: video.dimensions,
      model: video.model,
      url: `/api/v1/videos/${video.id}/file`,
      frames: frames.map((f) => ({ id: f.id, index: f.index, timestampS: f.timestampS, isKeyFrame: f.isKeyFrame, cluster: f.cluster, url: `/api/v1/frames/${f.id}/image` })),
    },
    ...(blind
      ? {}
      : {
          judgeSummary: summary,
          /** The judge's declared per-video metrics in the run, by id (null: not computed). */
          metrics: runVideo ? Object.fromEntries(task.metrics.map((m) => [m.id, judgeMetrics[m.id] ?? null])) : null,
        }),
    targets: targets.map((t) => {
      // A score's scope is declared by its target: a key frame, a key frame's cluster, or the whole video (no frames).
      const scope = t.kind === SCORE_TARGET_TYPE && "scope" in t.declaration ? t.declaration.scope : null;
      const keyFrame = t.scopeIndex !== null && (scope === "key_frame" || scope === "cluster") ? keyFrames[t.scopeIndex] : undefined;
      const judgment = mine.get(t.judgmentKey);
      return {
        key: t.key,
        kind: t.kind,
        label: t.label,
        required: t.required,
        min: t.min,
        max: t.max,
        category: t.category,
        stepId: t.stepId,
        scopeIndex: t.scopeIndex,
        /** The frames this score is about: its key frame (static) or the key frame's cluster (dynamic). */
        frameIndexes: keyFrame
          ? scope === "cluster"
            ? frames.filter((f) => f.cluster === keyFrame.index || f.id === keyFrame.id).map((f) => f.index)
            : [keyFrame.index]
          : [],
        mine: judgment
          ? { value: judgment.value, note: judgment.note, reason: judgment.reason, acceptedJudge: judgment.acceptedJudge, version: judgment.version, updatedAt: judgment.updatedAt }
          : null,
        ...(blind ? {} : { judge: t.judgeValue }),
      };
    }),
    /**
     * Presence-first queues: the categories to mark present or absent first (each with its toggle key,
     * the score targets it covers, the reviewer's own presence judgment and, unless blind, the judge's
     * presence at the declared threshold); values are then asked only where either says present.
     */
    presence: presence.length
      ? {
          absentValue: task.presence!.absentValue,
          threshold: task.presence!.defaultThreshold,
          categories: presence.map((c, index) => {
            const judgment = mine.get(presenceKeys.get(c.id)!);
            return {
              id: c.id,
              key: presenceKey(index),
              label: c.label,
              definition: c.definition,
              targetKeys: targets.filter((t) => t.category === c.id).map((t) => t.key),
              mine: judgment ? { value: judgment.value, note: judgment.note, version: judgment.version } : null,
              ...(blind ? {} : { judge: judgePresenceOf(task, targets, c.id) }),
            };
          }),
        }
      : null,
    nav: {
      index: at,
      count: history.length,
      previousItemId: at > 0 ? history[at - 1]!.itemId : null,
      nextItemId: at >= 0 && at < history.length - 1 ? history[at + 1]!.itemId : null,
    },
    progress: { items: progress.items, complete: progress.complete, mine: { done: history.filter((h) => h.status === "done").length } },
  };
}
export type QueueItemPayload = Awaited<ReturnType<typeof getQueueItem>>;

function checkRange(target: Target, value: number) {
  if (target.declaration.scale.kind === "categorical") {
    const problem = scaleViolation({ ...target.declaration, label: target.label }, value);
    if (problem) throw new ValidationError(problem);
  }
  if (value < target.min || value > target.max) throw new ValidationError(`${target.label}: the value must be between ${target.min} and ${target.max}.`);
}

/**
 * Saves the reviewer's judgments of an item with the same checks and writes as everywhere (history,
 * versions, conflicts) and marks their assignment done, counting it on the item exactly once, all in one
 * transaction after one permission check: a failure on any target saves nothing of the item.
 * Every required target must be judged (a 400 names the missing ones). Submitting again edits the
 * judgments and counts nothing twice; a judgment identical to the saved one is not saved again.
 */
export async function submitItem(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string, raw: SubmitItemInput) {
  const input = submitItemSchema.parse(raw);
  const { queue, item } = await assignedItem(prisma, actor, queueId, itemId);
  if (queue.archivedAt) throw new ValidationError("This queue is archived.");
  const targets = await itemTargets(prisma, queue, item.videoId, item.itemId);
  const byKey = new Map(targets.map((t) => [t.key, t]));
  const presence = await presencePlan(prisma, actor, queue, item.videoId, targets, input.presence);
  const given = new Map<string, (typeof input.judgments)[number]>();
  for (const judgment of input.judgments) {
    const target = byKey.get(judgment.target);
    if (!target) throw new ValidationError(`"${judgment.target}" is not something to judge in this item.`);
    if (given.has(judgment.target)) throw new ValidationError(`"${target.label}" is judged twice in this submission.`);
    checkRange(target, judgment.value);
    if (presence?.absentTargets.has(target.key) && judgment.value !== presence.absentValue) {
      throw new ValidationError(`${target.label}: ${target.category} is marked absent, so its scores are ${presence.absentValue}; mark it present to grade it.`);
    }
    given.set(judgment.target, judgment);
  }
  const missing = targets.filter((t) => t.required && !given.has(t.key) && !presence?.absentTargets.has(t.key));
  if (missing.length > 0) throw new ValidationError(`Judge every target before submitting; missing: ${missing.map((t) => t.label).join(", ")}.`);

  // Each judgment is prepared (looked up, checked) before anything is written; then all of them and the
  // assignment's "done" are written in one transaction, so a failure on any target leaves the item as it was.
  // The queue's permission check above covers every target: they are the queue's run's, of this item.
  const runVideo = await prisma.runVideo.findUnique({ where: { runId_videoId: { runId: queue.runId, videoId: item.videoId } }, include: { run: { select: { projectId: true, pipeline: true } } } });
  const presenceWrites = presence
    ? await Promise.all(
        presence.categories.map(async (category) => ({
          category,
          note: category.answer.note || null,
          prepared: await preparePresenceJudgment(prisma, queue.runId, item.videoId, category.id, { value: category.answer.value, note: category.answer.note || null, expectedVersion: category.answer.expectedVersion }, runVideo ?? undefined),
        })),
      )
    : [];
  // An absent category's scores (not asked) hold the absent value because of that answer, not because the reviewer
  // typed it: marked so, agreement does not count them as independent judgments.
  const originOf = (target: Target): JudgmentOrigin => (presence?.absentTargets.has(target.key) ? IMPLIED_BY_ABSENCE : "typed");
  const asked = (target: Target) => given.get(target.key) ?? (presence?.absentTargets.has(target.key) ? { target: target.key, value: presence.absentValue } : undefined);
  const targetWrites = await Promise.all(
    targets.flatMap((target) => {
      const judgment = asked(target);
      if (!judgment) return [];
      const reviewInput = { value: judgment.value, note: judgment.note || null, reason: judgment.reason || null, acceptedJudge: judgment.acceptedJudge === true, expectedVersion: judgment.expectedVersion };
      const prepared = target.kind === SCORE_TARGET_TYPE ? prepareScoreJudgment(prisma, target.key, reviewInput, originOf(target)) : prepareOutcomeJudgment(prisma, queue.runId, item.videoId, target.kind, reviewInput, runVideo ?? undefined);
      return [prepared.then((p) => ({ target, prepared: p }))];
    }),
  );
  const blind = (await blindVideoIdsFor(prisma, actor.userId, [item.videoId])).has(item.videoId);

  const counted = await prisma.$transaction(
    async (tx) => {
      // One submission of this item by this reviewer at a time: a double submit waits here, then finds its
      // judgments saved by the first (unchanged, so not saved again) and its assignment done (not counted twice).
      await tx.$queryRaw`SELECT 1 FROM "review_queue_assignment" WHERE "itemId" = ${itemId} AND "reviewerId" = ${actor.userId} FOR UPDATE`;
      const current = new Map(
        (
          await tx.humanJudgment.findMany({
            where: { reviewerId: actor.userId, withdrawn: false, targetKey: { in: [...targets.map((t) => t.judgmentKey), ...(presence?.categories.map((c) => c.judgmentKey) ?? [])] } },
            select: { targetKey: true, value: true, note: true, reason: true, acceptedJudge: true, version: true, origin: true },
          })
        ).map((j) => [j.targetKey, j]),
      );
      for (const { category, note, prepared } of presenceWrites) {
        const saved = current.get(category.judgmentKey);
        if (saved && saved.value === category.answer.value && saved.note === note) continue;
        try {
          await writeJudgment(tx, actor, prepared);
        } catch (error) {
          if (error instanceof ReviewConflictError && error.current.value === category.answer.value && (error.current.note ?? null) === note) continue;
          throw error;
        }
      }
      for (const { target, prepared } of targetWrites) {
        const { input: judgment } = prepared;
        const note = judgment.note ?? null;
        const reason = judgment.reason ?? null;
        const saved = current.get(target.judgmentKey);
        const acceptedJudge = judgment.acceptedJudge === true;
        if (saved && saved.value === judgment.value && saved.note === note && saved.reason === reason && saved.acceptedJudge === acceptedJudge && saved.origin === originOf(target)) continue;
        // An absent category's scores are the declared absent value: stored like any judgment (history, versions),
        // over the reviewer's own earlier values of them, which "absent" replaces.
        const write = given.has(target.key) ? prepared : { ...prepared, input: { ...judgment, expectedVersion: saved?.version } };
        const refused = acceptanceProblem(write, blind);
        if (refused) throw new ValidationError(refused);
        try {
          await writeJudgment(tx, actor, write);
        } catch (error) {
          // A double submit racing itself: the other request saved exactly this.
          if (error instanceof ReviewConflictError && error.current.value === judgment.value && (error.current.note ?? null) === note) continue;
          throw error;
        }
      }
      const marked = await tx.reviewQueueAssignment.updateMany({
        where: { itemId, reviewerId: actor.userId, status: "claimed" },
        data: { status: "done", doneAt: new Date() },
      });
      if (marked.count === 0) return false;
      await tx.reviewQueueItem.update({ where: { id: itemId }, data: { doneCount: { increment: 1 } } });
      return true;
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
  return { itemId, status: "done" as const, counted };
}

/**
 * A presence-first submission checked against the item: every category answered once, and the score
 * targets whose values are not asked (the reviewer says absent, and so does the judge, or the judge is
 * hidden from them in a blind queue) — those get the declared absent value. Null for other queues.
 */
async function presencePlan(prisma: PrismaClient, actor: Actor, queue: ReviewQueue, videoId: string, targets: readonly Target[], answers: readonly PresenceJudgment[] | undefined) {
  const task = await taskOfRun(prisma, queue.runId);
  const categories = presenceCategories(task, queue);
  if (categories.length === 0) {
    if (answers?.length) throw new ValidationError("This queue grades every score: it asks no presence.");
    return null;
  }
  if (!answers) throw new ValidationError("This queue asks presence first: say for every category whether it is present (1) or absent (0).");
  const byCategory = new Map<string, PresenceJudgment>();
  for (const answer of answers) {
    if (!categories.some((c) => c.id === answer.category)) throw new ValidationError(`"${answer.category}" is not a category of this queue.`);
    if (byCategory.has(answer.category)) throw new ValidationError(`"${answer.category}" is answered twice in this submission.`);
    byCategory.set(answer.category, answer);
  }
  const unanswered = categories.filter((c) => !byCategory.has(c.id));
  if (unanswered.length > 0) throw new ValidationError(`Say whether each category is present; missing: ${unanswered.map((c) => `${c.id} (${c.label})`).join(", ")}.`);
  const blind = (await blindVideoIdsFor(prisma, actor.userId, [videoId])).has(videoId);
  const absentTargets = new Set<string>();
  for (const category of categories) {
    const judgeSaysPresent = !blind && judgePresenceOf(task, targets, category.id) === 1;
    if (byCategory.get(category.id)!.value === 1 || judgeSaysPresent) continue;
    for (const target of targets) if (target.category === category.id) absentTargets.add(target.key);
  }
  return {
    absentValue: task.presence!.absentValue,
    absentTargets,
    categories: categories.map((c) => ({ id: c.id, answer: byCategory.get(c.id)!, judgmentKey: judgmentKey(presenceTarget(task.id, videoId, c.id)) })),
  };
}

/**
 * Submits an item and, in the same request, claims the reviewer's next one and returns its review
 * payload (null when nothing is left), so the review screen moves on after one round trip.
 */
export async function submitItemAndTakeNext(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string, raw: SubmitItemInput) {
  const submitted = await submitItem(prisma, actor, queueId, itemId, raw);
  const { itemId: nextId } = await nextItem(prisma, actor, queueId);
  return { ...submitted, next: nextId ? await getQueueItem(prisma, actor, queueId, nextId) : null };
}

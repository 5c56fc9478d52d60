/**
 * Queues that localise (`localize: true`): reviewers also mark where, as spans of the run's task's labels
 * (lib/spans). With presence first, each category the reviewer marks present needs at least one span of it by
 * them on the item's video before the item can be submitted, and one they mark absent none; in other modes the spans are asked, not required
 * (there is no "present" answer to require them by). Spans marked in a queue carry its id, and saving one in a
 * queue follows the queue's claims as a submission does: only a reviewer holding the item may.
 */
import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../errors";
import { type SpanLabel, taskSpanLabels } from "../spans/span-labels";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import { queueInProject } from "./queue-access";
import { presenceCategories, taskOfRun } from "./item-targets";
import type { PresenceJudgment } from "./submit-item.validation";

/** Why a queue of this task and scope cannot localise, or null. */
export function localizeProblem(task: TaskDeclaration, scope: string, itemScopeNoun: string | null): string | null {
  if (itemScopeNoun) return `Spans mark stretches of a video: a queue of ${itemScopeNoun}s does not localise.`;
  if (task.subject !== "video") return `A ${task.label} run judges items, not videos: its queues do not localise.`;
  if (taskSpanLabels(task).length === 0)
    return `${task.label} has no span labels: there is nothing to mark where (scope "${scope}").`;
  return null;
}

/** A localising item as the review screen gets it: the span task and labels, and which labels need a span. */
export interface LocalizeView {
  /** The spans' task (the run's task id): what the timeline marks under. */
  task: string;
  labels: SpanLabel[];
  /** Presence first: the span labels a "present" answer asks a span of (the rest are optional). */
  requiredWhenPresent: string[];
}

export function localizeView(task: TaskDeclaration, queue: Pick<ReviewQueue, "scope" | "mode" | "categories">) {
  const labels = taskSpanLabels(task);
  const ids = new Set(labels.map((l) => l.id));
  return {
    task: task.id,
    labels,
    requiredWhenPresent: presenceCategories(task, queue)
      .map((c) => c.id)
      .filter((id) => ids.has(id)),
  } satisfies LocalizeView;
}

/** The labels of `labels` the reviewer has no span of on this video and item (their own, not withdrawn). */
export async function labelsWithoutSpans(
  prisma: PrismaClient,
  where: { reviewerId: string; videoId: string; itemId: string; task: string },
  labels: readonly string[],
): Promise<string[]> {
  if (labels.length === 0) return [];
  const marked = await prisma.span.findMany({
    where: {
      authorKind: "reviewer",
      authorId: where.reviewerId,
      videoId: where.videoId,
      itemId: where.itemId,
      task: where.task,
      label: { in: [...labels] },
      withdrawn: false,
    },
    distinct: ["label"],
    select: { label: true },
  });
  const have = new Set(marked.map((s) => s.label));
  return labels.filter((l) => !have.has(l));
}

/** A submission of a localising presence-first item that marks a label present with no span of it: 400 naming them. */
export class SpansMissingError extends AppError {
  constructor(labels: readonly SpanLabel[]) {
    super(
      400,
      "spans_missing",
      `Mark where each present label is before submitting; no span of ${labels.map((l) => `${l.id} (${l.label})`).join(", ")}.`,
      { labels: labels.map((l) => l.id) },
    );
  }
}

/** A submission of a localising item that marks a label absent while the reviewer holds a span of it: 400 naming them. */
export class SpansContradictError extends AppError {
  constructor(labels: readonly SpanLabel[]) {
    super(
      400,
      "spans_contradict",
      `You marked ${labels.map((l) => `${l.id} (${l.label})`).join(", ")} absent but hold a span of it on this video: ` +
        "withdraw the span or mark the label present.",
      { labels: labels.map((l) => l.id) },
    );
  }
}

/**
 * Refuses a submission of a localising queue's item whose presence answers contradict the reviewer's spans on the
 * item's video: a category marked present without a span of it, or marked absent while they hold one (any of their
 * spans counts, marked in this queue or before: a span, like a judgment, is the reviewer's statement about the video,
 * not about the queue).
 */
export async function requireSpansOfPresent(
  prisma: PrismaClient,
  actor: Actor,
  queue: ReviewQueue,
  item: { videoId: string; itemId: string },
  presence: readonly PresenceJudgment[] | undefined,
  catalogue: TaskCatalogue,
): Promise<void> {
  if (!queue.localize || !presence) return;
  const task = await taskOfRun(prisma, queue.runId, catalogue);
  const view = localizeView(task, queue);
  const asked = presence.filter((p) => view.requiredWhenPresent.includes(p.category));
  const where = { reviewerId: actor.userId, videoId: item.videoId, itemId: item.itemId, task: task.id };
  const present = asked.filter((p) => p.value === 1).map((p) => p.category);
  const missing = await labelsWithoutSpans(prisma, where, present);
  if (missing.length > 0) throw new SpansMissingError(view.labels.filter((l) => missing.includes(l.id)));
  const absent = asked.filter((p) => p.value === 0).map((p) => p.category);
  const unmarked = new Set(await labelsWithoutSpans(prisma, where, absent));
  const contradicted = absent.filter((label) => !unmarked.has(label));
  if (contradicted.length > 0) throw new SpansContradictError(view.labels.filter((l) => contradicted.includes(l.id)));
}

/**
 * A span saved in a queue (its `queueId`): the queue must be of the video's project, localise, not be archived, hold
 * the video (and item), and the caller must hold that item (claimed or submitted) as a submission requires; the span's
 * task must be the queue's run's. Anything else is refused as the queue refuses a submission.
 */
export async function assertQueueSpanWrite(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  span: { projectId: string; videoId: string; itemId: string; task: string },
): Promise<void> {
  const { actor } = access;
  const queue = await queueInProject(prisma, access, queueId);
  if (queue.projectId !== span.projectId) throw new NotFoundError("No such queue.");
  if (!queue.localize) throw new ValidationError("This queue does not ask where: mark the span outside it.");
  if (queue.archivedAt) throw new ValidationError("This queue is archived.");
  // A video queue's item is the video (''): its spans may still be about one of its judged items (a VBench-2.0
  // question); an item queue's item is that item.
  const item = await prisma.reviewQueueItem.findFirst({
    where: { queueId, videoId: span.videoId, itemId: { in: [...new Set(["", span.itemId])] } },
    orderBy: { itemId: "desc" },
    select: { id: true },
  });
  if (!item) throw new NotFoundError("This video is not an item of this queue.");
  const assignment = await prisma.reviewQueueAssignment.findUnique({
    where: { itemId_reviewerId: { itemId: item.id, reviewerId: actor.userId } },
    select: { status: true },
  });
  if (!assignment) throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
  const task = await taskOfRun(prisma, queue.runId);
  if (task.id !== span.task) throw new ValidationError(`This queue marks spans of ${task.id}, not of ${span.task}.`);
}

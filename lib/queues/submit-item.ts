import type { z } from "zod";
import type { Prisma, PrismaClient, ReviewQueue } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import {
  acceptanceProblem,
  IMPLIED_BY_ABSENCE,
  type JudgmentOrigin,
  prepareOutcomeJudgment,
  preparePresenceJudgment,
  type PreparedJudgment,
  prepareScoreJudgment,
  ReviewConflictError,
  writeJudgment,
} from "../reviews/reviews";
import { scaleViolation } from "../task-modules/task-declaration";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { judgmentKey, presenceTarget } from "../reviews/judgment-key";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { assignedItem } from "./queue-access";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { itemTargets, judgePresenceOf, presenceCategories, taskOfRun, type Target } from "./item-targets";
import { nextItem } from "./next-item";
import { getQueueItem } from "./get-queue-item";
import { requireSpansOfPresent } from "./localize";
import { submitItemSchema, type PresenceJudgment, type SubmitItemInput } from "./submit-item.validation";

function checkRange(target: Target, value: number) {
  if (target.declaration.scale.kind === "categorical") {
    const problem = scaleViolation({ ...target.declaration, label: target.label }, value);
    if (problem) throw new ValidationError(problem);
  }
  if (value < target.min || value > target.max)
    throw new ValidationError(`${target.label}: the value must be between ${target.min} and ${target.max}.`);
}

/**
 * Saves the reviewer's judgments of an item with the same checks and writes as everywhere (history,
 * versions, conflicts) and marks their assignment done, counting it on the item exactly once, all in one
 * transaction after one permission check: a failure on any target saves nothing of the item.
 * Every required target must be judged (a 400 names the missing ones). Submitting again edits the
 * judgments and counts nothing twice; a judgment identical to the saved one is not saved again.
 */
export async function submitItem(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  itemId: string,
  raw: SubmitItemInput,
  /** The request's catalogue (a route's); the queue's project's when absent. */
  requestCatalogue?: TaskCatalogue,
) {
  const { actor } = access;
  const input = submitItemSchema.parse(raw);
  const { queue, item } = await assignedItem(prisma, access, queueId, itemId);
  if (queue.archivedAt) throw new ValidationError("This queue is archived.");
  const catalogue = await catalogueOf(prisma, queue.projectId, requestCatalogue);
  const targets = await itemTargets(prisma, queue, item.videoId, item.itemId, undefined, catalogue);
  const presence = await presencePlan(prisma, actor, queue, item.videoId, targets, input.presence, catalogue);
  const given = checkedJudgments(targets, input.judgments, presence);
  await requireSpansOfPresent(prisma, actor, queue, item, input.presence, catalogue);

  // Each judgment is prepared (looked up, checked) before anything is written; then all of them and the
  // assignment's "done" are written in one transaction, so a failure on any target leaves the item as it was.
  // The queue's permission check above covers every target: they are the queue's run's, of this item.
  const runVideo = await prisma.runVideo.findUnique({
    where: { runId_videoId: { runId: queue.runId, videoId: item.videoId } },
    include: { run: { select: { projectId: true, pipeline: true } } },
  });
  const presenceWrites = presence
    ? await Promise.all(
        presence.categories.map(async (category) => ({
          category,
          note: category.answer.note || null,
          prepared: await preparePresenceJudgment(
            prisma,
            queue.runId,
            item.videoId,
            category.id,
            {
              value: category.answer.value,
              note: category.answer.note || null,
              expectedVersion: category.answer.expectedVersion,
            },
            runVideo ?? undefined,
            catalogue,
          ),
        })),
      )
    : [];
  // An absent category's scores (not asked) hold the absent value because of that answer, not because the reviewer
  // typed it: marked so, agreement does not count them as independent judgments.
  const originOf = (target: Target): JudgmentOrigin =>
    presence?.absentTargets.has(target.key) ? IMPLIED_BY_ABSENCE : "typed";
  const asked = (target: Target) =>
    given.get(target.key) ??
    (presence?.absentTargets.has(target.key) ? { target: target.key, value: presence.absentValue } : undefined);
  const targetWrites = await Promise.all(
    targets.flatMap((target) => {
      const judgment = asked(target);
      if (!judgment) return [];
      const reviewInput = {
        value: judgment.value,
        note: judgment.note || null,
        reason: judgment.reason || null,
        acceptedJudge: judgment.acceptedJudge === true,
        expectedVersion: judgment.expectedVersion,
      };
      const prepared =
        target.kind === SCORE_TARGET_TYPE
          ? prepareScoreJudgment(prisma, target.key, reviewInput, originOf(target), undefined, catalogue)
          : prepareOutcomeJudgment(
              prisma,
              queue.runId,
              item.videoId,
              target.kind,
              reviewInput,
              runVideo ?? undefined,
              catalogue,
            );
      return [prepared.then((p) => ({ target, prepared: p }))];
    }),
  );
  const blind = (await blindVideoIdsFor(prisma, actor.userId, [item.videoId])).has(item.videoId);

  const counted = await prisma.$transaction(
    (tx) =>
      saveSubmission(tx, actor, itemId, { targets, presence, presenceWrites, targetWrites, given, originOf, blind }),
    { maxWait: 10_000, timeout: 20_000 },
  );
  return { itemId, status: "done" as const, counted };
}

type ItemJudgment = z.output<typeof submitItemSchema>["judgments"][number];
type PresencePlan = NonNullable<Awaited<ReturnType<typeof presencePlan>>>;

/** The submitted judgments by target, each checked against the item's targets; refused when a required one is missing. */
function checkedJudgments(
  targets: readonly Target[],
  judgments: readonly ItemJudgment[],
  presence: PresencePlan | null,
): Map<string, ItemJudgment> {
  const byKey = new Map(targets.map((t) => [t.key, t]));
  const given = new Map<string, ItemJudgment>();
  for (const judgment of judgments) {
    const target = byKey.get(judgment.target);
    if (!target) throw new ValidationError(`"${judgment.target}" is not something to judge in this item.`);
    if (given.has(judgment.target)) throw new ValidationError(`"${target.label}" is judged twice in this submission.`);
    checkRange(target, judgment.value);
    if (presence?.absentTargets.has(target.key) && judgment.value !== presence.absentValue) {
      throw new ValidationError(
        `${target.label}: ${target.category} is marked absent, so its scores are ${presence.absentValue}; mark it present to grade it.`,
      );
    }
    given.set(judgment.target, judgment);
  }
  const missing = targets.filter((t) => t.required && !given.has(t.key) && !presence?.absentTargets.has(t.key));
  if (missing.length > 0)
    throw new ValidationError(
      `Judge every target before submitting; missing: ${missing.map((t) => t.label).join(", ")}.`,
    );
  return given;
}

/** A submission's prepared writes, ready to be saved in one transaction. */
interface Submission {
  targets: readonly Target[];
  presence: PresencePlan | null;
  presenceWrites: { category: PresencePlan["categories"][number]; note: string | null; prepared: PreparedJudgment }[];
  targetWrites: { target: Target; prepared: PreparedJudgment }[];
  given: Map<string, ItemJudgment>;
  originOf: (target: Target) => JudgmentOrigin;
  blind: boolean;
}

/** Saves the submission's judgments and marks the assignment done, in the caller's transaction: whether it counted. */
async function saveSubmission(
  tx: Prisma.TransactionClient,
  actor: Actor,
  itemId: string,
  submission: Submission,
): Promise<boolean> {
  const { targets, presence, presenceWrites, targetWrites, given, originOf, blind } = submission;
  // One submission of this item by this reviewer at a time: a double submit waits here, then finds its
  // judgments saved by the first (unchanged, so not saved again) and its assignment done (not counted twice).
  await tx.$queryRaw`SELECT 1 FROM "review_queue_assignment" WHERE "itemId" = ${itemId} AND "reviewerId" = ${actor.userId} FOR UPDATE`;
  const current = new Map(
    (
      await tx.humanJudgment.findMany({
        where: {
          reviewerId: actor.userId,
          withdrawn: false,
          targetKey: {
            in: [...targets.map((t) => t.judgmentKey), ...(presence?.categories.map((c) => c.judgmentKey) ?? [])],
          },
        },
        select: {
          targetKey: true,
          value: true,
          note: true,
          reason: true,
          acceptedJudge: true,
          version: true,
          origin: true,
        },
      })
    ).map((j) => [j.targetKey, j]),
  );
  for (const { category, note, prepared } of presenceWrites) {
    const saved = current.get(category.judgmentKey);
    if (saved && saved.value === category.answer.value && saved.note === note) continue;
    try {
      await writeJudgment(tx, actor, prepared);
    } catch (error) {
      if (
        error instanceof ReviewConflictError &&
        error.current.value === category.answer.value &&
        (error.current.note ?? null) === note
      )
        continue;
      throw error;
    }
  }
  for (const { target, prepared } of targetWrites) {
    const { input: judgment } = prepared;
    const note = judgment.note ?? null;
    const reason = judgment.reason ?? null;
    const saved = current.get(target.judgmentKey);
    const acceptedJudge = judgment.acceptedJudge === true;
    if (
      saved &&
      saved.value === judgment.value &&
      saved.note === note &&
      saved.reason === reason &&
      saved.acceptedJudge === acceptedJudge &&
      saved.origin === originOf(target)
    )
      continue;
    // An absent category's scores are the declared absent value: stored like any judgment (history, versions),
    // over the reviewer's own earlier values of them, which "absent" replaces.
    const write = given.has(target.key)
      ? prepared
      : { ...prepared, input: { ...judgment, expectedVersion: saved?.version } };
    const refused = acceptanceProblem(write, blind);
    if (refused) throw new ValidationError(refused);
    try {
      await writeJudgment(tx, actor, write);
    } catch (error) {
      // A double submit racing itself: the other request saved exactly this.
      if (
        error instanceof ReviewConflictError &&
        error.current.value === judgment.value &&
        (error.current.note ?? null) === note
      )
        continue;
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
}

/**
 * A presence-first submission checked against the item: every category answered once, and the score
 * targets whose values are not asked (the reviewer says absent, and so does the judge, or the judge is
 * hidden from them in a blind queue) — those get the declared absent value. Null for other queues.
 */
async function presencePlan(
  prisma: PrismaClient,
  actor: Actor,
  queue: ReviewQueue,
  videoId: string,
  targets: readonly Target[],
  answers: readonly PresenceJudgment[] | undefined,
  catalogue: TaskCatalogue,
) {
  const task = await taskOfRun(prisma, queue.runId, catalogue);
  const categories = presenceCategories(task, queue);
  if (categories.length === 0) {
    if (answers?.length) throw new ValidationError("This queue grades every score: it asks no presence.");
    return null;
  }
  if (!answers)
    throw new ValidationError(
      "This queue asks presence first: say for every category whether it is present (1) or absent (0).",
    );
  const byCategory = new Map<string, PresenceJudgment>();
  for (const answer of answers) {
    if (!categories.some((c) => c.id === answer.category))
      throw new ValidationError(`"${answer.category}" is not a category of this queue.`);
    if (byCategory.has(answer.category))
      throw new ValidationError(`"${answer.category}" is answered twice in this submission.`);
    byCategory.set(answer.category, answer);
  }
  const unanswered = categories.filter((c) => !byCategory.has(c.id));
  if (unanswered.length > 0)
    throw new ValidationError(
      `Say whether each category is present; missing: ${unanswered.map((c) => `${c.id} (${c.label})`).join(", ")}.`,
    );
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
    categories: categories.map((c) => ({
      id: c.id,
      answer: byCategory.get(c.id)!,
      judgmentKey: judgmentKey(presenceTarget(task.id, videoId, c.id)),
    })),
  };
}

/**
 * Submits an item and, in the same request, claims the reviewer's next one and returns its review
 * payload (null when nothing is left), so the review screen moves on after one round trip.
 */
export async function submitItemAndTakeNext(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  itemId: string,
  raw: SubmitItemInput,
  given?: TaskCatalogue,
) {
  const submitted = await submitItem(prisma, access, queueId, itemId, raw, given);
  const { itemId: nextId } = await nextItem(prisma, access, queueId);
  return { ...submitted, next: nextId ? await getQueueItem(prisma, access, queueId, nextId, given) : null };
}

/**
 * Curation queues (issue 15): humans accept, edit or reject every constructed question of a candidate set,
 * `curatorsPerQuestion` curators each (lib/tasks/construction/curation.ts decides the outcome by majority). A queue
 * holds no rows of its own per item: its items are the set's candidates read live through CandidateView, so
 * a candidate that a filter removes or a curator restores enters or leaves a "kept" queue at once.
 *
 * Next item for a curator: the first candidate (externalId order) with fewer than N decisions that this
 * curator has not decided. There are no claims: two curators may get the same candidate at once, which is
 * what N > 1 wants; with N = 1 the second decision is kept too and counts in the majority.
 */
import type { CurationQueue, Prisma, PrismaClient } from "../../generated/prisma/client";
import { type ProjectAccess, roleCan } from "../../authz/permissions";
import { AppError, ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { MC_LETTERS } from "./balance-answer-letters";
import { CANDIDATE_SET_KIND, type CandidateView, loadCandidateViews } from "./candidate-views";
import {
  CurationConflictError,
  curationOutcome,
  curatorAgreement,
  type CuratedFields,
  type CurationDecisionKind,
  type CurationEdits,
  type CurationStatus,
  type DecisionRow,
  saveCuration,
} from "./curation";
import {
  createCurationQueueSchema,
  type CreateCurationQueueInput,
  type CurationPool,
  curationBodySchema,
} from "./curation-queues.validation";
import type { NextCurationItemAnswer } from "./curation-queue-next.types";
import type { z } from "zod";

/**
 * The fields a curator sees and may edit. A transformed candidate is shown with the correct answer as A and
 * the four wrong ones after it; the export letters them again over the whole benchmark, so the letters a
 * curator sees say only which option is correct.
 */
export function curatedFieldsOf(view: CandidateView): CuratedFields {
  if (view.transform?.state === "transformed") {
    const texts = [view.payload.answer, ...view.transform.wrong];
    return {
      question: view.payload.question,
      options: Object.fromEntries(texts.map((text, i) => [MC_LETTERS[i]!, text])),
      answer: MC_LETTERS[0],
      category: view.category,
    };
  }
  return { question: view.payload.question, options: null, answer: view.payload.answer, category: view.category };
}

/** Whether the queue holds the candidate: "kept" holds what the filters kept, "all" every candidate. */
export function inCurationPool(view: CandidateView, scope: CurationPool): boolean {
  return scope === "all" || view.fate.state === "kept";
}

/** A curation queue of the access's project; one of another project is "No such curation queue.", as a missing one. */
async function queueOf(prisma: PrismaClient, access: ProjectAccess, queueId: string): Promise<CurationQueue> {
  const queue = await prisma.curationQueue.findFirst({ where: { id: queueId, projectId: access.projectId } });
  if (!queue) throw new NotFoundError("No such curation queue.");
  return queue;
}

function assertMayCurate(queue: Pick<CurationQueue, "assigneeIds">, userId: string) {
  if (queue.assigneeIds.length > 0 && !queue.assigneeIds.includes(userId))
    throw new ForbiddenError("This curation queue is assigned to other curators.");
}

/** Assignees' user ids by email; each must be a member who may curate (reviewer or owner). */
async function curatorIdsByEmail(
  prisma: PrismaClient,
  projectId: string,
  emails: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(emails)];
  if (!unique.length) return [];
  const users = await prisma.user.findMany({ where: { email: { in: unique } }, select: { id: true, email: true } });
  const members = await prisma.projectMember.findMany({
    where: { projectId, userId: { in: users.map((u) => u.id) } },
    select: { userId: true, role: true },
  });
  const curating = new Set(members.filter((m) => roleCan(m.role, "scores.review")).map((m) => m.userId));
  const missing = unique.filter((e) => !users.some((u) => u.email === e && curating.has(u.id)));
  if (missing.length) throw new ValidationError(`Not a reviewer or owner of this project: ${missing.join(", ")}.`);
  return unique.map((e) => users.find((u) => u.email === e)!.id);
}

/** Owners make a queue over one of the project's candidate sets. */
export async function createCurationQueue(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage">,
  raw: CreateCurationQueueInput,
) {
  const { actor, projectId } = access;
  const input = createCurationQueueSchema.parse(raw);
  const set = await prisma.itemSet.findUnique({
    where: { id: input.candidateSetId },
    select: { projectId: true, kind: true },
  });
  if (!set || set.projectId !== projectId || set.kind !== CANDIDATE_SET_KIND)
    throw new ValidationError("No such candidate set in this project.");
  const assigneeIds = await curatorIdsByEmail(prisma, projectId, input.assignees);
  const queue = await prisma.curationQueue.create({
    data: {
      projectId,
      candidateSetId: input.candidateSetId,
      name: input.name,
      curatorsPerQuestion: input.curatorsPerQuestion,
      scope: input.scope,
      assigneeIds,
      guidelines: input.guidelines,
      createdById: actor.userId,
    },
  });
  return (await summarize(prisma, access, [queue], actor.userId))[0]!;
}

export interface CandidateDecision extends DecisionRow {
  itemId: string;
  reason: string | null;
  version: number;
}

/** Every curator's current decision on each of these candidates, oldest first, by candidate. */
export async function decisionsOf(
  prisma: PrismaClient,
  itemIds: readonly string[],
): Promise<Map<string, CandidateDecision[]>> {
  const rows = itemIds.length
    ? await prisma.curationDecision.findMany({
        where: { itemId: { in: [...itemIds] } },
        orderBy: { createdAt: "asc" },
        select: {
          itemId: true,
          curatorId: true,
          decision: true,
          edits: true,
          reason: true,
          version: true,
          updatedAt: true,
        },
      })
    : [];
  const byItem = new Map<string, CandidateDecision[]>();
  for (const row of rows) {
    const decision = { ...row, decision: row.decision as CurationDecisionKind, edits: row.edits as CurationEdits };
    byItem.set(row.itemId, [...(byItem.get(row.itemId) ?? []), decision]);
  }
  return byItem;
}

/** The curators per question that decide a candidate set's outcomes: its latest curation queue's, 1 without a queue. */
export async function curatorsPerQuestionOf(prisma: PrismaClient, candidateSetId: string): Promise<number> {
  const queue = await prisma.curationQueue.findFirst({
    where: { candidateSetId },
    orderBy: { createdAt: "desc" },
    select: { curatorsPerQuestion: true },
  });
  return queue?.curatorsPerQuestion ?? 1;
}

export type StatusCounts = Record<CurationStatus, number>;

/** The queue's candidates with their decisions and outcome. */
async function queueCandidates(
  prisma: PrismaClient,
  access: ProjectAccess,
  queue: CurationQueue,
  views?: CandidateView[],
) {
  const all = views ?? (await loadCandidateViews(prisma, access, queue.candidateSetId));
  const inScope = all.filter((view) => inCurationPool(view, queue.scope as CurationPool));
  const decisions = await decisionsOf(
    prisma,
    inScope.map((v) => v.itemId),
  );
  return inScope.map((view) => {
    const made = decisions.get(view.itemId) ?? [];
    return { view, decisions: made, outcome: curationOutcome(curatedFieldsOf(view), made, queue.curatorsPerQuestion) };
  });
}

async function summarize(
  prisma: PrismaClient,
  access: ProjectAccess,
  queues: readonly CurationQueue[],
  userId: string,
) {
  const ids = [...new Set(queues.flatMap((q) => q.assigneeIds))];
  const users = ids.length
    ? await prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })
    : [];
  const viewsBySet = new Map<string, CandidateView[]>();
  const setNames = new Map(
    (
      await prisma.itemSet.findMany({
        where: { id: { in: queues.map((q) => q.candidateSetId) } },
        select: { id: true, name: true },
      })
    ).map((s) => [s.id, s.name]),
  );
  const summaries = [];
  for (const queue of queues) {
    if (!viewsBySet.has(queue.candidateSetId))
      viewsBySet.set(queue.candidateSetId, await loadCandidateViews(prisma, access, queue.candidateSetId));
    const candidates = await queueCandidates(prisma, access, queue, viewsBySet.get(queue.candidateSetId));
    const counts: StatusCounts = { accepted: 0, rejected: 0, disputed: 0, pending: 0 };
    for (const c of candidates) counts[c.outcome.status] += 1;
    const decisions = candidates.flatMap((c) => c.decisions);
    summaries.push({
      id: queue.id,
      projectId: queue.projectId,
      name: queue.name,
      candidateSetId: queue.candidateSetId,
      candidateSetName: setNames.get(queue.candidateSetId) ?? queue.candidateSetId,
      curatorsPerQuestion: queue.curatorsPerQuestion,
      scope: queue.scope as CurationPool,
      guidelines: queue.guidelines,
      assignees: queue.assigneeIds.map((id) => ({ id, email: users.find((u) => u.id === id)?.email ?? id })),
      createdAt: queue.createdAt,
      progress: {
        candidates: candidates.length,
        /** Candidates with their N decisions. */
        complete: candidates.filter((c) => c.decisions.length >= queue.curatorsPerQuestion).length,
        decisions: decisions.length,
        mine: decisions.filter((d) => d.curatorId === userId).length,
      },
      counts,
      agreement: decisions.length ? curatorAgreement(decisions) : null,
    });
  }
  return summaries;
}

export async function listCurationQueues(prisma: PrismaClient, access: ProjectAccess) {
  const { actor, projectId } = access;
  const queues = await prisma.curationQueue.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } });
  return summarize(prisma, access, queues, actor.userId);
}

/** The project's candidate sets, newest first: what a new curation queue may be over. */
export async function listCandidateSets(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId } = access;
  return prisma.itemSet.findMany({
    where: { projectId, kind: CANDIDATE_SET_KIND },
    orderBy: { importedAt: "desc" },
    select: { id: true, name: true, itemCount: true },
  });
}

/** A queue's name for its page, or null when the project has no such queue (a malformed id included). */
export async function curationQueueName(
  prisma: PrismaClient,
  access: ProjectAccess,
  queueId: string,
): Promise<string | null> {
  const { projectId } = access;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(queueId)) return null;
  const queue = await prisma.curationQueue.findFirst({ where: { id: queueId, projectId }, select: { name: true } });
  return queue?.name ?? null;
}

export async function getCurationQueue(prisma: PrismaClient, access: ProjectAccess, queueId: string) {
  const queue = await queueOf(prisma, access, queueId);
  return (await summarize(prisma, access, [queue], access.actor.userId))[0]!;
}

/**
 * The next candidate for the calling curator: fewer than N decisions and none of theirs, skipping `skip`
 * (what the screen already shows, while it prefetches). null when there is none left for them.
 */
export async function nextCurationItem(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  options: { skip?: readonly string[] } = {},
) {
  const { actor } = access;
  const queue = await queueOf(prisma, access, queueId);
  assertMayCurate(queue, actor.userId);
  const skip = new Set(options.skip ?? []);
  const candidates = await queueCandidates(prisma, access, queue);
  const next = candidates.find(
    (c) =>
      !skip.has(c.view.itemId) &&
      c.decisions.length < queue.curatorsPerQuestion &&
      !c.decisions.some((d) => d.curatorId === actor.userId),
  );
  const left = candidates.filter(
    (c) => c.decisions.length < queue.curatorsPerQuestion && !c.decisions.some((d) => d.curatorId === actor.userId),
  ).length;
  return { itemId: next?.view.itemId ?? null, left } satisfies NextCurationItemAnswer;
}

export interface StepFrame {
  step: number;
  text: string;
  start: number;
  end: number;
  /** The latest frame set's frame nearest to the step's start; null when the video has no frames. */
  frame: { id: string; timestampS: number; url: string } | null;
}

/** Everything the curation screen shows for one candidate of the queue. */
export async function curationItem(prisma: PrismaClient, access: ProjectAccess, queueId: string, itemId: string) {
  const { actor } = access;
  const queue = await queueOf(prisma, access, queueId);
  const candidates = await queueCandidates(prisma, access, queue);
  const index = candidates.findIndex((c) => c.view.itemId === itemId);
  if (index < 0) throw new NotFoundError("This candidate is not in the curation queue.");
  const { view, decisions, outcome } = candidates[index]!;
  const video = await prisma.video.findUniqueOrThrow({
    where: { id: view.videoId },
    select: { id: true, relativePath: true },
  });
  const frameSet = await prisma.frameSet.findFirst({
    where: { videoId: view.videoId },
    orderBy: { createdAt: "desc" },
    include: { frames: { orderBy: { index: "asc" } } },
  });
  const frames = frameSet?.frames ?? [];
  const nearest = (t: number) =>
    frames.reduce<(typeof frames)[number] | null>(
      (best, f) => (!best || Math.abs(f.timestampS - t) < Math.abs(best.timestampS - t) ? f : best),
      null,
    );
  const stepFrames: StepFrame[] = view.payload.clip.steps.map((step, i) => {
    const frame = nearest(step.start);
    return {
      step: i + 1,
      text: step.text,
      start: step.start,
      end: step.end,
      frame: frame ? { id: frame.id, timestampS: frame.timestampS, url: `/api/v1/frames/${frame.id}/image` } : null,
    };
  });
  const mine = decisions.find((d) => d.curatorId === actor.userId) ?? null;
  const project = await prisma.project.findUniqueOrThrow({
    where: { id: queue.projectId },
    select: { guidelines: true },
  });
  return {
    queue: {
      id: queue.id,
      projectId: queue.projectId,
      name: queue.name,
      curatorsPerQuestion: queue.curatorsPerQuestion,
      scope: queue.scope as CurationPool,
    },
    guidelines: { project: project.guidelines, queue: queue.guidelines },
    candidate: {
      itemId: view.itemId,
      externalId: view.externalId,
      dataset: view.payload.dataset,
      granularity: view.payload.granularity,
      clip: view.payload.clip,
      fields: curatedFieldsOf(view),
      generatorReason: view.payload.reason,
      filters: view.decisions,
      fate: view.fate,
      restoredFrom: view.restoredFrom,
      transform: view.transform,
    },
    video: { id: video.id, fileName: video.relativePath, url: `/api/v1/videos/${video.id}/file` },
    stepFrames,
    mine: mine ? { decision: mine.decision, edits: mine.edits, reason: mine.reason, version: mine.version } : null,
    decided: decisions.length,
    status: outcome.status,
    nav: {
      index,
      count: candidates.length,
      previousItemId: candidates[index - 1]?.view.itemId ?? null,
      nextItemId: candidates[index + 1]?.view.itemId ?? null,
    },
  };
}

/** The candidate's view, found through its set (so the fields a curator edits are the ones the screen showed). */
async function candidateView(prisma: PrismaClient, access: ProjectAccess, itemId: string): Promise<CandidateView> {
  const item = await prisma.item.findFirst({
    where: { id: itemId, projectId: access.projectId },
    select: { setId: true, projectId: true },
  });
  if (!item) throw new NotFoundError("No such candidate question.");
  const view = (
    await loadCandidateViews(prisma, access, item.setId).catch((error) => {
      throw error instanceof NotFoundError ? new NotFoundError("No such candidate question.") : error;
    })
  ).find((v) => v.itemId === itemId);
  if (!view) throw new NotFoundError("No such candidate question.");
  return view;
}

/** A 409 that carries the curator's current decision in full, so the screen can show it and offer to re-apply. */
export class CurationConflictWithCurrentError extends AppError {
  constructor(
    message: string,
    current: {
      version: number;
      decision: string;
      edits: Prisma.JsonValue;
      reason: string | null;
      updatedAt: Date;
    } | null,
  ) {
    super(409, "conflict", message, { current });
  }
}

/** `PUT /api/v1/items/:itemId/curation`: saves the caller's decision (curation.ts's saveCuration). */
export async function saveCandidateCuration(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  itemId: string,
  raw: z.input<typeof curationBodySchema>,
) {
  const { actor } = access;
  const body = curationBodySchema.parse(raw);
  const view = await candidateView(prisma, access, itemId);
  try {
    const saved = await saveCuration(prisma, access, { itemId, ...body }, () => curatedFieldsOf(view));
    return {
      id: saved.id,
      itemId: saved.itemId,
      decision: saved.decision,
      edits: saved.edits,
      reason: saved.reason,
      version: saved.version,
      updatedAt: saved.updatedAt,
    };
  } catch (error) {
    if (!(error instanceof CurationConflictError)) throw error;
    const current = await prisma.curationDecision.findUnique({
      where: { itemId_curatorId: { itemId, curatorId: actor.userId } },
      select: { version: true, decision: true, edits: true, reason: true, updatedAt: true },
    });
    throw new CurationConflictWithCurrentError(error.message, current);
  }
}

/** `GET /api/v1/items/:itemId/curation`: every curator's decision on the candidate and the append-only history. */
export async function candidateCuration(prisma: PrismaClient, access: ProjectAccess, itemId: string) {
  const view = await candidateView(prisma, access, itemId);
  const rows = await prisma.curationDecision.findMany({
    where: { itemId },
    orderBy: { createdAt: "asc" },
    include: { history: { orderBy: [{ version: "asc" }, { at: "asc" }] } },
  });
  const users = await prisma.user.findMany({
    where: { id: { in: rows.map((r) => r.curatorId) } },
    select: { id: true, email: true },
  });
  const email = (id: string) => users.find((u) => u.id === id)?.email ?? id;
  const queue = await prisma.curationQueue.findFirst({
    where: { candidateSetId: view.setId },
    orderBy: { createdAt: "desc" },
    select: { curatorsPerQuestion: true },
  });
  const n = queue?.curatorsPerQuestion ?? 1;
  const outcome = curationOutcome(
    curatedFieldsOf(view),
    rows.map((r) => ({
      curatorId: r.curatorId,
      decision: r.decision as CurationDecisionKind,
      edits: r.edits as CurationEdits,
      updatedAt: r.updatedAt,
    })),
    n,
  );
  return {
    itemId,
    fields: curatedFieldsOf(view),
    curatorsPerQuestion: n,
    outcome,
    decisions: rows.map((r) => ({
      curator: email(r.curatorId),
      curatorId: r.curatorId,
      decision: r.decision,
      edits: r.edits,
      reason: r.reason,
      version: r.version,
      updatedAt: r.updatedAt,
    })),
    history: rows
      .flatMap((r) =>
        r.history.map((h) => ({
          curator: email(h.curatorId),
          version: h.version,
          before: h.before,
          after: h.after,
          at: h.at,
        })),
      )
      .sort((a, b) => a.at.getTime() - b.at.getTime()),
  };
}

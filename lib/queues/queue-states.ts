/**
 * A queue's states beyond its items: archived (hidden from the default list, claims refused) and
 * assigned to named reviewers (only they may claim its items), and finished (every item has its N
 * reviewers). Owners change them (`queues.manage`, lib/authz/permissions.ts).
 */
import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import { type ProjectAccess, roleCan } from "../authz/permissions";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { queueStateSchema, type QueueHandOut, type QueueStateInput } from "./queue-states.validation";

/** Why the user may not claim items of the queue (archived, or assigned to others), or null. */
export function claimRefusal(queue: Pick<ReviewQueue, "archivedAt" | "assigneeIds">, userId: string): string | null {
  if (queue.archivedAt) return "This queue is archived.";
  if (queue.assigneeIds.length > 0 && !queue.assigneeIds.includes(userId))
    return "This queue is assigned to other reviewers.";
  return null;
}

/** Throws when the user may not claim items of the queue: archived (400) or assigned to others (403). */
export function assertMayClaim(queue: Pick<ReviewQueue, "archivedAt" | "assigneeIds">, userId: string): void {
  const refusal = claimRefusal(queue, userId);
  if (!refusal) return;
  throw queue.archivedAt ? new ValidationError(refusal) : new ForbiddenError(refusal);
}

/** The assignees with their emails, in the order the owner gave them. */
export async function assigneesOf(
  prisma: PrismaClient,
  queues: readonly Pick<ReviewQueue, "id" | "assigneeIds">[],
): Promise<Map<string, { id: string; email: string }[]>> {
  const ids = [...new Set(queues.flatMap((q) => q.assigneeIds))];
  const users = ids.length
    ? await prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })
    : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  return new Map(queues.map((q) => [q.id, q.assigneeIds.map((id) => ({ id, email: email.get(id) ?? id }))]));
}

/**
 * Archives or restores a queue, assigns it to named reviewers (members who may review: owners and
 * reviewers), by email, and sets its hand-out order. Owners only; unknown emails or members who may not review
 * are a 400 naming them.
 */
export async function updateQueueState(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage">,
  queueId: string,
  raw: QueueStateInput,
) {
  const queue = await prisma.reviewQueue.findFirst({ where: { id: queueId, projectId: access.projectId } });
  if (!queue) throw new NotFoundError("No such queue.");
  const input = queueStateSchema.parse(raw);
  let assigneeIds: string[] | undefined;
  if (input.assignees) {
    const emails = [...new Set(input.assignees)];
    const users = await prisma.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } });
    const members = await prisma.projectMember.findMany({
      where: { projectId: queue.projectId, userId: { in: users.map((u) => u.id) } },
      select: { userId: true, role: true },
    });
    const reviewing = new Set(members.filter((m) => roleCan(m.role, "scores.review")).map((m) => m.userId));
    const missing = emails.filter((e) => !users.some((u) => u.email === e && reviewing.has(u.id)));
    if (missing.length) throw new ValidationError(`Not a reviewer or owner of this project: ${missing.join(", ")}.`);
    assigneeIds = emails.map((e) => users.find((u) => u.email === e)!.id);
  }
  const updated = await prisma.reviewQueue.update({
    where: { id: queue.id },
    data: {
      ...(input.archived === undefined ? {} : { archivedAt: input.archived ? (queue.archivedAt ?? new Date()) : null }),
      ...(assigneeIds ? { assigneeIds } : {}),
      ...(input.handOut ? { handOut: input.handOut } : {}),
    },
  });
  return {
    id: updated.id,
    archived: updated.archivedAt !== null,
    archivedAt: updated.archivedAt,
    assignees: (await assigneesOf(prisma, [updated])).get(updated.id)!,
    handOut: updated.handOut as QueueHandOut,
  };
}

import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { requireSiteAdmin, type Actor } from "./actor";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password";

/**
 * What happens to an account after it was created: an admin resets its password, deactivates or
 * reactivates it, or deletes it. (A user changes their own password through better-auth's
 * `changePassword`, which checks the current one: app/(app)/settings/password.)
 *
 * Deactivation is the way to retire an account: the `user` row stays, so every judgment, gold value,
 * curation decision and run that names it keeps its name; sign-in, sessions and API keys end.
 * Deletion removes the row and is therefore allowed only for an account that nothing names yet
 * (see `accountRecords`); otherwise it is refused with the advice to deactivate.
 */

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`);

export const userIdSchema = z.string().trim().min(1).max(64);

/** A password an admin hands over once: 18 random bytes, 24 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

async function targetUser(prisma: PrismaClient, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFoundError("No such user.");
  return user;
}

/**
 * Sets a new password for `userId` (a generated one unless given) and ends the account's sessions, so
 * whoever held the old password is signed out. Returns the password, to be shown once.
 */
export async function resetPassword(
  prisma: PrismaClient,
  actor: Actor,
  userId: string,
  password?: string,
): Promise<{ email: string; password: string }> {
  requireSiteAdmin(actor);
  const user = await targetUser(prisma, userId);
  const chosen = password ?? generatePassword();
  const parsed = newPasswordSchema.safeParse(chosen);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message);
  // The same argon2id function better-auth is configured with (lib/auth/auth.ts), so it signs in against it.
  const passwordHash = await hashPassword(parsed.data);
  await prisma.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({
      where: { userId, providerId: "credential" },
      data: { password: passwordHash },
    });
    if (updated.count === 0) {
      await tx.account.create({
        data: {
          id: randomBytes(16).toString("base64url"),
          accountId: userId,
          providerId: "credential",
          userId,
          password: passwordHash,
        },
      });
    }
    await tx.session.deleteMany({ where: { userId } });
  });
  return { email: user.email, password: parsed.data };
}

/** Refuses to leave the site without an active admin, and an admin from locking themselves out. */
async function assertNotLastAdmin(
  prisma: PrismaClient,
  actor: Actor,
  user: { id: string; isAdmin: boolean },
  doing: string,
) {
  if (user.id === actor.userId) throw new ConflictError(`You cannot ${doing} your own account.`);
  if (!user.isAdmin) return;
  const otherActiveAdmins = await prisma.user.count({
    where: { isAdmin: true, deactivatedAt: null, id: { not: user.id } },
  });
  if (otherActiveAdmins === 0)
    throw new ConflictError(`This is the last active site admin; make another admin before you ${doing} it.`);
}

/**
 * Deactivates an account: at once, its sessions are deleted, its API keys revoked (a reactivated user
 * creates new keys) and its unsubmitted queue claims released, and it can no longer sign in (lib/auth/deactivated-accounts.ts refuses the
 * session with the wrong-password answer). Its records keep naming it.
 */
export async function deactivateUser(prisma: PrismaClient, actor: Actor, userId: string) {
  requireSiteAdmin(actor);
  const user = await targetUser(prisma, userId);
  await assertNotLastAdmin(prisma, actor, user, "deactivate");
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    await tx.user.update({ where: { id: userId }, data: { deactivatedAt: user.deactivatedAt ?? now } });
    const sessions = await tx.session.deleteMany({ where: { userId } });
    const keys = await tx.apiKey.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    // Unsubmitted queue claims go back to the queue now rather than when they time out; submitted ones stay.
    const claims = await tx.reviewQueueAssignment.deleteMany({ where: { reviewerId: userId, status: "claimed" } });
    return {
      email: user.email,
      sessionsEnded: sessions.count,
      apiKeysRevoked: keys.count,
      claimsReleased: claims.count,
    };
  });
}

export async function reactivateUser(prisma: PrismaClient, actor: Actor, userId: string) {
  requireSiteAdmin(actor);
  const user = await targetUser(prisma, userId);
  await prisma.user.update({ where: { id: userId }, data: { deactivatedAt: null } });
  return { email: user.email };
}

/**
 * Every column that names a user by id (without a foreign key, so records outlive nothing): the model's
 * Prisma name, the column, and what its records are called in a refusal. A test keeps this list equal
 * to the schema's user-id columns, so a new one cannot be forgotten.
 */
export const USER_REFERENCE_COLUMNS = [
  { model: "humanJudgment", field: "reviewerId", kind: "judgments" },
  { model: "humanJudgmentHistory", field: "reviewerId", kind: "judgments" },
  { model: "reviewQueueAssignment", field: "reviewerId", kind: "queue items" },
  { model: "goldJudgment", field: "adjudicatorId", kind: "gold values" },
  { model: "goldJudgmentHistory", field: "adjudicatorId", kind: "gold values" },
  { model: "curationDecision", field: "curatorId", kind: "curation decisions" },
  { model: "curationDecisionHistory", field: "curatorId", kind: "curation decisions" },
  { model: "qaCandidateRestore", field: "restoredById", kind: "restored candidates" },
  { model: "video", field: "createdById", kind: "videos" },
  { model: "uploadSession", field: "createdById", kind: "videos" },
  { model: "frameSet", field: "createdById", kind: "videos" },
  { model: "promptList", field: "createdById", kind: "prompt lists" },
  { model: "judgeEndpoint", field: "createdById", kind: "endpoints" },
  { model: "judgeRun", field: "createdById", kind: "runs" },
  { model: "reviewQueue", field: "createdById", kind: "queues" },
  { model: "reviewQueue", field: "assigneeIds", kind: "queues" },
  { model: "curationQueue", field: "createdById", kind: "queues" },
  { model: "curationQueue", field: "assigneeIds", kind: "queues" },
  { model: "promptVersion", field: "createdById", kind: "prompt versions" },
  { model: "rubricTask", field: "createdById", kind: "rubric tasks" },
  { model: "rubricVersion", field: "createdById", kind: "rubric task versions" },
  { model: "webhook", field: "createdById", kind: "webhooks" },
  { model: "alignmentRun", field: "createdById", kind: "judge alignments" },
  { model: "pipelineSettingsVersion", field: "createdById", kind: "run settings versions" },
  { model: "projectDeletion", field: "requestedById", kind: "project deletions" },
  { model: "videoDeletion", field: "requestedById", kind: "video deletions" },
  { model: "labelSet", field: "importedById", kind: "imported sets" },
  { model: "itemSet", field: "importedById", kind: "imported sets" },
  { model: "pairSet", field: "createdById", kind: "pair sets" },
  { model: "pairSet", field: "assigneeIds", kind: "pair sets" },
  // Every verdict a reviewer gives on a pair is on a pair they claimed.
  { model: "pairAssignment", field: "reviewerId", kind: "pair verdicts" },
] as const;

type CountDelegate = { count(args: { where: Record<string, unknown> }): Promise<number> };

/** How many records name the account, by kind (only kinds with some). */
export async function accountRecords(prisma: PrismaClient, userId: string): Promise<Record<string, number>> {
  const counts = await Promise.all(
    USER_REFERENCE_COLUMNS.map(({ model, field }) =>
      (prisma[model] as unknown as CountDelegate).count({
        where: { [field]: field === "assigneeIds" ? { has: userId } : userId },
      }),
    ),
  );
  const byKind: Record<string, number> = {};
  USER_REFERENCE_COLUMNS.forEach(({ kind }, i) => {
    if (counts[i]! > 0) byKind[kind] = (byKind[kind] ?? 0) + counts[i]!;
  });
  return byKind;
}

/**
 * Deletes an account that nothing names yet (e.g. one created by mistake). An account with judgments
 * or other records is refused: deactivating it keeps its name on them. So is the last owner of a project.
 */
export async function deleteUser(prisma: PrismaClient, actor: Actor, userId: string) {
  requireSiteAdmin(actor);
  const user = await targetUser(prisma, userId);
  await assertNotLastAdmin(prisma, actor, user, "delete");
  const records = Object.entries(await accountRecords(prisma, userId));
  if (records.length > 0) {
    throw new ConflictError(
      `${user.email} cannot be deleted: it is named by ${records.map(([kind, count]) => `${count} ${kind}`).join(", ")}. Deactivate it instead; its records keep its name.`,
    );
  }
  const soleOwnerOf = await prisma.project.findMany({
    where: {
      members: { some: { userId, role: "owner" } },
      NOT: { members: { some: { userId: { not: userId }, role: "owner" } } },
    },
    select: { name: true },
  });
  if (soleOwnerOf.length > 0) {
    throw new ConflictError(
      `${user.email} cannot be deleted: it is the only owner of ${soleOwnerOf.map((p) => `“${p.name}”`).join(", ")}. Add another owner first, or deactivate it.`,
    );
  }
  // Sessions, the password, API keys and memberships go with the row (foreign keys cascade).
  await prisma.user.delete({ where: { id: userId } });
  return { email: user.email };
}

/** The user behind an email, for the CLI. */
export async function userIdByEmail(prisma: PrismaClient, email: string): Promise<string> {
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw new NotFoundError(`no user with email ${email}`);
  return user.id;
}

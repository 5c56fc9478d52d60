import type { PrismaClient } from "../generated/prisma/client";
import { requireSiteAdmin, type Actor } from "./actor";
import { ConflictError, NotFoundError } from "../errors";

/**
 * Accounts that single sign-on creates just in time (lib/auth/sso.ts, SSO_NEW_ACCOUNTS=create or approve):
 * - each project may name a default role (`Project.ssoDefaultRole`, set by its owners; null: none), and every
 *   account created by SSO sign-in becomes a member of those projects with that role;
 * - with SSO_NEW_ACCOUNTS=approve the account is created waiting (`User.approvalPendingSince`): it gets no session
 *   (lib/auth/deactivated-accounts.ts refuses it and the sign-in page shows "waiting for an administrator")
 *   until a site admin approves it on the Users page or with `npm run cli -- approve-user`.
 */

/**
 * Makes a just-created SSO account a member of every project that names a default role, in one transaction.
 * If that fails the account is deleted again (with the SSO identity linked to it), so the person is refused and
 * can retry, rather than left with an account that silently lacks the access the projects promised.
 * better-auth creates the user and its SSO identity in its own write and calls this right after.
 */
export async function setUpSsoAccount(db: PrismaClient, userId: string): Promise<{ memberships: number }> {
  try {
    return await db.$transaction(async (tx) => {
      const projects = await tx.project.findMany({
        where: { ssoDefaultRole: { not: null }, deletingAt: null },
        select: { id: true, ssoDefaultRole: true },
      });
      const created = await tx.projectMember.createMany({
        data: projects.map((project) => ({ projectId: project.id, userId, role: project.ssoDefaultRole! })),
        skipDuplicates: true,
      });
      return { memberships: created.count };
    });
  } catch (error) {
    await db.user.deleteMany({ where: { id: userId } });
    throw error;
  }
}

/** A site admin lets an account waiting for approval in; it then signs in by SSO as any other. */
export async function approveUser(prisma: PrismaClient, actor: Actor, userId: string): Promise<{ email: string }> {
  requireSiteAdmin(actor);
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: { email: true, approvalPendingSince: true },
  });
  if (!user) throw new NotFoundError("No such user.");
  if (!user.approvalPendingSince) throw new ConflictError(`${user.email} is not waiting for approval.`);
  await prisma.user.update({ where: { id: userId }, data: { approvalPendingSince: null } });
  return { email: user.email };
}

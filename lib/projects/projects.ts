import type { z } from "zod";
import type { PrismaClient, ProjectRole } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError } from "../errors";
import type {
  addMemberSchema,
  archiveProjectSchema,
  changeRoleSchema,
  createProjectSchema,
  removeMemberSchema,
  renameProjectSchema,
  projectGuidelinesSchema,
  projectSsoDefaultRoleSchema,
} from "./projects.validation";

export interface ProjectSummary {
  id: string;
  name: string;
  role: ProjectRole;
  archived: boolean;
  createdAt: Date;
  memberCount: number;
}

/** Projects the actor belongs to (all projects for a site admin, as owner). */
export async function listProjects(prisma: PrismaClient, actor: Actor): Promise<ProjectSummary[]> {
  const projects = await prisma.project.findMany({
    where: actor.isAdmin ? { deletingAt: null } : { members: { some: { userId: actor.userId } } },
    orderBy: [{ archivedAt: { sort: "asc", nulls: "first" } }, { createdAt: "desc" }],
    include: {
      members: { where: { userId: actor.userId }, select: { role: true } },
      _count: { select: { members: true } },
    },
  });
  return projects.map((project) => ({
    id: project.id,
    name: project.name,
    role: project.members[0]?.role ?? "owner",
    archived: project.archivedAt !== null,
    createdAt: project.createdAt,
    memberCount: project._count.members,
  }));
}

export async function getProject(prisma: PrismaClient, access: ProjectAccess) {
  const project = await prisma.project.findUniqueOrThrow({ where: { id: access.projectId } });
  return { ...project, role: access.role };
}

export async function createProject(prisma: PrismaClient, actor: Actor, input: z.output<typeof createProjectSchema>) {
  return prisma.project.create({
    data: { name: input.name, members: { create: { userId: actor.userId, role: "owner" } } },
  });
}

export async function renameProject(
  prisma: PrismaClient,
  access: ProjectAccess<"project.rename">,
  input: z.output<typeof renameProjectSchema>,
) {
  return prisma.project.update({ where: { id: access.projectId }, data: { name: input.name } });
}

/** Owners write the project's guidelines for its reviewers (Markdown; empty: none). */
export async function setProjectGuidelines(
  prisma: PrismaClient,
  access: ProjectAccess<"project.rename">,
  input: z.output<typeof projectGuidelinesSchema>,
) {
  return prisma.project.update({ where: { id: access.projectId }, data: { guidelines: input.guidelines } });
}

/**
 * Owners choose the role every account created by single sign-on gets in this project (null: none). Only accounts
 * created after the change get it; existing accounts are added by email (lib/auth/sso-accounts.ts).
 */
export async function setProjectSsoDefaultRole(
  prisma: PrismaClient,
  access: ProjectAccess<"members.manage">,
  input: z.output<typeof projectSsoDefaultRoleSchema>,
) {
  return prisma.project.update({ where: { id: access.projectId }, data: { ssoDefaultRole: input.ssoDefaultRole } });
}

export async function setProjectArchived(
  prisma: PrismaClient,
  access: ProjectAccess<"project.archive">,
  input: z.output<typeof archiveProjectSchema>,
) {
  return prisma.project.update({
    where: { id: access.projectId },
    data: { archivedAt: input.archived ? new Date() : null },
  });
}

export async function listMembers(prisma: PrismaClient, access: ProjectAccess) {
  const members = await prisma.projectMember.findMany({
    where: { projectId: access.projectId },
    include: { user: { select: { id: true, email: true, name: true } } },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }],
  });
  return members.map((member) => ({
    userId: member.userId,
    email: member.user.email,
    name: member.user.name,
    role: member.role,
  }));
}

/** Adds an existing user by email, or changes their role when they are already a member. */
export async function addMember(
  prisma: PrismaClient,
  access: ProjectAccess<"members.manage">,
  input: z.output<typeof addMemberSchema>,
) {
  const projectId = access.projectId;
  const user = await prisma.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (!user) {
    throw new NotFoundError(
      `No account uses ${input.email}. A site admin creates accounts (Admin → Users, or the CLI).`,
    );
  }
  return changeRoleGuarded(prisma, projectId, user.id, input.role);
}

export async function changeMemberRole(
  prisma: PrismaClient,
  access: ProjectAccess<"members.manage">,
  input: z.output<typeof changeRoleSchema>,
) {
  const projectId = access.projectId;
  const existing = await prisma.projectMember.findUnique({
    where: { projectId_userId: { projectId, userId: input.userId } },
  });
  if (!existing) throw new NotFoundError("That user is not a member of this project.");
  return changeRoleGuarded(prisma, projectId, input.userId, input.role);
}

export async function removeMember(
  prisma: PrismaClient,
  access: ProjectAccess<"members.manage">,
  input: z.output<typeof removeMemberSchema>,
) {
  const projectId = access.projectId;
  await prisma.$transaction(async (tx) => {
    await lockProjectMembers(tx, projectId);
    const member = await tx.projectMember.findUnique({
      where: { projectId_userId: { projectId, userId: input.userId } },
    });
    if (!member) throw new NotFoundError("That user is not a member of this project.");
    if (member.role === "owner" && (await tx.projectMember.count({ where: { projectId, role: "owner" } })) === 1) {
      throw new ConflictError("A project keeps at least one owner: make someone else owner first.");
    }
    await tx.projectMember.delete({
      where: { projectId_userId: { projectId, userId: input.userId } },
    });
  });
}

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Serialises membership changes of one project, so two owners can't demote each other at once. */
async function lockProjectMembers(tx: Tx, projectId: string) {
  await tx.$queryRaw`SELECT id FROM "project" WHERE id = ${projectId} FOR UPDATE`;
}

async function changeRoleGuarded(prisma: PrismaClient, projectId: string, userId: string, role: ProjectRole) {
  return prisma.$transaction(async (tx) => {
    await lockProjectMembers(tx, projectId);
    const current = await tx.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } } });
    if (
      current?.role === "owner" &&
      role !== "owner" &&
      (await tx.projectMember.count({ where: { projectId, role: "owner" } })) === 1
    ) {
      throw new ConflictError("A project keeps at least one owner: make someone else owner first.");
    }
    return tx.projectMember.upsert({
      where: { projectId_userId: { projectId, userId } },
      create: { projectId, userId, role },
      update: { role },
    });
  });
}

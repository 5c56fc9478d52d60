import type { Actor } from "../../lib/auth/actor";
import { projectAccess, type ProjectAccess, type ProjectAction } from "../../lib/authz/permissions";
import type { PrismaClient } from "../../lib/generated/prisma/client";

/**
 * A test's access to the project a run, video or endpoint lives in, as the route keyed by that record builds it
 * (lib/api/with-project.ts `withProjectOf`). An unknown record gives an access to no project, so the operation
 * answers its own "No such …".
 */
async function accessOfRecord<A extends ProjectAction>(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string | undefined,
  action: A,
): Promise<ProjectAccess<A>> {
  if (projectId) return projectAccess(prisma, actor, projectId, action);
  const anyOwn = await prisma.projectMember.findFirst({ where: { userId: actor.userId }, select: { projectId: true } });
  return projectAccess(prisma, actor, anyOwn?.projectId ?? "no-such-project", action);
}

export async function accessOfRun<A extends ProjectAction = "project.view">(
  prisma: PrismaClient,
  actor: Actor,
  runId: string,
  action: A = "project.view" as A,
): Promise<ProjectAccess<A>> {
  const run = await prisma.judgeRun.findUnique({ where: { id: runId }, select: { projectId: true } });
  return accessOfRecord(prisma, actor, run?.projectId, action);
}

export async function accessOfVideo<A extends ProjectAction = "project.view">(
  prisma: PrismaClient,
  actor: Actor,
  videoId: string,
  action: A = "project.view" as A,
): Promise<ProjectAccess<A>> {
  const video = await prisma.video.findUnique({ where: { id: videoId }, select: { projectId: true } });
  return accessOfRecord(prisma, actor, video?.projectId, action);
}

export async function accessOfEndpoint(
  prisma: PrismaClient,
  actor: Actor,
  endpointId: string,
): Promise<ProjectAccess<"endpoints.manage">> {
  const endpoint = await prisma.judgeEndpoint.findUnique({ where: { id: endpointId }, select: { projectId: true } });
  return accessOfRecord(prisma, actor, endpoint?.projectId, "endpoints.manage");
}

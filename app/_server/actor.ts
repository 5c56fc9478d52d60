import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Actor } from "@/lib/auth/actor";
import { actorFromHeaders } from "@/lib/auth/request-actor";
import { projectRoleOf, roleCan, type ProjectAction } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ensureRubricTasks } from "@/lib/rubrics/rubric-registry";

/** The signed-in user for this render, or null. */
export const getPageActor = cache(async (): Promise<Actor | null> => actorFromHeaders(await headers()));

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requirePageActor(): Promise<Actor> {
  const actor = await getPageActor();
  if (!actor) redirect("/sign-in");
  return actor;
}

/**
 * The actor's role in a project, looked up once per render: the project layout (its navigation bar)
 * and the page both ask, and share the answer.
 */
const pageProjectRole = cache(async (projectId: string) => {
  const actor = await requirePageActor();
  // The project's rubric tasks are in the registry before the layout or the page reads it.
  const [role] = await Promise.all([projectRoleOf(prisma, actor, projectId), ensureRubricTasks(prisma)]);
  return { actor, role };
});

/**
 * For project pages: a non-member (or a missing project) renders the 404 page; a member whose role
 * may not do `action` renders the 403 page (app/forbidden.tsx). The decision is lib/authz/permissions.ts's.
 */
export async function requirePageProjectAccess(projectId: string, action: ProjectAction = "project.view") {
  const { actor, role } = await pageProjectRole(projectId);
  if (!role) notFound();
  if (!roleCan(role, action)) forbidden();
  return { actor, role };
}

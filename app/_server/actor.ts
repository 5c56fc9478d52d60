import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Actor } from "@/lib/auth/actor";
import { actorFromHeaders } from "@/lib/auth/request-actor";
import { accessFor, memberAccess, roleCan, type ProjectAccess, type ProjectAction } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { appContext } from "@/lib/app-context/app-context";

/**
 * The signed-in user for this render, or null. Pages and server actions start here: it builds the application context
 * first (lib/app-context/app-context.ts), whose catalogues this bundle's copy of lib/ reads.
 */
export const getPageActor = cache(async (): Promise<Actor | null> => {
  appContext();
  return actorFromHeaders(await headers());
});

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requirePageActor(): Promise<Actor> {
  const actor = await getPageActor();
  if (!actor) redirect("/sign-in");
  return actor;
}

/**
 * The actor's view access to a project (null for a non-member) and the project's task catalogue, looked up once per
 * render: the project layout (its navigation bar, the browser's catalogue) and the page both ask, and share the answer.
 */
const pageProjectMember = cache(async (projectId: string) => {
  const actor = await requirePageActor();
  const member = await memberAccess(prisma, actor, projectId);
  // Only a member's render reads the catalogue (a non-member gets the 404 page).
  const catalogue = member ? await appContext().catalogues.forProject(prisma, projectId) : null;
  return { actor, catalogue, member };
});

/**
 * For project pages: a non-member (or a missing project) renders the 404 page; a member whose role
 * may not do `action` renders the 403 page (app/forbidden.tsx). The decision is lib/authz/permissions.ts's.
 */
export async function requirePageProjectAccess<A extends ProjectAction = "project.view">(
  projectId: string,
  action: A = "project.view" as A,
) {
  const { actor, catalogue, member } = await pageProjectMember(projectId);
  if (!member || !catalogue) notFound();
  if (!roleCan(member.role, action)) forbidden();
  const access: ProjectAccess<A> = accessFor(member, action);
  return { actor, role: member.role, catalogue, access };
}

import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Actor } from "@/lib/auth/actor";
import { actorFromHeaders } from "@/lib/auth/request-actor";
import { requireProjectAccess, type ProjectAction } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ForbiddenError, NotFoundError } from "@/lib/errors";

/** The signed-in user for this render, or null. */
export const getPageActor = cache(async (): Promise<Actor | null> => actorFromHeaders(await headers()));

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requirePageActor(): Promise<Actor> {
  const actor = await getPageActor();
  if (!actor) redirect("/sign-in");
  return actor;
}

/**
 * For project pages: a non-member (or a missing project) renders the 404 page; a member whose role
 * may not do `action` renders the 403 page (app/forbidden.tsx).
 */
export async function requirePageProjectAccess(projectId: string, action: ProjectAction = "project.view") {
  const actor = await requirePageActor();
  try {
    const role = await requireProjectAccess(prisma, actor, projectId, action);
    return { actor, role };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof ForbiddenError) forbidden();
    throw error;
  }
}

import type { Actor } from "../auth/actor";
import { type ProjectAction, requireProject } from "../authz/permissions";
import { prisma } from "../db/prisma";
import type { Project, ProjectRole } from "../generated/prisma/client";
import { projectIdSchema } from "../projects/projects.validation";
import { withActor } from "./handler";
import type { BodyKind } from "./session-request-guard";

/** What a project-scoped route handler gets once the caller may do the route's action in the project. */
export interface ProjectRequest<P extends { projectId: string }> {
  actor: Actor;
  project: Project;
  role: ProjectRole;
  /** The route's params, `projectId` validated. */
  params: P;
  request: Request;
}

/**
 * Wraps a route handler under /api/v1/projects/[projectId]: everything `withActor` does (session or API key,
 * CSRF guard, NUL bytes, JSON errors, logging), then validates `projectId` (400), loads the project and
 * checks the caller's role for `action` once, in lib/authz/permissions.ts (a non-member, or a missing
 * project, is a 404 "No such project."; a role without the right a 403), and calls the handler with
 * `{actor, project, role, params, request}`. Routes whose lib function checks a narrower action itself pass
 * "project.view" here, so a member's answers (including which error comes first) stay the lib's.
 */
export function withProject<P extends { projectId: string }>(action: ProjectAction, handler: (context: ProjectRequest<P>) => Promise<Response>, options: { body?: BodyKind } = {}) {
  return withActor<P>(async (request, actor, params) => {
    const projectId = projectIdSchema.parse(params.projectId);
    const { project, role } = await requireProject(prisma, actor, projectId, action);
    return handler({ actor, project, role, params: { ...params, projectId }, request });
  }, options);
}

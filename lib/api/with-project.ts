import type { Actor } from "../auth/actor";
import { NotFoundError } from "../errors";
import { authorizeInProject, type ProjectAction } from "../authz/permissions";
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
 * "project.view" here, so a member's answers (including which error comes first) stay the lib's; the `actor`
 * handed on carries the role read here (authorizeInProject), so that lib check reads no membership again.
 */
export function withProject<P extends { projectId: string }>(action: ProjectAction, handler: (context: ProjectRequest<P>) => Promise<Response>, options: { body?: BodyKind } = {}) {
  return withActor<P>(async (request, actor, params) => {
    const projectId = projectIdSchema.parse(params.projectId);
    const authorized = await authorizeInProject(prisma, actor, projectId, action);
    return handler({ ...authorized, params: { ...params, projectId }, request });
  }, options);
}

/**
 * How a route keyed by another record (a run, queue, item, video, …) finds the project that record lives
 * in: what `withProjectOf` authorizes against.
 */
export interface ProjectScope<P, R extends { projectId: string }> {
  /**
   * Validates the route's id param(s) (a malformed one is a 400) and reads the record's project id, in one
   * query; null when there is no such record.
   */
  find(params: P): Promise<R | null>;
  /** The 404 message for an unknown record, and for one in a project the caller is not a member of (the same, so ids can't be probed). */
  notFound: string;
}

/** What a route handler keyed by another record gets: as `ProjectRequest`, with the record `find` read. */
export interface ScopedRequest<P, R extends { projectId: string }> {
  actor: Actor;
  project: Project;
  role: ProjectRole;
  /** What the scope's `find` read: at least the record's id fields and `projectId`. */
  record: R;
  params: P;
  request: Request;
}

/**
 * `withProject` for a route whose path names another record instead of the project (/api/v1/runs/[runId]/…,
 * /queues/[queueId]/…, …): everything `withActor` does, then `scope.find` reads the record's project id, the
 * caller's role for `action` is checked once in lib/authz/permissions.ts (an unknown record and a project the
 * caller is not a member of are both a 404 with `scope.notFound`; a role without the right a 403), and the
 * handler gets `{actor, project, role, record, params, request}`. Routes whose lib function checks a
 * narrower action itself pass "project.view", so a member's answers stay the lib's; as with `withProject`,
 * that check reuses the role read here (the `actor` carries it).
 */
export function withProjectOf<P, R extends { projectId: string }>(
  scope: ProjectScope<P, R>,
  action: ProjectAction,
  handler: (context: ScopedRequest<P, R>) => Promise<Response>,
  options: { body?: BodyKind } = {},
) {
  return withActor<P>(async (request, actor, params) => {
    const record = await scope.find(params);
    if (!record) throw new NotFoundError(scope.notFound);
    const authorized = await authorizeInProject(prisma, actor, record.projectId, action).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError(scope.notFound) : error;
    });
    return handler({ ...authorized, record, params, request });
  }, options);
}

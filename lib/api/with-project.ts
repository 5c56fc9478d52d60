import type { Actor } from "../auth/actor";
import { isAppError, NotFoundError } from "../errors";
import { authorizeInProject, type ProjectAccess, type ProjectAction } from "../authz/permissions";
import { prisma } from "../db/prisma";
import type { PrismaClient, Project, ProjectRole } from "../generated/prisma/client";
import { projectIdSchema } from "../projects/projects.validation";
import { authenticatedRoute, type PathParams, readRouteInput } from "./handler";
import type { DescribedHandler, RouteDescription, RouteInput } from "./openapi/route-spec";
import { catalogFor, type TaskCatalogue } from "../task-modules/task-catalogue";

/**
 * What a project-scoped route handler gets once the caller may do the route's action in the project, with the query
 * and JSON body its description declares, parsed (`query`, `body`).
 */
export interface ProjectRequest<
  D extends RouteDescription = RouteDescription,
  A extends ProjectAction = ProjectAction,
> extends RouteInput<D> {
  actor: Actor;
  /** The checked permission the lib operation takes (lib/authz/permissions.ts `ProjectAccess`). */
  access: ProjectAccess<A>;
  project: Project;
  role: ProjectRole;
  /** The project's task catalogue (the built-in tasks and its rubric tasks), resolved once for the request. */
  catalogue: TaskCatalogue;
  /** The database, for the lib operations the handler calls (route handlers never import it). */
  prisma: PrismaClient;
  /** The route's params, `projectId` validated. */
  params: PathParams & { projectId: string };
  request: Request;
}

/**
 * Wraps a route handler under /api/v1/projects/[projectId]: everything `authenticatedRoute` does (session or API key,
 * CSRF guard, NUL bytes, JSON errors, logging), then validates `projectId` (400), loads the project and
 * checks the caller's role for `action` once, in lib/authz/permissions.ts (a non-member, or a missing
 * project, is a 404 "No such project."; a role without the right a 403), reads the query and JSON body `api`
 * declares (readRouteInput: only now, so a caller without the right learns nothing of them) and calls the handler
 * with `{actor, project, role, params, request, query, body}`. `api` is the route's description for the OpenAPI
 * document. `action` is the route's one permission, the one its lib operation needs (a write never names a read
 * permission): the document shows it (`x-permission`). The `actor` handed on carries the role read here
 * (authorizeInProject), so a lib check left for a record's own rule reads no membership again.
 */
export function withProject<A extends ProjectAction, D extends RouteDescription>(
  action: A,
  api: D,
  handler: (context: ProjectRequest<D, A>) => Promise<Response>,
) {
  const route = authenticatedRoute(api, async (request, actor, params) => {
    const projectId = projectIdSchema.parse(params.projectId);
    const authorized = await authorizeInProject(prisma, actor, projectId, action);
    const catalogue = await catalogFor(prisma, projectId);
    return handler({
      ...authorized,
      catalogue,
      prisma,
      params: { ...params, projectId },
      request,
      ...(await readRouteInput(request, api, catalogue)),
    });
  });
  return withPermission(route, action);
}

/** The route's handler with the action its wrapper checks on its description, where the OpenAPI document reads it. */
function withPermission<H extends DescribedHandler>(route: H, permission: ProjectAction): H {
  return Object.assign(route, { apiRoute: { ...route.apiRoute, permission } });
}

/**
 * How a route keyed by another record (a run, queue, item, video, …) finds the project that record lives
 * in: what `withProjectOf` authorizes against.
 */
export interface ProjectLookup<R extends { projectId: string }> {
  /**
   * Validates the route's id param(s) (a malformed one is a 400) and reads the record's project id, in one
   * query; null when there is no such record.
   */
  find(params: PathParams): Promise<R | null>;
  /** The 404 message for an unknown record, and for one in a project the caller is not a member of (the same, so ids can't be probed). */
  notFound: string;
}

/** What a route handler keyed by another record gets: as `ProjectRequest`, with the record `find` read. */
export interface LookedUpRequest<
  R extends { projectId: string },
  D extends RouteDescription = RouteDescription,
  A extends ProjectAction = ProjectAction,
> extends RouteInput<D> {
  actor: Actor;
  /** The checked permission the lib operation takes (lib/authz/permissions.ts `ProjectAccess`). */
  access: ProjectAccess<A>;
  project: Project;
  role: ProjectRole;
  /** The project's task catalogue (the built-in tasks and its rubric tasks), resolved once for the request. */
  catalogue: TaskCatalogue;
  /** The database, for the lib operations the handler calls (route handlers never import it). */
  prisma: PrismaClient;
  /** What the scope's `find` read: at least the record's id fields and `projectId`. */
  record: R;
  params: PathParams;
  request: Request;
}

/**
 * `withProject` for a route whose path names another record instead of the project (/api/v1/runs/[runId]/…,
 * /queues/[queueId]/…, …): everything `authenticatedRoute` does, then `scope.find` reads the record's project id, the
 * caller's role for `action` is checked once in lib/authz/permissions.ts (an unknown record and a project the
 * caller is not a member of are both a 404 with `scope.notFound`; a role without the right a 403), the query and
 * JSON body `api` declares are read (readRouteInput), and the handler gets `{actor, project, role, record, params,
 * request, query, body}`. `api` is the route's description for the OpenAPI document; `action` is the route's one
 * permission, as with `withProject`, and a lib check left for the record's own rule reuses the role read here.
 */
export function withProjectOf<R extends { projectId: string }, A extends ProjectAction, D extends RouteDescription>(
  scope: ProjectLookup<R>,
  action: A,
  api: D,
  handler: (context: LookedUpRequest<R, D, A>) => Promise<Response>,
) {
  const route = authenticatedRoute(api, async (request, actor, params) => {
    const record = await scope.find(params);
    if (!record) throw new NotFoundError(scope.notFound);
    const authorized = await authorizeInProject(prisma, actor, record.projectId, action).catch((error: unknown) => {
      throw isAppError(error) && error.code === "not_found" ? new NotFoundError(scope.notFound) : error;
    });
    const catalogue = await catalogFor(prisma, record.projectId);
    return handler({
      ...authorized,
      catalogue,
      prisma,
      record,
      params,
      request,
      ...(await readRouteInput(request, api, catalogue)),
    });
  });
  return withPermission(route, action);
}

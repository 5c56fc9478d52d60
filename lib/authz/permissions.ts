import type { Prisma, PrismaClient, Project, ProjectRole } from "../generated/prisma/client";
import { ForbiddenError, NotFoundError } from "../errors";
import type { Actor } from "../auth/actor";

/**
 * The one place that decides who may do what in a project. Every page, route handler and server
 * action goes through `requireProjectAccess` (or `projectRoleOf` for display decisions).
 *
 * Site admins act as owners of every project, so they can repair a project whose owners left.
 */
export const PROJECT_ACTIONS = [
  "project.view",
  "project.rename",
  "project.archive",
  /** Delete the project with everything in it (lib/projects/project-deletion.ts). */
  "project.delete",
  "members.manage",
  "videos.import",
  /** Change a video's prompt, model, dimensions, seed, sample index and extra fields (lib/videos/video-edits.ts). */
  "videos.edit",
  /** Delete videos with what depends on them (lib/videos/delete-videos.ts). */
  "videos.delete",
  "runs.manage",
  "endpoints.manage",
  "scores.review",
  "queues.manage",
  /** Adjudicate: set the gold value of a target reviewers disagree on (lib/adjudication). */
  "gold.set",
  "export.read",
  "prompts.manage",
  /** Define, edit, archive and import rubric tasks (lib/rubrics). */
  "rubrics.manage",
  /** Register, change and delete the project's webhooks, and read their delivery logs (lib/webhooks). */
  "webhooks.manage",
  /** Make, import, archive and delete pair sets, and start pairwise judge runs on them (lib/pairwise). */
  "pairs.manage",
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

const ROLE_ACTIONS: Record<ProjectRole, ReadonlySet<ProjectAction>> = {
  owner: new Set(PROJECT_ACTIONS),
  reviewer: new Set<ProjectAction>(["project.view", "scores.review", "export.read"]),
  viewer: new Set<ProjectAction>(["project.view", "export.read"]),
};

export function roleCan(role: ProjectRole, action: ProjectAction): boolean {
  return ROLE_ACTIONS[role].has(action);
}

/** The roles that may do `action`, as the OpenAPI document lists them beside a route's permission. */
export function rolesThatMay(action: ProjectAction): ProjectRole[] {
  return (Object.keys(ROLE_ACTIONS) as ProjectRole[]).filter((role) => roleCan(role, action));
}

/**
 * The role `authorizeInProject` already read for this request's actor, under a symbol no other module can
 * name: only this file makes a grant, so an actor carrying one was checked here, in this request.
 */
const GRANT = Symbol("project grant");
type GrantedActor = Actor & { readonly [GRANT]?: { projectId: string; role: ProjectRole } };

function grantedRole(actor: Actor, projectId: string): ProjectRole | null {
  const grant = (actor as GrantedActor)[GRANT];
  return grant?.projectId === projectId ? grant.role : null;
}

/**
 * `requireProject`, returning with the project and role an actor that carries them: the lib function the
 * route then calls checks its own (often narrower) action with `requireProjectAccess` against the role read
 * here instead of reading the membership again (one query per request less). The grant is for this project
 * only and lives as long as the actor object, i.e. the request (lib/api/with-project.ts).
 */
export async function authorizeInProject<A extends ProjectAction>(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  action: A,
): Promise<{ actor: Actor; project: Project; role: ProjectRole; access: ProjectAccess<A> }> {
  const { project, role } = await requireProject(prisma, actor, projectId, action);
  const granted: GrantedActor = Object.defineProperty({ ...actor }, GRANT, {
    value: { projectId, role },
    enumerable: false,
  });
  return { actor: granted, project, role, access: grantAccess(granted, projectId, role, action) };
}

declare const checkedAction: unique symbol;

/**
 * Proof that `actor` may do `action` in project `projectId`, with the role that decided it. Only this file makes one
 * (`projectAccess`, `accessFor`, `authorizeInProject`): the symbol key cannot be named elsewhere, so an object of this
 * type was checked. A lib/ operation takes one instead of checking: its parameter's type names the permission it needs
 * (`ProjectAccess<"videos.edit">`); a read takes `ProjectAccess`, any checked action, since every role may view.
 * An operation handed a record id scopes its query to `access.projectId`, so a record of another project is not found.
 */
export interface ProjectAccess<A extends ProjectAction = ProjectAction> {
  readonly actor: Actor;
  readonly projectId: string;
  readonly role: ProjectRole;
  /** The permission that was checked. */
  readonly action: A;
  readonly [checkedAction]: A;
}

function grantAccess<A extends ProjectAction>(
  actor: Actor,
  projectId: string,
  role: ProjectRole,
  action: A,
): ProjectAccess<A> {
  return Object.freeze({ actor, projectId, role, action }) as unknown as ProjectAccess<A>;
}

/**
 * The checked access an operation takes: the route wrappers (lib/api/with-project.ts), the pages' and server
 * actions' helpers (app/_server), the command line and tests call this; lib/ operations never do. A non-member gets
 * NotFound and a member without the right Forbidden, as `requireProjectAccess`.
 */
export async function projectAccess<A extends ProjectAction>(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  action: A,
): Promise<ProjectAccess<A>> {
  const role = await requireProjectAccess(prisma, actor, projectId, action);
  return grantAccess(actor, projectId, role, action);
}

/** A member's access to view the project, or null when the actor may not know it exists (pages render 404 then). */
export async function memberAccess(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
): Promise<ProjectAccess<"project.view"> | null> {
  const role = await projectRoleOf(prisma, actor, projectId);
  return role ? grantAccess(actor, projectId, role, "project.view") : null;
}

/**
 * The same member's access for another action, decided from the role already read (no query): for a route or page
 * whose one permission is not the one an operation it calls names (a page that shows a form only owners may send).
 */
export function accessFor<A extends ProjectAction>(access: ProjectAccess, action: A): ProjectAccess<A> {
  if (!roleCan(access.role, action)) {
    throw new ForbiddenError(`Your role (${access.role}) may not do that in this project.`);
  }
  return grantAccess(access.actor, access.projectId, access.role, action);
}

/** The actor's effective role in the project, or null when they may not know it exists. */
export async function projectRoleOf(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
): Promise<ProjectRole | null> {
  const granted = grantedRole(actor, projectId);
  if (granted) return granted;
  if (actor.isAdmin) {
    // A project being deleted has no members left (lib/projects/project-deletion.ts) and is gone for admins too.
    const exists = await prisma.project.findUnique({ where: { id: projectId }, select: { deletingAt: true } });
    return exists && !exists.deletingAt ? "owner" : null;
  }
  const membership = await prisma.projectMember.findUnique({
    where: { projectId_userId: { projectId, userId: actor.userId } },
    select: { role: true },
  });
  return membership?.role ?? null;
}

/**
 * Resolves the actor's role or throws. A non-member gets NotFound, exactly as for a project that
 * does not exist, so project ids can't be probed; a member without the right gets Forbidden.
 */
export async function requireProjectAccess(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  action: ProjectAction,
): Promise<ProjectRole> {
  const role = await projectRoleOf(prisma, actor, projectId);
  if (!role) throw new NotFoundError("No such project.");
  if (!roleCan(role, action)) throw new ForbiddenError(`Your role (${role}) may not do that in this project.`);
  return role;
}

/**
 * As `requireProjectAccess`, with the project itself, read in the same query as the actor's membership:
 * what `withProject` (lib/api/with-project.ts) hands a route handler once it is authorized.
 */
export async function requireProject(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  action: ProjectAction,
): Promise<{ project: Project; role: ProjectRole }> {
  const found = await prisma.project.findUnique({
    where: { id: projectId },
    include: { members: { where: { userId: actor.userId }, select: { role: true } } },
  });
  const { members, ...project } = found ?? { members: [] };
  const role: ProjectRole | null =
    found && !found.deletingAt ? (actor.isAdmin ? "owner" : (members[0]?.role ?? null)) : null;
  if (!role) throw new NotFoundError("No such project.");
  if (!roleCan(role, action)) throw new ForbiddenError(`Your role (${role}) may not do that in this project.`);
  return { project: project as Project, role };
}

/**
 * A Prisma filter of the projects in which the actor may do `action`, for lists that span projects (the endpoints
 * of a user's other projects): the projects whose membership gives a role with that right, or every project for a
 * site admin (an owner everywhere). Built from ROLE_ACTIONS, so a role given the right later is counted with no
 * edit; a record picked from such a list is still checked with `requireProjectAccess` when it is used.
 */
export function projectsWhereActorMay(actor: Actor, action: ProjectAction): Prisma.ProjectWhereInput {
  if (actor.isAdmin) return { deletingAt: null };
  return { members: { some: { userId: actor.userId, role: { in: rolesThatMay(action) } } } };
}

import type { Actor } from "../auth/actor";
import { projectAccess, type ProjectAccess, type ProjectAction } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { isAppError, NotFoundError } from "../errors";
import type { PathParams } from "./handler";
import type { ProjectLookup } from "./with-project";

/**
 * The caller's access to the project of a record the request body names (not its path, which the route's wrapper
 * checked): a route that works across two projects (copying an endpoint here from another) checks the second one
 * here. An unknown record and a project the caller is not a member of are both a 404 with `lookup.notFound`, so ids
 * can't be probed; a role without the right a 403.
 */
export async function accessOfRecord<R extends { projectId: string }, A extends ProjectAction>(
  actor: Actor,
  lookup: ProjectLookup<R>,
  params: PathParams,
  action: A,
): Promise<{ record: R; access: ProjectAccess<A> }> {
  const record = await lookup.find(params);
  if (!record) throw new NotFoundError(lookup.notFound);
  const access = await projectAccess(prisma, actor, record.projectId, action).catch((error: unknown) => {
    throw isAppError(error) && error.code === "not_found" ? new NotFoundError(lookup.notFound) : error;
  });
  return { record, access };
}

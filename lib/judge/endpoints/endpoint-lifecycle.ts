import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, NotFoundError } from "../../errors";
import { catalogFor } from "../../task-modules/task-catalogue";
import { isPrismaError, FOREIGN_KEY_VIOLATION } from "../../db/prisma-errors";

/**
 * Archiving and deleting judge endpoints. A run keeps naming the endpoint it called (and a QA run its
 * judge, a construction run its checker, in its settings), so an endpoint that any run uses cannot be
 * deleted; it is archived instead (`archived` in updateEndpoint's PATCH): hidden from the run forms and
 * refused for new runs, still shown with its runs, and restorable.
 */

export const endpointIdSchema = z.string().min(1).max(64);

/** The endpoint, in the project whose endpoints the access may manage; one of another project is a 404. */
export async function managedEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
  endpointId: string,
) {
  const endpoint = await prisma.judgeEndpoint.findFirst({ where: { id: endpointId, projectId: access.projectId } });
  if (!endpoint) throw new NotFoundError("No such endpoint.");
  return endpoint;
}

/** How many of the project's runs call the endpoint, as their own or in another role (a QA run's judge). */
export async function runsUsingEndpoint(prisma: PrismaClient, projectId: string, endpointId: string): Promise<number> {
  const own = await prisma.judgeRun.count({ where: { endpointId } });
  const others = await prisma.judgeRun.findMany({
    where: { projectId, endpointId: { not: endpointId } },
    select: { pipeline: true, settings: true },
  });
  const { pipelines } = await catalogFor(prisma, projectId);
  const inOtherRoles = others.filter((run) => {
    const pipeline = pipelines[run.pipeline];
    if (!pipeline?.endpointIds) return false;
    let ids: Record<string, string | undefined>;
    try {
      ids = pipeline.endpointIds(run.settings);
    } catch {
      // Settings that no longer parse: look for the id anywhere in them rather than miss a use.
      return JSON.stringify(run.settings).includes(JSON.stringify(endpointId));
    }
    return Object.values(ids).includes(endpointId);
  }).length;
  return own + inOtherRoles;
}

/** Deletes an endpoint no run uses; one that a run uses is refused (409) with the advice to archive it. */
export async function deleteEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
  endpointId: string,
): Promise<void> {
  const endpoint = await managedEndpoint(prisma, access, endpointId);
  const runs = await runsUsingEndpoint(prisma, endpoint.projectId, endpoint.id);
  if (runs > 0) {
    throw new ConflictError(
      `Endpoint ${endpoint.name} cannot be deleted: ${runs === 1 ? "1 run uses" : `${runs} runs use`} it, and runs keep the endpoint they were judged with. Archive it instead: it leaves the run forms and its runs keep it.`,
    );
  }
  // A run started between the count and here fails the delete on its foreign key (onDelete: Restrict).
  await prisma.judgeEndpoint.delete({ where: { id: endpoint.id } }).catch((error: unknown) => {
    if (isPrismaError(error, FOREIGN_KEY_VIOLATION))
      throw new ConflictError(`Endpoint ${endpoint.name} cannot be deleted: a run uses it. Archive it instead.`);
    throw error;
  });
}

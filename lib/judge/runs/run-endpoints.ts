/** The endpoints a run calls besides its own (its steps' roles), and the snapshot of them it keeps. */
import type { JudgeEndpoint, PrismaClient } from "../../generated/prisma/client";
import { NotFoundError, ValidationError } from "../../errors";
import type { PipelineDefinition } from "../../task-modules/pipeline-types";

/** Other endpoints the run's steps call by role (a QA run's judge): they must be the project's too. */
export async function roleEndpoints(
  prisma: PrismaClient,
  projectId: string,
  pipeline: PipelineDefinition,
  settings: unknown,
  endpoint: JudgeEndpoint,
): Promise<{ role: string; endpoint: JudgeEndpoint }[]> {
  const otherEndpoints: { role: string; endpoint: JudgeEndpoint }[] = [];
  for (const [role, id] of Object.entries(pipeline.endpointIds?.(settings) ?? {})) {
    if (!id || id === endpoint.id) continue;
    const other = await prisma.judgeEndpoint.findFirst({ where: { id, projectId } });
    if (!other) throw new NotFoundError(`No such endpoint in this project for the ${role} (${id}).`);
    if (other.archivedAt)
      throw new ValidationError(
        `Endpoint ${other.name} (the ${role}) is archived: restore it on the Judge page to start runs with it.`,
      );
    otherEndpoints.push({ role, endpoint: other });
  }
  return otherEndpoints;
}

/** The endpoints as the run was started with them, its role endpoints under `roles`. */
export function endpointSnapshot(endpoint: JudgeEndpoint, otherEndpoints: { role: string; endpoint: JudgeEndpoint }[]) {
  return {
    name: endpoint.name,
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    temperature: endpoint.temperature,
    imageDetail: endpoint.imageDetail,
    ...(otherEndpoints.length
      ? {
          roles: Object.fromEntries(
            otherEndpoints.map(({ role, endpoint: e }) => [
              role,
              {
                id: e.id,
                name: e.name,
                baseUrl: e.baseUrl,
                model: e.model,
                temperature: e.temperature,
                imageDetail: e.imageDetail,
              },
            ]),
          ),
        }
      : {}),
  };
}

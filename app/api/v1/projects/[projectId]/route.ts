import { parseJsonBody, parseOptionalJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteProject, deleteProjectSchema } from "@/lib/projects/delete-project";
import { getStorage } from "@/lib/storage/storage";
import { getProject, renameProject, setProjectArchived, setProjectGuidelines } from "@/lib/projects/projects";
import { projectIdSchema, updateProjectSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) => {
  const project = await getProject(prisma, actor, projectIdSchema.parse(params.projectId));
  return Response.json({
    id: project.id,
    name: project.name,
    role: project.role,
    archived: project.archivedAt !== null,
    guidelines: project.guidelines,
    createdAt: project.createdAt,
  });
});

export const PATCH = withActor<Params>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const body = await parseJsonBody(request, updateProjectSchema);
  if (body.name !== undefined) await renameProject(prisma, actor, { projectId, name: body.name });
  if (body.archived !== undefined) await setProjectArchived(prisma, actor, { projectId, archived: body.archived });
  if (body.guidelines !== undefined) await setProjectGuidelines(prisma, actor, { projectId, guidelines: body.guidelines });
  const project = await getProject(prisma, actor, projectId);
  return Response.json({ id: project.id, name: project.name, archived: project.archivedAt !== null, guidelines: project.guidelines });
});

/** Deletes the project with everything in it (owners): `{"dryRun": true}` counts it; else `{"confirmName": <its name>}`. */
export const DELETE = withActor<Params>(async (request, actor, params) =>
  Response.json(await deleteProject({ prisma, storage: getStorage() }, actor, projectIdSchema.parse(params.projectId), await parseOptionalJsonBody(request, deleteProjectSchema))),
);

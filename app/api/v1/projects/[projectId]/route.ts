import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getProject, renameProject, setProjectArchived } from "@/lib/projects/projects";
import { projectIdSchema, projectNameSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) => {
  const project = await getProject(prisma, actor, projectIdSchema.parse(params.projectId));
  return Response.json({
    id: project.id,
    name: project.name,
    role: project.role,
    archived: project.archivedAt !== null,
    createdAt: project.createdAt,
  });
});

const patchSchema = z.object({ name: projectNameSchema.optional(), archived: z.boolean().optional() }).strict();

export const PATCH = withActor<Params>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const body = await parseJsonBody(request, patchSchema);
  if (body.name !== undefined) await renameProject(prisma, actor, { projectId, name: body.name });
  if (body.archived !== undefined) await setProjectArchived(prisma, actor, { projectId, archived: body.archived });
  const project = await getProject(prisma, actor, projectId);
  return Response.json({ id: project.id, name: project.name, archived: project.archivedAt !== null });
});

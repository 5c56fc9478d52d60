import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createProject, listProjects } from "@/lib/projects/projects";
import { createProjectSchema } from "@/lib/projects/projects.validation";

export const GET = withActor(async (_request, actor) => Response.json({ projects: await listProjects(prisma, actor) }));

export const POST = withActor(async (request, actor) => {
  const project = await createProject(prisma, actor, await parseJsonBody(request, createProjectSchema));
  return Response.json({ id: project.id, name: project.name }, { status: 201 });
});

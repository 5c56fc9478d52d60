import { withActor } from "@/lib/api/handler";
import { createProject, listProjects } from "@/lib/projects/projects";
import { createProjectSchema } from "@/lib/projects/projects.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";
import { createdProjectResponseSchema } from "@/lib/api/openapi/responses";

export const GET = withActor(
  {
    summary: "The caller's projects",
    responses: [ok("`{projects: [...]}`.")],
  },
  async (_request, actor, _params, _input, prisma) => Response.json({ projects: await listProjects(prisma, actor) }),
);

export const POST = withActor(
  {
    summary: "Create a project",
    body: { kind: "json", schema: createProjectSchema },
    responses: [created("The project.", createdProjectResponseSchema)],
  },
  async (_request, actor, _params, { body }, prisma) => {
    const project = await createProject(prisma, actor, body);
    return Response.json({ id: project.id, name: project.name }, { status: 201 });
  },
);

import { withProject } from "@/lib/api/with-project";
import { addMember, listMembers } from "@/lib/projects/projects";
import { addMemberBodySchema } from "@/lib/projects/projects.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The project's members",
    responses: [ok("`{members: [...]}`.")],
  },
  async ({ prisma, actor, project }) => Response.json({ members: await listMembers(prisma, actor, project.id) }),
);

export const POST = withProject(
  "members.manage",
  {
    summary: "Add or change a member (owners)",
    description: "An unknown email is refused.",
    body: { kind: "json", schema: addMemberBodySchema },
    responses: [created("`{members: [...]}`, the members after the change.")],
  },
  async ({ prisma, actor, project, body: input }) => {
    const projectId = project.id;
    await addMember(prisma, actor, { ...input, projectId });
    return Response.json({ members: await listMembers(prisma, actor, projectId) }, { status: 201 });
  },
);

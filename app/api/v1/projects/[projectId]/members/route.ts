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
  async ({ prisma, access }) => Response.json({ members: await listMembers(prisma, access) }),
);

export const POST = withProject(
  "members.manage",
  {
    summary: "Add or change a member (owners)",
    description: "An unknown email is refused.",
    body: { kind: "json", schema: addMemberBodySchema },
    responses: [created("`{members: [...]}`, the members after the change.")],
  },
  async ({ prisma, access, body: input }) => {
    await addMember(prisma, access, { ...input, projectId: access.projectId });
    return Response.json({ members: await listMembers(prisma, access) }, { status: 201 });
  },
);

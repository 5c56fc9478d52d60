import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { addMember, listMembers } from "@/lib/projects/projects";
import { addMemberBodySchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ members: await listMembers(prisma, actor, project.id) }));

export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, addMemberBodySchema);
  const projectId = project.id;
  await addMember(prisma, actor, { ...input, projectId });
  return Response.json({ members: await listMembers(prisma, actor, projectId) }, { status: 201 });
});

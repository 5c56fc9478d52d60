import { withActor, parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { addMember, listMembers } from "@/lib/projects/projects";
import { addMemberBodySchema, projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) =>
  Response.json({ members: await listMembers(prisma, actor, projectIdSchema.parse(params.projectId)) }),
);

export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, addMemberBodySchema);
  const projectId = projectIdSchema.parse(params.projectId);
  await addMember(prisma, actor, { ...input, projectId });
  return Response.json({ members: await listMembers(prisma, actor, projectId) }, { status: 201 });
});

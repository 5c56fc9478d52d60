import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { copyEndpointFromProject, listReusableEndpoints } from "@/lib/judge/endpoint-reuse";
import { copyEndpointSchema } from "@/lib/judge/endpoint-input.validation";

type Params = { projectId: string };

/** Owners: the endpoints of their other projects where they manage endpoints too (name, base URL, model; never a key). */
export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ endpoints: await listReusableEndpoints(prisma, actor, project.id) }));

/** Owners copy one of those endpoints into this project, key included (re-encrypted on the server, never answered). */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const { fromEndpointId } = await parseJsonBody(request, copyEndpointSchema);
  const endpoint = await copyEndpointFromProject(prisma, actor, { fromEndpointId, toProjectId: project.id });
  return Response.json({ id: endpoint.id }, { status: 201 });
});

import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createEndpoint, listEndpoints } from "@/lib/judge/endpoints";
import { endpointInputSchema } from "@/lib/judge/endpoints.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

/** Lists a project's judge endpoints (`?archived=1`: archived ones too); API keys are never returned. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const includeArchived = new URL(request.url).searchParams.get("archived") === "1";
  return Response.json({ endpoints: await listEndpoints(prisma, actor, projectIdSchema.parse(params.projectId), { includeArchived }) });
});

/** Owners add an OpenAI-compatible endpoint; the key is encrypted with APP_SECRET. */
export const POST = withActor<Params>(async (request, actor, params) => {
  const endpoint = await createEndpoint(prisma, actor, projectIdSchema.parse(params.projectId), await parseJsonBody(request, endpointInputSchema));
  return Response.json({ id: endpoint.id }, { status: 201 });
});

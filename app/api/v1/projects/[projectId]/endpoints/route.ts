import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createEndpoint, listEndpoints } from "@/lib/judge/endpoints";
import { endpointInputSchema } from "@/lib/judge/endpoint-input.validation";

type Params = { projectId: string };

/** Lists a project's judge endpoints (`?archived=1`: archived ones too); API keys are never returned. */
export const GET = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const includeArchived = new URL(request.url).searchParams.get("archived") === "1";
  return Response.json({ endpoints: await listEndpoints(prisma, actor, project.id, { includeArchived }) });
});

/** Owners add an OpenAI-compatible endpoint; the key is encrypted with APP_SECRET. */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const endpoint = await createEndpoint(prisma, actor, project.id, await parseJsonBody(request, endpointInputSchema));
  return Response.json({ id: endpoint.id }, { status: 201 });
});

import { withProject } from "@/lib/api/with-project";
import { createEndpoint, listEndpoints } from "@/lib/judge/endpoints/endpoints";
import { endpointInputSchema } from "@/lib/judge/endpoints/endpoint-input.validation";
import { z } from "zod";
import { ok, created } from "@/lib/api/openapi/route-builders";
import { idResponseSchema } from "@/lib/api/openapi/responses";

/** Lists a project's judge endpoints (`?archived=1`: archived ones too); API keys are never returned. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's judge endpoints (never their keys)",
    // Read by the handler: `archived` is "1" or anything else, never refused.
    query: {
      readBy: "handler",
      schema: z.object({ archived: z.string().optional().describe('"1": archived ones too.') }),
    },
    responses: [ok("`{endpoints: [...]}`.")],
  },
  async ({ prisma, request, access }) => {
    const includeArchived = new URL(request.url).searchParams.get("archived") === "1";
    return Response.json({ endpoints: await listEndpoints(prisma, access, { includeArchived }) });
  },
);

/** Owners add an OpenAI-compatible endpoint; the key is encrypted with APP_SECRET. */
export const POST = withProject(
  "endpoints.manage",
  {
    summary: "Add an OpenAI-compatible judge endpoint (owners)",
    description:
      "The key is encrypted with APP_SECRET. A base URL the endpoint policy refuses → 400 endpoint_not_allowed.",
    body: { kind: "json", schema: endpointInputSchema },
    responses: [created("The endpoint's id.", idResponseSchema)],
  },
  async ({ prisma, access, body }) => {
    const endpoint = await createEndpoint(prisma, access, body);
    return Response.json({ id: endpoint.id }, { status: 201 });
  },
);

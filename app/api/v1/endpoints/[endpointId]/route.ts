import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteEndpoint, endpointIdSchema } from "@/lib/judge/endpoint-lifecycle";
import { updateEndpoint } from "@/lib/judge/endpoints";
import { endpointUpdateSchema } from "@/lib/judge/endpoints.validation";

/** Owners change an endpoint's fields (an omitted apiKey keeps the stored one), or archive / restore it. */
export const PATCH = withActor<{ endpointId: string }>(async (request, actor, params) =>
  Response.json(await updateEndpoint(prisma, actor, endpointIdSchema.parse(params.endpointId), await parseJsonBody(request, endpointUpdateSchema))),
);

/** Owners delete an endpoint no run uses; `409` when a run uses it (archive it instead). */
export const DELETE = withActor<{ endpointId: string }>(async (_request, actor, params) => {
  await deleteEndpoint(prisma, actor, endpointIdSchema.parse(params.endpointId));
  return new Response(null, { status: 204 });
});

import { parseJsonBody } from "@/lib/api/handler";
import { endpointScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteEndpoint } from "@/lib/judge/endpoint-lifecycle";
import { updateEndpoint } from "@/lib/judge/endpoints";
import { endpointUpdateSchema } from "@/lib/judge/endpoint-input.validation";

/** Owners change an endpoint's fields (an omitted apiKey keeps the stored one), or archive / restore it. */
export const PATCH = withProjectOf(endpointScope, "project.view", async ({ actor, record, request }) =>
  Response.json(await updateEndpoint(prisma, actor, record.id, await parseJsonBody(request, endpointUpdateSchema))),
);

/** Owners delete an endpoint no run uses; `409` when a run uses it (archive it instead). */
export const DELETE = withProjectOf(endpointScope, "project.view", async ({ actor, record }) => {
  await deleteEndpoint(prisma, actor, record.id);
  return new Response(null, { status: 204 });
});

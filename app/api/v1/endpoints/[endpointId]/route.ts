import { endpointLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { deleteEndpoint, endpointIdSchema } from "@/lib/judge/endpoints/endpoint-lifecycle";
import { updateEndpoint } from "@/lib/judge/endpoints/endpoints";
import { endpointUpdateSchema } from "@/lib/judge/endpoints/endpoint-input.validation";
import { ok, noContent } from "@/lib/api/openapi/route-builders";

/** Owners change an endpoint's fields (an omitted apiKey keeps the stored one while the origin stays), or archive / restore it. */
export const PATCH = withProjectOf(
  endpointLookup,
  "endpoints.manage",
  {
    summary: "Change, archive or restore an endpoint (owners)",
    description:
      'Only the fields sent change; an omitted `apiKey` keeps the stored one, "" removes it. A `baseUrl` on another origin (scheme, host or port) drops the stored key unless `apiKey` comes with it, so a key never follows a moved endpoint to another server; the answer\'s `apiKeyDropped` is then true. A new path, model or name keeps it.',
    params: { endpointId: endpointIdSchema },
    body: { kind: "json", schema: endpointUpdateSchema },
    responses: [ok("The endpoint (`hasApiKey`, never the key) with `apiKeyDropped`.")],
  },
  async ({ prisma, access, record, body }) => Response.json(await updateEndpoint(prisma, access, record.id, body)),
);

/** Owners delete an endpoint no run uses; `409` when a run uses it (archive it instead). */
export const DELETE = withProjectOf(
  endpointLookup,
  "endpoints.manage",
  {
    summary: "Delete an endpoint no run uses (owners)",
    params: { endpointId: endpointIdSchema },
    responses: [noContent("Deleted.")],
    errors: [409],
  },
  async ({ prisma, access, record }) => {
    await deleteEndpoint(prisma, access, record.id);
    return new Response(null, { status: 204 });
  },
);

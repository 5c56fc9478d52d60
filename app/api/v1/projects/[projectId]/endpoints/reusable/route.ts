import { endpointLookup } from "@/lib/api/project-lookups";
import { accessOfRecord } from "@/lib/api/record-access";
import { withProject } from "@/lib/api/with-project";
import {
  copyEndpointFromProject,
  listReusableEndpoints,
  REUSABLE_ENDPOINTS_LIMIT,
} from "@/lib/judge/endpoints/endpoint-reuse";
import { copyEndpointSchema } from "@/lib/judge/endpoints/endpoint-input.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";
import { idResponseSchema } from "@/lib/api/openapi/responses";

/** Owners: the endpoints of their other projects where they manage endpoints too (name, base URL, model; never a key). */
export const GET = withProject(
  "endpoints.manage",
  {
    summary: "The endpoints of the caller's other projects that can be copied here (owners; never their keys)",
    description: `Endpoints (not archived) of the projects where the caller may manage endpoints, the newest first, at most ${REUSABLE_ENDPOINTS_LIMIT}.`,
    responses: [ok("`{endpoints: [{id, name, baseUrl, model, hasApiKey, project: {id, name}, alreadyHere}]}`.")],
  },
  async ({ prisma, access }) => Response.json({ endpoints: await listReusableEndpoints(prisma, access) }),
);

/** Owners copy one of those endpoints into this project, key included (re-encrypted on the server, never answered). */
export const POST = withProject(
  "endpoints.manage",
  {
    summary: "Copy an endpoint of another of the caller's projects into this one, key included (owners of both)",
    description:
      "Every setting, the last probe's findings and the key (decrypted and encrypted again on the server, never answered) are copied in one transaction. The caller must manage endpoints in both projects: an endpoint of a project they are not a member of → 404, one where they may not manage endpoints → 403. A base URL the endpoint policy refuses → 400 endpoint_not_allowed; a key APP_SECRET can no longer decrypt → 409 key_undecryptable.",
    body: { kind: "json", schema: copyEndpointSchema },
    responses: [created("The new endpoint's id.", idResponseSchema)],
    errors: [409],
  },
  async ({ prisma, actor, access, body }) => {
    const { fromEndpointId } = body;
    // The endpoint's own project is the second one the caller must manage endpoints in.
    const from = await accessOfRecord(actor, endpointLookup, { endpointId: fromEndpointId }, "endpoints.manage");
    const endpoint = await copyEndpointFromProject(prisma, access, from.access, fromEndpointId);
    return Response.json({ id: endpoint.id }, { status: 201 });
  },
);

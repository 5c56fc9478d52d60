import { endpointLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { testEndpoint } from "@/lib/judge/endpoints/endpoint-test";
import { endpointIdSchema } from "@/lib/judge/endpoints/endpoint-lifecycle";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * Owners test an endpoint: one small image and a short question, then a probe of what it can do (stored on it); the
 * outcome, never the key. Leaving the page cancels the probe.
 */
export const POST = withProjectOf(
  endpointLookup,
  "endpoints.manage",
  {
    summary:
      "Test an endpoint with one small image, then probe it (owners); the probe's findings are stored on the endpoint",
    params: { endpointId: endpointIdSchema },
    responses: [
      ok(
        "`{answered, latencyMs, tookImage, colour, colourNamed, answer, error, status, capabilities, probedAt}` (`capabilities.topLogprobs`: whether logprobs come back).",
      ),
    ],
  },
  async ({ prisma, access, record, request }) =>
    Response.json(await testEndpoint(prisma, access, record.id, { signal: request.signal })),
);

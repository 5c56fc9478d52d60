import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { endpointIdSchema } from "@/lib/judge/endpoint-lifecycle";
import { testEndpoint } from "@/lib/judge/endpoint-test";

/** Owners test an endpoint: one small image and a short question, then a probe of what it can do (stored on it); the outcome, never the key. Leaving the page cancels the probe. */
export const POST = withActor<{ endpointId: string }>(async (request, actor, params) =>
  Response.json(await testEndpoint(prisma, actor, endpointIdSchema.parse(params.endpointId), { signal: request.signal })),
);
